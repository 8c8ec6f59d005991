/**
 * Search speed through the public HTTP API over a ~1M-line repository, beside ripgrep on the same checkout.
 *
 *   npm run bench -- [--lines 1000000] [--requests 600] [--warmup 1500] [--data-dir /tmp/loupe-bench] [--keep]
 *
 * 1. Copies Python standard-library sources found on the machine (scripts/code-corpus.ts) into a git
 *    repository of about --lines lines, published as a bare repo under a file:// host base.
 * 2. Starts the real service as its own process (`node <npm start's flags> --import tsx src/main.ts`, as `npm start` runs it),
 *    indexes it with POST /v2/repositories, polls to completed.
 * 3. Warm-up: --warmup searches at 8 clients, not measured (the page cache, the index's read caches,
 *    and V8's optimising compiler, which still recompiles the hot paths over the first ~1,000 requests
 *    after a start; docs/search.md shows the curve).
 *    Then POST /v2/search with the benchmark queries at 1, 8 and 32 concurrent clients from this process:
 *    p50, p99, requests/s, and the service process's CPU time per request (from /proc, where present).
 *    Each search is its own session, as when a client sends no sessionId (--session: every client keeps
 *    one session, so each search also carries that session's earlier questions).
 * 4. ripgrep (`rg -i -l` with the query's identifiers/words as patterns) over the same checkout, for the
 *    same queries, sequentially and at 8 concurrent processes, in the same run.
 */
import { execFileSync, spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir, cpus } from "node:os";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { Agent, request as httpRequest } from "node:http";
import { createServer } from "node:net";

import { fileURLToPath } from "node:url";
import { BENCH_QUERIES, loadCorpus } from "./code-corpus.ts";
import { writeResults } from "./results.ts";
import { analyzeQuery } from "../src/retrieval/query-analysis.ts";

const { values: args } = parseArgs({
  options: {
    lines: { type: "string", default: "1000000" },
    requests: { type: "string", default: "600" },
    warmup: { type: "string", default: "1500" },
    "data-dir": { type: "string" },
    keep: { type: "boolean", default: false },
    session: { type: "boolean", default: false },
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

/** Peak and current resident memory of a process in MB (VmHWM, VmRSS), or null where /proc is missing. */
function processMemoryMb(pid: number): { peakRssMb: number; rssMb: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
    return { peakRssMb: Math.round(kb("VmHWM") / 1024), rssMb: Math.round(kb("VmRSS") / 1024) };
  } catch {
    return null;
  }
}

/** CPU seconds (user, system) the process has used so far, or null where /proc is missing. */
function processCpuSeconds(pid: number): { user: number; system: number } | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return { user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 }; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return null;
  }
}

async function load(concurrency: number, total: number, one: (i: number, client: number) => Promise<void>, serverPid?: number) {
  const latencies: number[] = [];
  const cpuBefore = serverPid ? processCpuSeconds(serverPid) : null;
  const clientBefore = process.cpuUsage();
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, client) => {
      for (;;) {
        const i = next++;
        if (i >= total) return;
        const t0 = performance.now();
        await one(i, client);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const cpuAfter = serverPid ? processCpuSeconds(serverPid) : null;
  const client = process.cpuUsage(clientBefore);
  const clientCpuMsPerRequest = round((client.user + client.system) / 1000 / total);
  const server = cpuBefore !== null && cpuAfter !== null
    ? {
        serverCpuMsPerRequest: round(((cpuAfter.user + cpuAfter.system - cpuBefore.user - cpuBefore.system) * 1000) / total),
        serverSystemCpuMsPerRequest: round(((cpuAfter.system - cpuBefore.system) * 1000) / total),
      }
    : {};
  return { clients: concurrency, requests: total, p50: round(pct(latencies, 50)), p99: round(pct(latencies, 99)), rps: round(total / seconds), ...server, clientCpuMsPerRequest };
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

/** The node flags `npm start` gives the service (`tsx <flags> src/main.ts` in package.json). */
function startFlags(repoRoot: string): string[] {
  const start = (JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { scripts: { start: string } }).scripts.start;
  const words = start.split(/\s+/);
  return words.slice(words.indexOf("tsx") + 1, words.indexOf("src/main.ts")).filter((w) => w.startsWith("--"));
}

/** The service as its own process, on the embedded defaults, as `npm start` runs it; resolves once it listens. */
/** A port free on 127.0.0.1 right now (the service is given it, so the bench knows where to look). */
function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolvePort(address.port) : reject(new Error("no port"))));
    });
  });
}

async function startService(): Promise<{ base: string; pid: number; stop: () => Promise<void> }> {
  const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
  // LOUPE_BENCH_NODE_ARGS: extra node flags for the service, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
  const nodeArgs = [...startFlags(repoRoot), ...(process.env.LOUPE_BENCH_NODE_ARGS ?? "").split(/\s+/).filter(Boolean)];
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, "--import", "tsx", join(repoRoot, "src/main.ts")], {
    cwd: repoRoot,
    env: { ...process.env, LOUPE_DATA_DIR: dataDir, LOUPE_API_KEY: API_KEY, LOUPE_LOG_LEVEL: "warn", LOUPE_GITHUB_URL: `file://${hostDir}`, PORT: String(port), LOUPE_HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<void>((r) => child.on("exit", () => r()));
  // Ready when /readyz answers 200 on the port given (the "listening" log line is an info line, below
  // the warn level the bench runs the service at).
  const base = `http://127.0.0.1:${port}`;
  let gone = false;
  child.on("exit", () => (gone = true));
  for (;;) {
    if (gone) throw new Error("the service exited before it was ready");
    try {
      if ((await fetch(`${base}/readyz`)).status === 200) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    base,
    pid: child.pid!,
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

async function main() {
  const corpus = buildRepository();
  const service = await startService();
  const { base } = service;
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
    // node:http with keep-alive connections (one per client), like wrk or autocannon: the load generator
    // shares the machine's cores with the service, so it should cost as little CPU as it can.
    const agent = new Agent({ keepAlive: true, maxSockets: 64 });
    const search = (i: number, client: number) =>
      new Promise<void>((resolveDone, reject) => {
        const q = BENCH_QUERIES[i % BENCH_QUERIES.length]!;
        const session = args.session ? { sessionId: `bench-client-${client}` } : {};
        const body = JSON.stringify({ query: q.text, repositories, ...session });
        const req = httpRequest(`${base}/v2/search`, { method: "POST", agent, headers: { ...headers, "content-length": Buffer.byteLength(body) } }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => (res.statusCode === 200 ? resolveDone() : reject(new Error(`search: HTTP ${res.statusCode} ${Buffer.concat(chunks).toString()}`))));
          res.on("error", reject);
        });
        req.on("error", reject);
        req.end(body);
      });
    await load(8, Math.max(BENCH_QUERIES.length, Number(args.warmup)), search); // warm-up (step 3 above)
    const total = Number(args.requests);
    const loupeRows: Awaited<ReturnType<typeof load>>[] = [];
    for (const c of [1, 8, 32]) loupeRows.push(await load(c, total, search, service.pid));

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
    // The same run's ripgrep as the yardstick: on a shared machine both move together with its load.
    type Row = { clients: number; p50: number; p99: number };
    const rgRows = Array.isArray(rg) ? (rg as Row[]) : [];
    const vsRipgrep = rgRows.map((r) => {
      const loupe = loupeRows.find((l) => l.clients === r.clients)!;
      return { clients: r.clients, p50Ratio: Math.round((loupe.p50 / r.p50) * 1000) / 1000, p99Ratio: Math.round((loupe.p99 / r.p99) * 1000) / 1000 };
    });
    const result = {
      corpus: { ...corpus, indexSeconds, cpus: cpus().length },
      serviceMemory: processMemoryMb(service.pid),
      sessions: args.session ? "one per client" : "one per search (no sessionId sent)",
      warmup: { requests: Math.max(BENCH_QUERIES.length, Number(args.warmup)), clients: 8 },
      loupeSearchHttp: loupeRows,
      ripgrep: rg,
      vsRipgrep,
      note: "latencies in ms, end to end over HTTP on 127.0.0.1 to the service process (loupe) / process spawn to exit (rg -i -l); serverCpuMsPerRequest = the service process's CPU time (all its threads, user + system) per request, serverSystemCpuMsPerRequest its system (kernel) part; vsRipgrep = Loupe's latency / ripgrep's at the same concurrency, this run",
    };
    process.stdout.write(JSON.stringify(result, null, 2) + "\n");
    process.stdout.write(`figures written to ${writeResults("bench", result)}\n`);
    agent.destroy();
  } finally {
    await service.stop();
    if (!args.keep && !args["data-dir"]) rmSync(root, { recursive: true, force: true });
  }
}

await main();
