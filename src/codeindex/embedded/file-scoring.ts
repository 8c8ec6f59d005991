/**
 * Whole-file lexical scoring over the embedded index's postings (CodeIndex.searchFiles). A file is one
 * document: for each query term, the normalised term frequencies of its chunks (read back from the
 * chunk impacts the scorer caches) are summed, saturated once per file with the file's length in
 * chunks, and weighted by the term's rarity among the filter's files (BM25 at file level).
 */
import { createTopK } from "./topk.ts";

/** The files of a branch filter: ordinal -> file index (or -1), and each file's chunk count. */
export type FileMap = { fileOf: Int32Array; chunkCounts: Int32Array; fileCount: number };

export type FileTerm = { weight: number; ordinals: Int32Array; impacts: Float32Array };

/**
 * Length normalisation of a file (in chunks): BM25's usual 0.75. At 0.5 a long file's spread words
 * counted more; measured in docs/search.md ("Whole-file ranking").
 */
const B = 0.75;

export function scoreFiles(terms: readonly FileTerm[], files: FileMap, allowed: Uint8Array, k1: number, limit: number): { file: number; score: number }[] {
  const { fileOf, chunkCounts, fileCount } = files;
  if (fileCount === 0 || limit <= 0) return [];
  let chunkTotal = 0;
  for (let f = 0; f < fileCount; f++) chunkTotal += chunkCounts[f]!;
  const avgChunks = Math.max(1, chunkTotal / fileCount);
  const termTf = new Float64Array(fileCount);
  const scores = new Float64Array(fileCount);
  const touched = new Int32Array(fileCount);
  const scored: number[] = [];
  const k1plus1 = k1 + 1;
  for (const { weight, ordinals, impacts } of terms) {
    let count = 0;
    for (let i = 0; i < ordinals.length; i++) {
      const ordinal = ordinals[i]!;
      if (ordinal >= allowed.length || allowed[ordinal] === 0) continue;
      const f = fileOf[ordinal]!;
      if (f < 0) continue;
      // The chunk's saturated impact back to its normalised frequency: impact = tf (k1+1) / (tf + k1).
      const impact = Math.min(impacts[i]!, k1plus1 * 0.999);
      const tf = (impact * k1) / (k1plus1 - impact);
      if (termTf[f] === 0) touched[count++] = f;
      termTf[f] = termTf[f]! + tf;
    }
    if (count === 0) continue;
    const idf = Math.log(1 + (fileCount - count + 0.5) / (count + 0.5));
    for (let t = 0; t < count; t++) {
      const f = touched[t]!;
      const tf = termTf[f]!;
      termTf[f] = 0;
      const norm = 1 - B + (B * chunkCounts[f]!) / avgChunks;
      if (scores[f] === 0) scored.push(f);
      scores[f] = scores[f]! + (weight * idf * tf * k1plus1) / (tf + k1 * norm);
    }
  }
  const top = createTopK(limit);
  for (const f of scored) top.offer(f, scores[f]!);
  return top.results().map(({ id, score }) => ({ file: id, score }));
}
