/**
 * Review noise on real merged work: 50 real commits, each reviewed as a pull request at strictness 3
 * through the public API, and how many comments the reviews make per 100 changed lines.
 *
 *   npx tsx scripts/bench-review-noise.ts [--mirrors <dir>] [--commits 50 (e.g. 400)] [--repos a/b,c/d] [--strictness 3] [--out <file>]
 *                                        [--judgements <file>] [--data-dir <dir>] [--index-at head|base]
 *   npx tsx scripts/bench-review-noise.ts --rejudge scripts/results/bench-review-noise.json   (judgements merged again)
 *
 * Commits, by a fixed rule: from each repository's default branch (the mirror's HEAD), walking the
 * first-parent history newest first, the non-merge commits that change 1-10 files of which at least one
 * is a source file (SOURCE in review-bench/support.ts); the most recent ones, the same number from each
 * repository (the remainder to the first ones). Repositories (--repos): pallets/flask, psf/requests,
 * expressjs/express, tokio-rs/tracing by default (mirrors `<mirrors>/<owner>+<name>/repo`, default ../.mirror).
 *
 * Each repository is served from a file:// git host (its objects borrowed from the mirror), its default
 * branch indexed through POST /v2/repositories (the findings that use the code graph need it); with
 * `--index-at base`, each pull request's base branch is indexed too before its review, so the review reads
 * the code graph of the commit's parent (as a service that indexes the target branch would) instead of
 * the mirror's newest commit, which may be years later; each
 * commit becomes a pull request from a branch at the commit into a branch at its parent (a signed
 * GitHub webhook), reviewed through POST /v2/code-reviews and read back with the MCP tool
 * list_merge_request_comments. Comments are the inline ones (summaries are one per review and not
 * counted; their "Tests not updated" notes are listed apart, and each function a note names is a
 * finding of its own in the judgement).
 *
 * Figures: comments per 100 changed lines, overall and per repository, over the changed lines of all
 * files and of source files; every comment with its repository, commit, file:line and text. The
 * judgement of the comments (right or wrong, and why) is kept in --judgements (default
 * scripts/results/bench-review-noise-judgements.json, written by a person who read them) and merged
 * into the results by (repository, commit, file, line), the notes' functions by (repository, commit,
 * function); the right share is given for comments, note findings and both together, and for the notes
 * as the summary comments they are (right when every function a note names is), and what nobody
 * judged yet is counted as unjudged. Results: scripts/results/bench-review-noise.json.
 */
import { mkdtempSync, readFileSync, rmSync, existsSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { git, mirrorOf } from "./eval/git-host.ts";
import { startService } from "./eval/service.ts";
import { projectRoot, writeResults } from "./results.ts";
import { hostRepository, indexBranch, mcpClient, openPullRequest, runReview, serviceComments, setBranch, SOURCE, WEBHOOK_SECRET } from "./review-bench/support.ts";

const DEFAULT_REPOS = "pallets/flask,psf/requests,expressjs/express,tokio-rs/tracing";

const { values: args } = parseArgs({
  options: {
    mirrors: { type: "string" },
    commits: { type: "string", default: "50" },
    repos: { type: "string", default: DEFAULT_REPOS },
    rejudge: { type: "string" },
    strictness: { type: "string", default: "3" },
    out: { type: "string" },
    judgements: { type: "string" },
    "data-dir": { type: "string" },
    "index-at": { type: "string", default: "head" },
  },
});
if (args["index-at"] !== "head" && args["index-at"] !== "base") throw new Error("--index-at takes head or base");
const indexAtBase = args["index-at"] === "base";
const REPOS = args.repos!.split(",").map((r) => r.trim()).filter(Boolean);
const mirrors = args.mirrors ? resolve(args.mirrors) : resolve(projectRoot, "../.mirror");
const total = Number(args.commits);
const strictness = Number(args.strictness);
const judgementsPath = args.judgements ? resolve(args.judgements) : join(projectRoot, "scripts", "results", "bench-review-noise-judgements.json");

type Commit = { repo: string; sha: string; parent: string; subject: string; files: string[]; added: number; deleted: number; sourceAdded: number; sourceDeleted: number };

/** The most recent qualifying commits of one mirror (see the rule above). */
function selectCommits(repo: string, mirror: string, count: number): Commit[] {
  // Deep enough for the count asked for (about one commit in three qualifies in these repositories).
  const log = git(mirror, ["log", "--first-parent", "--no-merges", "-n", String(Math.max(600, count * 8)), "--format=%x01%H %P%x02%s", "--numstat", "HEAD"]);
  const out: Commit[] = [];
  for (const entry of log.split("\x01").slice(1)) {
    const [head, ...rest] = entry.split("\n");
    const [ids, subject] = head!.split("\x02") as [string, string];
    const [sha, ...parents] = ids.trim().split(" ");
    if (parents.length !== 1) continue;
    const stats = rest.filter((l) => l.trim() !== "").map((l) => l.split("\t") as [string, string, string]);
    if (stats.length < 1 || stats.length > 10) continue;
    const files = stats.map((s) => s[2]);
    if (!files.some((f) => SOURCE.test(f))) continue;
    const n = (v: string) => (v === "-" ? 0 : Number(v));
    const sum = (list: typeof stats, i: 0 | 1) => list.reduce((a, s) => a + n(s[i]), 0);
    const source = stats.filter((s) => SOURCE.test(s[2]));
    out.push({ repo, sha: sha!, parent: parents[0]!, subject, files, added: sum(stats, 0), deleted: sum(stats, 1), sourceAdded: sum(source, 0), sourceDeleted: sum(source, 1) });
    if (out.length >= count) break;
  }
  return out;
}

type Judgement = { repo: string; commit: string; file: string; line: number; rule?: string; right: boolean; reason: string };
/** Judgements of the "Tests not updated" notes: per function named in a note. */
type NoteJudgement = { repo: string; commit: string; function: string; right: boolean; reason: string };
type JudgementsFile = { how?: string; judged: Judgement[]; notes?: NoteJudgement[]; before?: unknown };
const judgementsFile: JudgementsFile = existsSync(judgementsPath) ? (JSON.parse(readFileSync(judgementsPath, "utf8")) as JudgementsFile) : { judged: [] };
const judgements = judgementsFile.judged;

const ruleOf = (body: string): string => {
  // The first words of the comment stand for its rule in the dump (the comments carry no rule id on the wire).
  return body.split("\n")[0]!.replace(/`[^`]*`/g, "`…`").slice(0, 60);
};

type Comment = { repo: string; commit: string; file: string; line: number; text: string };

/** One function named in a "Tests not updated" note: a finding of its own, judged by (repository, commit, function). */
type NoteFinding = { repo: string; commit: string; function: string; path: string; line: number; tests: string };

/** A function's name with its whitespace collapsed (an older note printed a C++ template parent over several lines). */
const oneLine = (label: string) => label.replace(/\s+/g, " ").replace(/([<([]) /g, "$1").replace(/ ([>)\]])/g, "$1");

/**
 * The functions a review's note names: one per entry and line number (`path:12, 40` names a repeated name
 * once with each of its lines: two findings), an entry read to the next one even when its name spans lines.
 */
function noteFindings(rows: readonly { repo: string; commit: string; untestedNote: string | null }[]): NoteFinding[] {
  return rows.flatMap((r) =>
    (r.untestedNote ?? "").split(/\n(?=- |\n|###)/).flatMap((entry) => {
      const m = /^- `([^`]+)` \(`(.+):(\d+(?:, \d+)*)`\): tested in (.*)$/s.exec(entry.trim());
      return m ? m[3]!.split(", ").map((line) => ({ repo: r.repo, commit: r.commit, function: oneLine(m[1]!), path: m[2]!, line: Number(line), tests: m[4]! })) : [];
    }),
  );
}

const share = (judged: number, right: number) => ({ judged, right, rightShare: judged === 0 ? null : Number((right / judged).toFixed(3)) });

/**
 * The judgements file merged into a run's comments (by repository, commit, file and line) and the
 * functions its notes name (by repository, commit and function; a function named twice in one note,
 * such as a property's getter and setter, counts twice). The right share is given for the inline
 * comments, for the note findings, and for both together.
 */
function judgementsOf(all: readonly Comment[], rows: readonly { repo: string; commit: string; untestedNote: string | null }[]) {
  const key = (j: { repo: string; commit: string; file: string; line: number }) => `${j.repo}|${j.commit}|${j.file}|${j.line}`;
  const byKey = new Map(judgements.map((j) => [key(j), j]));
  const judged = all.flatMap((c) => {
    const j = byKey.get(key(c));
    return j ? [{ ...j, text: c.text }] : [];
  });
  const noteKey = (n: { repo: string; commit: string; function: string }) => `${n.repo}|${n.commit}|${oneLine(n.function)}`;
  const byNote = new Map((judgementsFile.notes ?? []).map((n) => [noteKey(n), n]));
  const findings = noteFindings(rows);
  const judgedNotes = findings.flatMap((f) => {
    const j = byNote.get(noteKey(f));
    return j ? [{ ...f, right: j.right, reason: j.reason }] : [];
  });
  const commentsRight = judged.filter((j) => j.right).length;
  const notesRight = judgedNotes.filter((j) => j.right).length;
  // Each note is one summary comment: right when every function it names is, partly right when some are.
  const perNote = new Map<string, { functions: number; judged: number; right: number }>();
  const noteOf = (f: { repo: string; commit: string }) => {
    const k = `${f.repo}|${f.commit}`;
    let n = perNote.get(k);
    if (!n) perNote.set(k, (n = { functions: 0, judged: 0, right: 0 }));
    return n;
  };
  for (const f of findings) noteOf(f).functions += 1;
  for (const j of judgedNotes) {
    const n = noteOf(j);
    n.judged += 1;
    if (j.right) n.right += 1;
  }
  const wholeNotes = [...perNote.values()].filter((n) => n.judged === n.functions);
  const judgement = {
    how: judgementsFile.how ?? null,
    comments: { total: all.length, ...share(judged.length, commentsRight), unjudged: all.length - judged.length },
    notes: { total: findings.length, ...share(judgedNotes.length, notesRight), unjudged: findings.length - judgedNotes.length },
    noteComments: {
      total: perNote.size,
      ...share(wholeNotes.length, wholeNotes.filter((n) => n.right === n.functions).length),
      partlyRight: wholeNotes.filter((n) => n.right > 0 && n.right < n.functions).length,
      unjudged: perNote.size - wholeNotes.length,
    },
    together: { total: all.length + findings.length, ...share(judged.length + judgedNotes.length, commentsRight + notesRight) },
  };
  return { judgement, judged, judgedNotes };
}

const pctOf = (x: { judged: number; right: number; rightShare: number | null }) => `${x.right} of ${x.judged} right${x.rightShare === null ? "" : ` (${(100 * x.rightShare).toFixed(1)} %)`}`;
const judgementLine = (j: ReturnType<typeof judgementsOf>["judgement"]) =>
  `judged: comments ${pctOf(j.comments)} (${j.comments.unjudged} unjudged); note findings ${pctOf(j.notes)} (${j.notes.unjudged} unjudged); together ${pctOf(j.together)}; ` +
  `notes as comments ${pctOf(j.noteComments)}, ${j.noteComments.partlyRight} partly right (${j.noteComments.unjudged} unjudged)`;

/**
 * --rejudge <results file>: the judgements file merged again into the comments and notes of an earlier
 * run, the run's command, commit and figures kept (comments are read after the run, by a person).
 */
function rejudge(path: string) {
  const file = JSON.parse(readFileSync(path, "utf8")) as { figures: Record<string, unknown> & { comments: Comment[]; testsNotUpdatedNotes: { repo: string; commit: string; note: string | null }[] } };
  const rows = file.figures.testsNotUpdatedNotes.map((n) => ({ repo: n.repo, commit: n.commit, untestedNote: n.note }));
  const merged = judgementsOf(file.figures.comments, rows);
  Object.assign(file.figures, merged, { noteFindings: noteFindings(rows).length, rejudgedAt: new Date().toISOString() });
  writeFileSync(path, JSON.stringify(file, null, 2) + "\n");
  console.log(judgementLine(merged.judgement));
}

async function main() {
  if (args.rejudge) return rejudge(resolve(args.rejudge));
  const perRepo = REPOS.map((_, i) => Math.floor(total / REPOS.length) + (i < total % REPOS.length ? 1 : 0));
  const commits = REPOS.flatMap((repo, i) => selectCommits(repo, mirrorOf(mirrors, repo), perRepo[i]!));
  const hostDir = mkdtempSync(join(tmpdir(), "bench-noise-host-"));
  const dataDir = args["data-dir"] ? resolve(args["data-dir"]) : mkdtempSync(join(tmpdir(), "bench-noise-data-"));
  const service = await startService(dataDir, hostDir, { LOUPE_WEBHOOK_SECRET_GITHUB: WEBHOOK_SECRET });
  const client = await mcpClient(service);
  const indexing: Record<string, { seconds: number; files: number }> = {};
  const skippedRepos: { repo: string; reason: string }[] = [];
  const baseIndexSeconds: number[] = [];
  const rows: {
    repo: string; commit: string; subject: string; status: string; reason: string | null; seconds: number; added: number; deleted: number; sourceAdded: number; sourceDeleted: number;
    comments: { file: string; line: number; lineEnd: number; text: string }[]; untestedNote: string | null;
  }[] = [];
  try {
    for (const repo of REPOS) {
      const mirror = mirrorOf(mirrors, repo);
      const bare = hostRepository(hostDir, repo, mirror);
      setBranch(bare, "main", git(mirror, ["rev-parse", "HEAD"]).trim());
      git(bare, ["symbolic-ref", "HEAD", "refs/heads/main"]);
      const mine = commits.filter((c) => c.repo === repo);
      for (const c of mine) {
        setBranch(bare, `base-${c.sha.slice(0, 12)}`, c.parent);
        setBranch(bare, `pr-${c.sha.slice(0, 12)}`, c.sha);
      }
      try {
        indexing[repo] = await indexBranch(service, repo, "main");
      } catch (error) {
        // A mirror the host cannot serve (objects missing from a partial mirror): the repository is left out, and says so.
        console.log(`left out ${repo}: ${(error as Error).message.slice(0, 200)}`);
        skippedRepos.push({ repo, reason: (error as Error).message.slice(0, 300) });
        continue;
      }
      console.log(`indexed ${repo}: ${indexing[repo]!.files} files in ${indexing[repo]!.seconds.toFixed(1)} s`);
      let number = 0;
      for (const c of mine) {
        number += 1;
        if (indexAtBase) {
          const base = await indexBranch(service, repo, `base-${c.sha.slice(0, 12)}`);
          baseIndexSeconds.push(base.seconds);
        }
        await openPullRequest(service, { repo, number, title: c.subject, body: "", head: `pr-${c.sha.slice(0, 12)}`, headSha: c.sha, base: `base-${c.sha.slice(0, 12)}`, baseSha: c.parent, defaultBranch: "main" });
        const outcome = await runReview(service, repo, number, strictness);
        const comments = (await serviceComments(client, repo, number)).filter((x) => x.filePath !== null);
        const note = outcome.body && outcome.body.includes("### Tests not updated") ? outcome.body.slice(outcome.body.indexOf("### Tests not updated")).split("\n\n###")[0]!.trim() : null;
        rows.push({
          repo, commit: c.sha, subject: c.subject, status: outcome.status, reason: outcome.reason, seconds: Number(outcome.seconds.toFixed(2)),
          added: c.added, deleted: c.deleted, sourceAdded: c.sourceAdded, sourceDeleted: c.sourceDeleted,
          comments: comments.map((x) => ({ file: x.filePath!, line: x.lineStart ?? 0, lineEnd: x.lineEnd ?? 0, text: x.body })),
          untestedNote: note,
        });
        console.log(`${repo} ${c.sha.slice(0, 10)} ${outcome.status} ${outcome.seconds.toFixed(1)}s +${c.added}/-${c.deleted}: ${comments.length} comment(s)${note ? " + tests note" : ""}  ${c.subject.slice(0, 60)}`);
      }
    }
  } finally {
    await client.close().catch(() => {});
    await service.close();
    rmSync(hostDir, { recursive: true, force: true });
    if (!args["data-dir"]) rmSync(dataDir, { recursive: true, force: true });
  }

  const rate = (list: typeof rows, source: boolean) => {
    const lines = list.reduce((n, r) => n + (source ? r.sourceAdded + r.sourceDeleted : r.added + r.deleted), 0);
    const comments = list.reduce((n, r) => n + r.comments.length, 0);
    return { commits: list.length, comments, changedLines: lines, commentsPer100Lines: lines === 0 ? 0 : Number(((100 * comments) / lines).toFixed(3)) };
  };
  const all = rows.flatMap((r) => r.comments.map((c) => ({ repo: r.repo, commit: r.commit, file: c.file, line: c.line, lineEnd: c.lineEnd, rule: ruleOf(c.text), text: c.text })));
  const { judgement, judged, judgedNotes } = judgementsOf(all, rows);
  const figures = {
    strictness,
    rule: "per repository, the most recent non-merge first-parent commits of the default branch changing 1-10 files, at least one a source file",
    repositories: REPOS,
    leftOut: skippedRepos,
    indexing,
    indexedAt: indexAtBase ? "each pull request's base (and the default branch)" : "the default branch (the mirror's newest commit)",
    baseIndexSeconds: indexAtBase ? { median: median(baseIndexSeconds), max: Math.max(...baseIndexSeconds) } : null,
    overall: { allFiles: rate(rows, false), sourceFiles: rate(rows, true) },
    perRepository: Object.fromEntries(REPOS.map((repo) => [repo, { allFiles: rate(rows.filter((r) => r.repo === repo), false), sourceFiles: rate(rows.filter((r) => r.repo === repo), true) }])),
    failedOrSkipped: rows.filter((r) => r.status !== "COMPLETED").map((r) => ({ repo: r.repo, commit: r.commit, status: r.status, reason: r.reason })),
    reviewSeconds: { median: median(rows.map((r) => r.seconds)), max: Math.max(...rows.map((r) => r.seconds)) },
    comments: all,
    testsNotUpdatedNotes: rows.filter((r) => r.untestedNote).map((r) => ({ repo: r.repo, commit: r.commit, note: r.untestedNote })),
    noteFindings: noteFindings(rows).length,
    judgement,
    judged,
    judgedNotes,
    // Figures and judgements of an earlier run, as the judgements file records them (before a fix).
    before: judgementsFile.before ?? null,
    commits: rows.map((r) => ({ repo: r.repo, commit: r.commit, subject: r.subject, status: r.status, files: commits.find((c) => c.sha === r.commit)!.files.length, added: r.added, deleted: r.deleted, comments: r.comments.length, seconds: r.seconds })),
  };
  const path = writeResults("bench-review-noise", figures, args.out ? { path: resolve(args.out) } : {});
  console.log(`\n${rows.length} commits at strictness ${strictness}: ${figures.overall.allFiles.comments} comments, ` +
    `${figures.overall.allFiles.commentsPer100Lines} per 100 changed lines (${figures.overall.sourceFiles.commentsPer100Lines} per 100 changed source lines)`);
  for (const repo of REPOS) {
    const r = figures.perRepository[repo]!;
    console.log(`  ${repo}: ${r.allFiles.commits} commits, ${r.allFiles.comments} comments, ${r.allFiles.commentsPer100Lines} per 100 lines (${r.sourceFiles.commentsPer100Lines} source)`);
  }
  console.log(`${figures.testsNotUpdatedNotes.length} "Tests not updated" notes naming ${figures.noteFindings} functions; ${judgementLine(judgement)}`);
  console.log(`written ${path}`);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s.length % 2 ? s[(s.length - 1) / 2]! : Number(((s[s.length / 2 - 1]! + s[s.length / 2]!) / 2).toFixed(2));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
