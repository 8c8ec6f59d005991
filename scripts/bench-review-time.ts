/**
 * Review time on a large repository: a 10-file pull request on a repository of about 1M lines of real
 * source, from the trigger (POST /v2/code-reviews) to COMPLETED (GET /v2/code-reviews/:id polled).
 *
 *   npx tsx scripts/bench-review-time.ts [--mirrors <dir>] [--lines 1000000] [--runs 3] [--out <file>] [--data-dir <dir>]
 *
 * --data-dir keeps the service's data (the index) between runs: a second run finds the repository up to
 * date and reviews new pull requests (numbers after the ones recorded).
 *
 * The repository: source files (SOURCE in review-bench/support.ts, and SQL and shell scripts; under
 * 1 MB) of the fetched mirrors' HEAD trees (`<mirrors>/<owner>+<name>/repo`, default ../.mirror; mirrors in name order), each under a
 * folder named after its mirror, until the count of lines reaches --lines; built with git plumbing in a
 * bare repository of a file:// host whose objects come from the mirrors (alternates). It is indexed
 * through POST /v2/repositories (timed too).
 *
 * The pull request changes 10 files, one per mirror in turn, each in two ways that make the review do
 * all its work: the largest function of the next changed file (of the same language) is copied under
 * a new name at the end of the file (a new function: the existing-helper search against the index,
 * and its check of the copy at base and head), and a number in its first public function changes (a
 * changed function: the tests-not-updated lookup). The same pull request is reviewed --runs times (new pull request numbers,
 * same branches); results: scripts/results/bench-review-time.json.
 *
 * Large real pull requests (review-bench/real-pull-requests.ts):
 *
 *   npx tsx scripts/bench-review-time.ts --pull-requests large|<owner/name@commit,...> [--baseline <commit>] [--runs 3] [--mirrors <dir>] [--out <file>]
 *
 * Each commit (of 20-40 files with `large`) reviewed as a pull request into its parent, whose branch is
 * indexed first. --baseline runs the service of that commit's code too, in the same process, each pull
 * request reviewed by both in turn: the medians, their ratio, and whether both reviews said the same.
 * Results: scripts/results/bench-review-time-pull-requests.json.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, existsSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { git, readBlobs } from "./eval/git-host.ts";
import { startService } from "./eval/service.ts";
import { projectRoot, writeResults } from "./results.ts";
import { definitionsOf } from "../src/review/change-outline.ts";
import { benchPullRequests, parsePullRequests } from "./review-bench/real-pull-requests.ts";
import { hostRepository, indexBranch, openPullRequest, runReview, setBranch, SOURCE, WEBHOOK_SECRET } from "./review-bench/support.ts";

const { values: args } = parseArgs({
  options: {
    mirrors: { type: "string" },
    lines: { type: "string", default: "1000000" },
    runs: { type: "string", default: "3" },
    out: { type: "string" },
    "data-dir": { type: "string" },
    "pull-requests": { type: "string" },
    baseline: { type: "string" },
  },
});
const mirrors = args.mirrors ? resolve(args.mirrors) : resolve(projectRoot, "../.mirror");
const targetLines = Number(args.lines);
const runs = Number(args.runs);
const REPO = "bench/large";
const MORE_SOURCE = /\.(sql|sh|bash)$/i;
const ENV = { GIT_AUTHOR_NAME: "bench", GIT_AUTHOR_EMAIL: "bench@localhost", GIT_COMMITTER_NAME: "bench", GIT_COMMITTER_EMAIL: "bench@localhost", GIT_AUTHOR_DATE: "2000-01-01T00:00:00Z", GIT_COMMITTER_DATE: "2000-01-01T00:00:00Z" };

type Entry = { mode: string; blob: string; path: string; size: number; mirror: string };

const countLines = (b: Buffer) => {
  let n = 0;
  for (let i = 0; i < b.length; i++) if (b[i] === 10) n++;
  return n;
};

/** Source files of the mirrors' HEAD trees until `targetLines` lines; with their line counts. */
function pickFiles(): { entries: (Entry & { lines: number })[]; mirrorsUsed: string[] } {
  const names = readdirSync(mirrors).filter((n) => n.includes("+") && existsSync(join(mirrors, n, "repo"))).sort();
  const out: (Entry & { lines: number })[] = [];
  let lines = 0;
  const used: string[] = [];
  for (const name of names) {
    const dir = join(mirrors, name, "repo");
    const listing = git(dir, ["ls-tree", "-r", "-l", "-z", "HEAD"]).split("\0").filter(Boolean);
    const entries: Entry[] = listing.flatMap((line) => {
      const tab = line.indexOf("\t");
      const [mode, type, blob, size] = line.slice(0, tab).trim().split(/\s+/) as [string, string, string, string];
      const path = line.slice(tab + 1);
      return type === "blob" && mode === "100644" && (SOURCE.test(path) || MORE_SOURCE.test(path)) && Number(size) < 1_000_000 ? [{ mode, blob, path, size: Number(size), mirror: name }] : [];
    });
    const blobs = readBlobs(dir, entries.map((e) => e.blob));
    used.push(name);
    for (const e of entries) {
      const b = blobs.get(e.blob);
      if (!b) continue;
      const n = countLines(b);
      out.push({ ...e, lines: n });
      lines += n;
      if (lines >= targetLines) return { entries: out, mirrorsUsed: used };
    }
  }
  return { entries: out, mirrorsUsed: used };
}

function writeTree(bare: string, entries: readonly { mode: string; blob: string; path: string }[]): string {
  const work = mkdtempSync(join(tmpdir(), "bench-time-index-"));
  const env = { ...process.env, GIT_INDEX_FILE: join(work, "index") };
  try {
    execFileSync("git", ["update-index", "--add", "--index-info"], { cwd: bare, env, input: entries.map((e) => `${e.mode} ${e.blob}\t${e.path}`).join("\n") + "\n", maxBuffer: 1 << 30 });
    return execFileSync("git", ["write-tree"], { cwd: bare, env }).toString().trim();
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const commit = (bare: string, tree: string, message: string, parent?: string) =>
  execFileSync("git", ["commit-tree", tree, ...(parent ? ["-p", parent] : []), "-m", message], { cwd: bare, env: { ...process.env, ...ENV } }).toString().trim();

const hashBlob = (bare: string, content: string) => execFileSync("git", ["hash-object", "-w", "--stdin"], { cwd: bare, input: content }).toString().trim();

/** The 10 changed files: per mirror in turn, files with many definitions, each with a copied function and a changed number. */
async function makeChanges(bare: string, entries: readonly (Entry & { lines: number })[]) {
  const byMirror = new Map<string, (Entry & { lines: number })[]>();
  for (const e of entries) if (e.lines >= 80 && e.lines <= 2000 && !/(^|\/)(tests?|examples?|benches)\//.test(e.path)) byMirror.set(e.mirror, [...(byMirror.get(e.mirror) ?? []), e]);
  const changes: { path: string; lines: string[]; copy: string; copied: string; changedFunction: string | null }[] = [];
  const queues = [...byMirror.values()].map((list) => list.slice(0, 40));
  for (let round = 0; changes.length < 10 && queues.some((q) => q.length > 0); round++) {
    for (const q of queues) {
      if (changes.length >= 10) break;
      const e = q.shift();
      if (!e) continue;
      const path = `${e.mirror}/${e.path}`;
      const content = readBlobs(bare, [e.blob]).get(e.blob)?.toString("utf8");
      if (!content) continue;
      const defs = await definitionsOf(path, content);
      const functions = (defs ?? []).filter((d) => (d.kind === "function" || d.kind === "method") && !d.container && d.parent === null);
      if (functions.length < 2) continue;
      const lines = content.split("\n");
      const largest = [...functions].sort((a, b) => b.endLine - b.startLine - (a.endLine - a.startLine))[0]!;
      if (largest.endLine - largest.startLine < 5) continue;
      const copy = lines.slice(largest.startLine - 1, largest.endLine).join("\n").replace(new RegExp(`\\b${largest.name}\\b`), `${largest.name}_copy`);
      const target = functions.find((d) => d !== largest && !d.name.startsWith("_") && /\b\d+\b/.test(lines.slice(d.startLine - 1, d.endLine).join("\n")));
      if (target) {
        for (let n = target.startLine; n <= target.endLine; n++) {
          if (/\b\d+\b/.test(lines[n - 1]!)) {
            lines[n - 1] = lines[n - 1]!.replace(/\b(\d+)\b/, (m) => String(Number(m) + 1));
            break;
          }
        }
      }
      changes.push({ path, lines, copy, copied: largest.name, changedFunction: target?.name ?? null });
    }
  }
  // Each file gets the copy of another file's function, of the same language where there is one.
  const ext = (p: string) => p.slice(p.lastIndexOf("."));
  return changes.map((c, i) => {
    const others = changes.filter((o) => o !== c);
    const from = others.find((o) => ext(o.path) === ext(c.path)) ?? changes[(i + 1) % changes.length]!;
    const next = `${c.lines.join("\n").replace(/\n*$/, "")}\n\n${from.copy}\n`;
    return { path: c.path, blob: hashBlob(bare, next), copied: `${from.path}: ${from.copied}`, changedFunction: c.changedFunction };
  });
}

async function main() {
  if (args["pull-requests"]) {
    const figures = await benchPullRequests({ mirrors, pullRequests: parsePullRequests(args["pull-requests"]), runs, baseline: args.baseline ?? null, log: (l) => console.log(l) });
    const path = writeResults("bench-review-time-pull-requests", figures, args.out ? { path: resolve(args.out) } : {});
    console.log(`written ${path}`);
    return;
  }
  if (args.baseline) throw new Error("--baseline goes with --pull-requests");
  const started = performance.now();
  const { entries, mirrorsUsed } = pickFiles();
  const lines = entries.reduce((n, e) => n + e.lines, 0);
  const hostDir = mkdtempSync(join(tmpdir(), "bench-time-host-"));
  const dataDir = args["data-dir"] ? resolve(args["data-dir"]) : mkdtempSync(join(tmpdir(), "bench-time-data-"));
  const bare = hostRepository(hostDir, REPO, join(mirrors, mirrorsUsed[0]!, "repo"));
  // Objects of every mirror used.
  execFileSync("sh", ["-c", 'printf "%s\\n" "$@" > objects/info/alternates', "sh", ...mirrorsUsed.map((m) => join(mirrors, m, "repo", "objects"))], { cwd: bare });
  const files = entries.map((e) => ({ mode: e.mode, blob: e.blob, path: `${e.mirror}/${e.path}` }));
  const base = commit(bare, writeTree(bare, files), "large repository");
  setBranch(bare, "main", base);
  git(bare, ["symbolic-ref", "HEAD", "refs/heads/main"]);
  const changes = await makeChanges(bare, entries);
  const changed = new Map(changes.map((c) => [c.path, c.blob]));
  const head = commit(bare, writeTree(bare, files.map((f) => (changed.has(f.path) ? { ...f, blob: changed.get(f.path)! } : f))), "ten files", base);
  setBranch(bare, "feature", head);
  console.log(`repository: ${files.length} files, ${lines} lines from ${mirrorsUsed.length} mirrors (${((performance.now() - started) / 1000).toFixed(1)} s to build); pull request: ${changes.length} files`);

  const service = await startService(dataDir, hostDir, { LOUPE_WEBHOOK_SECRET_GITHUB: WEBHOOK_SECRET });
  const reviews: { seconds: number; status: string; reason: string | null; loadAverage: number }[] = [];
  let indexing: { seconds: number; files: number } | null = null;
  let summary: string | null = null;
  try {
    indexing = await indexBranch(service, REPO, "main");
    console.log(`indexed: ${indexing.files} files in ${indexing.seconds.toFixed(1)} s`);
    // Pull request numbers after those a kept data directory already holds.
    const first = args["data-dir"] ? Math.floor(Date.now() / 1000) % 1_000_000 : 1;
    for (let i = first; i < first + runs; i++) {
      await openPullRequest(service, { repo: REPO, number: i, title: "Ten files", body: "", head: "feature", headSha: head, base: "main", baseSha: base, defaultBranch: "main" });
      const outcome = await runReview(service, REPO, i, 3);
      // The machine's load when the review ended (1-minute average; 2 cores shared with other work).
      reviews.push({ seconds: Number(outcome.seconds.toFixed(3)), status: outcome.status, reason: outcome.reason, loadAverage: Number(loadavg()[0]!.toFixed(2)) });
      summary ??= outcome.body;
      console.log(`review ${i}: ${outcome.status} in ${outcome.seconds.toFixed(2)} s${outcome.reason ? ` (${outcome.reason})` : ""}`);
    }
  } finally {
    await service.close();
    rmSync(hostDir, { recursive: true, force: true });
    if (!args["data-dir"]) rmSync(dataDir, { recursive: true, force: true });
  }
  const seconds = reviews.map((r) => r.seconds).sort((a, b) => a - b);
  const figures = {
    repository: { files: files.length, lines, mirrors: mirrorsUsed },
    pullRequest: { files: changes.length, changes: changes.map((c) => ({ path: c.path, copiedFunction: c.copied, changedFunction: c.changedFunction })) },
    indexing,
    reviews,
    reviewSeconds: { median: seconds[Math.floor((seconds.length - 1) / 2)] ?? null, max: seconds[seconds.length - 1] ?? null, targetUnder: 5 },
    summaryOfFirstReview: summary,
  };
  const path = writeResults("bench-review-time", figures, args.out ? { path: resolve(args.out) } : {});
  console.log(`review time: median ${figures.reviewSeconds.median} s, max ${figures.reviewSeconds.max} s over ${reviews.length} runs; written ${path}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
