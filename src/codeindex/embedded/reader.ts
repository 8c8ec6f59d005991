/**
 * The read path of the embedded code index: lexical search (term choice per query, then ./scoring.ts),
 * vector search, a branch's files and a file's chunks; and the read caches, all keyed by generations
 * (./layout.ts) so a write never leaves them stale: document frequencies and collection statistics
 * as of the latest write, branch filters, and decoded documents of recent hits.
 */
import type { BranchFile, ChunkDocument, FileHit, IndexFilter, IndexHit, LexicalQuery } from "../port.ts";
import { termFrequencies, wholeWordFrequencies } from "../tokenize.ts";
import { blobKey, branchKey, rangeWithPrefix, type Generations, type IndexLayout, type Stats, type StoredDoc } from "./layout.ts";
import { createScorer, type Ranked, type ScoredTerm } from "./scoring.ts";
import { decodeVector, nearestVectors } from "./vector.ts";
import { decodeBlock, postingKeyPrefix } from "./postings.ts";
import { scoreFiles, type FileMap } from "./file-scoring.ts";

export type ReaderOptions = {
  /** Distinct query terms scored, highest IDF first (bounds latency of bug-report-sized queries). */
  maxQueryTerms: number;
  /** BM25 saturation. */
  k1: number;
  /** Query terms of a lower IDF are not scored when the query has others (indexes of 1,000 chunks or more). */
  minQueryIdf: number;
  /** Bytes of scored postings kept in memory. */
  postingCacheBytes: number;
};

/** A branch filter: ordinal -> target index + 1 (0: not visible), its files (first target wins) and their chunks. */
type CachedFilter = { allowed: Uint8Array; size: number; generations: number[]; files: FileMap; paths: { target: number; path: string }[] };
type CachedDoc = { doc: StoredDoc; generation: number; used: boolean };

const DF_CACHE_LIMIT = 100_000;
const FILTER_CACHE_LIMIT = 64;
const DOC_CACHE_LIMIT = 16_384;

export function createIndexReader(layout: IndexLayout, generations: Generations, options: ReaderOptions) {
  const { docs, vectors, dfs, blobs, branches, readStats } = layout;
  const { generationOf, writeGeneration } = generations;
  const { maxQueryTerms, minQueryIdf } = options;
  const scorer = createScorer({ postings: layout.postings, k1: options.k1, cacheBytes: options.postingCacheBytes, writeGeneration });

  // Document frequencies and the collection statistics as of the current write generation: each is read
  // and decoded from lmdb once (a bug report's lexical queries look up ~100 terms), and all are dropped
  // when the generation moves. The write path reads its own copies.
  let termStatsGeneration = -1;
  let searchStats: Stats | undefined;
  const dfCache = new Map<string, number>();
  function statsForSearch(): Stats {
    const generation = writeGeneration();
    if (generation !== termStatsGeneration || !searchStats) {
      termStatsGeneration = generation;
      dfCache.clear();
      searchStats = readStats();
    }
    return searchStats;
  }
  /** Document frequency of a term (0 when absent); call after statsForSearch() in the same search. */
  function dfForSearch(term: string): number {
    let df = dfCache.get(term);
    if (df === undefined) {
      df = dfs.get(term) ?? 0;
      if (dfCache.size >= DF_CACHE_LIMIT) dfCache.clear();
      dfCache.set(term, df);
    }
    return df;
  }

  // Branch filters (ordinal -> target index + 1), rebuilt when a repository they cover changes.
  const filterCache = new Map<string, CachedFilter>();

  /** ordinal -> (index of the first target it is visible through) + 1, or 0. */
  function filterFor(filter: IndexFilter, nextOrdinal: number): CachedFilter {
    const key = JSON.stringify([filter.orgId, filter.pathPrefix ?? "", filter.targets.map((t) => [t.repoId, t.branch])]);
    const generations = filter.targets.map((t) => generationOf(t.repoId));
    const cached = filterCache.get(key);
    if (cached && cached.generations.every((g, i) => g === generations[i])) {
      filterCache.delete(key);
      filterCache.set(key, cached); // LRU order
      return cached;
    }
    const allowed = new Uint8Array(nextOrdinal);
    const fileOf = new Int32Array(nextOrdinal).fill(-1);
    const counts: number[] = [];
    const paths: { target: number; path: string }[] = [];
    let size = 0;
    const prefix = filter.pathPrefix ?? "";
    filter.targets.forEach((target, t) => {
      if (t >= 254) return;
      const start = branchKey(target.repoId, target.branch, prefix);
      const pathStart = target.repoId.length + target.branch.length + 2;
      for (const { key: k, value: blobId } of rangeWithPrefix(branches, start)) {
        const path = k.slice(pathStart);
        const entry = blobs.get(blobKey(target.repoId, path, blobId));
        if (!entry || entry.orgId !== filter.orgId) continue;
        const file = paths.length;
        let chunks = 0;
        for (const ordinal of entry.ordinals) {
          if (allowed[ordinal] === 0 && ordinal < nextOrdinal) {
            allowed[ordinal] = t + 1;
            fileOf[ordinal] = file;
            chunks++;
            size++;
          }
        }
        if (chunks > 0) {
          paths.push({ target: t, path });
          counts.push(chunks);
        }
      }
    });
    const built = { allowed, size, generations, paths, files: { fileOf, chunkCounts: Int32Array.from(counts), fileCount: paths.length } };
    filterCache.set(key, built);
    if (filterCache.size > FILTER_CACHE_LIMIT) filterCache.delete(filterCache.keys().next().value!);
    return built;
  }

  // Decoded documents of recent hits (ordinal -> doc + its repository's write generation): a hit's doc is
  // decompressed and unpacked once, not on every query that returns it. Eviction by second chance (CLOCK):
  // a hit only sets a flag, where LRU order cost two more map operations per hit. An entry is valid while
  // its repository has not been written since (every write touches the repository's generation).
  const docCache = new Map<number, CachedDoc>();
  const docRing = new Int32Array(DOC_CACHE_LIMIT); // ordinals in insertion order, for the clock hand
  let docRingSize = 0;
  let docHand = 0;

  function cachedDoc(ordinal: number, repoId: string): StoredDoc | undefined {
    const generation = generationOf(repoId);
    const hit = docCache.get(ordinal);
    if (hit && hit.generation === generation && hit.doc.repoId === repoId) {
      hit.used = true;
      return hit.doc;
    }
    const doc = docs.get(ordinal);
    if (!doc) {
      docCache.delete(ordinal);
      return undefined;
    }
    const entry = { doc, generation, used: false };
    if (hit) {
      docCache.set(ordinal, entry); // a stale entry replaced in its place on the ring
      return doc;
    }
    if (docRingSize < DOC_CACHE_LIMIT) docRing[docRingSize++] = ordinal;
    else {
      for (;;) {
        const victim = docCache.get(docRing[docHand]!);
        if (victim?.used) {
          victim.used = false;
          docHand = (docHand + 1) % DOC_CACHE_LIMIT;
          continue;
        }
        docCache.delete(docRing[docHand]!);
        docRing[docHand] = ordinal;
        docHand = (docHand + 1) % DOC_CACHE_LIMIT;
        break;
      }
    }
    docCache.set(ordinal, entry);
    return doc;
  }

  function hitsFor(ranked: Ranked, filter: CachedFilter, targets: IndexFilter["targets"]): IndexHit[] {
    const hits: IndexHit[] = [];
    for (const { id, score } of ranked) {
      const target = targets[filter.allowed[id]! - 1]!;
      const doc = cachedDoc(id, target.repoId);
      if (!doc) continue;
      hits.push({ doc, score, branch: target.branch });
    }
    return hits;
  }

  /** The terms a query scores: its distinct terms of highest IDF (at most maxQueryTerms), with their weights. */
  function queryTerms(query: LexicalQuery, n: number): { term: string; idf: number; weight: number }[] {
    const candidates: { term: string; weight: number; idf: number }[] = [];
    for (const [term, qtf] of query.wholeWords ? wholeWordFrequencies(query.text) : termFrequencies(query.text)) {
      const df = dfForSearch(term);
      if (!df) continue;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      candidates.push({ term, idf, weight: idf * (1 + Math.log(qtf) * 0.5) });
    }
    candidates.sort((a, b) => b.idf - a.idf || (a.term < b.term ? -1 : 1));
    // A term in nearly every chunk (a path segment shared by the whole repository) adds almost nothing
    // to any score but would touch every chunk: dropped when the query has other terms (in an index
    // large enough for it to matter; in a small one such a term may be all that finds a chunk).
    let kept = candidates.length;
    if (n >= 1000) while (kept > 1 && candidates[kept - 1]!.idf < minQueryIdf) kept--;
    return candidates.slice(0, Math.min(kept, maxQueryTerms));
  }

  return {
    // Several queries over one traversal of the union of their terms' postings: a term shared by two
    // queries (the names of a bug report and the lookup of their definitions) is decoded once. Scores
    // are exactly those of separate searches (same per-query term choice, order and arithmetic).
    searchLexicalMany(queries: LexicalQuery[], filter: IndexFilter): IndexHit[][] {
      const results: IndexHit[][] = queries.map(() => []);
      if (filter.targets.length === 0) return results;
      const stats = statsForSearch();
      if (stats.docCount <= 0) return results;
      const n = stats.docCount;
      const q = queries.length;
      const byTerm = new Map<string, { idf: number; weights: Float64Array }>();
      queries.forEach((query, qi) => {
        if (query.limit <= 0) return;
        for (const t of queryTerms(query, n)) {
          let entry = byTerm.get(t.term);
          if (!entry) byTerm.set(t.term, (entry = { idf: t.idf, weights: new Float64Array(q) }));
          entry.weights[qi] = t.weight;
        }
      });
      if (byTerm.size === 0) return results;
      const terms: ScoredTerm[] = [...byTerm]
        .sort((a, b) => b[1].idf - a[1].idf || (a[0] < b[0] ? -1 : 1))
        .map(([term, { weights }]) => ({ term, weights }));

      const cachedFilter = filterFor(filter, stats.nextOrdinal);
      if (cachedFilter.size === 0) return results;
      const ranked = scorer.score(
        queries.map((query) => query.limit),
        terms,
        stats,
        cachedFilter.allowed,
      );
      return ranked.map((r) => hitsFor(r, cachedFilter, filter.targets));
    },

    searchFiles(query: LexicalQuery, filter: IndexFilter): FileHit[] {
      if (query.limit <= 0 || filter.targets.length === 0) return [];
      const stats = statsForSearch();
      if (stats.docCount <= 0) return [];
      const chosen = queryTerms(query, stats.docCount);
      if (chosen.length === 0) return [];
      const cachedFilter = filterFor(filter, stats.nextOrdinal);
      if (cachedFilter.size === 0) return [];
      // The file-level weight is the query-term frequency's alone: scoreFiles weighs by rarity among files.
      const terms = chosen.map((t) => ({ weight: t.weight / t.idf, ...scorer.impactsOf(t.term, stats) }));
      return scoreFiles(terms, cachedFilter.files, cachedFilter.allowed, options.k1, query.limit).map(({ file, score }) => {
        const { target, path } = cachedFilter.paths[file]!;
        return { repoId: filter.targets[target]!.repoId, branch: filter.targets[target]!.branch, path, score };
      });
    },

    searchVector(vector: number[], filter: IndexFilter, limit: number): IndexHit[] {
      if (limit <= 0 || filter.targets.length === 0 || vector.length === 0) return [];
      const stats = readStats();
      const cachedFilter = filterFor(filter, stats.nextOrdinal);
      if (cachedFilter.size === 0) return [];
      return hitsFor(nearestVectors(vectors, cachedFilter.allowed, vector, limit), cachedFilter, filter.targets);
    },

    /**
     * The files (first target through which each is visible) of the chunks holding every one of `terms`
     * (index terms, see tokenize.ts), straight from the postings, unscored: the candidates of a lookup
     * by name that checks each file itself (the code graph's references).
     */
    filesWithTerms(terms: readonly string[], filter: IndexFilter): { target: number; repoId: string; path: string; blobId: string }[] {
      if (terms.length === 0 || filter.targets.length === 0) return [];
      const cached = filterFor(filter, readStats().nextOrdinal);
      let current: Set<number> | null = null;
      for (const term of terms) {
        const next = new Set<number>();
        const prefix = postingKeyPrefix(term);
        for (const { key, value } of rangeWithPrefix(layout.postings, prefix)) {
          for (const { ordinal } of decodeBlock(value, parseInt(key.slice(prefix.length), 36))) {
            if (cached.allowed[ordinal] && (current === null || current.has(ordinal))) next.add(ordinal);
          }
        }
        current = next;
        if (current.size === 0) return [];
      }
      const files = new Map<string, { target: number; repoId: string; path: string; blobId: string }>();
      for (const ordinal of [...current!].sort((a, b) => a - b)) {
        const target = cached.allowed[ordinal]! - 1;
        const doc = cachedDoc(ordinal, filter.targets[target]!.repoId);
        if (!doc) continue;
        const id = blobKey(doc.repoId, doc.path, doc.blobId);
        const seen = files.get(id);
        if (!seen || target < seen.target) files.set(id, { target, repoId: doc.repoId, path: doc.path, blobId: doc.blobId });
      }
      return [...files.values()];
    },

    hasBlob: (repoId: string, path: string, blobId: string): boolean => blobs.doesExist(blobKey(repoId, path, blobId)),

    getBranchFiles(repoId: string, branch: string): BranchFile[] {
      const prefix = branchKey(repoId, branch, "");
      const files: BranchFile[] = [];
      for (const { key, value } of rangeWithPrefix(branches, prefix)) files.push({ path: key.slice(prefix.length), blobId: value });
      return files;
    },

    getFileChunks(repoId: string, branch: string, path: string): ChunkDocument[] {
      const blobId = branches.get(branchKey(repoId, branch, path));
      if (blobId === undefined) return [];
      const entry = blobs.get(blobKey(repoId, path, blobId));
      if (!entry) return [];
      const out: ChunkDocument[] = [];
      for (const ordinal of entry.ordinals) {
        const doc = docs.get(ordinal);
        if (!doc) continue;
        const vector = vectors.getBinary(ordinal);
        out.push(vector ? { ...doc, vector: decodeVector(vector) } : doc);
      }
      return out.sort((a, b) => a.ordinal - b.ordinal);
    },

    /** Frees the read caches (they are keyed by generations, so this is for memory, after a truncate or a close). */
    dropCaches(): void {
      filterCache.clear();
      scorer.clear();
      docCache.clear();
      docRingSize = 0;
      docHand = 0;
    },
    /** Only the branch filters (at close, as before: the other caches go with the instance). */
    dropFilters(): void {
      filterCache.clear();
    },
  };
}
