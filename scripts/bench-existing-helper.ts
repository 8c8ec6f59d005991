/**
 * The "existing helper" finding on real repositories: does a review name the function a pull request
 * copies, and does it stay quiet on functions that are really new?
 *
 *   npx tsx scripts/bench-existing-helper.ts [--mirrors <dir>] [--repos a/b,c/d] [--copies 12] [--negatives 6]
 *                                            [--back 300] [--seed 21] [--out <file>]
 *
 * `--mirrors` (or LOUPE_BENCH_MIRRORS; default ../.mirror): bare mirrors `<owner>+<name>/repo`. Per
 * repository (scripts/existing-helper/cases.ts): the first-parent commit `--back` commits before the
 * mirror's HEAD is served from a file:// git host (its objects borrowed from the mirror) as branch
 * `main` and indexed through POST /v2/repositories; `--copies` of its functions (seeded draw over four
 * size bands) each become a pull request adding a near-copy in a new file beside the original (renamed
 * function, parameters and locals; every other one a literal changed), and `--negatives` functions that
 * later commits added (new to the indexed commit) each a pull request adding it the same way. Each pull
 * request is recorded by a signed webhook, reviewed through POST /v2/code-reviews at strictness 3, and
 * its comments read back with the MCP tool list_merge_request_comments.
 *
 * Recall: copies whose comment names the original (its file, and a line within the original's lines,
 * decorators and comments above it allowed); precision: existing-helper comments that name the
 * original of a copy, over all existing-helper comments (on copies and negatives). Figures:
 * scripts/results/bench-existing-helper.json with the command and the commit.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { git, mirrorOf } from "./eval/git-host.ts";
import { startService } from "./eval/service.ts";
import { projectRoot, writeResults } from "./results.ts";
import { hostRepository, indexBranch, mcpClient, openPullRequest, runReview, serviceComments, setBranch, WEBHOOK_SECRET } from "./review-bench/support.ts";
import { fileAt, functionsAt, laterNewFunctions, nearCopy, newFile, pickOriginals, seeded, type BenchCase } from "./existing-helper/cases.ts";

const { values: args } = parseArgs({
  options: {
    mirrors: { type: "string" },
    repos: { type: "string", default: "pallets/flask,psf/requests,expressjs/express,tokio-rs/tracing" },
    copies: { type: "string", default: "12" },
    negatives: { type: "string", default: "6" },
    back: { type: "string", default: "300" },
    seed: { type: "string", default: "21" },
    out: { type: "string" },
  },
});
const mirrors = resolve(args.mirrors ?? process.env.LOUPE_BENCH_MIRRORS ?? join(projectRoot, "../.mirror"));
const repos = args.repos!.split(",").map((r) => r.trim()).filter(Boolean);
const log = (line: string) => console.error(line);
const pct = (a: number, b: number) => (b === 0 ? "-" : `${((100 * a) / b).toFixed(1)} %`);

/** The pull request's commit: `base` plus one new file, written into the host repository. */
function commitAdding(bare: string, base: string, file: string, content: string, message: string): string {
  const blob = git(bare, ["hash-object", "-w", "--stdin"], { input: content }).trim();
  const index = join(mkdtempSync(join(tmpdir(), "bench-helper-index-")), "index");
  const env = { ...process.env, GIT_INDEX_FILE: index, GIT_AUTHOR_NAME: "Bench", GIT_AUTHOR_EMAIL: "bench@example.com", GIT_COMMITTER_NAME: "Bench", GIT_COMMITTER_EMAIL: "bench@example.com" };
  git(bare, ["read-tree", base], { env });
  git(bare, ["update-index", "--add", "--cacheinfo", `100644,${blob},${file}`], { env });
  const tree = git(bare, ["write-tree"], { env }).trim();
  rmSync(join(index, ".."), { recursive: true, force: true });
  return git(bare, ["commit-tree", tree, "-p", base, "-m", message], { env }).trim();
}

const NAMED = /closely duplicates the existing `([^`]+)` at `([^`]+):(\d+)`/;

type Outcome = { status: string; named: { label: string; path: string; line: number } | null; comments: number; seconds: number };

async function main() {
  const random = seeded(Number(args.seed));
  const hostDir = mkdtempSync(join(tmpdir(), "bench-helper-host-"));
  const dataDir = mkdtempSync(join(tmpdir(), "bench-helper-data-"));
  const service = await startService(dataDir, hostDir, { LOUPE_WEBHOOK_SECRET_GITHUB: WEBHOOK_SECRET });
  const client = await mcpClient(service);
  const results: (BenchCase & { outcome: Outcome; right: boolean | null })[] = [];
  const indexed: Record<string, { commit: string; files: number; seconds: number; functions: number }> = {};
  let number = 0;
  try {
    for (const repo of repos) {
      const mirror = mirrorOf(mirrors, repo);
      const head = git(mirror, ["rev-parse", "HEAD"]).trim();
      const history = git(mirror, ["rev-list", "--first-parent", "-n", String(Number(args.back) + 1), head]).split("\n").filter(Boolean);
      const at = history[history.length - 1]!;
      const all = await functionsAt(mirror, at);
      const originals = pickOriginals(all, Number(args.copies), random);
      const negatives = await laterNewFunctions(mirror, at, head, Number(args.negatives), random);
      const cases: BenchCase[] = [];
      originals.forEach((f, i) => {
        const copy = nearCopy(f, i);
        const placed = newFile(f, copy.text, i, fileAt(mirror, at, f.path) ?? "");
        cases.push({ kind: "copy", repo, source: f, file: placed.file, content: placed.content, edits: copy.edits });
      });
      negatives.forEach((f, i) => {
        const placed = newFile(f, f.text, 100 + i, fileAt(mirror, f.commit, f.path) ?? "");
        cases.push({ kind: "negative", repo, source: f, file: placed.file, content: placed.content, edits: [] });
      });
      const bare = hostRepository(hostDir, repo, mirror);
      setBranch(bare, "main", at);
      git(bare, ["symbolic-ref", "HEAD", "refs/heads/main"]);
      const ix = await indexBranch(service, repo, "main");
      indexed[repo] = { commit: at, files: ix.files, seconds: Number(ix.seconds.toFixed(1)), functions: all.length };
      log(`${repo}: indexed ${at.slice(0, 10)} (${ix.files} files, ${all.length} functions over the floor) in ${ix.seconds.toFixed(1)} s; ${originals.length} copies, ${negatives.length} negatives`);
      for (const c of cases) {
        number += 1;
        const sha = commitAdding(bare, at, c.file, c.content, `Add ${c.source.name} (${c.kind})`);
        setBranch(bare, `case-${number}`, sha);
        await openPullRequest(service, { repo, number, title: `Add ${c.file}`, body: "", head: `case-${number}`, headSha: sha, base: "main", baseSha: at, defaultBranch: "main" });
        const review = await runReview(service, repo, number, 3);
        const comments = (await serviceComments(client, repo, number)).filter((x) => x.filePath !== null && NAMED.test(x.body));
        const m = comments[0] ? NAMED.exec(comments[0].body)! : null;
        const named = m ? { label: m[1]!, path: m[2]!, line: Number(m[3]) } : null;
        // Right: a copy's comment names the original (its lines; decorators and comments above allowed).
        const right = named === null ? null : c.kind === "copy" && named.path === c.source.path && named.line >= c.source.startLine - 5 && named.line <= c.source.endLine;
        results.push({ ...c, outcome: { status: review.status, named, comments: comments.length, seconds: Number(review.seconds.toFixed(2)) }, right });
        log(`  ${c.kind} ${c.source.path}:${c.source.startLine} ${c.source.parent ? `${c.source.parent}.` : ""}${c.source.name} (${c.source.codeLines} lines) -> ${review.status}, ${named ? `names ${named.label} at ${named.path}:${named.line} (${right ? "right" : "wrong"})` : "nothing named"}`);
      }
    }
  } finally {
    await client.close().catch(() => {});
    await service.close();
    rmSync(hostDir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }

  const bands = [[4, 9], [10, 24], [25, 59], [60, 100_000]] as const;
  const figure = (list: typeof results) => {
    const copies = list.filter((r) => r.kind === "copy");
    const named = list.filter((r) => r.outcome.named !== null);
    return {
      copies: copies.length,
      copiesNamed: copies.filter((r) => r.right).length,
      recall: copies.length ? Number((copies.filter((r) => r.right).length / copies.length).toFixed(3)) : null,
      negatives: list.filter((r) => r.kind === "negative").length,
      negativesNamed: list.filter((r) => r.kind === "negative" && r.outcome.named).length,
      comments: named.length,
      precision: named.length ? Number((named.filter((r) => r.right).length / named.length).toFixed(3)) : null,
      failed: list.filter((r) => r.outcome.status !== "COMPLETED").length,
    };
  };
  const byRepo = Object.fromEntries(repos.map((r) => [r, figure(results.filter((x) => x.repo === r))]));
  const bySize = Object.fromEntries(bands.map(([lo, hi]) => [`${lo}-${hi > 1000 ? "" : hi} lines`, figure(results.filter((x) => x.source.codeLines >= lo && x.source.codeLines <= hi))]));
  const overall = figure(results);
  console.log("| repository | indexed commit | copies | named right | recall | negatives | negatives named | comments | precision |");
  console.log("|---|---|---:|---:|---:|---:|---:|---:|---:|");
  for (const r of repos) {
    const f = byRepo[r]!;
    console.log(`| ${r} | ${indexed[r]?.commit.slice(0, 10) ?? "-"} | ${f.copies} | ${f.copiesNamed} | ${pct(f.copiesNamed, f.copies)} | ${f.negatives} | ${f.negativesNamed} | ${f.comments} | ${pct(Math.round((f.precision ?? 0) * f.comments), f.comments)} |`);
  }
  console.log(`| **all** | | ${overall.copies} | ${overall.copiesNamed} | ${pct(overall.copiesNamed, overall.copies)} | ${overall.negatives} | ${overall.negativesNamed} | ${overall.comments} | ${overall.precision === null ? "-" : `${(overall.precision * 100).toFixed(1)} %`} |`);
  for (const [band, f] of Object.entries(bySize)) console.log(`  ${band}: ${f.copiesNamed}/${f.copies} copies named`);
  const path = writeResults(
    "bench-existing-helper",
    {
      rule: "per repository: the first-parent commit --back before HEAD indexed; seeded copies over four size bands (near-copies in a new file beside the original) and functions later commits added (new to the indexed commit) as negatives; strictness 3",
      seed: Number(args.seed),
      overall,
      byRepository: byRepo,
      bySize,
      indexed,
      cases: results.map((r) => ({
        kind: r.kind, repo: r.repo, source: `${r.source.path}:${r.source.startLine}-${r.source.endLine}`, function: `${r.source.parent ? `${r.source.parent}.` : ""}${r.source.name}`,
        codeLines: r.source.codeLines, commit: r.source.commit ?? null, file: r.file, edits: r.edits, status: r.outcome.status, named: r.outcome.named, right: r.right, seconds: r.outcome.seconds,
      })),
    },
    args.out ? { path: resolve(args.out) } : {},
  );
  log(`figures written to ${path}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
