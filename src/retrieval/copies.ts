/**
 * Copies among a search's files: vendored or generated twins, regional variants made from one file,
 * documentation kept once per version. Listed one after another they push the rest of the answer out of
 * sight, and a reader learns nothing from the second copy. A file whose best chunk says nearly what a
 * higher file's best chunk says takes `COPIES.factor` of its score: the first copy keeps its place, the
 * others stay in the list after the files that say something else. "Nearly" is a Jaccard similarity of
 * the two chunks' word sets (words of any script, a leading licence or comment block left out) of at
 * least `COPIES.similarity`: files of one package share much of their vocabulary, and entry files of one
 * name (`__init__.py`, `lib.rs`, `index.js`) much of their shape, without being copies.
 *
 * One kind of copy yields even when it comes first: a file assembled from others (an amalgamated single
 * header, a bundle) repeats each part's code far down in one long file, and it gathers the matches of
 * several parts, so it outranks each of them. The part is what a reader opens and edits: when a file's
 * best chunk is found among a higher file's first chunks a thousand lines further down
 * (`isAssembledFrom`), the higher file takes the demotion.
 */
import type { ChunkDocument } from "../codeindex/port.ts";

export const COPIES = {
  /** Word-set similarity of two best chunks from which the lower file is a copy. */
  similarity: 0.8,
  /** A copy's score is multiplied by this. */
  factor: 0.5,
  /** Only the first files are compared (where the order is read). */
  compared: 20,
  /** A chunk with fewer words than this is too small to call a copy... */
  minWords: 20,
  /** ...unless another file repeats it to the letter and it is this long (characters): a short function copied whole. */
  verbatimChars: 400,
  /** Characters of a chunk read for its words. */
  chars: 1500,
  /** Lines further down from which a copy is one assembled from the other file (`isAssembledFrom`). */
  assembledLines: 1000,
  /** A higher file's chunks searched for a part it was assembled from (its references come from these). */
  assembledChunks: 4,
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

/** Share of `part`'s words found in `whole`. */
export function containment<T>(whole: ReadonlySet<T>, part: ReadonlySet<T>): number {
  if (part.size === 0) return 0;
  let found = 0;
  for (const w of part) if (whole.has(w)) found++;
  return found / part.size;
}

/**
 * Whether a copy at line `deeper` of its file was assembled from the part whose copy sits at line
 * `shallower` of another file: the same code a thousand lines and more further down, in a file that
 * holds at least as much before it again. Such a file (an amalgamated single header, a bundle) is made
 * from the other files; the part is what a reader opens and edits. Twins, regional variants and
 * versioned documents hold their copies at about the same lines.
 */
export const isAssembledFrom = (deeper: number, shallower: number): boolean =>
  deeper - shallower >= COPIES.assembledLines && deeper >= 2 * shallower;

/** The word sets of chunks read so far, as long as the index keeps the chunk objects (they come back query after query). */
const wordSets = new WeakMap<object, Set<number>>();

/**
 * Re-orders `scored` (best first) in place after lowering the copies' scores; returns how many were
 * copies. Of two files whose best chunks are copies, the lower one takes the demotion. A file whose best
 * chunk is repeated among a higher file's first chunks a thousand lines further down (`isAssembledFrom`)
 * is a part of that file: the higher file takes the demotion (once), and the part keeps its score.
 */
export function demoteCopies<T extends { file: { chunks: readonly { doc: Pick<ChunkDocument, "text" | "startLine"> }[] }; score: number }>(scored: T[]): number {
  type Chunk = { line: number; length: number; text: string; words: Set<number> | null; doc: object };
  type Seen = { entry: T; best: Chunk; chunks: readonly { doc: Pick<ChunkDocument, "text" | "startLine"> }[]; others: Chunk[] | null; assembled: boolean };
  const chunkOf = (doc: Pick<ChunkDocument, "text" | "startLine">): Chunk => ({ line: doc.startLine, length: doc.text.length, text: doc.text, words: wordSets.get(doc) ?? null, doc });
  const wordsOf = (c: Chunk) => {
    if (c.words === null) wordSets.set(c.doc, (c.words = wordSet(c.text)));
    return c.words;
  };
  // Words are read only for chunks of about one length: a copy shares four words in five, so its text
  // is nearly as long.
  const aboutOneLength = (a: Chunk, b: Chunk): boolean => Math.min(a.length, b.length) >= COPIES.similarity * Math.max(a.length, b.length);
  const isCopy = (a: Chunk, b: Chunk): boolean => {
    if (!aboutOneLength(a, b)) return false;
    if (a.length >= COPIES.verbatimChars && a.text === b.text) return true;
    const x = wordsOf(a);
    const y = wordsOf(b);
    // Two sets share at most the smaller one: sizes this far apart are no copies (the Jaccard is not read).
    return x.size >= COPIES.minWords && y.size >= COPIES.minWords && Math.min(x.size, y.size) >= COPIES.similarity * Math.max(x.size, y.size) && jaccard(x, y) >= COPIES.similarity;
  };
  // An assembled file's chunk can begin with the end of the part before it: the part's words are found
  // in it (four in five) rather than the two sharing as much.
  const holds = (whole: Chunk, part: Chunk): boolean => {
    if (!aboutOneLength(whole, part)) return false;
    const y = wordsOf(part);
    return y.size >= COPIES.minWords && containment(wordsOf(whole), y) >= COPIES.similarity;
  };
  const seen: Seen[] = [];
  let copies = 0;
  for (const entry of scored.slice(0, COPIES.compared)) {
    const first = entry.file.chunks[0];
    if (!first) continue;
    const best = chunkOf(first.doc);
    const original = seen.find((s) => isCopy(s.best, best));
    if (original) {
      if (!original.assembled && isAssembledFrom(original.best.line, best.line)) {
        original.entry.score *= COPIES.factor;
        original.assembled = true;
        seen.push({ entry, best, chunks: entry.file.chunks, others: null, assembled: false });
      } else entry.score *= COPIES.factor;
      copies++;
      continue;
    }
    for (const s of seen) {
      if (s.assembled) continue;
      s.others ??= s.chunks.slice(0, COPIES.assembledChunks).map((c) => chunkOf(c.doc));
      if (s.others.some((c) => isAssembledFrom(c.line, best.line) && holds(c, best))) {
        s.entry.score *= COPIES.factor;
        s.assembled = true;
        copies++;
      }
    }
    seen.push({ entry, best, chunks: entry.file.chunks, others: null, assembled: false });
  }
  if (copies > 0) scored.sort((a, b) => b.score - a.score);
  return copies;
}
