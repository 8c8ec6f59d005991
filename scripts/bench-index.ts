/**
 * End-to-end indexing benchmark: a real corpus (the CPython standard library found on this machine,
 * or LOUPE_BENCH_SOURCE=<dir>) is committed into a temp git repository, served through a file://
 * base, and indexed by the real service in-process through the HTTP API.
 *
 *   npx tsx scripts/bench-index.ts            # prints MB/s, files/s, peak RSS, second-branch time, reopen time
 *
 * The host repository is packed (`git repack -ad`), as a hosting server's would be.
 *
 * Environment: LOUPE_BENCH_SOURCE (directory to copy), LOUPE_WORKERS (parse threads),
 * LOUPE_BENCH_LOOSE_HOST=1 (leave the host repository's objects loose: every clone then compresses them).
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync, readFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { basename, join } from "node:path";
import { loadConfig } from "../src/config.ts";
import { createLogger } from "../src/logging.ts";
import { createLoupe } from "../src/loupe.ts";
import { serve } from "../src/serve.ts";
import { writeResults } from "./results.ts";

const KEY = "lp_bench_admin_key_0123456789abcdef";

function findCorpus(): string {
  if (process.env.LOUPE_BENCH_SOURCE) return process.env.LOUPE_BENCH_SOURCE;
  const roots = [join(homedir(), ".pyenv", "versions"), "/usr/lib"];
  for (const root of roots) {
    if (!existsSync(root)) continue;
    for (const v of readdirSync(root).sort().reverse()) {
      for (const candidate of [join(root, v, "lib"), join(root)]) {
        if (!existsSync(candidate)) continue;
        for (const py of readdirSync(candidate).filter((n) => /^python3\.\d+$/.test(n)).sort().reverse()) {
          const lib = join(candidate, py);
          if (existsSync(join(lib, "asyncio"))) return lib;
        }
      }
    }
  }
  throw new Error("no CPython Lib directory found; set LOUPE_BENCH_SOURCE");
}

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, {
    cwd,
    maxBuffer: 1 << 30,
    env: { ...process.env, GIT_AUTHOR_NAME: "bench", GIT_AUTHOR_EMAIL: "b@x", GIT_COMMITTER_NAME: "bench", GIT_COMMITTER_EMAIL: "b@x" },
  }).toString().trim();

async function main() {
  const corpus = findCorpus();
  const tmp = mkdtempSync(join(tmpdir(), "loupe-bench-index-"));
  const base = join(tmp, "host");
  const work = join(tmp, "work");
  const dataDir = join(tmp, "data");
  console.log(`corpus: ${corpus}`);
  cpSync(corpus, work, {
    recursive: true,
    filter: (src) => !/(__pycache__|site-packages|\.pyc$|lib-dynload|config-3)/.test(src),
    dereference: false,
  });
  git(work, "init", "--quiet", "--initial-branch=main");
  git(work, "add", "-A");
  git(work, "commit", "--quiet", "-m", "corpus");
  mkdirSync(join(base, "bench"), { recursive: true });
  git(tmp, "clone", "--quiet", "--bare", work, join(base, "bench", "corpus.git"));
  // Packed, as a hosting server keeps its repositories: a clone of loose objects made git compress all
  // 38 MB on every run (about 2 s of git's own CPU), which measured git, not the service. Set
  // LOUPE_BENCH_LOOSE_HOST=1 to measure that case.
  if (!process.env.LOUPE_BENCH_LOOSE_HOST) git(tmp, "-C", join(base, "bench", "corpus.git"), "repack", "-adq");
  const lines = Number(execFileSync("sh", ["-c", `git ls-files -z | xargs -0 cat 2>/dev/null | wc -l`], { cwd: work }).toString().trim());
  const bytes = Number(execFileSync("sh", ["-c", `git ls-files -z | xargs -0 cat 2>/dev/null | wc -c`], { cwd: work }).toString().trim());
  console.log(`repository: ${git(work, "ls-files").split("\n").length} files, ${lines} lines, ${(bytes / 1e6).toFixed(1)} MB`);

  const env = { LOUPE_DATA_DIR: dataDir, LOUPE_API_KEY: KEY, PORT: "0", LOUPE_HOST: "127.0.0.1", LOUPE_LOG_LEVEL: "warn", LOUPE_GITHUB_URL: `file://${base}`, ...(process.env.LOUPE_WORKERS ? { LOUPE_WORKERS: process.env.LOUPE_WORKERS } : {}) };
  let peakRss = 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100);

  const start = async () => {
    const config = loadConfig(env);
    const t0 = performance.now();
    const loupe = await createLoupe(config, { logger: createLogger("warn"), announce: () => {} });
    const openMs = performance.now() - t0;
    const served = await serve(loupe.fetch, { port: 0, hostname: "127.0.0.1" });
    const url = `http://127.0.0.1:${served.port}`;
    const api = (path: string, json?: unknown) =>
      fetch(url + path, { method: json ? "POST" : "GET", headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" }, body: json ? JSON.stringify(json) : undefined }).then((r) => r.json() as Promise<Record<string, unknown>>);
    return { loupe, served, api, openMs };
  };
  // The status is polled as a client drawing a progress bar would, every 250 ms (polled every 25 ms, the
  // answers, ~20 KB each with the skipped files, cost the process ~0.4 s of CPU during a first index).
  // A job's time is taken from its completion event (`indexedAt`), so the interval does not round it.
  const waitDone = async (api: (p: string) => Promise<Record<string, unknown>>, endpoint: string) => {
    const path = new URL(endpoint).pathname;
    for (;;) {
      const s = await api(path).catch(() => ({}) as Record<string, unknown>); // a busy loop may drop a keep-alive connection
      if (s.status === "completed" || s.status === "failed") return s;
      await new Promise((r) => setTimeout(r, 250));
    }
  };
  /** Seconds from `startedAt` (Date.now() before the request) to the job's completion event. */
  const jobSeconds = (startedAt: number, status: Record<string, unknown>): number =>
    ((typeof status.indexedAt === "string" ? Date.parse(status.indexedAt) : Date.now()) - startedAt) / 1000;

  let s = await start();
  let t = Date.now();
  const cpuBefore = process.cpuUsage();
  const submitted = await s.api("/v2/repositories", { remote: "github", repository: "bench/corpus" });
  const status = await waitDone(s.api, submitted.statusEndpoint as string);
  const seconds = jobSeconds(t, status);
  const cpu = process.cpuUsage(cpuBefore);
  const stats = s.loupe.services.indexer.stats();
  console.log(`first index: ${status.status} ${status.filesProcessed}/${status.numFiles} files, ${(status.skipped as unknown[]).length} skipped, ${seconds.toFixed(2)} s`);
  console.log(`  end to end: ${(bytes / 1e6 / seconds).toFixed(2)} MB/s of repository source, ${(stats.bytesParsed / 1e6 / seconds).toFixed(2)} MB/s of indexed source, ${((status.numFiles as number) / seconds).toFixed(0)} files/s, ${(lines / seconds).toFixed(0)} lines/s`);
  console.log(`  cpu: ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s of the process's threads (main, parse threads, V8 and lmdb threads; git's processes not included)`);
  console.log(`  time: waiting for read+chunk ${(stats.chunkWaitMs / 1000).toFixed(1)} s, code index writes ${(stats.indexWriteMs / 1000).toFixed(1)} s`);
  console.log(`  sample questions: ${JSON.stringify(status.sampleQuestions)}`);
  const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
  const figures: Record<string, unknown> = {
    // The corpus by name (LOUPE_BENCH_SOURCE's folder, or `python3.9`), not the machine's path to it.
    corpus: { name: process.env.LOUPE_BENCH_SOURCE ? `LOUPE_BENCH_SOURCE: ${basename(corpus)}` : `CPython ${basename(corpus)} standard library`, files: status.numFiles, lines, megabytes: round(bytes / 1e6, 1) },
    firstIndex: {
      seconds: round(seconds),
      mbPerSecond: round(bytes / 1e6 / seconds),
      indexedMbPerSecond: round(stats.bytesParsed / 1e6 / seconds),
      filesPerSecond: Math.round((status.numFiles as number) / seconds),
      processCpuSeconds: round((cpu.user + cpu.system) / 1e6, 1),
    },
  };

  // A second branch differing in one file.
  git(work, "checkout", "--quiet", "-b", "feature");
  const target = join(work, "asyncio", "queues.py");
  writeFileSync(target, readFileSync(target, "utf8") + "\n\ndef bench_marker():\n    return 42\n");
  git(work, "commit", "--quiet", "-am", "one file");
  git(work, "push", "--quiet", join(base, "bench", "corpus.git"), "feature");
  t = Date.now();
  const second = await s.api("/v2/repositories", { remote: "github", repository: "bench/corpus", branch: "feature" });
  const secondStatus = await waitDone(s.api, second.statusEndpoint as string);
  console.log(`second branch (one file changed): ${secondStatus.status}, ${jobSeconds(t, secondStatus).toFixed(2)} s, reused ${secondStatus.reusedFiles}/${secondStatus.numFiles}`);
  figures.secondBranchSeconds = round(jobSeconds(t, secondStatus));

  await s.served.close();
  await s.loupe.close();
  s = await start();
  console.log(`restart: service open (stores, projections caught up, code index open) ${s.openMs.toFixed(0)} ms`);
  clearInterval(sampler);
  console.log(`peak RSS: ${(peakRss / 1e6).toFixed(0)} MB (main process; parse workers are threads in it)`);
  figures.openAfterRestartMs = Math.round(s.openMs);
  figures.peakRssMb = Math.round(peakRss / 1e6);
  console.log(`figures written to ${writeResults("bench-index", figures)}`);
  await s.served.close();
  await s.loupe.close();
  rmSync(tmp, { recursive: true, force: true });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
