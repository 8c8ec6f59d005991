/**
 * Two runs of `npm run eval` (or of scripts/answer-quality.ts) side by side: what a change did, per
 * language, and which cases moved. Used to judge a ranking change on every language at once (a change is
 * kept only when it helps across languages), without reading two tables by eye.
 */
import { COLUMNS, type TableRow } from "./report.ts";

type EvalCase = { instance_id: string; language: string; loupe: { fileRank: number | null; spanRank: number | null } };
export type EvalFigures = { digest?: string; tables: TableRow[]; cases: EvalCase[] };
type Question = { repo: string; language?: string; question: string; named: boolean; fileRank?: number | null };
export type AnswerFigures = { questions: Question[] };

const LOUPE = COLUMNS.filter((c) => c.startsWith("loupe "));
/** BM25's file figures (its whole-file span equals them). */
const BM25_FILE = COLUMNS.filter((c) => c.startsWith("bm25 Acc"));
const rank = (r: number | null) => (r === null ? "-" : String(r));
/** Lower is better; no rank is worst. */
const rankValue = (r: number | null) => (r === null ? Infinity : r);

/**
 * The per-language table of both runs (Loupe's file and span figures, then BM25's file figures), a row of
 * differences under each language whose figures moved, then every case whose file or span rank moved.
 */
export function compareEval(before: EvalFigures, after: EvalFigures): string {
  const out: string[] = [];
  const ids = (f: EvalFigures) => new Set(f.cases.map((c) => c.instance_id));
  const [a, b] = [ids(before), ids(after)];
  const missing = [...a].filter((id) => !b.has(id)).length + [...b].filter((id) => !a.has(id)).length;
  if (missing > 0) out.push(`warning: the runs cover different cases (${missing} in one run only); their tables are not comparable`);
  const header = ["", "run", "n", ...LOUPE.map((c) => c.replace("loupe ", "")), "|", ...BM25_FILE.map((c) => c.replace("bm25 Acc", "BM25"))];
  const rows: string[][] = [header];
  const afterByName = new Map(after.tables.map((t) => [t.name, t]));
  for (const t0 of before.tables) {
    const t1 = afterByName.get(t0.name);
    const line = (label: string, t: TableRow) => [t0.name, label, String(t.cases), ...LOUPE.map((c) => Number(t[c]).toFixed(1)), "|", ...BM25_FILE.map((c) => Number(t[c]).toFixed(1))];
    rows.push(line("before", t0));
    if (!t1) continue;
    rows.push(line("after", t1));
    const deltas = LOUPE.map((c) => Number(t1[c]) - Number(t0[c]));
    if (deltas.some((d) => Math.abs(d) >= 0.05)) rows.push(["", "change", "", ...deltas.map((d) => (Math.abs(d) < 0.05 ? "." : `${d > 0 ? "+" : ""}${d.toFixed(1)}`))]);
  }
  const widths = header.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
  for (const r of rows) out.push(r.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(" ").trimEnd());
  const afterCases = new Map(after.cases.map((c) => [c.instance_id, c]));
  const moved = before.cases.flatMap((c0) => {
    const c1 = afterCases.get(c0.instance_id);
    if (!c1 || (c0.loupe.fileRank === c1.loupe.fileRank && c0.loupe.spanRank === c1.loupe.spanRank)) return [];
    const better = rankValue(c1.loupe.fileRank) - rankValue(c0.loupe.fileRank) || rankValue(c1.loupe.spanRank) - rankValue(c0.loupe.spanRank);
    return [`${better < 0 ? "up  " : "down"} ${c0.language.padEnd(10)} ${c0.instance_id.padEnd(40)} file ${rank(c0.loupe.fileRank)} -> ${rank(c1.loupe.fileRank)}, span ${rank(c0.loupe.spanRank)} -> ${rank(c1.loupe.spanRank)}`];
  });
  out.push("", moved.length ? `${moved.length} cases moved:` : "no case moved", ...moved);
  if (before.digest && after.digest) out.push(before.digest === after.digest ? "same digest: every reference is the same" : "digests differ: some references changed");
  return out.join("\n");
}

/** Named answers of two answer-quality runs per language, and the questions that changed. */
export function compareAnswers(before: AnswerFigures, after: AnswerFigures): string {
  const key = (q: Question) => `${q.repo}\u0000${q.question}`;
  const afterByKey = new Map(after.questions.map((q) => [key(q), q]));
  // A run from before the per-language tables has no languages: the other run's are used.
  const languageOf = (q: Question) => q.language ?? afterByKey.get(key(q))?.language ?? "?";
  const languages = [...new Set(before.questions.map(languageOf))].sort();
  // File ranks came later than named answers: a run without them shows "-".
  const ranked = before.questions.every((q) => q.fileRank !== undefined) && after.questions.every((q) => q.fileRank !== undefined);
  const out = [`language    before  after${ranked ? "  file@1 before  after" : ""}  (named of)`];
  const count = (qs: readonly Question[]) => qs.filter((q) => q.named).length;
  const first = (qs: readonly Question[]) => qs.filter((q) => q.fileRank === 1).length;
  for (const language of [...languages, "overall"]) {
    const qs = before.questions.filter((q) => language === "overall" || languageOf(q) === language);
    const now = qs.map((q) => afterByKey.get(key(q))).filter((q): q is Question => q !== undefined);
    const files = ranked ? `  ${String(first(qs)).padStart(13)} ${String(first(now)).padStart(6)}` : "";
    out.push(`${language.padEnd(11)} ${String(count(qs)).padStart(6)} ${String(count(now)).padStart(6)}${files}  (${qs.length})`);
  }
  const changed = before.questions.flatMap((q) => {
    const now = afterByKey.get(key(q));
    if (!now) return [];
    const rank = (r: number | null | undefined) => (r === null || r === undefined ? "-" : String(r));
    const file = ranked && now.fileRank !== q.fileRank ? ` (file ${rank(q.fileRank)} -> ${rank(now.fileRank)})` : "";
    if (now.named !== q.named) return [`${now.named ? "named now " : "lost      "} ${q.repo}: ${q.question}${file}`];
    return file ? [`file moved ${q.repo}: ${q.question}${file}`] : [];
  });
  out.push("", changed.length ? `${changed.length} questions changed:` : "no question changed", ...changed);
  return out.join("\n");
}
