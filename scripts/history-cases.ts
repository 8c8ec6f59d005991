/**
 * Evaluation cases from a repository's own history, for repositories no dev set covers: each case is a
 * real fix commit, its message the query and the source files it changed the answer.
 *
 *   npx tsx scripts/history-cases.ts --repos owner/name[,owner/name...] [--per-repo 10] [--depth 2000]
 *                                    [--before YYYY-MM-DD] [--min-words 6] [--mirrors ../.mirror]
 *                                    [--languages python,javascript,...] --out <cases.jsonl>
 *
 * Then: npm run eval -- --dataset <cases.jsonl> --data-dir <dir>
 *
 * Per repository (a mirror brought with `fetch`, `<mirrors>/<owner>+<name>/repo`), newest first along the
 * default branch's first parents, within --depth commits (committed before --before, so that a mirror
 * fetched again later gives the same cases), a commit is a case when:
 * - it is no merge, changes at most 8 files, and 1 to 3 of them are non-test source files of one
 *   language (scripts/eval/languages.ts: the baseline's own extensions and test conventions), none
 *   of them added or deleted (the file to find exists before the fix) and none a test, benchmark or
 *   example by its own name or folder (`NOT_ANSWER`);
 * - its message says it fixes code (a word of `FIX_WORDS` in its subject, no `NOT_CODE` type such as
 *   `docs:` or `chore:` and no typo), and it has at least --min-words words (6; 50 and more make
 *   report-like cases, whose messages describe the problem) once trailers (Signed-off-by,
 *   Co-authored-by...) and pull-request numbers are taken out;
 * - at most --per-repo cases a repository, spread over the window (every n-th of the candidates).
 * --languages: the languages whose files count as source (default: the seven of the dev sets; TypeScript
 * apart from JavaScript, Ruby, PHP, C#, Kotlin and Swift on request). A file of a language not listed is
 * neither source nor answer, so a list names the same commits whatever languages scripts/eval/languages.ts
 * knows.
 * The case's base_commit is the commit's first parent, its patch `git diff -U3 parent commit` of those
 * source files, the fields of ../shared/eval/README.md. The files it writes hold fetched repositories'
 * text: keep them out of the project (e.g. under a temp directory).
 */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { projectRoot } from "./results.ts";
import { git, mirrorOf } from "./eval/git-host.ts";
import { DEV_SET_LANGUAGES, DISPLAY_NAMES, isSourceFile, isTestFile, LANGUAGES } from "./eval/languages.ts";

const USAGE =
  "npx tsx scripts/history-cases.ts --repos owner/name[,owner/name...] [--per-repo 10] [--depth 2000] [--before YYYY-MM-DD] [--min-words 6] [--mirrors ../.mirror] [--languages python,javascript,...] --out <cases.jsonl>";
const { values: args } = parseArgs({
  options: {
    repos: { type: "string" },
    "per-repo": { type: "string", default: "10" },
    depth: { type: "string", default: "2000" },
    before: { type: "string" },
    "min-words": { type: "string", default: "6" },
    mirrors: { type: "string" },
    languages: { type: "string", default: DEV_SET_LANGUAGES.join(",") },
    out: { type: "string" },
  },
});
function fail(message: string): never {
  process.stderr.write(`${message}\n\nusage: ${USAGE}\n`);
  process.exit(2);
}
if (!args.repos || !args.out) fail("--repos and --out are required");
const perRepo = Number(args["per-repo"]);
const depth = Number(args.depth);
const minWords = Number(args["min-words"]);
if (![perRepo, depth, minWords].every((n) => Number.isInteger(n) && n >= 1)) fail("--per-repo, --depth and --min-words take whole numbers above 0");
if (args.before !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(args.before)) fail("--before takes a date, YYYY-MM-DD");
const mirrors = args.mirrors ? resolve(args.mirrors) : resolve(projectRoot, "../.mirror");
const languages = args.languages.split(",").map((l) => l.trim().toLowerCase()).filter(Boolean);
for (const l of languages) if (!LANGUAGES.includes(l)) fail(`--languages: unknown language ${l} (known: ${LANGUAGES.join(", ")})`);

/** What a fix commit's subject says (data selection only; the ranking never reads it). */
const FIX_WORDS = /\b(fix(es|ed)?|bug|crash(es)?|panic(s)?|regression|incorrect(ly)?|wrong(ly)?|broken|segfault|leak(s)?)\b/i;
/** Commits that fix no code: conventional-commit types for docs, tests, builds and chores, and typo fixes. */
const NOT_CODE = /^(docs?|test|tests|ci|build|chore|style)(\(|:|!)|\btypos?\b/i;
/** Files no user asks for as the code at fault: a test, benchmark or example by its own name (`test.c`, `bench/x.cc`). */
const NOT_ANSWER = /(^|\/)(tests?|bench(es|marks?)?|examples?|samples?|docs?)(\/|\.[^/.]+$)/i;
const TRAILER = /^[A-Z][\w-]+(-by|-authored-by)?:\s.*$/;

type Change = { status: string; path: string };
type Commit = { commit: string; parent: string | undefined; subject: string; text: string; changes: Change[] };

/**
 * The first-parent, non-merge commits of HEAD, newest first, each with its first parent, subject, message
 * (trailers and pull-request numbers taken out) and changes against its parent: one `git log`.
 */
function historyOf(dir: string, count: number, before: string | undefined): Commit[] {
  const until = before === undefined ? [] : [`--before=${before}T00:00:00Z`];
  const out = git(dir, ["-c", "core.quotePath=false", "log", "--first-parent", "--no-merges", "--no-renames", `--max-count=${count}`, ...until, "--format=%x01%H %P%x02%s%x02%B%x02", "--name-status", "HEAD"]);
  return out
    .split("\x01")
    .filter(Boolean)
    .map((block) => {
      const [ids, subject, body, status] = block.split("\x02") as [string, string, string, string];
      const [commit, parent] = ids.split(" ");
      const changes = status
        .split("\n")
        .filter((l) => l.includes("\t"))
        .map((l) => ({ status: l.slice(0, l.indexOf("\t")), path: l.slice(l.indexOf("\t") + 1) }));
      return { commit: commit!, parent: parent || undefined, subject, text: messageOf(body), changes };
    });
}

/** A commit message without its trailers (Signed-off-by...) and pull-request numbers. */
const messageOf = (body: string): string =>
  body
    .split("\n")
    .filter((line) => !TRAILER.test(line.trim()))
    .join("\n")
    .replace(/\(#\d+\)/g, "")
    .trim();

/** The repository's language for a C/C++ header: the one more of its tracked sources are written in. */
function headerLanguage(dir: string): "C" | "C++" {
  const files = git(dir, ["ls-tree", "-r", "--name-only", "HEAD"]).split("\n");
  const c = files.filter((f) => f.endsWith(".c")).length;
  const cpp = files.filter((f) => /\.(cc|cpp|cxx|hpp)$/.test(f)).length;
  return cpp > c ? "C++" : "C";
}

/** The one language of the source files among `paths` (a .h file read as `header`'s), or undefined when none or several. */
function languageOf(paths: readonly string[], header: string): string | undefined {
  const candidates = languages.filter((l) => (l === "c" || l === "c++" ? DISPLAY_NAMES[l] === header : true));
  const found = new Set(paths.flatMap((p) => candidates.filter((l) => isSourceFile(p, l))));
  return found.size === 1 ? DISPLAY_NAMES[[...found][0]!] : undefined;
}

const cases: object[] = [];
for (const repo of args.repos.split(",").map((r) => r.trim()).filter(Boolean)) {
  if (!/^[\w.-]+\/[\w.-]+$/.test(repo)) fail(`--repos: ${repo} is not owner/name`);
  const dir = mirrorOf(mirrors, repo);
  const header = headerLanguage(dir);
  const commits = historyOf(dir, depth, args.before);
  const candidates: { commit: string; parent: string; language: string; gold: string[]; text: string }[] = [];
  for (const { commit, parent, subject, text, changes } of commits) {
    if (!parent || !FIX_WORDS.test(subject) || NOT_CODE.test(subject)) continue;
    if (changes.length === 0 || changes.length > 8) continue;
    const language = languageOf(changes.map((c) => c.path), header);
    if (!language) continue;
    const key = language.toLowerCase();
    const gold = changes.filter((c) => isSourceFile(c.path, key) && !isTestFile(c.path, key));
    if (gold.length < 1 || gold.length > 3 || gold.some((c) => c.status !== "M" || NOT_ANSWER.test(c.path))) continue;
    if (text.split(/\s+/).filter(Boolean).length < minWords) continue;
    candidates.push({ commit, parent, language, gold: gold.map((c) => c.path), text });
  }
  const step = Math.max(1, Math.floor(candidates.length / perRepo));
  const chosen = candidates.filter((_, i) => i % step === 0).slice(0, perRepo);
  for (const c of chosen) {
    cases.push({
      instance_id: `${repo.replace("/", "__")}-${c.commit.slice(0, 10)}`,
      repo,
      language: c.language,
      base_commit: c.parent,
      problem_statement: c.text,
      gold_files: c.gold,
      patch: git(dir, ["diff", "--no-color", "--no-ext-diff", "-U3", c.parent, c.commit, "--", ...c.gold]),
    });
  }
  process.stderr.write(`${repo}: ${candidates.length} fix commits in the last ${commits.length}, ${chosen.length} taken\n`);
}
writeFileSync(resolve(args.out), cases.map((c) => JSON.stringify(c)).join("\n") + "\n");
process.stderr.write(`${cases.length} cases -> ${args.out}\n`);
