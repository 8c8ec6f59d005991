/**
 * Offline answer quality: questions about real repositories (scripts/answer-quality/questions.jsonl, each
 * with the definitions that answer it at a pinned commit), asked through POST /v2/query of the real
 * service with no chat model configured.
 *
 *   npx tsx scripts/answer-quality.ts [--questions <file>] [--repo owner/name] [--mirrors <dir>] [--data-dir <dir>] [--out <file>] [--show]
 *
 * Mirrors as for `npm run eval` (../.mirror/<owner>+<name>/repo, relative to the project root). Reports the
 * share of answers that name an answering definition with lines overlapping it (answer-quality/score.ts),
 * the share whose answering file is the first of the answer's sources (file@1) or among the first three
 * (file@3), and the median length of the prose before the first code block and of the whole answer, per repository
 * and per language (of the file a question's first answer is in); writes
 * scripts/results/answer-quality.json. --show prints every answer. --questions takes another set in the same
 * shape (default scripts/answer-quality/questions.jsonl; scripts/answer-quality/heldout.jsonl holds questions
 * about six more repositories and languages, scripts/answer-quality/fresh.jsonl and fresh2.jsonl about sixteen
 * others written before Loupe first ran on them; see docs/answers.md) and writes its results to scripts/results/answer-quality-<name>.json.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { projectRoot, writeResults } from "./results.ts";
import type { Case } from "./eval/cases.ts";
import { branchOf, buildHostTree } from "./eval/git-host.ts";
import { indexCases, startService } from "./eval/service.ts";
import { fileRankOf, median, scoreAnswer, type Expected } from "./answer-quality/score.ts";
import { detectLanguage } from "../src/indexing/chunking/languages.ts";

/** `language`, when given, names the language of a question whose files' extensions do not tell it (a C++ library's `.h` headers). */
type Question = { repo: string; commit: string; language?: string; question: string; answers: Expected[] };

const USAGE = "npx tsx scripts/answer-quality.ts [--questions <file>] [--repo owner/name] [--mirrors <dir>] [--data-dir <dir>] [--out <file>] [--show]";
const { values: args } = parseArgs({
  options: {
    questions: { type: "string" },
    repo: { type: "string" },
    mirrors: { type: "string" },
    "data-dir": { type: "string" },
    out: { type: "string" },
    show: { type: "boolean", default: false },
    help: { type: "boolean", default: false },
  },
});
if (args.help) {
  process.stdout.write(`usage: ${USAGE}\n`);
  process.exit(0);
}

const questionsFile = args.questions ? resolve(args.questions) : join(projectRoot, "scripts", "answer-quality", "questions.jsonl");
/** Results of another set go to their own file: answer-quality-<set>.json. */
const resultsName = args.questions ? `answer-quality-${basename(questionsFile).replace(/\.jsonl?$/, "")}` : "answer-quality";
const questions = readFileSync(questionsFile, "utf8")
  .split("\n")
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as Question)
  .filter((q) => !args.repo || q.repo.toLowerCase() === args.repo.toLowerCase());
if (questions.length === 0) {
  process.stderr.write(`no question about ${args.repo}\n\nusage: ${USAGE}\n`);
  process.exit(2);
}

const mirrors = args.mirrors ? resolve(args.mirrors) : resolve(projectRoot, "../.mirror");
const keepData = Boolean(args["data-dir"]);
const dataDir = resolve(args["data-dir"] ?? mkdtempSync(join(tmpdir(), "loupe-answers-")));
const hostDir = `${dataDir}-githost`;
const log = (line: string) => process.stderr.write(`${line}\n`);

/** One indexing target per (repository, commit), shaped as the eval's cases so its git host serves it. */
function targetOf(q: Question): Case {
  return { instance_id: `answers-${q.repo.replace("/", "-")}-${q.commit.slice(0, 12)}`, repo: q.repo, language: "", base_commit: q.commit, problem_statement: "", gold_files: [], patch: "", dataset: "answer-quality" };
}

/** A question's language: its own `language`, else that of the file its first answer is in. */
const languageOfQuestion = (q: Question): string => q.language ?? detectLanguage(q.answers[0]?.path ?? "")?.name ?? "other";

async function main() {
  const targets = [...new Map(questions.map((q) => [targetOf(q).instance_id, targetOf(q)])).values()];
  buildHostTree(targets, hostDir, mirrors);
  const service = await startService(dataDir, hostDir);
  const rows: { repo: string; language: string; question: string; named: boolean; fileRank: number | null; proseChars: number; totalChars: number; sources: number }[] = [];
  try {
    const indexing = await indexCases(service, targets, { jobs: 2, log });
    if (indexing.failures.size) throw new Error(`indexing failed: ${[...indexing.failures.values()].join("; ")}`);
    for (const q of questions) {
      const body = (await service.api("/v2/query", {
        messages: [{ id: "1", role: "user", content: q.question }],
        repositories: [{ remote: "github", repository: q.repo, branch: branchOf(targetOf(q)) }],
      })) as { message: string; sources: { filepath: string }[] };
      const score = scoreAnswer(body.message, q.answers, body.sources.map((s) => s.filepath));
      rows.push({ repo: q.repo, language: languageOfQuestion(q), question: q.question, named: score.named, fileRank: fileRankOf(body.sources, q.answers), proseChars: score.proseChars, totalChars: score.totalChars, sources: body.sources.length });
      if (args.show) log(`\n=== ${q.repo}: ${q.question} (${score.named ? "named" : "NOT named"}: ${q.answers.map((a) => `${a.name} ${a.linestart}-${a.lineend}`).join(" | ")})\n${body.message}`);
    }
  } finally {
    await service.close();
    if (!keepData) {
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(hostDir, { recursive: true, force: true });
    }
  }

  const share = (rs: typeof rows, test: (r: (typeof rows)[number]) => boolean) => Math.round((1000 * rs.filter(test).length) / rs.length) / 10;
  const summarise = (rs: typeof rows) => ({
    questions: rs.length,
    namedShare: share(rs, (r) => r.named),
    fileAt1Share: share(rs, (r) => r.fileRank === 1),
    fileAt3Share: share(rs, (r) => r.fileRank !== null && r.fileRank <= 3),
    medianProseChars: median(rs.map((r) => r.proseChars)),
    medianTotalChars: median(rs.map((r) => r.totalChars)),
  });
  const perRepo = Object.fromEntries([...new Set(rows.map((r) => r.repo))].map((repo) => [repo, summarise(rows.filter((r) => r.repo === repo))]));
  const perLanguage = Object.fromEntries([...new Set(rows.map((r) => r.language))].sort().map((language) => [language, summarise(rows.filter((r) => r.language === language))]));
  const overall = summarise(rows);
  const header = ["", "questions", "named %", "file@1 %", "file@3 %", "median prose", "median total"];
  for (const groups of [{ ...perRepo, overall }, { ...perLanguage, overall }]) {
    const table = [header, ...Object.entries(groups).map(([k, s]) => [k, String(s.questions), s.namedShare.toFixed(1), s.fileAt1Share.toFixed(1), s.fileAt3Share.toFixed(1), String(s.medianProseChars), String(s.medianTotalChars)])];
    const widths = header.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
    for (const r of table) process.stdout.write(r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ") + "\n");
    process.stdout.write("\n");
  }
  for (const r of rows.filter((r) => !r.named)) process.stdout.write(`not named: ${r.repo}: ${r.question}\n`);
  const path = writeResults(resultsName, { overall, perRepo, perLanguage, questions: rows }, args.out ? { path: resolve(args.out) } : {});
  log(`results: ${path}`);
}

main().catch((error: unknown) => {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
