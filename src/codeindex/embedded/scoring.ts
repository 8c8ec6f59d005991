/**
 * BM25F scoring over the embedded index's postings. Each queried term's postings are decoded once into
 * ordinals and impacts (the saturated, length-normalised term frequency, ready to be multiplied by the
 * query weight) and kept in an LRU cache by bytes; several queries are scored in one pass over the
 * union of their terms, rarest first, with exact max-score pruning.
 */
import type { Database } from "lmdb";
import { FIELDS, FIELD_COUNT } from "../fields.ts";
import { BLOCK_SIZE, dequantiseLength, postingKeyPrefix } from "./postings.ts";
import { rangeWithPrefix, type Stats } from "./layout.ts";
import { createTopK } from "./topk.ts";

type Scored = { ordinals: Int32Array; impacts: Float32Array; maxImpact: number };
type TermImpacts = Scored & { generation: number; statsKey: string; bytes: number };

/** A term to score, with its weight in each query (0 = the query does not score it). */
export type ScoredTerm = { term: string; weights: Float64Array };
export type Ranked = { id: number; score: number }[];

/** The k-th best score among the touched chunks' accumulators (k <= count). */
function kthBest(acc: Float32Array, touched: Int32Array, count: number, k: number): number {
  const top = createTopK(k);
  let floor = Number.MIN_VALUE;
  for (let t = 0; t < count; t++) {
    const score = acc[touched[t]!]!;
    if (score >= floor) floor = Math.max(Number.MIN_VALUE, top.offer(touched[t]!, score));
  }
  return floor;
}

export function createScorer(options: { postings: Database<Uint8Array, string>; k1: number; cacheBytes: number; writeGeneration: () => number }) {
  const { postings, k1, writeGeneration } = options;

  // An entry is valid for one write generation and one set of collection statistics (the impacts depend
  // on the average field lengths). A range read and varint decoding cost several times the scoring of a
  // posting, and common words (with, for, error) come back query after query.
  const impactCache = new Map<string, TermImpacts>();
  const impactCacheLimit = options.cacheBytes;
  let impactCacheBytes = 0;
  function termImpacts(term: string, norm: Float64Array, statsKey: string): Scored {
    const generation = writeGeneration();
    const hit = impactCache.get(term);
    if (hit) {
      impactCache.delete(term);
      impactCacheBytes -= hit.bytes;
      if (hit.generation === generation && hit.statsKey === statsKey) {
        impactCache.set(term, hit); // LRU order
        impactCacheBytes += hit.bytes;
        return hit;
      }
    }
    const prefix = postingKeyPrefix(term);
    const numbers: number[] = [];
    const blocks: Uint8Array[] = [];
    let total = 0;
    for (const { key, value } of rangeWithPrefix(postings, prefix)) {
      numbers.push(parseInt(key.slice(prefix.length), 36));
      blocks.push(value);
      total += value[0]! | (value[1]! << 8) | (value[2]! << 16) | (value[3]! << 24);
    }
    const ordinals = new Int32Array(total);
    const impacts = new Float32Array(total);
    const k1plus1 = k1 + 1;
    let n = 0;
    let maxImpact = 0;
    for (let at = 0; at < blocks.length; at++) {
      const block = blocks[at]!;
      const count = block[0]! | (block[1]! << 8) | (block[2]! << 16) | (block[3]! << 24);
      let p = 8;
      let ordinal = numbers[at]! * BLOCK_SIZE;
      for (let i = 0; i < count; i++) {
        let b = block[p++]!;
        let delta = b & 0x7f;
        for (let shift = 7; b & 0x80; shift += 7) {
          b = block[p++]!;
          delta |= (b & 0x7f) << shift;
        }
        ordinal += delta;
        let mask = block[p++]!;
        let tfw = 0;
        while (mask !== 0) {
          const bit = mask & -mask;
          mask ^= bit;
          const f = 31 - Math.clz32(bit);
          let c = block[p++]!;
          let tf = c & 0x7f;
          for (let shift = 7; c & 0x80; shift += 7) {
            c = block[p++]!;
            tf |= (c & 0x7f) << shift;
          }
          tfw += tf * norm[f * 256 + block[p++]!]!;
        }
        ordinals[n] = ordinal;
        const impact = (tfw * k1plus1) / (tfw + k1);
        impacts[n++] = impact;
        if (impact > maxImpact) maxImpact = impact;
      }
    }
    const bytes = 96 + total * 8;
    if (bytes <= impactCacheLimit / 8) {
      impactCache.set(term, { generation, statsKey, ordinals, impacts, maxImpact: Math.fround(maxImpact), bytes });
      impactCacheBytes += bytes;
      for (const [oldTerm, old] of impactCache) {
        if (impactCacheBytes <= impactCacheLimit) break;
        impactCache.delete(oldTerm);
        impactCacheBytes -= old.bytes;
      }
    }
    return { ordinals, impacts, maxImpact: Math.fround(maxImpact) };
  }

  // norm[f * 256 + q] = weight_f / (1 - b_f + b_f * len / avgLen_f); rebuilt only when the stats change.
  let normCache = new Float64Array(0);
  let normCacheKey = "";
  function normFor(stats: Stats): { norm: Float64Array; key: string } {
    const n = stats.docCount;
    const normKey = `${n}:${stats.lengthSums.join(",")}`;
    if (normKey !== normCacheKey) {
      const built = new Float64Array(FIELD_COUNT * 256);
      for (let f = 0; f < FIELD_COUNT; f++) {
        const { weight, b } = FIELDS[f]!;
        const avg = Math.max(1e-9, stats.lengthSums[f]! / n);
        for (let level = 0; level < 256; level++) built[f * 256 + level] = weight / (1 - b + (b * dequantiseLength(level)) / avg);
      }
      normCache = built;
      normCacheKey = normKey;
    }
    return { norm: normCache, key: normKey };
  }

  // One accumulator and one list of touched ordinals per query, reused between searches (entries are
  // zeroed as they are read out): a question's common words touch tens of thousands of chunks.
  const scratches: Float32Array[] = [];
  const touchedScratches: Int32Array[] = [];

  /**
   * Scores `terms` (rarest first) for queries of the given limits over the chunks `allowed` (ordinal ->
   * non-zero); returns each query's top chunks, best first.
   */
  function score(limits: readonly number[], terms: readonly ScoredTerm[], stats: Stats, allowed: Uint8Array): Ranked[] {
    const q = limits.length;
    const allowedLength = allowed.length;
    const { norm, key: normKey } = normFor(stats);
    const accs: Float32Array[] = [];
    const touched: Int32Array[] = [];
    const touchedCount = new Int32Array(q);
    for (let qi = 0; qi < q; qi++) {
      let acc = scratches[qi];
      if (!acc || acc.length < stats.nextOrdinal) {
        const size = Math.ceil(stats.nextOrdinal * 1.25) + 1024;
        scratches[qi] = acc = new Float32Array(size);
        touchedScratches[qi] = new Int32Array(size);
      }
      accs.push(acc);
      touched.push(touchedScratches[qi]!);
    }
    // Max-score pruning, exact: terms are scored rarest first. Once the most that a query's remaining
    // terms can add to an untouched chunk is below the score a query's k-th best chunk already has,
    // no untouched chunk can enter its top k, so those terms only add to chunks already touched
    // (common words then cost a pass over their postings, but no longer fill the candidates).
    const termPostings = terms.map(({ term, weights }) => ({ weights, postings: termImpacts(term, norm, normKey) }));
    const remainingBound = new Float64Array(q);
    for (const { weights, postings } of termPostings) {
      for (let qi = 0; qi < q; qi++) {
        if (weights[qi]! <= 0) continue;
        remainingBound[qi]! += weights[qi]! * postings.maxImpact;
      }
    }
    const updateOnly = new Uint8Array(q);
    const checks = new Uint8Array(q);
    for (const { weights, postings } of termPostings) {
      const { ordinals, impacts } = postings;
      const count = ordinals.length;
      // One tight pass over the term's postings per query that scores it (cheaper than one pass
      // updating several accumulators per posting).
      for (let qi = 0; qi < q; qi++) {
        const weight = weights[qi]!;
        if (weight <= 0) continue;
        const acc = accs[qi]!;
        const limit = limits[qi]!;
        if (updateOnly[qi] === 0 && checks[qi]! < 2 && count >= 2048 && count > 2 * touchedCount[qi]! && touchedCount[qi]! > limit) {
          checks[qi]!++;
          const floor = kthBest(acc, touched[qi]!, touchedCount[qi]!, limit);
          if (remainingBound[qi]! * (1 + 1e-4) < floor) updateOnly[qi] = 1;
        }
        remainingBound[qi]! -= weight * postings.maxImpact;
        if (updateOnly[qi] === 1) {
          for (let i = 0; i < count; i++) {
            const ordinal = ordinals[i]!;
            const score = acc[ordinal]!;
            if (score !== 0) acc[ordinal] = score + weight * impacts[i]!;
          }
          continue;
        }
        const list = touched[qi]!;
        let t = touchedCount[qi]!;
        for (let i = 0; i < count; i++) {
          const ordinal = ordinals[i]!;
          if (allowed[ordinal] === 0 || ordinal >= allowedLength) continue;
          const score = acc[ordinal]!; // read once: as far as V8 knows, the store to `list` may alias `acc`
          if (score === 0) list[t++] = ordinal;
          acc[ordinal] = score + weight * impacts[i]!;
        }
        touchedCount[qi] = t;
      }
    }
    const ranked: Ranked[] = [];
    for (let qi = 0; qi < q; qi++) {
      const acc = accs[qi]!;
      const top = createTopK(Math.max(0, limits[qi]!));
      const list = touched[qi]!;
      let floor = limits[qi]! > 0 ? Number.MIN_VALUE : Infinity; // scores below it cannot enter
      for (let t = 0, end = touchedCount[qi]!; t < end; t++) {
        const ordinal = list[t]!;
        const score = acc[ordinal]!;
        acc[ordinal] = 0;
        if (score < floor) continue;
        floor = Math.max(Number.MIN_VALUE, top.offer(ordinal, score));
      }
      ranked.push(top.results());
    }
    return ranked;
  }

  return {
    score,
    /** A term's postings as ordinals and impacts (cached like the scoring's own). */
    impactsOf(term: string, stats: Stats): { ordinals: Int32Array; impacts: Float32Array } {
      const { norm, key } = normFor(stats);
      return termImpacts(term, norm, key);
    },
    clear(): void {
      impactCache.clear();
      impactCacheBytes = 0;
    },
  };
}
