/**
 * Two results files of one measurement side by side (see scripts/eval/compare.ts):
 *
 *   npx tsx scripts/compare-runs.ts <before.json> <after.json>
 *
 * Either two runs of `npm run eval` (per-language table of both, the differences, the cases that moved) or
 * two runs of scripts/answer-quality.ts (named answers per language, the questions that changed). Write the
 * "before" run with `--out <file>` (or keep a copy of the committed results file) before changing the code.
 */
import { readFileSync } from "node:fs";
import { compareAnswers, compareEval, type AnswerFigures, type EvalFigures } from "./eval/compare.ts";

const USAGE = "npx tsx scripts/compare-runs.ts <before.json> <after.json>";
const [beforePath, afterPath] = process.argv.slice(2);
if (!beforePath || !afterPath || process.argv.includes("--help")) {
  process.stderr.write(`usage: ${USAGE}\n`);
  process.exit(beforePath && afterPath ? 0 : 2);
}
const figuresOf = (path: string): unknown => (JSON.parse(readFileSync(path, "utf8")) as { figures?: unknown }).figures;
const before = figuresOf(beforePath);
const after = figuresOf(afterPath);
const isEval = (f: unknown): f is EvalFigures => typeof f === "object" && f !== null && "tables" in f && "cases" in f;
const isAnswers = (f: unknown): f is AnswerFigures => typeof f === "object" && f !== null && "questions" in f;
if (isEval(before) && isEval(after)) process.stdout.write(compareEval(before, after) + "\n");
else if (isAnswers(before) && isAnswers(after)) process.stdout.write(compareAnswers(before, after) + "\n");
else {
  process.stderr.write(`not two results of one measurement (npm run eval, or scripts/answer-quality.ts)\n\nusage: ${USAGE}\n`);
  process.exit(2);
}
