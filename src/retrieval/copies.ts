/**
 * Copies among a search's files: versioned documentation (`docs/v1.6/manual.yml`, `docs/v1.7/...`),
 * vendored or generated twins, locales made from one another. Listed one after another they push the
 * rest of the answer out of sight, and a reader learns nothing from the second copy. A file whose best
 * chunk says nearly what a higher file's best chunk says (the Jaccard similarity of their word sets,
 * words of any script, is at least `COPIES.similarity`) takes `COPIES.factor` of its score: the first copy
 * keeps its place, the others stay in the list after the files that say something else.
 */
import type { ChunkDocument } from "../codeindex/port.ts";

export const COPIES = {
  /** Word-set similarity of two best chunks from which the lower file is a copy. */
  similarity: 0.5,
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
  const end = Math.min(text.length, COPIES.chars);
  let hash = FNV_OFFSET;
  let length = 0;
  for (let i = 0; i <= end; i++) {
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

export function jaccard<T>(a: ReadonlySet<T>, b: ReadonlySet<T>): number {
  if (a.size === 0 || b.size === 0) return 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const w of small) if (large.has(w)) shared++;
  return shared / (a.size + b.size - shared);
}

/** Re-orders `scored` (best first) in place after lowering the copies' scores; returns how many were copies. */
export function demoteCopies<T extends { file: { chunks: readonly { doc: Pick<ChunkDocument, "text"> }[] }; score: number }>(scored: T[]): number {
  const seen: Set<number>[] = [];
  let copies = 0;
  for (const entry of scored.slice(0, COPIES.compared)) {
    const best = entry.file.chunks[0];
    if (!best) continue;
    const words = wordSet(best.doc.text);
    if (words.size >= COPIES.minWords && seen.some((w) => w.size >= COPIES.minWords && jaccard(w, words) >= COPIES.similarity)) {
      entry.score *= COPIES.factor;
      copies++;
    } else seen.push(words);
  }
  if (copies > 0) scored.sort((a, b) => b.score - a.score);
  return copies;
}
