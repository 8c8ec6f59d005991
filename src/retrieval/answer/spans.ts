/**
 * The spans an answer is made of: each returned file's references (best first within a file, files in
 * their ranked order), with the definition each one is, its code, and the definitions inside it that
 * match the question best (a method of a class span), so an answer can name what answers the question.
 */
import type { ChunkDocument } from "../../codeindex/port.ts";
import { definitionsIn } from "../definition-span.ts";
import { CONTAINER_KINDS, REFERENCES } from "../references.ts";
import type { SearchHitFile } from "../search.ts";
import { citedLines, containerText, membersAfterHeader, type Lines } from "./cited.ts";
import { coverage, stemsOf, type QuestionTerm } from "./terms.ts";

/** A result file an answer is made of; `fileChunks`, all of the file's chunks, when they were read (./cited.ts). */
export type AnswerSource = SearchHitFile & { repository: string; remote: string };

export type NamedLines = { name: string; linestart: number; lineend: number };

export type AnswerSpan = {
  source: AnswerSource;
  linestart: number;
  lineend: number;
  score: number;
  language: string;
  /** What the span is: `Class.method`, a function's name; null for a run of statements. */
  name: string | null;
  kind: string;
  /** The language's word for what it is (`struct`, `enum`, `trait`, `macro`, `method`), or its kind. */
  label: string;
  /** The lines an answer cites for it: the whole definition (./cited.ts), which a span may be a window of. */
  cited: Lines;
  /** The definition's doc comment, first sentence. */
  doc: string | null;
  code: string;
  /** Share of the question's words the span holds (its path and name included). */
  coverage: number;
  /** Definitions inside the span that hold the question's words (at least half the share the span holds), best first. */
  members: NamedLines[];
  /** The window a search matched in a span widened to a long definition (../excerpt.ts shows it first). */
  focus?: Lines;
};

/** The lines `start`..`end` of a chunk (all of it when the range is not inside it). */
export function spanCode(chunk: ChunkDocument, start: number, end: number): string {
  if (start < chunk.startLine || end > chunk.endLine) return chunk.text;
  return chunk.text.split("\n").slice(start - chunk.startLine, end - chunk.startLine + 1).join("\n");
}

/**
 * The chunk a span comes from: the one with its exact lines, else the smallest that holds it, else the
 * chunks that cover it one after another (the windows of a long definition a report's reference is
 * widened to: ../whole-definitions.ts) as one, its text theirs joined.
 */
export function chunkOf(chunks: readonly ChunkDocument[], start: number, end: number): ChunkDocument | undefined {
  return (
    chunks.find((c) => c.startLine === start && c.endLine === end) ??
    [...chunks].filter((c) => c.startLine <= start && c.endLine >= end).sort((a, b) => a.endLine - a.startLine - (b.endLine - b.startLine))[0] ??
    joinedChunk(chunks, start, end)
  );
}

/**
 * Chunks covering `start`-`end` without a gap of more lines than a report's joined references leave between
 * two definitions (REFERENCES.adjacentGap: the two blank lines between Python's top-level definitions),
 * joined into one; undefined when they do not.
 */
function joinedChunk(chunks: readonly ChunkDocument[], start: number, end: number): ChunkDocument | undefined {
  const parts = chunks.filter((c) => c.endLine >= start && c.startLine <= end).sort((a, b) => a.startLine - b.startLine);
  const first = parts[0];
  if (!first || first.startLine > start || parts[parts.length - 1]!.endLine < end) return undefined;
  const lines: string[] = [];
  let next = first.startLine;
  for (const part of parts) {
    if (part.startLine > next + REFERENCES.adjacentGap) return undefined;
    while (part.startLine > next) {
      lines.push(""); // the blank lines between two chunks
      next++;
    }
    const text = part.text.split("\n");
    for (let line = Math.max(next, part.startLine); line <= part.endLine; line++) lines.push(text[line - part.startLine] ?? "");
    next = Math.max(next, part.endLine + 1);
  }
  return { ...first, endLine: first.startLine + lines.length - 1, text: lines.join("\n") };
}

export const firstSentence = (text: string, max = 200): string => {
  const t = text.replace(/\s+/g, " ").trim();
  const m = /^(.{12,}?[.!?])(\s|$)/.exec(t);
  const s = m && m[1]!.length <= max ? m[1]! : t;
  return s.length > max ? s.slice(0, max - 1).trimEnd() + "…" : s;
};

/**
 * The language's word for a chunk's definition, as its summary opens with it (`Struct \`Engine\``, `Enum
 * \`Value\``, `Macro \`json\``, `Impl Serialize for \`Value\``: ../../indexing/summary.ts): a Go struct and a
 * Rust impl are both of kind "class", a `macro_rules!` of kind "function".
 */
export function labelOf(chunk: Pick<ChunkDocument, "kind" | "summary">): string {
  if (/^Impl\b/.test(chunk.summary)) return "impl";
  return /^([A-Z][a-z]+(?: [a-z]+)?) `/.exec(chunk.summary)?.[1]?.toLowerCase() ?? chunk.kind;
}

const qualified = (c: ChunkDocument) => (c.symbol ? (c.parent ? `${c.parent}.${c.symbol}` : c.symbol) : null);

/** How many of a span's inner definitions an answer names. */
const MEMBERS = 2;
/** A named member holds at least this share of the question's words its span holds. */
const MEMBER_SHARE = 0.5;

/** A comment line: `//`, `#`, `--`, `;`, or a line of a block comment (its opening, or a line starting with `*`). */
const COMMENT_LINE = /^\s*(?:\/\/|#(?![[!\w])|--\s|;|\/\*|\*)/;

/**
 * The first line (0-based, in `lines`) of the comment right above the line at `at`, or `at` when none:
 * the comment that describes a definition tells what it does as much as its body.
 */
function commentStart(lines: readonly string[], at: number): number {
  let first = at;
  while (first > 0 && COMMENT_LINE.test(lines[first - 1]!)) first--;
  return first;
}

/** Share of the question's words a span holds, its path and name included. */
const spanCoverageOf = (terms: readonly QuestionTerm[], path: string, name: string | null, code: string): number => coverage(terms, stemsOf(`${path} ${name ?? ""} ${code}`));

export function answerSpans(terms: readonly QuestionTerm[], sources: readonly AnswerSource[], limit: number): AnswerSpan[] {
  const out: AnswerSpan[] = [];
  for (const source of sources) {
    const refs = source.references.length > 0 ? [...source.references].sort((a, b) => b.score - a.score) : source.linestart !== null ? [{ linestart: source.linestart, lineend: source.lineend ?? source.linestart, score: source.score }] : [];
    for (let ref of refs) {
      if (out.length >= limit) return out;
      // A result carries its best chunks only; a reference to another is read from the file's chunks.
      const found0 = chunkOf(source.chunks, ref.linestart, ref.lineend) ?? (source.fileChunks ? chunkOf(source.fileChunks, ref.linestart, ref.lineend) : undefined);
      if (!found0) continue;
      // A long container's header chunk (its members are chunks of their own) stands for the container:
      // its header, doc comment and the start of its body, not its one line (./cited.ts).
      const afterHeader = found0.startLine === ref.linestart && found0.endLine === ref.lineend && source.fileChunks ? membersAfterHeader(found0, source.fileChunks) : [];
      const chunk = afterHeader.length > 0 ? { ...found0, endLine: Math.max(...afterHeader.map((m) => m.endLine)), text: containerText(found0, afterHeader) } : found0;
      if (afterHeader.length > 0) ref = { ...ref, lineend: chunk.endLine };
      const exact = chunk.startLine === ref.linestart && chunk.endLine === ref.lineend;
      const code = spanCode(chunk, ref.linestart, ref.lineend);
      // Every definition the span holds, its first line included: a span narrowed inside its chunk is the
      // definition on its first line (definition-span.ts); the others are its members.
      const found = definitionsIn("\n" + code, ref.linestart - 1, chunk.language);
      const name = exact ? qualified(chunk) : (found[0]?.name ?? null);
      // The definition on the span's first line is the span itself when it gave the span its name (a
      // narrowed span, or the chunk's own definition); in a run of statements it is one of its members.
      const firstIsSpan = found[0] !== undefined && found[0].startLine === ref.linestart && (!exact || found[0].name === chunk.symbol);
      const inner = found.filter((_, i) => i > 0 || !firstIsSpan);
      const spanCoverage = spanCoverageOf(terms, source.path, name, code);
      const lines = code.split("\n");
      const members = inner
        // Not the span's own definition again (after its doc comment or decorators). In a container's span
        // (a class, an impl) a member is a method even when it is most of the span.
        .filter((d) => d.name !== chunk.symbol && (CONTAINER_KINDS.has(chunk.kind) || (d.endLine - d.startLine + 1) / lines.length < 0.8))
        .map((d) => ({ d, c: coverage(terms, stemsOf(`${d.name} ${d.name} ${lines.slice(commentStart(lines, d.startLine - ref.linestart), d.endLine - ref.linestart + 1).join("\n")}`)) }))
        // A member that holds few of the words its span holds is not where the span answers (a helper
        // closure of a method whose own body has the words).
        .filter((m) => m.c > 0 && m.c >= spanCoverage * MEMBER_SHARE)
        .sort((a, b) => b.c - a.c || a.d.startLine - b.d.startLine)
        .slice(0, MEMBERS)
        .filter((m, i, all) => m.c >= all[0]!.c * 0.75)
        .map(({ d }) => ({ name: d.name, linestart: d.startLine, lineend: d.endLine }));
      const span: AnswerSpan = {
        source,
        linestart: ref.linestart,
        lineend: ref.lineend,
        score: ref.score,
        language: chunk.language,
        name,
        kind: exact ? chunk.kind : "code",
        label: exact ? labelOf(chunk) : "code",
        cited: afterHeader.length > 0 ? { linestart: ref.linestart, lineend: ref.lineend } : citedLines(source, ref),
        doc: exact && chunk.doc ? firstSentence(chunk.doc) : null,
        code,
        coverage: spanCoverage,
        // A container's header quotes its own lines first: what the class is, before its methods.
        members: lines.length > 12 && afterHeader.length === 0 ? members : [],
        ...(ref.focus ? { focus: ref.focus } : {}),
      };
      const part = out.findIndex((o) => isOtherPart(o, span));
      if (part >= 0) out[part] = joined(terms, out[part]!, span);
      else out.push(span);
    }
  }
  return out;
}

/**
 * Whether two spans are parts of one definition: a definition too long for one chunk is cut into
 * windows that keep its name, and two windows side by side are one place to read, listed once.
 */
const isOtherPart = (a: AnswerSpan, b: AnswerSpan): boolean =>
  a.source === b.source && a.name !== null && a.name === b.name && a.kind === b.kind && (a.lineend + 1 === b.linestart || b.lineend + 1 === a.linestart);

/** Two parts of one definition as one span (where the first part is, with the better score). */
function joined(terms: readonly QuestionTerm[], a: AnswerSpan, b: AnswerSpan): AnswerSpan {
  const [first, second] = a.linestart < b.linestart ? [a, b] : [b, a];
  const code = `${first.code}\n${second.code}`;
  return {
    ...a,
    linestart: first.linestart,
    lineend: second.lineend,
    cited: { linestart: Math.min(a.cited.linestart, b.cited.linestart), lineend: Math.max(a.cited.lineend, b.cited.lineend) },
    score: Math.max(a.score, b.score),
    doc: first.doc ?? second.doc,
    code,
    coverage: spanCoverageOf(terms, a.source.path, a.name, code),
    members: [...a.members, ...b.members].slice(0, MEMBERS),
    ...(a.focus ?? b.focus ? { focus: (a.focus ?? b.focus)! } : {}),
  };
}
