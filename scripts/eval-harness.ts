/**
 * In-process ranking harness (development aid; the reported figures come from scripts/eval.ts through
 * the HTTP API). Chunks each eval case's tree at base_commit with the parse pool, indexes it with the
 * embedded code index directly, and measures file-level Acc@k of src/retrieval/search.ts.
 *
 *   npx tsx scripts/eval-harness.ts [--dir /tmp/loupe-harness] [--only id] [--verbose]
 * LOUPE_HARNESS_INDEX=<module path> swaps the code index implementation (default: the real one).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { createParsePool } from "../src/indexing/chunking/pool.ts";
import { classifyFile } from "../src/indexing/file-filter.ts";
import type { ChunkDocument, CodeIndex } from "../src/codeindex/port.ts";
import { createSearcher } from "../src/retrieval/search.ts";
import { projectRoot } from "./results.ts";

const { values: args } = parseArgs({ options: { dir: { type: "string", default: "/tmp/loupe-harness" }, only: { type: "string" }, verbose: { type: "boolean", default: false }, genius: { type: "boolean", default: false } } });
type Case = { instance_id: string; repo: string; base_commit: string; problem_statement: string; gold_files: string[] };
let cases: Case[] = readFileSync(join(projectRoot, "../shared/eval/swe-lite-dev.jsonl"), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
if (args.only) cases = cases.filter((c) => c.instance_id.includes(args.only!));
const modPath = process.env.LOUPE_HARNESS_INDEX ? resolve(process.env.LOUPE_HARNESS_INDEX) : "../src/codeindex/embedded/code-index.ts";
const { createEmbeddedCodeIndex } = (await import(modPath)) as { createEmbeddedCodeIndex: (o: { dir: string }) => CodeIndex };
const index = createEmbeddedCodeIndex({ dir: args.dir! });
const ORG = "org";
const mirror = (repo: string) => join(projectRoot, "../.mirror", repo.replace("/", "+"), "repo");

async function ensureIndexed(c: Case) {
  const repoId = `${ORG}:github:${c.repo}`;
  const branch = c.base_commit.slice(0, 12);
  if ((await index.getBranchFiles(repoId, branch)).length > 0) return { repoId, branch };
  const dir = mirror(c.repo);
  const entries = execFileSync("git", ["ls-tree", "-r", "-l", "-z", c.base_commit], { cwd: dir, maxBuffer: 1 << 30 }).toString().split("\0").filter(Boolean).map((line) => {
    const [meta, path] = line.split("\t") as [string, string];
    const [mode, type, blob, size] = meta.split(/\s+/) as [string, string, string, string];
    return { mode, type, blob, size: Number(size), path };
  }).filter((e) => e.type === "blob" && e.mode !== "120000");
  const planned = entries.filter((e) => classifyFile({ path: e.path, size: e.size, head: new Uint8Array(0) }, { maxFileBytes: 1 << 20 }).index);
  const out = spawnSync("git", ["cat-file", "--batch"], { cwd: dir, input: planned.map((e) => e.blob).join("\n") + "\n", maxBuffer: 1 << 30 }).stdout;
  let at = 0;
  const sources: { path: string; content: string; blob: string }[] = [];
  for (const e of planned) {
    const nl = out.indexOf(10, at);
    const size = Number(out.subarray(at, nl).toString().split(" ")[2]);
    const buf = out.subarray(nl + 1, nl + 1 + size);
    at = nl + 1 + size + 1;
    if (classifyFile({ path: e.path, size: e.size, head: buf.subarray(0, 8192) }, { maxFileBytes: 1 << 20 }).index) sources.push({ path: e.path, content: buf.toString("utf8"), blob: e.blob });
  }
  const pool = createParsePool();
  const chunked = await pool.chunkFiles(sources.map((s) => ({ path: s.path, content: s.content })));
  await pool.destroy();
  const docs: ChunkDocument[] = [];
  sources.forEach((s, i) => chunked[i]!.chunks.forEach((ch, ordinal) => docs.push({ id: `${repoId}|${s.path}|${s.blob}|${ordinal}`, orgId: ORG, repoId, path: s.path, blobId: s.blob, ordinal, language: chunked[i]!.language, kind: ch.kind, symbol: ch.symbol, parent: ch.parent, signature: ch.signature, doc: ch.doc, startLine: ch.startLine, endLine: ch.endLine, text: ch.text, summary: ch.summary, fileSummary: chunked[i]!.summary })));
  for (let i = 0; i < docs.length; i += 2000) await index.upsertChunks(docs.slice(i, i + 2000));
  await index.setBranchFiles(repoId, branch, sources.map((s) => ({ path: s.path, blobId: s.blob })));
  return { repoId, branch };
}

const searcher = createSearcher({ codeIndex: index });
const ranks: (number | null)[] = [];
for (const c of cases) {
  const { repoId, branch } = await ensureIndexed(c);
  const t0 = performance.now();
  const { files } = await searcher.search({ orgId: ORG, targets: [{ repoId, branch, version: "x" }], query: c.problem_statement, genius: args.genius });
  const ms = performance.now() - t0;
  const i = files.findIndex((f) => c.gold_files.includes(f.path));
  ranks.push(i === -1 ? null : i + 1);
  console.log(`${c.instance_id.padEnd(36)} ${String(i === -1 ? "-" : i + 1).padStart(3)} ${ms.toFixed(0).padStart(5)}ms gold ${c.gold_files[0]}`);
  if (args.verbose) for (const f of files.slice(0, 5)) console.log(`     ${f.score.toFixed(2).padStart(6)} ${f.path}:${f.linestart}-${f.lineend} ${f.reasons.slice(0, 4).join("; ")}`);
}
const acc = (k: number) => Math.round((1000 * ranks.filter((r) => r !== null && r <= k).length) / ranks.length) / 10;
console.log(JSON.stringify({ n: ranks.length, acc1: acc(1), acc3: acc(3), acc5: acc(5), acc10: acc(10) }));
await index.close();
