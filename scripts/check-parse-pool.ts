/**
 * Smoke test of the parse pool on the current runtime:
 *   npx tsx scripts/check-parse-pool.ts
 *   node_modules/.bin/deno run -A scripts/check-parse-pool.ts
 */
import { createParsePool } from "../src/indexing/chunking/pool.ts";

const runtime = "Deno" in globalThis ? "deno" : `node ${process.version}`;
const files = [
  { path: "src/greet.ts", content: `/** Says hello. */\nexport function greet(name: string): string {\n  return "hi " + name;\n}\n` },
  { path: "lib/parser.py", content: `class Parser:\n    """Parses things."""\n\n    def parse(self, text: str) -> list:\n        return text.split()\n` },
  { path: "main.go", content: `package main\n\n// Add adds.\nfunc Add(a, b int) int {\n\treturn a + b\n}\n` },
  { path: "README.md", content: `# Title\n\nIntro.\n\n## Usage\n\nRun it.\n` },
];
const pool = createParsePool({ threads: 2 });
try {
  const started = performance.now();
  const results = await pool.chunkFiles(files);
  for (const file of results) {
    console.log(`${file.path} [${file.language}] ${file.summary}`);
    for (const chunk of file.chunks) console.log(`  ${chunk.startLine}-${chunk.endLine} ${chunk.kind} ${chunk.symbol ?? ""} :: ${chunk.summary}`);
  }
  const ok = results.length === files.length && results.every((r, i) => r.path === files[i]!.path && r.chunks.length > 0);
  console.log(`${runtime}: ${ok ? "OK" : "FAILED"} (${results.length} files in ${Math.round(performance.now() - started)} ms)`);
  if (!ok) process.exitCode = 1;
} finally {
  await pool.destroy();
}
