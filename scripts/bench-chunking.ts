/**
 * Single-thread chunking throughput on a directory of sources.
 * Usage: npx tsx scripts/bench-chunking.ts <dir> [maxFiles]
 */
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { createChunker } from "../src/indexing/chunking/chunker.ts";
import { detectLanguage } from "../src/indexing/chunking/languages.ts";
import { writeResults } from "./results.ts";

const root = process.argv[2];
if (!root) {
  console.error("usage: bench-chunking <dir> [maxFiles]");
  process.exit(2);
}
const maxFiles = Number(process.argv[3] ?? Infinity);

const walk = async (dir: string, out: string[]): Promise<string[]> => {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const isLink = entry.isSymbolicLink();
    const info = isLink ? await stat(full) : entry;
    if (info.isDirectory()) {
      if (!isLink) await walk(full, out);
    } else if (info.isFile() && detectLanguage(full)) out.push(full);
  }
  return out;
};

const files = (await walk(root, [])).sort().slice(0, maxFiles);
const contents = await Promise.all(files.map(async (file) => ({ file, text: await readFile(file, "utf8") })));
const chunker = createChunker();
// Warm up: load grammars outside the measurement.
const seen = new Set<string>();
for (const { file, text } of contents) {
  const id = detectLanguage(file)!.id;
  if (!seen.has(id)) {
    seen.add(id);
    await chunker.chunkFile(file, text.slice(0, 200));
  }
}

let bytes = 0;
let chunks = 0;
let failures = 0;
let maxMs = 0;
let slowest = "";
const started = performance.now();
for (const { file, text } of contents) {
  const t0 = performance.now();
  const result = await chunker.chunkFile(file, text);
  const ms = performance.now() - t0;
  if (ms > maxMs) {
    maxMs = ms;
    slowest = file;
  }
  bytes += Buffer.byteLength(text);
  chunks += result.chunks.length;
  if (result.parseError) failures++;
}
const seconds = (performance.now() - started) / 1000;
const figures = {
      files: contents.length,
      megabytes: +(bytes / 1e6).toFixed(2),
      seconds: +seconds.toFixed(2),
      mbPerSecond: +(bytes / 1e6 / seconds).toFixed(2),
      chunks,
      chunksPerFile: +(chunks / contents.length).toFixed(1),
      lineFallbacks: failures,
      slowest: { file: slowest, ms: Math.round(maxMs) },
};
console.log(JSON.stringify(figures, null, 2));
console.log(`figures written to ${writeResults("bench-chunking", figures)}`);
