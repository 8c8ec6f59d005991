/**
 * Review time on large real pull requests (bench-review-time.ts --pull-requests): each listed commit of
 * a fetched mirror becomes a pull request from a branch at the commit into a branch at its parent; the
 * base branch is indexed (the code graph the review reads), and the pull request is reviewed --runs times
 * (new pull request numbers, same branches) through the public API, at strictness 3.
 *
 * With a baseline (the service built from another commit's code, `git archive` into a temporary folder,
 * in the same process), both services review each pull request in turn, run after run (which goes first
 * alternates), so both see the same machine load; the figures are the medians of each and their ratio,
 * and whether both reviews said the same thing (the summary and every comment, with its file and lines).
 * The first run of a pull request is given apart: later runs find the outline's parses of the same file
 * versions in its cache of recent parses (change-outline.ts), as a re-review of the same commits would.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { git, mirrorOf } from "../eval/git-host.ts";
import { startService, type Service } from "../eval/service.ts";
import { projectRoot } from "../results.ts";
import { hostRepository, indexBranch, mcpClient, openPullRequest, runReview, serviceComments, setBranch, WEBHOOK_SECRET, type ServiceComment } from "./support.ts";

/** `owner/name@commit` */
export type PullRequestSpec = { repo: string; commit: string };

/**
 * `--pull-requests large`: commits of 20-40 changed files of the fetched mirrors, in Python, JavaScript,
 * TypeScript, Rust and Go (the first: the 29-file pull request that took 10-12 s on a loaded machine).
 */
export const LARGE_PULL_REQUESTS =
  "encode/httpx@8e36f2bc,encode/httpx@371b6e94,expressjs/express@1396e085,colinhacks/zod@3063993a3,axios/axios@a3ff99b5,tokio-rs/tracing@35f360a1,gin-gonic/gin@c4287b13,pallets/flask@f2f027d1";

export const parsePullRequests = (list: string): PullRequestSpec[] =>
  (list === "large" ? LARGE_PULL_REQUESTS : list).split(",").map((s) => s.trim()).filter(Boolean).map((s) => {
    const [repo, commit] = s.split("@");
    if (!repo || !commit || !/^[\w.-]+\/[\w.-]+$/.test(repo)) throw new Error(`--pull-requests takes owner/name@commit, got ${s}`);
    return { repo, commit };
  });

type Started = { name: string; service: Service; dataDir: string; close(): Promise<void> };

/** The service of another commit's code: its tree exported beside this one's node_modules. */
async function startBaseline(commit: string, hostDir: string): Promise<Started & { codeDir: string }> {
  const codeDir = mkdtempSync(join(tmpdir(), "bench-time-baseline-code-"));
  execFileSync("sh", ["-c", 'git archive "$1" | tar -x -C "$2"', "sh", commit, codeDir], { cwd: projectRoot });
  symlinkSync(join(projectRoot, "node_modules"), join(codeDir, "node_modules"));
  const module = (await import(pathToFileURL(join(codeDir, "scripts", "eval", "service.ts")).href)) as { startService: typeof startService };
  const dataDir = mkdtempSync(join(tmpdir(), "bench-time-baseline-data-"));
  const service = await module.startService(dataDir, hostDir, { LOUPE_WEBHOOK_SECRET_GITHUB: WEBHOOK_SECRET });
  return {
    name: "baseline", service, dataDir, codeDir,
    async close() {
      await service.close();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(codeDir, { recursive: true, force: true });
    },
  };
}

type Said = { summary: string | null; comments: Pick<ServiceComment, "filePath" | "lineStart" | "lineEnd" | "body">[] };
const sameThing = (a: Said, b: Said) => JSON.stringify(a) === JSON.stringify(b);

/** Where two reviews differ: the summary lines and the comments one has and the other not. */
function differenceOf(a: Said, b: Said) {
  const lines = (s: string | null) => (s ?? "").split("\n");
  const [la, lb] = [lines(a.summary), lines(b.summary)];
  const key = (c: Said["comments"][number]) => JSON.stringify(c);
  const [ka, kb] = [new Set(a.comments.map(key)), new Set(b.comments.map(key))];
  return {
    summaryLines: { onlyFirst: la.filter((l) => !lb.includes(l)), onlySecond: lb.filter((l) => !la.includes(l)) },
    comments: { onlyFirst: a.comments.filter((c) => !kb.has(key(c))), onlySecond: b.comments.filter((c) => !ka.has(key(c))) },
  };
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? null : Number((s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2).toFixed(3));
};

export async function benchPullRequests(options: { mirrors: string; pullRequests: readonly PullRequestSpec[]; runs: number; baseline: string | null; log: (line: string) => void }) {
  const { mirrors, pullRequests, runs, log } = options;
  const hostDir = mkdtempSync(join(tmpdir(), "bench-time-host-"));
  const services: Started[] = [];
  try {
    if (options.baseline) services.push(await startBaseline(options.baseline, hostDir));
    const dataDir = mkdtempSync(join(tmpdir(), "bench-time-data-"));
    const current = await startService(dataDir, hostDir, { LOUPE_WEBHOOK_SECRET_GITHUB: WEBHOOK_SECRET });
    services.push({ name: "current", service: current, dataDir, close: async () => { await current.close(); rmSync(dataDir, { recursive: true, force: true }); } });
    const clients = await Promise.all(services.map((s) => mcpClient(s.service)));
    const rows: {
      repo: string; commit: string; subject: string; diff: string; indexing: Record<string, { seconds: number; files: number }>;
      seconds: Record<string, number[]>; medians: Record<string, number | null>; ratio: number | null; firstRun: Record<string, number>;
      sameReview: boolean | null; sameOnEveryRun: Record<string, boolean>; loadAverages: number[]; inlineComments: number;
      baselineVersusCurrent?: ReturnType<typeof differenceOf>; unrepeated?: { service: string; run: number; difference: ReturnType<typeof differenceOf> }[];
    }[] = [];
    let number = 0;
    for (const pr of pullRequests) {
      const mirror = mirrorOf(mirrors, pr.repo);
      const sha = git(mirror, ["rev-parse", `${pr.commit}^{commit}`]).trim();
      const parent = git(mirror, ["rev-parse", `${sha}^`]).trim();
      const subject = git(mirror, ["log", "-1", "--format=%s", sha]).trim();
      const stat = git(mirror, ["diff", "--shortstat", parent, sha]).trim();
      const bare = hostRepository(hostDir, pr.repo, mirror);
      const head = `pr-${sha.slice(0, 12)}`;
      const base = `base-${sha.slice(0, 12)}`;
      setBranch(bare, base, parent);
      setBranch(bare, head, sha);
      setBranch(bare, "main", parent);
      git(bare, ["symbolic-ref", "HEAD", "refs/heads/main"]);
      const indexing: Record<string, { seconds: number; files: number }> = {};
      for (const s of services) indexing[s.name] = await indexBranch(s.service, pr.repo, base);
      log(`${pr.repo}@${sha.slice(0, 10)} (${stat}) ${subject.slice(0, 60)}; base indexed: ${services.map((s) => `${s.name} ${indexing[s.name]!.files} files in ${indexing[s.name]!.seconds.toFixed(1)} s`).join(", ")}`);
      const seconds: Record<string, number[]> = Object.fromEntries(services.map((s) => [s.name, []]));
      const said: Record<string, Said> = {};
      const repeatable: Record<string, boolean> = Object.fromEntries(services.map((s) => [s.name, true]));
      // The first run of a service that said something else than its first run did, and how.
      const unrepeated: { service: string; run: number; difference: ReturnType<typeof differenceOf> }[] = [];
      const loads: number[] = [];
      for (let run = 0; run < runs; run++) {
        number += 1;
        const order = run % 2 === 0 ? [...services.entries()] : [...services.entries()].reverse();
        for (const [i, s] of order) {
          await openPullRequest(s.service, { repo: pr.repo, number, title: subject, body: "", head, headSha: sha, base, baseSha: parent, defaultBranch: "main" });
          const outcome = await runReview(s.service, pr.repo, number, 3);
          if (outcome.status !== "COMPLETED") throw new Error(`${s.name} review of ${pr.repo}@${sha}: ${outcome.status} ${outcome.reason ?? ""}`);
          seconds[s.name]!.push(outcome.seconds);
          // What a review says: its summary and its comments' places and text (not their ids or times).
          const comments = (await serviceComments(clients[i]!, pr.repo, number)).map((c) => ({ filePath: c.filePath, lineStart: c.lineStart, lineEnd: c.lineEnd, body: c.body }));
          const now: Said = { summary: outcome.body, comments };
          said[s.name] ??= now;
          if (!sameThing(said[s.name]!, now) && repeatable[s.name]) {
            repeatable[s.name] = false;
            unrepeated.push({ service: s.name, run: run + 1, difference: differenceOf(said[s.name]!, now) });
          }
        }
        loads.push(Number(loadavg()[0]!.toFixed(2)));
        log(`  run ${run + 1}: ${services.map((s) => `${s.name} ${seconds[s.name]!.at(-1)!.toFixed(2)} s`).join(", ")} (load ${loads.at(-1)})`);
      }
      const medians = Object.fromEntries(services.map((s) => [s.name, median(seconds[s.name]!)]));
      const ratio = medians.baseline && medians.current ? Number((medians.current / medians.baseline).toFixed(3)) : null;
      const same = said.baseline ? sameThing(said.baseline, said.current!) : null;
      log(`  median: ${services.map((s) => `${s.name} ${medians[s.name]} s`).join(", ")}${ratio === null ? "" : `; current / baseline ${ratio}; same review: ${same}`}` +
        `${Object.values(repeatable).every(Boolean) ? "" : `; NOT the same on every run: ${services.filter((s) => !repeatable[s.name]).map((s) => s.name).join(", ")}`}`);
      rows.push({
        repo: pr.repo, commit: sha, subject, diff: stat, indexing,
        seconds: Object.fromEntries(services.map((s) => [s.name, seconds[s.name]!.map((x) => Number(x.toFixed(3)))])),
        medians, ratio,
        firstRun: Object.fromEntries(services.map((s) => [s.name, Number(seconds[s.name]![0]!.toFixed(3))])),
        sameReview: same, sameOnEveryRun: repeatable, loadAverages: loads,
        ...(same === false ? { baselineVersusCurrent: differenceOf(said.baseline!, said.current!) } : {}),
        ...(unrepeated.length > 0 ? { unrepeated } : {}),
        inlineComments: said.current!.comments.filter((c) => c.filePath !== null).length,
      });
    }
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
    // Over all pull requests: the sum of the medians (and of the first runs), and the ratio of the sums.
    const total = (pick: (r: (typeof rows)[number]) => Record<string, number | null>) =>
      Object.fromEntries(services.map((s) => [s.name, Number(rows.reduce((n, r) => n + (pick(r)[s.name] ?? 0), 0).toFixed(3))]));
    const medians = total((r) => r.medians);
    const firstRuns = total((r) => r.firstRun);
    const overall = {
      sumOfMedians: medians,
      sumOfFirstRuns: firstRuns,
      ratio: medians.baseline ? Number((medians.current! / medians.baseline).toFixed(3)) : null,
      firstRunRatio: firstRuns.baseline ? Number((firstRuns.current! / firstRuns.baseline).toFixed(3)) : null,
      slowest: Object.fromEntries(services.map((s) => [s.name, Math.max(...rows.map((r) => r.medians[s.name] ?? 0))])),
      allSameReview: options.baseline ? rows.every((r) => r.sameReview) : null,
    };
    log(`all ${rows.length} pull requests: sum of medians ${services.map((s) => `${s.name} ${medians[s.name]} s`).join(", ")}${overall.ratio === null ? "" : ` (current / baseline ${overall.ratio})`}; ` +
      `first runs ${services.map((s) => `${s.name} ${firstRuns[s.name]} s`).join(", ")}${overall.firstRunRatio === null ? "" : ` (${overall.firstRunRatio})`}` +
      `${overall.allSameReview === null ? "" : `; every review the same as the baseline's: ${overall.allSameReview}`}`);
    return { baselineCommit: options.baseline, runs, strictness: 3, overall, pullRequests: rows };
  } finally {
    for (const s of services) await s.close().catch(() => {});
    rmSync(hostDir, { recursive: true, force: true });
  }
}
