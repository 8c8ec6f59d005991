/**
 * Benchmark of the embedded code index on ~1M lines of real code (Python standard libraries).
 *
 *   npx tsx scripts/bench-code-index.ts [--lines 1000000] [--dir /tmp/loupe-bench] [--keep] [--requests 400]
 *
 * Builds the index, closes it, then starts a fresh process (so its RSS is not inflated by the corpus held
 * by the builder) that opens the index and measures open time, RSS and search latency at 1, 8 and 32
 * concurrent callers. Latency includes queueing: each request is issued, waits for its turn on the event
 * loop, then runs, as requests to a single-threaded server would.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { writeResults } from "./results.ts";
import { createEmbeddedCodeIndex } from "../src/codeindex/embedded/code-index.ts";
import type { BranchFile, ChunkDocument, IndexFilter } from "../src/codeindex/port.ts";
import { BENCH_QUERIES, loadCorpus } from "./code-corpus.ts";

const { values: args } = parseArgs({
  options: {
    phase: { type: "string", default: "build" },
    lines: { type: "string", default: "1000000" },
    dir: { type: "string" },
    keep: { type: "boolean", default: false },
    requests: { type: "string", default: "400" },
    batch: { type: "string", default: "2000" },
    /** From the build phase to the query phase: its figures and its command line (internal). */
    built: { type: "string" },
  },
});

const ORG = "org-bench";
const REPO = "repo-bench";
const FILTER: IndexFilter = { orgId: ORG, targets: [{ repoId: REPO, branch: "main" }] };
const LIMIT = 100;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const ms = (x: number) => `${x.toFixed(1)} ms`;

function dirSize(dir: string): number {
  return readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function build(): Promise<void> {
  const dir = args.dir ?? mkdtempSync(join(tmpdir(), "loupe-bench-"));
  const t0 = performance.now();
  const corpus = loadCorpus({ targetLines: Number(args.lines), orgId: ORG, repoId: REPO });
  const loadMs = performance.now() - t0;
  console.log(
    `corpus: ${corpus.lines} lines, ${mb(corpus.bytes)}, ${corpus.files} files, ${corpus.docs.length} chunks ` +
      `(loaded and chunked in ${ms(loadMs)}) from ${corpus.roots.join(", ")}`,
  );

  const index = createEmbeddedCodeIndex({ dir });
  await index.truncate();
  const batchSize = Number(args.batch);
  const t1 = performance.now();
  let batch: ChunkDocument[] = [];
  for (const doc of corpus.docs) {
    batch.push(doc);
    if (batch.length >= batchSize) {
      await index.upsertChunks(batch);
      batch = [];
    }
  }
  if (batch.length) await index.upsertChunks(batch);
  const files = new Map<string, BranchFile>();
  for (const doc of corpus.docs) files.set(doc.path, { path: doc.path, blobId: doc.blobId });
  await index.setBranchFiles(REPO, "main", [...files.values()]);
  const buildMs = performance.now() - t1;

  // A second branch that differs in one file: only that file's chunks and one branch key change.
  const changed = corpus.docs.filter((d) => d.path === corpus.docs[0]!.path).map((d) => ({ ...d, blobId: "feature-blob", id: d.id.replace(d.blobId, "feature-blob") }));
  const t2 = performance.now();
  await index.upsertChunks(changed);
  await index.setBranchFiles(REPO, "feature", [...files.values()].map((f) => (f.path === changed[0]!.path ? { ...f, blobId: "feature-blob" } : f)));
  const branchMs = performance.now() - t2;
  await index.close();
  const buildRss = process.memoryUsage().rss;

  console.log(`build: ${ms(buildMs)} (${Math.round(corpus.docs.length / (buildMs / 1000))} chunks/s, batches of ${batchSize}), builder RSS ${mb(buildRss)}`);
  console.log(`second branch with one changed file (${changed.length} chunks + ${files.size}-file set): ${ms(branchMs)}`);
  console.log(`index size on disk: ${mb(dirSize(dir))} (${dir})`);

  // The query phase (a fresh process) adds its figures to these and writes the results file.
  const built = { argv: process.argv, corpus: { lines: corpus.lines, megabytes: Math.round(corpus.bytes / 1e5) / 10, files: corpus.files, chunks: corpus.docs.length }, buildMs: Math.round(buildMs), secondBranchMs: Math.round(branchMs), builderRssMb: Math.round(buildRss / 1e6), indexMb: Math.round(dirSize(dir) / 1e6) };
  const child = spawnSync(
    process.execPath,
    [...process.execArgv, fileURLToPath(import.meta.url), "--phase", "query", "--dir", dir, "--requests", args.requests!, "--built", JSON.stringify(built)],
    { stdio: "inherit" },
  );
  if (!args.keep && !args.dir) rmSync(dir, { recursive: true, force: true });
  process.exitCode = child.status ?? 1;
}

async function query(): Promise<void> {
  const dir = args.dir!;
  const rssBefore = process.memoryUsage().rss;
  const t0 = performance.now();
  const index = createEmbeddedCodeIndex({ dir });
  const openMs = performance.now() - t0;
  const t1 = performance.now();
  await index.searchLexical("run_until_complete", FILTER, LIMIT);
  const firstQueryMs = performance.now() - t1;
  const rssOpen = process.memoryUsage().rss;
  const { argv, ...builtFigures } = (args.built ? JSON.parse(args.built) : {}) as { argv?: string[] } & Record<string, unknown>;
  const figures: Record<string, unknown> = { ...builtFigures, openMs: Math.round(openMs), firstQueryMs: Math.round(firstQueryMs), rssAfterOpenMb: Math.round(rssOpen / 1e6), search: {} };
  console.log(
    `open: ${ms(openMs)}; first query (builds the branch filter) ${ms(firstQueryMs)}; ` +
      `RSS ${mb(rssBefore)} before open, ${mb(rssOpen)} after open + first query`,
  );

  console.log("top hits:");
  for (const q of BENCH_QUERIES) {
    const hits = await index.searchLexical(q.text, FILTER, LIMIT);
    const top = hits.slice(0, 3).map((h) => `${h.doc.path}:${h.doc.symbol ?? h.doc.startLine}`);
    console.log(`  [${q.label}] ${q.text.slice(0, 60).replace(/\n/g, " ")} -> ${top.join(" | ")}`);
  }

  const requests = Number(args.requests);
  for (const label of ["all", "identifier", "question", "bug-report"]) {
    const queries = BENCH_QUERIES.filter((q) => label === "all" || q.label === label);
    for (const concurrency of [1, 8, 32]) {
      const latencies: number[] = [];
      let next = 0;
      const started = performance.now();
      const client = async () => {
        while (next < requests) {
          const q = queries[next++ % queries.length]!;
          const sent = performance.now();
          await new Promise((resolve) => setImmediate(resolve)); // wait for the event loop, like a request would
          await index.searchLexical(q.text, FILTER, LIMIT);
          latencies.push(performance.now() - sent);
        }
      };
      await Promise.all(Array.from({ length: concurrency }, client));
      const elapsed = performance.now() - started;
      latencies.sort((a, b) => a - b);
      (figures.search as Record<string, unknown>)[`${label} c=${concurrency}`] = { p50Ms: +percentile(latencies, 50).toFixed(2), p99Ms: +percentile(latencies, 99).toFixed(2), perSecond: Math.round(latencies.length / (elapsed / 1000)) };
      console.log(
        `search ${label.padEnd(10)} c=${String(concurrency).padStart(2)}: p50 ${ms(percentile(latencies, 50))}, ` +
          `p99 ${ms(percentile(latencies, 99))}, ${Math.round(latencies.length / (elapsed / 1000))} req/s`,
      );
    }
  }
  const vector = Array.from({ length: 8 }, (_, i) => Math.sin(i));
  const tv = performance.now();
  await index.searchVector(vector, FILTER, LIMIT);
  console.log(`vector search (no vectors stored, scan of the filter): ${ms(performance.now() - tv)}`);
  console.log(`RSS after searches: ${mb(process.memoryUsage().rss)}`);
  figures.rssAfterSearchesMb = Math.round(process.memoryUsage().rss / 1e6);
  await index.close();
  console.log(`figures written to ${writeResults("bench-code-index", figures, argv ? { argv } : {})}`);
}

await (args.phase === "query" ? query() : build());
