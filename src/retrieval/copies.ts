/**
 * Copies among a search's files: vendored or generated twins, regional variants made from one file,
 * documentation kept once per version. Listed one after another they push the rest of the answer out of
 * sight, and a reader learns nothing from the second copy. A file whose best chunk says nearly what a
 * higher file's best chunk says takes `COPIES.factor` of its score: the first copy keeps its place, the
 * others stay in the list after the files that say something else. "Nearly" is a Jaccard similarity of
 * the two chunks' word sets (words of any script, a leading licence or comment block left out) of at
 * least `COPIES.similarity`: files of one package share much of their vocabulary, and entry files of one
 * name (`__init__.py`, `lib.rs`, `index.js`) much of their shape, without being copies.
 */
import type { ChunkDocument } from "../codeindex/port.ts";

export const COPIES = {
  /** Word-set similarity of two best chunks from which the lower file is a copy. */
  similarity: 0.8,
  /** A copy's score is multiplied by this. */
  factor: 0.5,
  /** Only the first files are compared (where the order is read). */
  compared: 20,
  /** A chunk with fewer words than this is too small to call a copy. */
  minWords: 20,
  /** Characters of a chunk read for its words. */
  chars: 1500,
} as const;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 16777619;

/**
 * The words of a text (three characters or more; letters of any script, digits and `_`; case folded
 * in ASCII), each as a 32-bit hash: one pass over the characters, no strings made.
 */
export function wordSet(text: string): Set<number> {
  const out = new Set<number>();
  const start = afterLeadingComments(text);
  const end = Math.min(text.length, start + COPIES.chars);
  let hash = FNV_OFFSET;
  let length = 0;
  for (let i = start; i <= end; i++) {
    let c = i < end ? text.charCodeAt(i) : 32;
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c >= 128) {
      if (c >= 65 && c <= 90) c += 32;
      hash = Math.imul(hash ^ c, FNV_PRIME);
      length++;
    } else {
      if (length >= 3) out.add(hash & 0x3fffffff); // a small integer: kept unboxed
      hash = FNV_OFFSET;
      length = 0;
    }
  }
  return out;
}

/** One blank line, block comment or comment line at a position (sticky): `//`, `#` (not `#include`, `#!`, `#[`), `-- `, `;`, `* `. */
const LEADING_COMMENT = /[ \t]*(?:\n|\/\*[\s\S]*?\*\/[ \t]*(?:\n|$)|(?:\/\/|#(?![!\w[])|--(?=[ \t\n]|$)|;|\*(?=[ \t\n/]|$))[^\n]*(?:\n|$))/y;

/**
 * Where a text's code starts: after its leading comment lines and block comments (a licence header that
 * every file of a project repeats makes no two files copies), blank lines included.
 */
export function afterLeadingComments(text: string): number {
  let at = 0;
  for (;;) {
    LEADING_COMMENT.lastIndex = at;
    const m = LEADING_COMMENT.exec(text);
    if (!m || m[0].length === 0) return at;
    at += m[0].length;
  }
}

export function jaccard<T>(a: ReadonlySet<T>, b: ReadonlySet<T>): number {
  if (a.size === 0 || b.size === 0) return 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const w of small) if (large.has(w)) shared++;
  return shared / (a.size + b.size - shared);
}

/** Re-orders `scored` (best first) in place after lowering the copies' scores; returns how many were copies. */
export function demoteCopies<T extends { file: { chunks: readonly { doc: Pick<ChunkDocument, "text"> }[] }; score: number }>(scored: T[]): number {
  type Seen = { length: number; text: string; words: Set<number> | null };
  const seen: Seen[] = [];
  const wordsOf = (s: Seen) => (s.words ??= wordSet(s.text));
  let copies = 0;
  for (const entry of scored.slice(0, COPIES.compared)) {
    const best = entry.file.chunks[0];
    if (!best) continue;
    const current: Seen = { length: best.doc.text.length, text: best.doc.text, words: null };
    // Words are read only for chunks of about one length: a copy shares four words in five, so its text
    // is nearly as long.
    const copy = seen.some((s) => {
      if (Math.min(s.length, current.length) < COPIES.similarity * Math.max(s.length, current.length)) return false;
      const a = wordsOf(s);
      const b = wordsOf(current);
      return a.size >= COPIES.minWords && b.size >= COPIES.minWords && jaccard(a, b) >= COPIES.similarity;
    });
    if (copy) {
      entry.score *= COPIES.factor;
      copies++;
    } else seen.push(current);
  }
  if (copies > 0) scored.sort((a, b) => b.score - a.score);
  return copies;
}
