import { createHash, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/**
 * The parse worker (worker.ts and the modules it imports) as one plain ES module, built with esbuild
 * when a pool starts on Node.
 *
 * Node 20 cannot import TypeScript, so a thread loading worker.ts must register tsx and have every
 * module transformed, and a thread of a process started under tsx also re-runs tsx's loader from the
 * inherited command line. Measured with 2 threads and one small task each: ~1.5 s of CPU (with V8's
 * background compilation) and ~0.8 s until the threads answer, against ~0.3 s and ~0.12 s for this
 * bundle loaded by threads started without the parent's command-line options.
 *
 * The bundle is built from the sources at every start (esbuild takes tens of milliseconds), so it can
 * never be older than the code the main thread runs. Packages stay outside it, imported by absolute
 * file URL, so the bundle file can live anywhere; `import.meta.url` inside it is this directory's
 * URL (it is only used to resolve packages, see languages.ts).
 */
export type WorkerBundle = { file: string; dispose(): void };

const ENTRY = fileURLToPath(new URL("./worker.ts", import.meta.url));
const SKIP = Symbol("resolving a package");

const build = async (): Promise<string> => {
  const esbuild = await import("esbuild");
  const result = await esbuild.build({
    entryPoints: [ENTRY],
    bundle: true,
    write: false,
    format: "esm",
    platform: "node",
    target: "node20",
    logLevel: "silent",
    define: { "import.meta.url": JSON.stringify(import.meta.url) },
    plugins: [
      {
        name: "packages-by-absolute-url",
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, async (args) => {
            if (args.pluginData === SKIP) return undefined;
            if (args.path.startsWith("node:")) return { path: args.path, external: true };
            const resolved = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: SKIP });
            if (resolved.errors.length > 0) return { errors: resolved.errors };
            if (resolved.external) return { path: args.path, external: true }; // a Node built-in
            return { path: pathToFileURL(resolved.path).href, external: true };
          });
        },
      },
    ],
  });
  const text = result.outputFiles?.[0]?.text;
  if (!text) throw new Error("esbuild produced no output for the parse worker");
  return text;
};

/**
 * Writes the bundle under `dir` (created when missing; the file name is the content's hash, so
 * processes sharing a directory share the file), or, with no directory, into a private temporary
 * directory removed by `dispose`.
 */
export const bundleParseWorker = async (dir?: string): Promise<WorkerBundle> => {
  const text = await build();
  const hash = createHash("sha256").update(text).digest("hex").slice(0, 16);
  const target = dir ?? mkdtempSync(path.join(tmpdir(), "loupe-parse-worker-"));
  mkdirSync(target, { recursive: true });
  const file = path.join(target, `parse-worker-${hash}.mjs`);
  if (!existsSync(file)) {
    const partial = `${file}.${randomUUID()}.tmp`; // pools starting at once each write their own, then rename
    writeFileSync(partial, text);
    renameSync(partial, file);
  }
  return { file, dispose: () => (dir ? undefined : rmSync(target, { recursive: true, force: true })) };
};
