/**
 * Checks the shape of the code: the import graph of `src/`, `projections/` and `schema/` has no circle
 * (between files, or between folders), no import runs from a lower layer to a higher one, and no source
 * file is longer than the limit.
 *
 *   npx tsx scripts/check-imports.ts [--root <dir>] [--max-lines 450] [--json]
 *
 * Exit 0 when the shape holds, 1 with one line per problem otherwise. The layers are the table below:
 * a file may import files of its own layer or of a lower one; faces sit on features, features on the
 * pipelines and mechanisms, and nothing imports the composition root.
 */
import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { findCircles, type Graph } from "./check-imports/graph.ts";

/** Highest first. A path belongs to the first layer with a matching prefix. */
export const LAYERS: readonly { name: string; prefixes: readonly string[] }[] = [
  { name: "entry", prefixes: ["src/main.ts", "src/cli/"] },
  { name: "composition root", prefixes: ["src/loupe.ts", "src/features/catalogue.ts", "src/features/read-models.ts"] },
  { name: "faces", prefixes: ["src/faces/"] },
  { name: "features", prefixes: ["src/features/", "src/services.ts"] },
  { name: "pipelines", prefixes: ["src/indexing/", "src/retrieval/", "src/review/", "src/audit/"] },
  {
    name: "mechanisms",
    prefixes: ["src/eventstore/", "src/readstore/", "projections/", "src/codeindex/", "src/git/", "src/hosts/", "src/models/", "src/metrics.ts"],
  },
  { name: "base", prefixes: ["src/config.ts", "src/logging.ts", "src/ids.ts", "src/serve.ts", "src/data-dir-lock.ts", "src/data-dir-reserve.ts", "src/storage-errors.ts", "src/json-bounds.ts", "src/lmdb-map.ts", "src/workers/", "schema/", "package.json"] },
];

const SOURCE = /\.(ts|tsx|mts|mjs|js)$/;
const IMPORT = /(?:^|[\s;}])(?:import|export)\s[^;]*?\sfrom\s*["'](\.{1,2}\/[^"']+)["']|(?:^|[\s;(=])import\s*\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)|^\s*import\s*["'](\.{1,2}\/[^"']+)["']|new URL\(\s*["'](\.{1,2}\/[^"']+\.(?:ts|mjs))["']\s*,\s*import\.meta\.url/gm;

export type Problem = { kind: "circle" | "folder-circle" | "upward" | "size" | "unlayered"; message: string };

export function layerOf(path: string): number {
  const i = LAYERS.findIndex((l) => l.prefixes.some((p) => (p.endsWith("/") ? path.startsWith(p) : path === p)));
  return i === -1 ? -1 : LAYERS.length - 1 - i; // higher number = higher layer
}

/** The folder a file counts in for folder circles: a feature, a face, or a top folder of src/. */
export function folderOf(path: string): string {
  const parts = path.split("/");
  if (parts[0] !== "src") return parts[0]!;
  if ((parts[1] === "features" || parts[1] === "faces") && parts.length > 3) return parts.slice(0, 3).join("/");
  return parts.length > 2 ? parts.slice(0, 2).join("/") : path;
}

function listSources(root: string, dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(join(root, dir))) {
    const path = dir ? `${dir}/${name}` : name;
    if (name === "node_modules" || name.startsWith(".")) continue;
    if (statSync(join(root, path)).isDirectory()) listSources(root, path, out);
    else if (SOURCE.test(name) && !name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

/** Relative imports of one file, as paths from the root (type-only imports count: they tie the code too). */
export function importsOf(root: string, file: string, text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2] ?? m[3] ?? m[4];
    if (!spec) continue;
    out.push(relative(root, resolve(root, dirname(file), spec)).split(sep).join("/"));
  }
  return out;
}

export function checkTree(root: string, options: { maxLines?: number } = {}): { problems: Problem[]; files: number; edges: number } {
  const maxLines = options.maxLines ?? 450;
  const files = ["src", "projections", "schema"].flatMap((d) => {
    try {
      return listSources(root, d);
    } catch {
      return [];
    }
  });
  const graph: Graph = new Map();
  const problems: Problem[] = [];
  let edges = 0;
  for (const file of files) {
    const text = readFileSync(join(root, file), "utf8");
    const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
    if (lines > maxLines) problems.push({ kind: "size", message: `${file}: ${lines} lines (limit ${maxLines})` });
    const from = layerOf(file);
    if (from === -1) problems.push({ kind: "unlayered", message: `${file}: in no layer (add its folder to LAYERS in scripts/check-imports.ts)` });
    const targets = importsOf(root, file, text).filter((t) => t.startsWith("src/") || t.startsWith("projections/") || t.startsWith("schema/") || t === "package.json");
    graph.set(file, new Set(targets.filter((t) => SOURCE.test(t))));
    for (const target of targets) {
      edges++;
      const to = layerOf(target);
      if (from !== -1 && to > from) {
        problems.push({ kind: "upward", message: `${file} (${LAYERS[LAYERS.length - 1 - from]!.name}) imports ${target} (${LAYERS[LAYERS.length - 1 - to]!.name})` });
      }
    }
  }
  for (const circle of findCircles(graph)) problems.push({ kind: "circle", message: `import circle: ${circle.join(" -> ")} -> ${circle[0]}` });
  const folders: Graph = new Map();
  for (const [file, targets] of graph) {
    const set = folders.get(folderOf(file)) ?? new Set<string>();
    for (const t of targets) if (folderOf(t) !== folderOf(file)) set.add(folderOf(t));
    folders.set(folderOf(file), set);
  }
  for (const circle of findCircles(folders)) problems.push({ kind: "folder-circle", message: `folder circle: ${circle.join(" -> ")} -> ${circle[0]}` });
  return { problems, files: files.length, edges };
}

const isMain = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const { values } = parseArgs({ options: { root: { type: "string" }, "max-lines": { type: "string", default: "450" }, json: { type: "boolean", default: false } } });
  const root = resolve(values.root ?? join(dirname(fileURLToPath(import.meta.url)), ".."));
  const maxLines = Number(values["max-lines"]);
  if (!Number.isInteger(maxLines) || maxLines < 1) {
    process.stderr.write("--max-lines takes a whole number above 0\n");
    process.exit(2);
  }
  const result = checkTree(root, { maxLines });
  if (values.json) process.stdout.write(JSON.stringify(result, null, 2) + "\n");
  else {
    for (const p of result.problems) process.stdout.write(`${p.kind}: ${p.message}\n`);
    process.stdout.write(`${result.files} files, ${result.edges} imports: ${result.problems.length === 0 ? "no circle, no upward import, no file over " + maxLines + " lines" : result.problems.length + " problem(s)"}\n`);
  }
  process.exit(result.problems.length === 0 ? 0 : 1);
}
