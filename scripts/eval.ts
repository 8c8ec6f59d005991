/**
 * Retrieval quality on /work/shared/eval/swe-lite-dev.jsonl, measured THROUGH THE PUBLIC HTTP API.
 *
 *   npm run eval -- [--data-dir /tmp/loupe-eval] [--cases N] [--only <instance-substring>] [--verbose]
 *
 * 1. Builds a file:// git host tree `<host>/<owner>/<name>.git`: for each repository a new bare repo
 *    whose objects come from the already fetched mirror at /work/.mirror/<owner>+<name>/repo through
 *    `objects/info/alternates` (read-only use: /work/.mirror is never written), with one branch
 *    `eval-<instance>` per case: a parentless commit (written in the host repo) holding base_commit's
 *    tree, because the fetched mirrors lack some objects of older history.
 * 2. Starts the real service in-process (createLoupe + serve on a free port) with
 *    LOUPE_GITHUB_URL=file://<host>, POSTs /v2/repositories for each branch, polls to `completed`.
 *    With --data-dir the index is kept and reused by the next run ("Repository is up to date").
 * 3. POSTs /v2/search with the problem statement as the query, and reports file-level Acc@1/3/5/10
 *    (rank of the first gold file among the distinct files returned), beside a plain whole-file BM25
 *    baseline over non-test .py files computed here (identifier-splitting tokenizer, k1 1.2, b 0.75).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { Writable } from "node:stream";
import { loadConfig } from "../src/config.ts";
import { createLogger } from "../src/logging.ts";
import { createLoupe } from "../src/loupe.ts";
import { serve } from "../src/serve.ts";

const { values: args } = parseArgs({
  options: {
    "data-dir": { type: "string" },
    cases: { type: "string" },
    only: { type: "string" },
    verbose: { type: "boolean", default: false },
    dataset: { type: "string", default: "/work/shared/eval/swe-lite-dev.jsonl" },
    mirrors: { type: "string", default: "/work/.mirror" },
  },
});

type Case = { instance_id: string; repo: string; base_commit: string; problem_statement: string; gold_files: string[] };
const KS = [1, 3, 5, 10] as const;
const API_KEY = "lp_eval_admin_key_0123456789abcdef";

let cases: Case[] = readFileSync(args.dataset!, "utf8")
  .split("\n")
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as Case);
if (args.only) cases = cases.filter((c) => c.instance_id.includes(args.only!));
if (args.cases) cases = cases.slice(0, Number(args.cases));

const keepData = Boolean(args["data-dir"]);
const dataDir = resolve(args["data-dir"] ?? mkdtempSync(join(tmpdir(), "loupe-eval-")));
const hostDir = `${dataDir}-githost`;
const branchOf = (c: Case) => `eval-${c.instance_id.replace(/[^A-Za-z0-9_.-]/g, "-")}`;
const mirrorOf = (repo: string) => join(args.mirrors!, repo.replace("/", "+"), "repo");

function git(dir: string, ...a: string[]): string {
  return execFileSync("git", a, { cwd: dir, maxBuffer: 1 << 30 }).toString("utf8");
}

// ---------------------------------------------------------------------------------------------
// 1. The git host tree (alternates onto the read-only mirrors)

function buildHostTree(): void {
  for (const repo of new Set(cases.map((c) => c.repo))) {
    const source = mirrorOf(repo);
    if (!existsSync(source)) throw new Error(`missing mirror ${source} (fetch github:${repo} first)`);
    const bare = join(hostDir, `${repo}.git`);
    if (!existsSync(join(bare, "HEAD"))) {
      mkdirSync(bare, { recursive: true });
      git(bare, "init", "--bare", "--quiet");
      writeFileSync(join(bare, "objects", "info", "alternates"), `${join(source, "objects")}\n`);
    }
    // One parentless commit per case with base_commit's tree: the fetched mirrors lack some objects of
    // older history, so a branch AT base_commit could not be cloned whole; the indexed content is identical.
    for (const c of cases.filter((x) => x.repo === repo)) {
      const commit = execFileSync("git", ["commit-tree", treeWithoutMissingBlobs(bare, c.base_commit), "-m", `eval ${c.instance_id} (tree of ${c.base_commit})`], {
        cwd: bare,
        env: { ...process.env, GIT_AUTHOR_NAME: "eval", GIT_AUTHOR_EMAIL: "eval@localhost", GIT_COMMITTER_NAME: "eval", GIT_COMMITTER_EMAIL: "eval@localhost", GIT_AUTHOR_DATE: "2000-01-01T00:00:00Z", GIT_COMMITTER_DATE: "2000-01-01T00:00:00Z" },
      }).toString().trim();
      git(bare, "update-ref", `refs/heads/${branchOf(c)}`, commit);
    }
    git(bare, "symbolic-ref", "HEAD", `refs/heads/${branchOf(cases.find((x) => x.repo === repo)!)}`);
  }
}

/** base_commit's tree less the blobs the fetched mirror lacks (large data files it was fetched without). */
function treeWithoutMissingBlobs(bare: string, commit: string): string {
  const entries = git(bare, "ls-tree", "-r", "-z", commit).split("\0").filter(Boolean);
  const check = spawnSync("git", ["cat-file", "--batch-check"], { cwd: bare, input: entries.map((e) => e.split("\t")[0]!.split(" ")[2]).join("\n") + "\n", maxBuffer: 1 << 30 });
  const missing = check.stdout.toString().split("\n").filter((l) => l.endsWith(" missing")).map((l) => l.split(" ")[0]!);
  if (missing.length === 0) return git(bare, "rev-parse", `${commit}^{tree}`).trim();
  const gone = new Set(missing);
  const indexFile = join(bare, `eval-index-${process.pid}`);
  const env = { ...process.env, GIT_INDEX_FILE: indexFile, GIT_DIR: bare, GIT_WORK_TREE: mkdtempSync(join(tmpdir(), "eval-wt-")) };
  execFileSync("git", ["read-tree", commit], { cwd: bare, env });
  const paths = entries.filter((e) => gone.has(e.split("\t")[0]!.split(" ")[2]!)).map((e) => e.split("\t")[1]!);
  execFileSync("git", ["update-index", "--force-remove", "-z", "--stdin"], { cwd: bare, env, input: paths.join("\0") + "\0" });
  const tree = execFileSync("git", ["write-tree"], { cwd: bare, env }).toString().trim();
  rmSync(indexFile, { force: true });
  return tree;
}

// ---------------------------------------------------------------------------------------------
// BM25 baseline: whole files, non-test .py, identifier-splitting tokenizer, k1 1.2, b 0.75.

const TEST_FILE = /(^|\/)(tests?|testing)\/|(^|\/)test_[^/]*\.py$|_test\.py$|(^|\/)conftest\.py$/;

function bm25Tokens(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/[A-Za-z_][A-Za-z0-9_]*|[0-9]+/g)) {
    const word = m[0];
    const lower = word.toLowerCase();
    out.push(lower);
    const parts = word
      .split("_")
      .flatMap((p) => p.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g) ?? [])
      .map((p) => p.toLowerCase());
    if (parts.length > 1) for (const p of parts) out.push(p);
  }
  return out;
}

type Bm25Corpus = { paths: string[]; tfs: Map<string, number>[]; lengths: number[]; df: Map<string, number>; avg: number };
const corpusCache = new Map<string, Bm25Corpus>();

function bm25Corpus(c: Case): Bm25Corpus {
  const key = `${c.repo}@${c.base_commit}`;
  const cached = corpusCache.get(key);
  if (cached) return cached;
  const dir = mirrorOf(c.repo);
  const entries = git(dir, "ls-tree", "-r", "-z", c.base_commit)
    .split("\0")
    .filter(Boolean)
    .map((line) => {
      const [meta, path] = line.split("\t") as [string, string];
      return { path, blob: meta.split(" ")[2]! };
    })
    .filter((e) => e.path.endsWith(".py") && !TEST_FILE.test(e.path));
  const batch = spawnSync("git", ["cat-file", "--batch"], { cwd: dir, input: entries.map((e) => e.blob).join("\n") + "\n", maxBuffer: 1 << 30 });
  const buf = batch.stdout;
  const contents: string[] = [];
  let at = 0;
  for (let i = 0; i < entries.length; i++) {
    const nl = buf.indexOf(10, at);
    const size = Number(buf.subarray(at, nl).toString("utf8").split(" ")[2]);
    contents.push(buf.subarray(nl + 1, nl + 1 + size).toString("utf8"));
    at = nl + 1 + size + 1;
  }
  const tfs: Map<string, number>[] = [];
  const lengths: number[] = [];
  const df = new Map<string, number>();
  for (const text of contents) {
    const tf = new Map<string, number>();
    const tokens = bm25Tokens(text);
    for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const t of tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
    tfs.push(tf);
    lengths.push(tokens.length);
  }
  const corpus = { paths: entries.map((e) => e.path), tfs, lengths, df, avg: lengths.reduce((a, b) => a + b, 0) / Math.max(1, lengths.length) };
  corpusCache.set(key, corpus);
  return corpus;
}

function bm25Rank(c: Case): string[] {
  const corpus = bm25Corpus(c);
  const n = corpus.paths.length;
  const q = new Set(bm25Tokens(c.problem_statement));
  const scores = corpus.paths.map((_, i) => {
    let s = 0;
    for (const t of q) {
      const tf = corpus.tfs[i]!.get(t);
      if (!tf) continue;
      const df = corpus.df.get(t)!;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      s += (idf * tf * 2.2) / (tf + 1.2 * (1 - 0.75 + (0.75 * corpus.lengths[i]!) / corpus.avg));
    }
    return s;
  });
  return corpus.paths.map((p, i) => ({ p, s: scores[i]! })).sort((a, b) => b.s - a.s).map((x) => x.p);
}

// ---------------------------------------------------------------------------------------------

function firstGoldRank(files: string[], gold: string[]): number | null {
  const seen: string[] = [];
  for (const f of files) if (!seen.includes(f)) seen.push(f);
  const i = seen.findIndex((f) => gold.includes(f));
  return i === -1 ? null : i + 1;
}

function accuracy(ranks: (number | null)[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of KS) out[`Acc@${k}`] = Math.round((1000 * ranks.filter((r) => r !== null && r <= k).length) / ranks.length) / 10;
  return out;
}

async function main() {
  buildHostTree();
  const config = loadConfig({
    LOUPE_DATA_DIR: dataDir,
    LOUPE_API_KEY: API_KEY,
    LOUPE_LOG_LEVEL: "warn",
    LOUPE_GITHUB_URL: `file://${hostDir}`,
    PORT: "0",
  });
  const sink = new Writable({ write: (_c, _e, done) => done() });
  const loupe = await createLoupe(config, { logger: createLogger("warn", sink), announce: () => {} });
  const served = await serve(loupe.fetch, { port: 0, hostname: "127.0.0.1" });
  const base = `http://127.0.0.1:${served.port}`;
  const api = async (path: string, body?: unknown) => {
    const res = await fetch(base + path, {
      method: body === undefined ? "GET" : "POST",
      headers: { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${text.slice(0, 300)}`);
    return JSON.parse(text) as unknown;
  };

  try {
    // 2. Index every case's branch through the API.
    const started = performance.now();
    for (const c of cases) {
      const submitted = (await api("/v2/repositories", { remote: "github", repository: c.repo, branch: branchOf(c) })) as { statusEndpoint: string };
      const path = new URL(submitted.statusEndpoint).pathname;
      for (;;) {
        const status = (await api(path)) as { status: string; failureReason?: string; filesProcessed: number; numFiles: number };
        if (status.status === "completed") break;
        if (status.status === "failed") throw new Error(`indexing ${c.repo}@${branchOf(c)} failed: ${status.failureReason}`);
        await new Promise((r) => setTimeout(r, 250));
      }
      if (args.verbose) process.stderr.write(`indexed ${c.repo} ${branchOf(c)}\n`);
    }
    const indexSeconds = (performance.now() - started) / 1000;

    // 3. Search through the API; the baseline beside it.
    const ours: (number | null)[] = [];
    const baseline: (number | null)[] = [];
    const latencies: number[] = [];
    const rows: string[] = [];
    for (const c of cases) {
      const t0 = performance.now();
      const results = (await api("/v2/search", {
        query: c.problem_statement,
        repositories: [{ remote: "github", repository: c.repo, branch: branchOf(c) }],
      })) as { filepath: string; linestart: number | null; distance: number | null }[];
      latencies.push(performance.now() - t0);
      const rank = firstGoldRank(results.map((r) => r.filepath), c.gold_files);
      const bm = firstGoldRank(bm25Rank(c), c.gold_files);
      ours.push(rank);
      baseline.push(bm);
      rows.push(`${c.instance_id.padEnd(36)} loupe ${String(rank ?? "-").padStart(3)}  bm25 ${String(bm ?? "-").padStart(3)}  gold ${c.gold_files.join(",")}`);
      if (args.verbose) {
        const distinct = [...new Set(results.map((r) => r.filepath))].slice(0, 5);
        rows.push(`    top: ${distinct.join("  ")}`);
      }
    }
    latencies.sort((a, b) => a - b);
    process.stdout.write(rows.join("\n") + "\n\n");
    const table = {
      cases: cases.length,
      loupe: accuracy(ours),
      bm25: accuracy(baseline),
      searchMs: { p50: Math.round(latencies[Math.floor(latencies.length / 2)]!), max: Math.round(latencies[latencies.length - 1]!) },
      indexSeconds: Math.round(indexSeconds * 10) / 10,
    };
    process.stdout.write(JSON.stringify(table, null, 2) + "\n");
  } finally {
    await served.close();
    await loupe.close();
    if (!keepData) {
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(hostDir, { recursive: true, force: true });
    }
  }
}

await main();
