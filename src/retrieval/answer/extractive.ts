/**
 * The answer to a question when no chat model is configured: short prose that names the definitions
 * that answer it with their exact lines (the best first, then a few others), then the code of the best
 * one or two spans. When the best span holds few of the question's words, it says so plainly.
 */
import { answerSpans, firstSentence, type AnswerSource, type AnswerSpan, type NamedLines } from "./spans.ts";
import { questionTerms } from "./terms.ts";
import { fileLines } from "./cited.ts";
import { tracedFrame, type Traced } from "./traced.ts";
import type { StackFrame } from "../query-analysis.ts";
import { mentionsWord } from "../ranking.ts";
import { delegationIn } from "../delegation.ts";
import { excerptOf } from "../excerpt.ts";

const LANG_FENCE: Record<string, string> = { python: "python", typescript: "typescript", javascript: "javascript", tsx: "tsx", go: "go", rust: "rust", java: "java", ruby: "ruby", c: "c", cpp: "cpp", csharp: "csharp", php: "php", kotlin: "kotlin", swift: "swift", scala: "scala", bash: "bash" };

/** Spans listed, code blocks shown, lines per code block, and spans of one file listed before the other files'. */
export const ANSWER_SHAPE = { listed: 5, quoted: 2, quotedLines: 30, perFile: 3 } as const;

/**
 * Below this share of the question's words in the best span, the answer says nothing matches well. A
 * newcomer's question is longer than the code's words (scripts/answer-quality.ts, its held-out and fresh
 * sets: 78 questions no rule was tuned on): there the best span's share does not tell a right answer from
 * a wrong one (AUC 0.54), and at half the answer opened 27 of 55 right answers with "nothing matches".
 * At a quarter it says so when the span holds almost nothing of the question: 3 of 55 right, 2 of 23 wrong.
 */
const WELL_MATCHED = 0.25;

const range = (a: number, b: number) => (a === b ? `line ${a}` : `lines ${a}–${b}`);

const folderOf = (path: string) => path.slice(0, path.lastIndexOf("/") + 1);

/** The last part of a span's name (`redisvFormatCommand` of `Foo.redisvFormatCommand`). */
const ownName = (span: AnswerSpan): string | null => span.name?.split(/\.|::/).pop() ?? null;

/**
 * A span listed, with how many files of its folder have a span like it among the results (their code in
 * `codes`), and the other places of the same definition in its file (the windows of one long definition).
 */
type Listed = { span: AnswerSpan; alike: number; codes: string[]; parts: AnswerSpan[] };

/** The identifiers of a span's code, string literals left out: what its code is made of, not what it says. */
function shapeOf(code: string): Set<string> {
  const bare = code.replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`/g, " ");
  return new Set(bare.match(/[A-Za-z_$][\w$]*/g) ?? []);
}

/** Share of identifiers two spans' code has in common (Jaccard). */
function alikeShare(a: string, b: string): number {
  const x = shapeOf(a);
  const y = shapeOf(b);
  let common = 0;
  for (const w of x) if (y.has(w)) common++;
  return common / Math.max(1, x.size + y.size - common);
}

/** Two spans are the same thing written again when this share of their identifiers is common. */
const ALIKE = 0.5;

/**
 * The spans to list, at most `limit`: a span in another file of the same folder, named and kinded like
 * one already listed (or folded into it) and written with mostly the same identifiers (each locale's
 * `locale` object, each migration's `up`), counts as one more like it instead of taking a place, so the
 * list shows different code. Two different types that share a name (`Glob` in two modules) stay apart.
 * Another place of a definition already listed from the same file (a window of a long class or
 * function) joins its line instead of taking a place of its own.
 */
export function distinctSpans(spans: readonly AnswerSpan[], limit: number): Listed[] {
  const out: Listed[] = [];
  for (const span of spans) {
    const same = span.name ? out.find((o) => o.span.source === span.source && o.span.name === span.name && o.span.kind === span.kind) : undefined;
    if (same) {
      same.parts.push(span);
      continue;
    }
    const twin = span.name
      ? out.find(
          (o) =>
            o.span.name === span.name &&
            o.span.kind === span.kind &&
            o.span.source.path !== span.source.path &&
            o.span.source.repository === span.source.repository &&
            folderOf(o.span.source.path) === folderOf(span.source.path) &&
            o.codes.some((code) => alikeShare(code, span.code) >= ALIKE),
        )
      : undefined;
    if (twin) {
      twin.alike++;
      twin.codes.push(span.code);
    } else if (out.length < limit) out.push({ span, alike: 0, codes: [span.code], parts: [] });
  }
  return out;
}

function what({ span, alike, parts }: Listed, withRepository: boolean, docChars: number): string {
  const folder = folderOf(span.source.path);
  const more = alike > 0 ? ` (${alike} more file${alike === 1 ? "" : "s"} in \`${folder || "./"}\` too)` : "";
  // The lines of the definition each place is (a window's whole definition, a long class from its header).
  const cited = [span, ...parts].map((p) => p.cited).filter((c, i, all) => all.findIndex((o) => o.linestart <= c.linestart && o.lineend >= c.lineend) === i);
  const lines = cited.map((p, i) => (i === 0 ? range(p.linestart, p.lineend) : p.linestart === p.lineend ? `${p.linestart}` : `${p.linestart}–${p.lineend}`));
  const allLines = lines.length === 1 ? lines[0]! : `${lines.slice(0, -1).join(", ")} and ${lines[lines.length - 1]}`;
  const where = `\`${span.source.path}\`${withRepository ? ` (${span.source.repository})` : ""}, ${allLines}${more}`;
  const head = span.name ? `**\`${span.name}\`** ${span.kind === "code" ? "" : `(${span.label}) `}in ${where}` : where;
  const seen = [span, ...parts].flatMap((p) => p.members).slice(0, 2);
  const members = seen.length ? `; see ${seen.map((m) => `\`${m.name}\` (${range(m.linestart, m.lineend)})`).join(" and ")}` : "";
  return `${head}${members}${span.doc ? `: ${firstSentence(span.doc, docChars)}` : ""}`;
}

const sentence = (s: string) => (/[.!?…]$/.test(s) ? s : `${s}.`);

/**
 * The fence of a code block quoting `code` as it is: longer than any run of backticks inside it
 * (CommonMark: a block ends only at a fence at least as long as its opening one), at least three.
 */
function codeFence(code: string): string {
  let longest = 0;
  for (const run of code.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return "`".repeat(Math.max(3, longest + 1));
}

function quote(span: AnswerSpan, part: NamedLines | null, label = part ? `(\`${part.name}\`)` : ""): string {
  const [start, end] = part ? [part.linestart, part.lineend] : [span.linestart, span.lineend];
  const lines = span.code.split("\n").slice(start - span.linestart, end - span.linestart + 1);
  // A long definition's quote opens it and goes on from the window the search matched (../excerpt.ts).
  const shown = excerptOf(lines.join("\n"), start, part ? undefined : span.focus, ANSWER_SHAPE.quotedLines);
  const fence = codeFence(shown);
  return `\`${span.source.path}:${start}-${end}\`${label ? ` ${label}` : ""}\n${fence}${LANG_FENCE[span.language] ?? ""}\n${shown}\n${fence}`;
}

/**
 * Lines around a span's first use of `name` (USE_CONTEXT before, twice that after), or null. A line that
 * defines a name of its own so called (`const name = (`, `function name(`) is no use, nor a C or C++
 * declaration of it (`void name(ctx *c);`, a header's prototype).
 */
function useLines(span: AnswerSpan, name: string): NamedLines | null {
  const n = name.replace(/[$]/g, "\\$");
  const defines = new RegExp(
    `\\b(?:const|let|var|function|def|fn|func)\\s+${n}\\b|^\\s*${n}\\s*[:=]\\s*(?:async\\s*)?(?:function\\b|\\()` +
      `|^\\s*(?!(?:return|else|case|do|goto|throw|await|yield|new|delete)\\b)[A-Za-z_]\\w*(?:[\\s*&]+[A-Za-z_]\\w*)*[\\s*&]+${n}\\s*\\([^;{}]*\\)\\s*;`,
  );
  const at = span.code.split("\n").findIndex((l) => mentionsWord(l, name) && !defines.test(l));
  if (at < 0) return null;
  const line = span.linestart + at;
  return { name, linestart: Math.max(span.linestart, line - USE_CONTEXT), lineend: Math.min(span.lineend, line + 2 * USE_CONTEXT) };
}
const USE_CONTEXT = 3;

/**
 * The places listed for "where is X used?": the spans whose code uses X (not X's own definition, nor a
 * name that only starts like it: `redisFreeCommand` is no use of `redisFree`), in their order; the
 * places as they are when none does.
 */
function usingSpans(name: string, ordered: readonly AnswerSpan[], listed: Listed[]): Listed[] {
  const using = ordered.filter((span) => ownName(span) !== name && useLines(span, name) !== null);
  return using.length > 0 ? distinctSpans(using, ANSWER_SHAPE.listed) : listed;
}

/** The answer to "where is X used?": the spans that use it, best first, and the lines of the first two uses. */
function usesAnswer(name: string, listed: readonly Listed[], withRepository: boolean): string[] {
  const out = [`\`${name}\` is used here (best first):`, ""];
  for (const l of listed) out.push(`- ${what(l, withRepository, 110)}`);
  const quotes = listed
    .map((l) => ({ span: l.span, part: useLines(l.span, name) }))
    .filter((q): q is { span: AnswerSpan; part: NamedLines } => q.part !== null)
    .slice(0, ANSWER_SHAPE.quoted)
    .map((q) => quote(q.span, q.part, `(uses \`${name}\`)`));
  if (quotes.length) out.push("", quotes.join("\n\n"));
  out.push("", "_No language model is configured: this answer lists the code that matches the question best._");
  return out;
}

/** A comment line, or a preprocessor directive line (`#include`, an include guard). */
const COMMENT_LINE = /^\s*(?:\/\/|\/\*|\*|#|--|;;)/;

/**
 * A file's opening run of comments (its licence and description, with its includes), no code: it says
 * what the file is about, not where anything is done.
 */
export function isOpeningComment(span: AnswerSpan): boolean {
  if (span.linestart !== 1 || span.name !== null) return false;
  let inBlock = false;
  let comments = 0;
  for (const line of span.code.split("\n")) {
    const t = line.trim();
    if (t === "") continue;
    if (!inBlock && !COMMENT_LINE.test(t)) return false;
    comments++;
    if (inBlock) inBlock = !t.includes("*/");
    else if (t.startsWith("/*") && !t.includes("*/", 2)) inBlock = true;
  }
  return comments > 0;
}

/** The spans with files' opening comments after the code: an answer leads with where things are done. */
const codeFirst = (spans: readonly AnswerSpan[]): AnswerSpan[] => [...spans.filter((s) => !isOpeningComment(s)), ...spans.filter(isOpeningComment)];

/**
 * The spans in the order they are listed: at most `ANSWER_SHAPE.perFile` of one file before the other
 * files' spans, the rest after them. A file's fourth place is less likely the answer than the next
 * file's best one (measured with scripts/answer-quality.ts on its three question sets: two or one per
 * file lost answers on all of them).
 */
function filesInTurn(spans: readonly AnswerSpan[]): AnswerSpan[] {
  const taken = new Map<AnswerSource, number>();
  const first: AnswerSpan[] = [];
  const rest: AnswerSpan[] = [];
  for (const span of spans) {
    const n = taken.get(span.source) ?? 0;
    if (n < ANSWER_SHAPE.perFile) {
      first.push(span);
      taken.set(span.source, n + 1);
    } else rest.push(span);
  }
  return [...first, ...rest];
}

/**
 * The listed span the best match hands its work to: the search's reason for the best match's file says
 * so (../delegation.ts) and names the best match itself.
 */
function delegateSpan(best: AnswerSpan, others: readonly AnswerSpan[]): AnswerSpan | null {
  const named = delegationIn(best.source.reasons);
  if (!named || ownName(best) !== named.entry) return null;
  return others.find((s) => ownName(s) === named.delegate) ?? null;
}

/** What the trace says of the best place: the frame that names it, and its line when it is in it. */
function tracedSentence({ frame, line }: Traced, best: AnswerSpan): string {
  const where = frame.path ? `${frame.path.slice(frame.path.lastIndexOf("/") + 1)}${frame.line !== null ? `:${frame.line}` : ""}` : null;
  const named = [frame.symbol ? `\`${frame.symbol}\`` : null, where ? `\`${where}\`` : null].filter(Boolean).join(" at ");
  return line !== null
    ? `The trace's frame ${named} points into it: line ${line} of \`${best.source.path}\`, quoted first below.`
    : `The trace's frame ${named} names it.`;
}

/** Lines around the line a trace points at (TRACED_BEFORE before, TRACED_AFTER after), within the cited definition. */
function tracedQuote(span: AnswerSpan, line: number): string | null {
  const start = Math.max(span.cited.linestart, line - TRACED_BEFORE);
  const end = Math.min(span.cited.lineend, line + TRACED_AFTER);
  const code = fileLines(span.source, start, end);
  if (code === null) return null;
  const part = { ...span, linestart: start, lineend: end, code };
  return quote(part, null, `(line ${line}, where the trace points)`);
}
const TRACED_BEFORE = 6;
const TRACED_AFTER = 4;

/** Words that say what kind of definition a question asks about, after its name ("the `Value` enum"). */
const DEFINITION_WORDS = "class|struct|enum|trait|interface|type|union|record|protocol|object|macro|function|method|module";
const ASKED_NAME = new RegExp(`\`([A-Za-z_$][\\w$]*)\`|\\b([A-Za-z_$][\\w$]*)\\s+(?:${DEFINITION_WORDS})\\b`, "g");

/** The names a question asks about as definitions: in backticks, or followed by a word for a definition. */
function askedNames(question: string): Set<string> {
  const names = new Set<string>();
  for (const m of question.matchAll(ASKED_NAME)) {
    const name = m[1] ?? m[2]!;
    // "the `Value` enum" or "the Number struct"; not "the" of "what does the function do".
    if (m[1] !== undefined || /[A-Z_]|[a-z][0-9]/.test(name.slice(1)) || /^[A-Z]/.test(name)) names.add(name);
  }
  return names;
}

/**
 * The spans with the definition the question names first ("How does the `Error` struct work?": the
 * struct `Error`, not `ErrorImpl` or a function that makes errors, which its words matched as well):
 * the first span that is a definition of that name itself (not a method of it, not an `impl` adding to it).
 */
function askedDefinitionFirst(question: string, spans: readonly AnswerSpan[]): AnswerSpan[] {
  const names = askedNames(question);
  if (names.size === 0) return [...spans];
  const at = spans.findIndex((s) => s.label !== "impl" && names.has(ownName(s) ?? ""));
  if (at <= 0) return [...spans];
  return [spans[at]!, ...spans.slice(0, at), ...spans.slice(at + 1)];
}

/**
 * `frames`: the question's trace frames as the search read them (SearchOutcome.frames; none when it
 * pasted no trace), so the question is not analysed a second time.
 */
export function extractiveAnswer(question: string, sources: AnswerSource[], notes: string[] = [], frames: readonly StackFrame[] = []): string {
  const out: string[] = notes.map((n) => `> **Note:** ${n}`);
  if (notes.length) out.push("");
  const terms = questionTerms(question);
  // More spans than are listed: repeats of one definition across a folder's files are folded.
  const ordered = askedDefinitionFirst(question, filesInTurn(codeFirst(answerSpans(terms, sources, ANSWER_SHAPE.listed * 3))));
  const listed = distinctSpans(ordered, ANSWER_SHAPE.listed);
  const spans = listed.map((l) => l.span);
  if (spans.length === 0) {
    out.push("I found no indexed code that matches this question. Try naming a function, class, file or error message.");
    return out.join("\n");
  }
  const withRepository = new Set(sources.map((s) => s.repository)).size > 1;
  const [best, ...others] = spans as [AnswerSpan, ...AnswerSpan[]];
  // A question about where a name is used (the search's reason `uses <name>`): its uses, and their lines.
  const used = /^uses (.+)$/.exec(sources[0]?.reasons.find((r) => r.startsWith("uses ")) ?? "")?.[1];
  if (used) return [...out, ...usesAnswer(used, usingSpans(used, ordered, listed), withRepository)].join("\n");
  // A pasted trace whose frame names the best place's file or function: that is the match, however few
  // of the log's words its code holds; the line the frame gives is quoted when it is in the definition.
  const traced = tracedFrame(frames, best);
  const delegate = traced ? null : delegateSpan(best, others);
  if (best.coverage < WELL_MATCHED && !traced) {
    out.push("Nothing in the indexed code matches this question closely. The nearest code:");
    out.push("");
    for (const l of listed) out.push(`- ${what(l, withRepository, 110)}`);
  } else {
    out.push(`Best match: ${sentence(what(listed[0]!, withRepository, 200))}`);
    if (traced) out.push(tracedSentence(traced, best));
    else if (delegate) out.push(`It hands the work to \`${delegate.name}\` (${delegate.source === best.source ? "" : `\`${delegate.source.path}\`, `}${range(delegate.cited.linestart, delegate.cited.lineend)}), quoted next.`);
    if (others.length) {
      out.push("");
      out.push("Also relevant:");
      for (const l of listed.slice(1)) out.push(`- ${what(l, withRepository, 110)}`);
    }
  }
  // The code of the best span (its best-matching inner definition when it has one), then the next one.
  const tracedLines = traced?.line ? tracedQuote(best, traced.line) : null;
  const quotes: string[] = tracedLines ? [tracedLines] : [];
  quotes.push(quote(best, best.members[0] ?? null));
  const next = tracedLines ? null : delegate ? { span: delegate, part: null } : best.members[1] ? { span: best, part: best.members[1] } : others[0] ? { span: others[0], part: others[0].members[0] ?? null } : null;
  if (next && ANSWER_SHAPE.quoted > 1) quotes.push(quote(next.span, next.part));
  out.push("");
  out.push(quotes.join("\n\n"));
  out.push("");
  out.push("_No language model is configured: this answer lists the code that matches the question best._");
  return out.join("\n");
}
