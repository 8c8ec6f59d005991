/**
 * Search speed through the public HTTP API over a ~1M-line repository, beside ripgrep on the same checkout.
 *
 *   npm run bench -- [--lines 1000000] [--requests 300] [--data-dir /tmp/loupe-bench] [--keep]
 *
 * 1. Copies Python standard-library sources found on the machine (scripts/code-corpus.ts) into a git
 *    repository of about --lines lines, published as a bare repo under a file:// host base.
 * 2. Starts the real service in-process, indexes it with POST /v2/repositories, polls to completed.
 * 3. POST /v2/search with the benchmark queries at 1, 8 and 32 concurrent clients: p50, p99, requests/s.
 * 4. ripgrep (`rg -i -l` with the query's identifiers/words as patterns) over the same checkout, for the
 *    same queries, sequentially and at 8 concurrent processes, in the same run.
 */
import { execFileSync, spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir, cpus } from "node:os";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { Writable } from "node:stream";
import { loadConfig } from "../src/config.ts";
import { createLogger } from "../src/logging.ts";
import { createLoupe } from "../src/loupe.ts";
import { serve } from "../src/serve.ts";
import { BENCH_QUERIES, loadCorpus } from "./code-corpus.ts";
import { analyzeQuery } from "../src/retrieval/query-analysis.ts";

const { values: args } = parseArgs({
  options: {
    lines: { type: "string", default: "1000000" },
    requests: { type: "string", default: "300" },
    "data-dir": { type: "string" },
    keep: { type: "boolean", default: false },
  },
});
const API_KEY = "lp_bench_admin_key_0123456789abcdef";
const root = resolve(args["data-dir"] ?? mkdtempSync(join(tmpdir(), "loupe-bench-")));
const dataDir = join(root, "data");
const hostDir = join(root, "githost");
const work = join(root, "checkout");

function git(cwd: string, ...a: string[]) {
  return execFileSync("git", a, { cwd, maxBuffer: 1 << 30, env: { ...process.env, GIT_AUTHOR_NAME: "bench", GIT_AUTHOR_EMAIL: "b@x", GIT_COMMITTER_NAME: "bench", GIT_COMMITTER_EMAIL: "b@x" } }).toString();
}

function buildRepository(): { lines: number; files: number; bytes: number } {
  const corpus = loadCorpus({ targetLines: Number(args.lines) });
  const bare = join(hostDir, "bench", "pylib.git");
  if (existsSync(join(bare, "HEAD"))) return { lines: corpus.lines, files: corpus.files, bytes: corpus.bytes };
  const paths = [...new Set(corpus.docs.map((d) => d.path))];
  mkdirSync(work, { recursive: true });
  for (const rel of paths) {
    // Corpus paths are `<root basename>[-r<round>]/<path in root>`.
    const [first, ...rest] = rel.split("/");
    const rootDir = corpus.roots.find((r) => r.endsWith("/" + first!.replace(/-r\d+$/, "")));
    const from = rootDir ? join(rootDir, ...rest) : undefined;
    if (!from) continue;
    const to = join(work, rel);
    mkdirSync(dirname(to), { recursive: true });
    copyFileSync(from, to);
  }
  git(work, "init", "--quiet", "--initial-branch=main");
  git(work, "add", "-A");
  git(work, "commit", "--quiet", "-m", "bench corpus");
  mkdirSync(bare, { recursive: true });
  git(bare, "init", "--bare", "--quiet", "--initial-branch=main");
  git(work, "push", "--quiet", bare, "main");
  return { lines: corpus.lines, files: corpus.files, bytes: corpus.bytes };
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const round = (x: number) => Math.round(x * 10) / 10;

async function load(concurrency: number, total: number, one: (i: number) => Promise<void>) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (;;) {
        const i = next++;
        if (i >= total) return;
        const t0 = performance.now();
        await one(i);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { clients: concurrency, requests: total, p50: round(pct(latencies, 50)), p99: round(pct(latencies, 99)), rps: round(total / seconds) };
}

/** The patterns ripgrep gets for a query: its identifiers, else its longest words (at most 6). */
function rgPatterns(text: string): string[] {
  const a = analyzeQuery(text);
  const names = a.terms.filter((t) => t.kind === "identifier" || t.kind === "dotted").map((t) => t.text.split(".").pop()!);
  const words = a.terms.filter((t) => t.kind === "word").map((t) => t.text);
  const picked = (names.length ? names : words).filter((w) => /^[\w]+$/.test(w)).slice(0, 6);
  return picked.length ? picked : [text.split(/\s+/)[0]!];
}

function runRg(patterns: string[]): Promise<void> {
  return new Promise((resolveDone, reject) => {
    const child = spawn("rg", ["-i", "-l", "--no-messages", ...patterns.flatMap((p) => ["-e", p]), "."], { cwd: work, stdio: ["ignore", "ignore", "ignore"] });
    child.on("error", reject);
    child.on("close", () => resolveDone());
  });
}

async function main() {
  const corpus = buildRepository();
  const config = loadConfig({ LOUPE_DATA_DIR: dataDir, LOUPE_API_KEY: API_KEY, LOUPE_LOG_LEVEL: "warn", LOUPE_GITHUB_URL: `file://${hostDir}`, PORT: "0" });
  const sink = new Writable({ write: (_c, _e, done) => done() });
  const loupe = await createLoupe(config, { logger: createLogger("warn", sink), announce: () => {} });
  const served = await serve(loupe.fetch, { port: 0, hostname: "127.0.0.1" });
  const base = `http://127.0.0.1:${served.port}`;
  const headers = { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" };
  try {
    const t0 = performance.now();
    const submitted = (await (await fetch(`${base}/v2/repositories`, { method: "POST", headers, body: JSON.stringify({ remote: "github", repository: "bench/pylib", branch: "main" }) })).json()) as { statusEndpoint: string };
    for (;;) {
      const s = (await (await fetch(base + new URL(submitted.statusEndpoint).pathname, { headers })).json()) as { status: string; failureReason?: string };
      if (s.status === "completed") break;
      if (s.status === "failed") throw new Error(`indexing failed: ${s.failureReason}`);
      await new Promise((r) => setTimeout(r, 500));
    }
    const indexSeconds = round((performance.now() - t0) / 1000);
    const repositories = [{ remote: "github", repository: "bench/pylib", branch: "main" }];
    const search = async (i: number) => {
      const q = BENCH_QUERIES[i % BENCH_QUERIES.length]!;
      const res = await fetch(`${base}/v2/search`, { method: "POST", headers, body: JSON.stringify({ query: q.text, repositories, sessionId: "bench" }) });
      if (res.status !== 200) throw new Error(`search: HTTP ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    };
    await load(4, BENCH_QUERIES.length * 2, search); // warm-up: page cache, file lists
    const total = Number(args.requests);
    const loupeRows = [];
    for (const c of [1, 8, 32]) loupeRows.push(await load(c, total, search));

    let rg: unknown = "ripgrep (rg) not installed";
    try {
      execFileSync("rg", ["--version"]);
      const patterns = BENCH_QUERIES.map((q) => rgPatterns(q.text));
      const rgRun = (i: number) => runRg(patterns[i % patterns.length]!);
      await load(1, patterns.length, rgRun); // warm the page cache
      rg = [await load(1, Math.min(total, 60), rgRun), await load(8, Math.min(total, 120), rgRun)];
    } catch (error) {
      if (!(error as Error).message.includes("ENOENT")) throw error;
    }
    const result = {
      corpus: { ...corpus, indexSeconds, cpus: cpus().length },
      loupeSearchHttp: loupeRows,
      ripgrep: rg,
      note: "latencies in ms, end to end over HTTP on 127.0.0.1 (loupe) / process spawn to exit (rg -i -l)",
    };
    process.stdout.write(JSON.stringify(result, null, 2) + "\n");
  } finally {
    await served.close();
    await loupe.close();
    if (!args.keep && !args["data-dir"]) rmSync(root, { recursive: true, force: true });
  }
}

await main();
