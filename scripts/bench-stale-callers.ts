/**
 * Stale call sites on real history: commits that change a function's parameters in one file and update
 * its callers in others (mined from `git log -p`, scripts/stale-callers/mine.ts) are replayed as pull
 * requests holding the definition change alone, reviewed by the real service
 * (scripts/stale-callers/run.ts), and the call sites its broken-callers comments name are compared with
 * the ones the commit updated (scripts/stale-callers/score.ts).
 *
 *   npx tsx scripts/bench-stale-callers.ts --mirrors <dir> [--repos a/b,c/d] [--max-commits 2000] [--max-cases 25] [--mine-only]
 *
 * Each repository is mined for its main language family (the most files at HEAD: Python,
 * JavaScript/TypeScript, Go or Rust); `--mine-only` prints the mined cases and stops.
 *
 * `--mirrors` (or LOUPE_BENCH_MIRRORS): a folder of bare mirrors `<owner>+<name>/repo`. Figures go to
 * scripts/results/bench-stale-callers.json with the command and the commit.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { writeResults } from "./results.ts";
import { mirrorOf } from "./eval/git-host.ts";
import { languageOfPath, mineRepository, type MinedCase, type MineStats } from "./stale-callers/mine.ts";
import { startService, type CaseOutcome } from "./stale-callers/run.ts";
import { scoreCase, type CaseScore } from "./stale-callers/score.ts";

const { values: args } = parseArgs({
  options: {
    mirrors: { type: "string" },
    repos: { type: "string", default: "pallets/flask,psf/requests,expressjs/express,iamkun/dayjs,marshmallow-code/marshmallow,tokio-rs/tracing,zeromicro/go-zero" },
    "max-commits": { type: "string", default: "2000" },
    "max-cases": { type: "string", default: "25" },
    out: { type: "string" },
    "mine-only": { type: "boolean", default: false },
  },
});
const mirrors = args.mirrors ?? process.env.LOUPE_BENCH_MIRRORS;
if (!mirrors) {
  console.error("usage: npx tsx scripts/bench-stale-callers.ts --mirrors <dir of <owner>+<name>/repo mirrors> [--repos a/b,c/d]");
  process.exit(2);
}
const repos = args.repos!.split(",").map((r) => r.trim()).filter(Boolean);
const PATHS: Record<string, string[]> = { python: ["*.py"], script: ["*.js", "*.mjs", "*.cjs", "*.jsx", "*.ts", "*.tsx"], go: ["*.go"], rust: ["*.rs"] };
const FAMILY: Record<string, string> = { python: "python", javascript: "script", typescript: "script", go: "go", rust: "rust" };

/** The language family most of the repository's files (at HEAD) are written in: the one its history is mined for. */
function familyOf(dir: string): string {
  const counts = new Map<string, number>();
  for (const path of execFileSync("git", ["ls-tree", "-r", "--name-only", "HEAD"], { cwd: dir, maxBuffer: 1 << 30 }).toString("utf8").split("\n")) {
    const language = languageOfPath(path);
    if (language) counts.set(FAMILY[language]!, (counts.get(FAMILY[language]!) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? "script";
}

const log = (line: string) => console.error(line);
const pct = (a: number, b: number) => (b === 0 ? "-" : `${((100 * a) / b).toFixed(1)} %`);

type Row = { repo: string; language: string; commits: number; candidates: number; cases: number; leftOut: Record<string, number>; truth: number; named: number; found: number; correct: number; failed: number; reviewSeconds: number[] };

const mined: { repo: string; family: string; cases: MinedCase[]; stats: MineStats }[] = [];
for (const repo of repos) {
  const t = performance.now();
  // Each repository is mined for the files of its main language family (Python, JavaScript/TypeScript, Go, Rust).
  const family = familyOf(mirrorOf(mirrors, repo));
  const { cases, stats } = await mineRepository(mirrorOf(mirrors, repo), repo, { maxCommits: Number(args["max-commits"]), maxCases: Number(args["max-cases"]), paths: PATHS[family]! });
  log(`mined ${repo} (${family}): ${stats.commits} commits, ${stats.candidates} changed definitions, ${stats.cases} cases (${((performance.now() - t) / 1000).toFixed(0)} s)`);
  mined.push({ repo, family, cases, stats });
}

if (args["mine-only"]) {
  for (const m of mined) for (const c of m.cases) console.log(`${c.repo} ${c.commit.slice(0, 10)} ${c.path} ${c.functions.map((f) => `${f.name}(${f.paramsBefore}) -> (${f.paramsAfter}): ${f.breaks}`).join("; ")} | truth ${c.truth.map((t) => `${t.path}:${t.line}`).join(", ")}`);
  for (const m of mined) console.log(`left out in ${m.repo}: ${Object.entries(m.stats.leftOut).map(([why, k]) => `${k} ${why}`).join("; ")}`);
  process.exit(0);
}

const root = mkdtempSync(join(tmpdir(), "bench-stale-callers-"));
const service = await startService(join(root, "data"), join(root, "host"), mirrors);
const rows: Row[] = [];
const details: { repo: string; commit: string; path: string; functions: string[]; outcome: Pick<CaseOutcome, "status" | "reason">; score: CaseScore }[] = [];
let n = 0;
try {
  for (const m of mined) {
    const row: Row = { repo: m.repo, language: m.family, commits: m.stats.commits, candidates: m.stats.candidates, cases: m.cases.length, leftOut: m.stats.leftOut, truth: 0, named: 0, found: 0, correct: 0, failed: 0, reviewSeconds: [] };
    for (const c of m.cases) {
      n++;
      let outcome: CaseOutcome;
      try {
        outcome = await service.run(c, n);
      } catch (error) {
        outcome = { status: "ERROR", reason: (error as Error).message, named: [], seconds: { index: 0, review: 0 } };
      }
      const score = await scoreCase(mirrorOf(mirrors, c.repo), c, outcome.named);
      if (outcome.status !== "COMPLETED") row.failed++;
      else row.reviewSeconds.push(outcome.seconds.review);
      row.truth += score.truth;
      row.named += score.named;
      row.found += score.found;
      row.correct += score.correct;
      details.push({ repo: c.repo, commit: c.commit, path: c.path, functions: c.functions.map((f) => `${f.name}(${f.paramsBefore}) -> (${f.paramsAfter}): ${f.breaks}`), outcome: { status: outcome.status, reason: outcome.reason }, score });
      log(`${c.repo} ${c.commit.slice(0, 10)} ${c.path} [${c.functions.map((f) => f.name).join(", ")}]: ${outcome.status}${outcome.reason ? ` (${outcome.reason})` : ""}, truth ${score.truth}, named ${score.named}, found ${score.found}, stale ${score.correct}, review ${outcome.seconds.review.toFixed(1)} s`);
    }
    rows.push(row);
  }
} finally {
  await service.close();
  rmSync(root, { recursive: true, force: true });
}

const total = rows.reduce((t, r) => ({ ...t, cases: t.cases + r.cases, truth: t.truth + r.truth, named: t.named + r.named, found: t.found + r.found, correct: t.correct + r.correct, failed: t.failed + r.failed }), { cases: 0, truth: 0, named: 0, found: 0, correct: 0, failed: 0 });
const median = (xs: number[]) => (xs.length === 0 ? 0 : [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!);
console.log("| repository | commits mined | changed definitions | cases | stale sites | named | found | recall | precision | review median |");
console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
for (const r of rows) {
  console.log(`| ${r.repo} | ${r.commits} | ${r.candidates} | ${r.cases}${r.failed ? ` (${r.failed} failed)` : ""} | ${r.truth} | ${r.named} | ${r.found} | ${pct(r.found, r.truth)} | ${pct(r.correct, r.named)} | ${median(r.reviewSeconds).toFixed(1)} s |`);
}
console.log(`| **all** | ${rows.reduce((a, r) => a + r.commits, 0)} | ${rows.reduce((a, r) => a + r.candidates, 0)} | ${total.cases} | ${total.truth} | ${total.named} | ${total.found} | ${pct(total.found, total.truth)} | ${pct(total.correct, total.named)} | ${median(rows.flatMap((r) => r.reviewSeconds)).toFixed(1)} s |`);
for (const family of [...new Set(rows.map((r) => r.language))]) {
  const of = rows.filter((r) => r.language === family);
  const sum = (f: (r: Row) => number) => of.reduce((a, r) => a + f(r), 0);
  console.log(`| *${family}* | ${sum((r) => r.commits)} | ${sum((r) => r.candidates)} | ${sum((r) => r.cases)} | ${sum((r) => r.truth)} | ${sum((r) => r.named)} | ${sum((r) => r.found)} | ${pct(sum((r) => r.found), sum((r) => r.truth))} | ${pct(sum((r) => r.correct), sum((r) => r.named))} | |`);
}
for (const r of rows) console.log(`left out in ${r.repo}: ${Object.entries(r.leftOut).map(([why, k]) => `${k} ${why}`).join("; ")}`);

const path = writeResults(
  "bench-stale-callers",
  {
    recall: total.truth ? total.found / total.truth : null,
    precision: total.named ? total.correct / total.named : null,
    totals: total,
    repositories: rows.map((r) => ({ ...r, recall: r.truth ? r.found / r.truth : null, precision: r.named ? r.correct / r.named : null, reviewSecondsMedian: median(r.reviewSeconds), reviewSeconds: undefined })),
    cases: details,
  },
  args.out ? { path: args.out } : {},
);
log(`figures written to ${path}`);
