import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { batchFiles, createParsePool } from "../../src/indexing/chunking/pool.ts";
import { fileTerms } from "../../src/indexing/documents.ts";

const pool = createParsePool({ threads: 2 });
afterAll(() => pool.destroy());

describe("parse pool (worker threads running worker.ts)", () => {
  it("chunks files in worker threads and keeps their order", async () => {
    const files = Array.from({ length: 30 }, (_, i) => ({
      path: i % 3 === 0 ? `src/mod${i}.py` : i % 3 === 1 ? `src/mod${i}.ts` : `docs/page${i}.md`,
      content:
        i % 3 === 0
          ? `def handler_${i}(event):\n    """Handles event ${i}."""\n    return event\n`
          : i % 3 === 1
            ? `/** Builds ${i}. */\nexport function build${i}(n: number): number {\n  return n * ${i};\n}\n`
            : `# Page ${i}\n\nText ${i}.\n`,
    }));
    const results = await pool.chunkFiles(files);
    expect(results.map((r) => r.path)).toEqual(files.map((f) => f.path));
    expect(results[0]!.chunks[0]).toMatchObject({ kind: "function", symbol: "handler_0", doc: "Handles event 0." });
    expect(results[1]!.chunks[0]).toMatchObject({ kind: "function", symbol: "build1", signature: "export function build1(n: number): number" });
    expect(results[2]!.chunks[0]).toMatchObject({ kind: "section", symbol: "Page 2" });
    expect(pool.queueSize()).toBe(0);
    expect(pool.utilization()).toBeGreaterThanOrEqual(0);
  });

  it("computes index terms in the workers equal to those made on this thread", async () => {
    const files = [
      { path: "pkg/http_client.py", content: `"""HTTP client."""\n\nimport socket\n\n\nclass HTTPClient:\n    """Talks HTTP."""\n\n    def get_response(self, url):\n        """Fetches url."""\n        return socket.create_connection(url)\n` },
      { path: "src/parseConfig.ts", content: `/** Config. */\nexport function parseConfig(text: string): Record<string, string> {\n  return Object.fromEntries(text.split("\\n").map((l) => l.split("=")));\n}\n` },
      { path: "README.md", content: "# Title\n\nSome words about parsing.\n" },
      { path: "empty.py", content: "" },
    ];
    const withTerms = await pool.chunkFiles(files, { terms: true });
    const plain = await pool.chunkFiles(files);
    // Sources may travel as UTF-8 bytes (decoded in the worker).
    expect(await pool.chunkFiles(files.map((f) => ({ path: f.path, content: Buffer.from(`${f.content}// é ✓\n`) })))).toEqual(
      await pool.chunkFiles(files.map((f) => ({ path: f.path, content: `${f.content}// é ✓\n` }))),
    );
    for (let i = 0; i < files.length; i++) {
      const { terms, ...chunked } = withTerms[i]!;
      expect(chunked).toEqual(plain[i]);
      expect(plain[i]!.terms).toBeUndefined();
      expect(terms).toEqual(fileTerms(plain[i]!));
      expect(terms!.docCount).toBe(plain[i]!.chunks.length);
    }
  });

  it("runs the worker built into one module on Node, and the TypeScript source gives the same chunks", async () => {
    const files = [
      { path: "pkg/http_client.py", content: `class HTTPClient:\n    """Talks HTTP."""\n\n    def get_response(self, url):\n        return url\n` },
      { path: "src/parseConfig.ts", content: `/** Config. */\nexport function parseConfig(text: string): string[] {\n  return text.split("\\n");\n}\n` },
      { path: "lib/util.c", content: `/* Adds. */\nint add(int a, int b) {\n  return a + b;\n}\n` },
    ];
    const bundled = await pool.chunkFiles(files, { terms: true });
    expect(pool.entry()).toEqual({ kind: "bundle" });
    const sourcePool = createParsePool({ threads: 1, entry: "source" });
    try {
      expect(await sourcePool.chunkFiles(files, { terms: true })).toEqual(bundled);
      expect(sourcePool.entry()).toEqual({ kind: "source" });
    } finally {
      await sourcePool.destroy();
    }
    expect(bundled.map((f) => f.chunks[0]?.symbol)).toEqual(["HTTPClient", "parseConfig", "add"]);
  });

  it("keeps the bundle in the given directory, or in a temporary one removed with the pool", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "loupe-bundle-dir-"));
    try {
      const kept = createParsePool({ threads: 1, bundleDir: path.join(dir, "cache") });
      await kept.chunkFiles([{ path: "a.py", content: "def a():\n    pass\n" }]);
      await kept.destroy();
      expect(readdirSync(path.join(dir, "cache")).filter((f) => /^parse-worker-[0-9a-f]{16}\.mjs$/.test(f))).toHaveLength(1);
      const before = new Set(readdirSync(tmpdir()).filter((f) => f.startsWith("loupe-parse-worker-")));
      const temporary = createParsePool({ threads: 1 });
      await temporary.chunkFiles([{ path: "a.py", content: "def a():\n    pass\n" }]);
      const created = readdirSync(tmpdir()).filter((f) => f.startsWith("loupe-parse-worker-") && !before.has(f));
      expect(created).toHaveLength(1);
      await temporary.destroy();
      expect(existsSync(path.join(tmpdir(), created[0]!))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("returns an empty list for no files", async () => {
    expect(await pool.chunkFiles([])).toEqual([]);
  });

  it("batches by size and count", () => {
    const file = (n: number) => ({ path: `f${n}.ts`, content: "x".repeat(100) });
    const batches = batchFiles(Array.from({ length: 10 }, (_, i) => file(i)), 250, 64);
    expect(batches.map((b) => b.length)).toEqual([2, 2, 2, 2, 2]);
    expect(batchFiles(Array.from({ length: 5 }, (_, i) => file(i)), 1e9, 2).map((b) => b.length)).toEqual([2, 2, 1]);
  });
});
