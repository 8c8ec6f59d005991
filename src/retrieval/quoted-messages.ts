/**
 * Messages a report quotes: a bug report pastes what the program printed (`error: type mismatch for
 * field uid`, a log line, a panic's text), and the code that prints it holds the same words in a string
 * literal (`"error: type mismatch for field %s"`). A chunk whose literal text the report repeats is where
 * that output comes from, in any language: the literal is cut at its format placeholders (`%s`, `{}`,
 * `{name}`, `${x}`), at escapes and at clause marks (`error: `), and each piece long enough to be
 * specific is looked for in the report.
 */
import type { ChunkDocument } from "../codeindex/port.ts";

export const QUOTED = {
  /** A literal counts when the report repeats pieces of it holding at least this many words... */
  minWords: 3,
  /** ...and this many characters. */
  minChars: 12,
  /** A piece counts when it has at least this many words (one common word alone, `for`, says nothing). */
  pieceWords: 2,
  /** A literal whose repeated pieces hold this many words or more counts fully; fewer in proportion. */
  fullWords: 6,
} as const;

/** String literals: "…", '…' and `…` on one line (escapes kept as written; short ones matched too, so a scan never starts inside one). */
const LITERAL = /"((?:[^"\\\n]|\\.)*)"|(?<!\w)'((?:[^'\\\n]|\\.)*)'(?!\w)|`([^`\n]*)`/g;
/** Languages where '…' is one character, never a message. */
const CHAR_QUOTES = new Set(["c", "cpp", "go", "rust", "java", "csharp", "kotlin", "scala", "swift"]);
/** Format placeholders, escapes and clause marks (`error: …`, `…; …`): where a literal's fixed text is cut. */
const PLACEHOLDER = /[:;|]\s+|\s+-+\s+|%[-+ #0]*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|z|j|t|L|q)?[a-zA-Z%@]|\$\{[^}]*\}|\{[^{}]*\}|\\(?:[nrt0"'\\]|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4})/g;

/** Lowercased, whitespace collapsed: how literal pieces and the report are compared. */
export const normalized = (text: string): string => text.toLowerCase().replace(/\s+/g, " ");

/** A string literal's fixed text: its pieces between placeholders, normalized, with their words counted. */
type Literal = { key: string; pieces: { text: string; words: number }[] };

const literalCache = new WeakMap<ChunkDocument, Literal[]>();

/** A word of any script (`don't` and `utf-8` one word each). */
const WORD = /\p{L}[\p{L}\p{N}_'-]*/gu;

const wordsIn = (text: string): number => text.match(WORD)?.length ?? 0;

/** Whether `text` holds at least `n` words (read up to the n-th). */
function hasWords(text: string, n: number): boolean {
  WORD.lastIndex = 0;
  let found = 0;
  while (found < n && WORD.exec(text) !== null) found++;
  return found >= n;
}

/** The string literals of a chunk with fixed text enough to be specific. */
export function literalsOf(doc: ChunkDocument): Literal[] {
  let literals = literalCache.get(doc);
  if (literals) return literals;
  literals = [];
  for (const m of doc.text.matchAll(LITERAL)) {
    if (m[2] !== undefined && CHAR_QUOTES.has(doc.language)) continue;
    const literal = m[1] ?? m[2] ?? m[3] ?? "";
    if (literal.length < QUOTED.minChars) continue;
    const pieces = literal
      .split(PLACEHOLDER)
      .map((raw) => normalized(raw).trim().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ""))
      .map((text) => ({ text, words: wordsIn(text) }))
      .filter((p) => p.words >= QUOTED.pieceWords);
    const words = pieces.reduce((n, p) => n + p.words, 0);
    const chars = pieces.reduce((n, p) => n + p.text.length, 0);
    if (words < QUOTED.minWords || chars < QUOTED.minChars) continue;
    const key = pieces.map((p) => p.text).join("\u0000");
    if (!literals.some((l) => l.key === key)) literals.push({ key, pieces });
  }
  literalCache.set(doc, literals);
  return literals;
}

const isWordChar = (c: string | undefined): boolean => c !== undefined && /[\p{L}\p{N}_]/u.test(c);

/** Whether `report` (normalized) holds `piece` with no word character running on at either end. */
function quotes(report: string, piece: string): boolean {
  for (let at = report.indexOf(piece); at !== -1; at = report.indexOf(piece, at + 1)) {
    if (!isWordChar(report[at - 1]) && !isWordChar(report[at + piece.length])) return true;
  }
  return false;
}

/**
 * For each chunk, the strength (0..1) of the literal it holds that the report quotes most: the words of
 * the literal's pieces the report repeats (at least QUOTED.minWords) over QUOTED.fullWords, shared among
 * the candidate chunks that hold the same literal (a message printed from five places says less about each).
 */
export function quotedMessageScores(report: string, docs: readonly ChunkDocument[]): Map<ChunkDocument, number> {
  const out = new Map<ChunkDocument, number>();
  // A literal counts when the report repeats QUOTED.minWords of its words: a shorter query (a name, two
  // names) quotes none, and its candidate chunks' literals are not read.
  if (report.length < QUOTED.minChars || !hasWords(report, QUOTED.minWords)) return out;
  const pieceQuoted = new Map<string, boolean>();
  const quotedWords = new Map<string, number>();
  const holders = new Map<string, ChunkDocument[]>();
  for (const doc of docs) {
    for (const literal of literalsOf(doc)) {
      let words = quotedWords.get(literal.key);
      if (words === undefined) {
        words = 0;
        let chars = 0;
        for (const piece of literal.pieces) {
          let yes = pieceQuoted.get(piece.text);
          if (yes === undefined) pieceQuoted.set(piece.text, (yes = quotes(report, piece.text)));
          if (yes) {
            words += piece.words;
            chars += piece.text.length;
          }
        }
        if (words < QUOTED.minWords || chars < QUOTED.minChars) words = 0;
        quotedWords.set(literal.key, words);
      }
      if (words === 0) continue;
      const list = holders.get(literal.key);
      if (list) list.push(doc);
      else holders.set(literal.key, [doc]);
    }
  }
  for (const [key, list] of holders) {
    const strength = Math.min(1, (quotedWords.get(key) ?? 0) / QUOTED.fullWords) / list.length;
    for (const doc of list) out.set(doc, Math.max(out.get(doc) ?? 0, strength));
  }
  return out;
}
