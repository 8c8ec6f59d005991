/**
 * Embedded code index: an inverted index on lmdb (memory-mapped, so opening costs nothing and a restart
 * re-parses nothing). Works on Node and Deno. See docs/code-index.md for the design and measured figures.
 *
 * Databases in one lmdb environment (`${dir}/code-index.mdb`):
 *   meta      "stats" -> { format, nextOrdinal, docCount, lengthSums[] }
 *   docs      ordinal (uint32) -> chunk without its vector (msgpack)
 *   vectors   ordinal (uint32) -> Float32 [norm, ...values]
 *   ids       chunk id -> ordinal
 *   postings  `${term}\x1f${block}` -> posting block (see postings.ts)
 *   df        term -> document frequency
 *   blobs     `${repoId}\x1f${path}\x1f${blobId}` -> { orgId, ordinals }
 *   branches  `${repoId}\x1f${branch}\x1f${path}` -> blobId (one small key per file: replacing a set
 *             writes only the changed paths, a membership check is one lookup)
 *
 * One process owns an index directory (in-memory caches of branch filters assume it is the only writer).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { open } from "lmdb";
import type { Database, RootDatabase } from "lmdb";
import type { BranchFile, ChunkDocument, CodeIndex, IndexFilter, IndexHit } from "../port.ts";
import { analyseDocuments } from "../analysis.ts";
import type { DocumentTerms } from "../port.ts";
import { FIELDS, FIELD_COUNT, analyseDoc } from "../fields.ts";
import {
  BLOCK_SIZE,
  appendRun,
  appendSegmentInto,
  appendedLength,
  blockOf,
  dequantiseLength,
  encodePayload,
  postingKey,
  postingKeyPrefix,
  newSegmentArena,
  resetSegmentArena,
  updateBlock,
} from "./postings.ts";
import type { AppendSegment, Posting } from "./postings.ts";
import { termFrequencies, wholeWordFrequencies } from "../tokenize.ts";
import { createTopK } from "./topk.ts";

export type EmbeddedCodeIndexOptions = {
  dir: string;
  /** Distinct query terms scored, highest IDF first (bounds latency of bug-report-sized queries). */
  maxQueryTerms?: number;
  /** BM25 saturation. */
  k1?: number;
  /**
   * Query terms of a lower IDF are not scored when the query has others (default 0.2: a term in more than
   * about 82% of the chunks, like a path segment every file shares, which would touch every chunk for a
   * contribution near zero). Applies to indexes of 1,000 chunks or more.
   */
  minQueryIdf?: number;
  /**
   * For a reader in another thread (see src/retrieval/search-pool.ts): the writer's generation of each
   * repository (EmbeddedCodeIndex.generationOf), which keys this instance's read caches. Such an
   * instance must not write.
   */
  generationOf?: (repoId: string) => number;
  /** For such a reader: the writer's generation of the whole index (EmbeddedCodeIndex.writeGeneration). */
  writeGeneration?: () => number;
  /** Bytes of scored postings (ordinals and impacts of recently queried terms) kept in memory per instance (default 32 MB; 0 disables). */
  postingCacheBytes?: number;
};

export type EmbeddedCodeIndex = CodeIndex & {
  /**
   * Changes whenever anything of the repository is written, and is never reused (a truncate moves
   * every repository past all earlier values): read caches keyed by it are never stale.
   */
  generationOf(repoId: string): number;
  /** Changes whenever anything is written (keys caches of data shared by repositories, like postings). */
  writeGeneration(): number;
  /** A reader in another thread: read the newest committed state from now on (lmdb renews its snapshot). */
  refresh(): void;
};

/** Bump when the tokenizer, fields or posting format change: an index of another format must be rebuilt. */
export const EMBEDDED_INDEX_FORMAT = 2;

type Stats = { format: number; nextOrdinal: number; docCount: number; lengthSums: number[] };
type StoredDoc = Omit<ChunkDocument, "vector">;
type BlobEntry = { orgId: string; ordinals: number[] };

const SEP = "\x1f";
const APPEND = { append: true };
const DOCS_COMPRESSION = { threshold: 2000 };
const blobKey = (repoId: string, path: string, blobId: string) => `${repoId}${SEP}${path}${SEP}${blobId}`;
const branchKey = (repoId: string, branch: string, path: string) => `${repoId}${SEP}${branch}${SEP}${path}`;

export class IndexFormatError extends Error {
  constructor(found: number) {
    super(`code index format ${found} found, ${EMBEDDED_INDEX_FORMAT} expected: truncate and rebuild the index`);
    this.name = "IndexFormatError";
  }
}

/** Stored form with a fixed key order, so equal chunks serialise equally (idempotent upserts). */
function storedDoc(doc: ChunkDocument): StoredDoc {
  return {
    id: doc.id,
    orgId: doc.orgId,
    repoId: doc.repoId,
    path: doc.path,
    blobId: doc.blobId,
    ordinal: doc.ordinal,
    language: doc.language,
    kind: doc.kind,
    symbol: doc.symbol ?? null,
    parent: doc.parent ?? null,
    signature: doc.signature ?? null,
    doc: doc.doc ?? null,
    startLine: doc.startLine,
    endLine: doc.endLine,
    text: doc.text,
    summary: doc.summary,
    fileSummary: doc.fileSummary,
  };
}

function encodeVector(values: number[]): Uint8Array {
  const out = new Float32Array(values.length + 1);
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    out[i + 1] = values[i]!;
    sum += out[i + 1]! * out[i + 1]!;
  }
  out[0] = Math.sqrt(sum);
  return new Uint8Array(out.buffer);
}

function sameVector(stored: Uint8Array | undefined, values: number[] | undefined): boolean {
  if (!stored || !values) return !stored && !values;
  if (stored.byteLength !== (values.length + 1) * 4) return false;
  const view = new DataView(stored.buffer, stored.byteOffset, stored.byteLength);
  for (let i = 0; i < values.length; i++) {
    if (view.getFloat32((i + 1) * 4, true) !== Math.fround(values[i]!)) return false;
  }
  return true;
}

function decodeVector(stored: Uint8Array): number[] {
  const view = new DataView(stored.buffer, stored.byteOffset, stored.byteLength);
  const out: number[] = [];
  for (let at = 4; at < stored.byteLength; at += 4) out.push(view.getFloat32(at, true));
  return out;
}

type PostingChanges = Map<string, { add: Posting[]; remove: Set<number> }>;

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

/** A write's segment arena larger than this is dropped after the write rather than kept for the next. */
const ARENA_KEEP_BYTES = 32 * 1024 * 1024;

export function createEmbeddedCodeIndex(options: EmbeddedCodeIndexOptions): EmbeddedCodeIndex {
  const maxQueryTerms = options.maxQueryTerms ?? 32;
  const k1 = options.k1 ?? 1.2;
  const minQueryIdf = options.minQueryIdf ?? 0.2;
  mkdirSync(options.dir, { recursive: true });
  const root: RootDatabase = open({ path: join(options.dir, "code-index.mdb"), maxDbs: 12 });
  const meta: Database<Stats, string> = root.openDB({ name: "meta" });
  // Only documents of 2 KB or more are compressed: those would otherwise spill into overflow pages, and
  // LZ4 with lmdb's dictionary cost the writer ~25 us per document (a third of the index writes' native
  // time). Compressed values carry a marker byte, so documents written either way read back the same.
  const docs: Database<StoredDoc, number> = root.openDB({ name: "docs", keyEncoding: "uint32", compression: DOCS_COMPRESSION });
  const vectors: Database<Uint8Array, number> = root.openDB({ name: "vectors", keyEncoding: "uint32", encoding: "binary" });
  const ids: Database<number, string> = root.openDB({ name: "ids" });
  const postings: Database<Uint8Array, string> = root.openDB({ name: "postings", encoding: "binary" });
  const dfs: Database<number, string> = root.openDB({ name: "df" });
  const blobs: Database<BlobEntry, string> = root.openDB({ name: "blobs" });
  const branches: Database<string, string> = root.openDB({ name: "branches", encoding: "string" });
  const all = [meta, docs, vectors, ids, postings, dfs, blobs, branches];

  const emptyStats = (): Stats => ({
    format: EMBEDDED_INDEX_FORMAT,
    nextOrdinal: 0,
    docCount: 0,
    lengthSums: new Array<number>(FIELD_COUNT).fill(0),
  });
  const existing = meta.get("stats");
  if (existing && existing.format !== EMBEDDED_INDEX_FORMAT) throw new IndexFormatError(existing.format);
  const readStats = (): Stats => meta.get("stats") ?? emptyStats();

  // Branch filters (ordinal -> target index + 1), rebuilt when a repository they cover changes.
  const repoGenerations = new Map<string, number>();
  let writes = 0; // the last generation handed out
  let truncatedAt = 0;
  const touch = (repoId: string) => repoGenerations.set(repoId, ++writes);
  const generationOf = options.generationOf ?? ((repoId: string) => Math.max(repoGenerations.get(repoId) ?? 0, truncatedAt));
  const writeGeneration = options.writeGeneration ?? (() => writes);

  // Document frequencies and the collection statistics as of the current write generation, for the read
  // path: each is read and decoded from lmdb once (a bug report's lexical queries look up ~100 terms),
  // and all are dropped when the generation moves. The write path reads its own copies.
  let termStatsGeneration = -1;
  let searchStats: Stats | undefined;
  const dfCache = new Map<string, number>();
  const DF_CACHE_LIMIT = 100_000;
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

  // Scored postings of recently queried terms, LRU by bytes: each term's postings decoded once into
  // ordinals and BM25F impacts (the saturated, length-normalised term frequency, ready to be multiplied
  // by the query weight). A range read and varint decoding cost several times the scoring of a posting,
  // and common words (with, for, error) come back query after query. An entry is valid for one write
  // generation and one set of collection statistics (the impacts depend on the average field lengths).
  type Scored = { ordinals: Int32Array; impacts: Float32Array; maxImpact: number };
  type TermImpacts = Scored & { generation: number; statsKey: string; bytes: number };
  const impactCache = new Map<string, TermImpacts>();
  const impactCacheLimit = options.postingCacheBytes ?? 32 * 1024 * 1024;
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
  type CachedFilter = { allowed: Uint8Array; size: number; generations: number[] };
  const filterCache = new Map<string, CachedFilter>();
  const FILTER_CACHE_LIMIT = 64;

  const scratches: Float32Array[] = [];
  const touchedScratches: Int32Array[] = [];
  let closed = false;

  /** Inside a write transaction: removes postings of `ordinal` and updates counters. */
  function stageRemoval(ordinal: number, doc: StoredDoc, changes: PostingChanges, stats: Stats): void {
    const analysed = analyseDoc(doc as ChunkDocument);
    for (const term of analysed.terms.keys()) {
      let change = changes.get(term);
      if (!change) changes.set(term, (change = { add: [], remove: new Set() }));
      change.remove.add(ordinal);
    }
    for (let f = 0; f < FIELD_COUNT; f++) stats.lengthSums[f]! -= analysed.lengths[f]!;
    stats.docCount--;
  }

  function stageAddition(ordinal: number, doc: ChunkDocument, changes: PostingChanges, stats: Stats): void {
    const analysed = analyseDoc(doc);
    for (const [term, tfs] of analysed.terms) {
      let change = changes.get(term);
      if (!change) changes.set(term, (change = { add: [], remove: new Set() }));
      change.add.push({ ordinal, payload: encodePayload(tfs, analysed.lengths) });
    }
    for (let f = 0; f < FIELD_COUNT; f++) stats.lengthSums[f]! += analysed.lengths[f]!;
    stats.docCount++;
  }

  // Segment bytes of the write in progress (reset by each write; writes run one at a time). A batch of
  // 4 MB of source needs a few MB; a larger one's buffer is not kept (ARENA_KEEP_BYTES).
  let arena = newSegmentArena();

  /**
   * New documents (the bulk of indexing), stored from ordinal `base` on in the order `terms` covers
   * them: each term's entries are appended to that term's segment for its last block, copied as
   * encoded by analyseDocuments. applyAppends then reads and writes each term's last block once.
   */
  function stageTerms(base: number, terms: DocumentTerms, appends: Map<string, AppendSegment[]>, stats: Stats): void {
    const { postings: bytes, ends, lasts, counts } = terms;
    const list = ends.length > 0 ? terms.termList.split("\n") : [];
    let from = 0;
    for (let i = 0; i < list.length; i++) {
      const term = list[i]!;
      let segments = appends.get(term);
      if (!segments) appends.set(term, (segments = []));
      appendRun(segments, base, bytes, from, ends[i]!, lasts[i]!, counts[i]!, arena);
      from = ends[i]!;
    }
    for (let f = 0; f < FIELD_COUNT; f++) stats.lengthSums[f]! += terms.lengthSums[f]!;
    stats.docCount += terms.docCount;
  }

  // Blocks are built in one reused buffer: putSync copies the value before returning.
  let blockScratch = new Uint8Array(64 * 1024);

  /** After applyPostingChanges in the same transaction: new ordinals follow every stored one. */
  function applyAppends(appends: Map<string, AppendSegment[]>): void {
    for (const [term, segments] of appends) {
      let added = 0;
      for (const seg of segments) {
        const key = postingKey(term, seg.block);
        // A view of lmdb's shared read buffer, valid until the next read: appendSegmentInto copies it
        // into the scratch block before anything else is read (getBinary would copy every block once
        // more: ~140 MB of garbage while indexing CPython's Lib).
        const fast = postings.getBinaryFast(key);
        const existing = fast?.subarray(0, fast.length); // its `length` is the value's, its buffer larger
        const needed = appendedLength(existing?.byteLength ?? 0, seg);
        if (blockScratch.length < needed) blockScratch = new Uint8Array(Math.max(needed, blockScratch.length * 2));
        const length = appendSegmentInto(existing, seg, blockScratch);
        postings.putSync(key, blockScratch.subarray(0, length));
        added += seg.count;
      }
      dfs.putSync(term, (dfs.get(term) ?? 0) + added);
    }
  }

  function applyPostingChanges(changes: PostingChanges): void {
    for (const [term, change] of changes) {
      const byBlock = new Map<number, { add: Posting[]; remove: Set<number> }>();
      const slot = (block: number) => {
        let s = byBlock.get(block);
        if (!s) byBlock.set(block, (s = { add: [], remove: new Set() }));
        return s;
      };
      for (const ordinal of change.remove) slot(blockOf(ordinal)).remove.add(ordinal);
      for (const posting of change.add) slot(blockOf(posting.ordinal)).add.push(posting);
      for (const [block, s] of byBlock) {
        const key = postingKey(term, block);
        const updated = updateBlock(postings.getBinary(key), block, s.remove, s.add);
        if (updated) postings.putSync(key, updated);
        else postings.removeSync(key);
      }
      // df: removals are exact (the old chunk had the term), additions are new postings.
      const delta = change.add.length - change.remove.size;
      if (delta !== 0) {
        const df = (dfs.get(term) ?? 0) + delta;
        if (df > 0) dfs.putSync(term, df);
        else dfs.removeSync(term);
      }
    }
  }

  function removeOrdinals(ordinals: Iterable<number>, changes: PostingChanges, stats: Stats): void {
    for (const ordinal of ordinals) {
      const doc = docs.get(ordinal);
      if (!doc) continue;
      stageRemoval(ordinal, doc, changes, stats);
      docs.removeSync(ordinal);
      vectors.removeSync(ordinal);
      ids.removeSync(doc.id);
    }
  }

  function* rangeWithPrefix<V>(db: Database<V, string>, prefix: string): Generator<{ key: string; value: V }> {
    for (const entry of db.getRange({ start: prefix })) {
      if (!entry.key.startsWith(prefix)) return;
      yield entry;
    }
  }

  function ensureOpen(): void {
    if (closed) throw new Error("code index is closed");
  }

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
        for (const ordinal of entry.ordinals) {
          if (allowed[ordinal] === 0 && ordinal < nextOrdinal) {
            allowed[ordinal] = t + 1;
            size++;
          }
        }
      }
    });
    const built = { allowed, size, generations };
    filterCache.set(key, built);
    if (filterCache.size > FILTER_CACHE_LIMIT) filterCache.delete(filterCache.keys().next().value!);
    return built;
  }

  // Decoded documents of recent hits (ordinal -> doc + its repository's write generation): a hit's doc is
  // decompressed and unpacked once, not on every query that returns it. Eviction by second chance (CLOCK):
  // a hit only sets a flag, where LRU order cost two more map operations per hit. An entry is valid while
  // its repository has not been written since (every write touch()es the repository's generation);
  // truncate() clears it (wrapped at the end of this function).
  let normCache = new Float64Array(0);
  let normCacheKey = "";
  type CachedDoc = { doc: StoredDoc; generation: number; used: boolean };
  const docCache = new Map<number, CachedDoc>();
  const DOC_CACHE_LIMIT = 16_384;
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

  function hitsFor(ranked: { id: number; score: number }[], filter: CachedFilter, targets: IndexFilter["targets"]): IndexHit[] {
    const hits: IndexHit[] = [];
    for (const { id, score } of ranked) {
      const target = targets[filter.allowed[id]! - 1]!;
      const doc = cachedDoc(id, target.repoId);
      if (!doc) continue;
      hits.push({ doc, score, branch: target.branch });
    }
    return hits;
  }

  const index: EmbeddedCodeIndex = {
    takesDocumentTerms: true,
    generationOf,
    writeGeneration,
    refresh: () => root.resetReadTxn(),
    // Writes commit with lmdb-js's overlappingSync (synced right after the commit, outside the writer lock).
    flushed: async () => {
      await root.flushed;
    },

    async upsertChunks(input, options) {
      ensureOpen();
      if (input.length === 0) return;
      const byId = new Map<string, ChunkDocument>();
      for (const doc of input) byId.set(doc.id, doc); // last one wins within a batch
      const repoIds = new Set([...byId.values()].map((d) => d.repoId));
      // Precomputed terms describe `input` in order: usable when it has no duplicates and every document is new.
      const supplied = options?.terms;
      let useSupplied = supplied !== undefined && byId.size === input.length && supplied.reduce((n, t) => n + t.docCount, 0) === input.length;
      await root.transaction(() => {
        const stats = readStats();
        const changes: PostingChanges = new Map();
        const appends = new Map<string, AppendSegment[]>();
        resetSegmentArena(arena);
        const blobUpdates = new Map<string, BlobEntry>();
        const blobEntry = (key: string): BlobEntry | undefined => blobUpdates.get(key) ?? blobs.get(key);
        // New chunks of a blob: ordinals are collected and merged into the blob entry once at the end.
        const blobAdds = new Map<string, { orgId: string; ordinals: number[] }>();
        // New documents get consecutive ordinals from here on.
        const firstNew = stats.nextOrdinal;
        const newDocs: ChunkDocument[] = [];
        for (const doc of byId.values()) {
          const stored = storedDoc(doc);
          let ordinal = ids.get(doc.id);
          if (ordinal === undefined) {
            ordinal = stats.nextOrdinal++;
            ids.putSync(doc.id, ordinal);
            newDocs.push(doc);
            // A new ordinal follows every stored one: appended without searching the tree (MDB_APPEND).
            docs.putSync(ordinal, stored, APPEND);
            if (doc.vector && doc.vector.length > 0) vectors.putSync(ordinal, encodeVector(doc.vector), APPEND);
            const key = blobKey(doc.repoId, doc.path, doc.blobId);
            const add = blobAdds.get(key);
            if (!add) blobAdds.set(key, { orgId: doc.orgId, ordinals: [ordinal] });
            else {
              add.orgId = doc.orgId;
              add.ordinals.push(ordinal);
            }
            continue;
          }
          useSupplied = false;
          {
            // An existing chunk: unchanged -> skipped; changed -> old postings out, new ones in (same ordinal).
            const old = docs.get(ordinal);
            if (old && JSON.stringify(old) === JSON.stringify(stored) && sameVector(vectors.getBinary(ordinal), doc.vector)) {
              continue; // unchanged
            }
            if (old) {
              stageRemoval(ordinal, old, changes, stats);
              const oldKey = blobKey(old.repoId, old.path, old.blobId);
              const newKey = blobKey(doc.repoId, doc.path, doc.blobId);
              if (oldKey !== newKey) {
                const entry = blobEntry(oldKey);
                if (entry) blobUpdates.set(oldKey, { ...entry, ordinals: entry.ordinals.filter((o) => o !== ordinal) });
              }
            }
          }
          stageAddition(ordinal, doc, changes, stats);
          docs.putSync(ordinal, stored);
          if (doc.vector && doc.vector.length > 0) vectors.putSync(ordinal, encodeVector(doc.vector));
          else vectors.removeSync(ordinal);
          const key = blobKey(doc.repoId, doc.path, doc.blobId);
          const entry = blobEntry(key) ?? { orgId: doc.orgId, ordinals: [] };
          if (!entry.ordinals.includes(ordinal) || entry.orgId !== doc.orgId) {
            const ordinals = entry.ordinals.includes(ordinal) ? entry.ordinals : [...entry.ordinals, ordinal];
            blobUpdates.set(key, { orgId: doc.orgId, ordinals: ordinals.sort((a, b) => a - b) });
          }
        }
        applyPostingChanges(changes);
        if (useSupplied) {
          let base = firstNew;
          for (const terms of supplied!) {
            stageTerms(base, terms, appends, stats);
            base += terms.docCount;
          }
        } else if (newDocs.length > 0) stageTerms(firstNew, analyseDocuments(newDocs), appends, stats);
        applyAppends(appends);
        if (arena.bytes.length > ARENA_KEEP_BYTES) arena = newSegmentArena(); // do not hold a rare large batch's buffer
        for (const [key, add] of blobAdds) {
          const entry = blobEntry(key);
          // New ordinals are above every existing one, so the merged list stays sorted.
          blobUpdates.set(key, { orgId: add.orgId, ordinals: entry ? entry.ordinals.concat(add.ordinals) : add.ordinals });
        }
        for (const [key, entry] of blobUpdates) {
          if (entry.ordinals.length > 0) blobs.putSync(key, entry);
          else blobs.removeSync(key);
        }
        meta.putSync("stats", stats);
      });
      for (const repoId of repoIds) touch(repoId);
    },

    async deleteBlob(repoId, path, blobId) {
      ensureOpen();
      const key = blobKey(repoId, path, blobId);
      await root.transaction(() => {
        const entry = blobs.get(key);
        if (!entry) return;
        const stats = readStats();
        const changes: PostingChanges = new Map();
        removeOrdinals(entry.ordinals, changes, stats);
        applyPostingChanges(changes);
        blobs.removeSync(key);
        meta.putSync("stats", stats);
      });
      touch(repoId);
    },

    async hasBlob(repoId, path, blobId) {
      ensureOpen();
      return blobs.doesExist(blobKey(repoId, path, blobId));
    },

    async setBranchFiles(repoId, branch, files) {
      ensureOpen();
      const wanted = new Map<string, string>();
      for (const file of files) wanted.set(file.path, file.blobId);
      const prefix = branchKey(repoId, branch, "");
      await root.transaction(() => {
        for (const { key, value } of rangeWithPrefix(branches, prefix)) {
          const path = key.slice(prefix.length);
          const blobId = wanted.get(path);
          if (blobId === undefined) branches.removeSync(key);
          else if (blobId === value) wanted.delete(path);
        }
        for (const [path, blobId] of wanted) branches.putSync(branchKey(repoId, branch, path), blobId);
      });
      touch(repoId);
    },

    async getBranchFiles(repoId, branch) {
      ensureOpen();
      const prefix = branchKey(repoId, branch, "");
      const files: BranchFile[] = [];
      for (const { key, value } of rangeWithPrefix(branches, prefix)) files.push({ path: key.slice(prefix.length), blobId: value });
      return files;
    },

    async searchLexical(query, filter, limit) {
      return (await index.searchLexicalMany([{ text: query, limit }], filter))[0]!;
    },

    // Several queries over one traversal of the union of their terms' postings: a term shared by two
    // queries (the names of a bug report and the lookup of their definitions) is decoded once. Scores
    // are exactly those of separate searches (same per-query term choice, order and arithmetic).
    async searchLexicalMany(queries, filter) {
      ensureOpen();
      const results: IndexHit[][] = queries.map(() => []);
      if (filter.targets.length === 0) return results;
      const stats = statsForSearch();
      if (stats.docCount <= 0) return results;
      const n = stats.docCount;
      const q = queries.length;
      // Each query scores its distinct terms of highest IDF (at most maxQueryTerms).
      const byTerm = new Map<string, { idf: number; weights: Float64Array }>();
      queries.forEach((query, qi) => {
        if (query.limit <= 0) return;
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
        for (const t of candidates.slice(0, Math.min(kept, maxQueryTerms))) {
          let entry = byTerm.get(t.term);
          if (!entry) byTerm.set(t.term, (entry = { idf: t.idf, weights: new Float64Array(q) }));
          entry.weights[qi] = t.weight;
        }
      });
      if (byTerm.size === 0) return results;
      const terms = [...byTerm].sort((a, b) => b[1].idf - a[1].idf || (a[0] < b[0] ? -1 : 1));

      const cachedFilter = filterFor(filter, stats.nextOrdinal);
      if (cachedFilter.size === 0) return results;
      const allowed = cachedFilter.allowed;
      const allowedLength = allowed.length;

      // norm[f * 256 + q] = weight_f / (1 - b_f + b_f * len / avgLen_f); rebuilt only when the stats change.
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
      const norm = normCache;

      // One accumulator and one list of touched ordinals per query, reused between searches (entries are
      // zeroed as they are read out): a question's common words touch tens of thousands of chunks.
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
      const termPostings = terms.map(([term, { weights }]) => ({ weights, postings: termImpacts(term, norm, normKey) }));
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
          const limit = queries[qi]!.limit;
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
      for (let qi = 0; qi < q; qi++) {
        const acc = accs[qi]!;
        const top = createTopK(Math.max(0, queries[qi]!.limit));
        const list = touched[qi]!;
        let floor = queries[qi]!.limit > 0 ? Number.MIN_VALUE : Infinity; // scores below it cannot enter
        for (let t = 0, end = touchedCount[qi]!; t < end; t++) {
          const ordinal = list[t]!;
          const score = acc[ordinal]!;
          acc[ordinal] = 0;
          if (score < floor) continue;
          floor = Math.max(Number.MIN_VALUE, top.offer(ordinal, score));
        }
        results[qi] = hitsFor(top.results(), cachedFilter, filter.targets);
      }
      return results;
    },

    async searchVector(vector, filter, limit) {
      ensureOpen();
      if (limit <= 0 || filter.targets.length === 0 || vector.length === 0) return [];
      const stats = readStats();
      const cachedFilter = filterFor(filter, stats.nextOrdinal);
      if (cachedFilter.size === 0) return [];
      const query = Float32Array.from(vector);
      let qnorm = 0;
      for (const v of query) qnorm += v * v;
      qnorm = Math.sqrt(qnorm);
      if (qnorm === 0) return [];
      const dims = query.length;
      const aligned = new Float32Array(dims + 1);
      const alignedBytes = new Uint8Array(aligned.buffer);
      const top = createTopK(limit);
      const allowed = cachedFilter.allowed;
      for (let ordinal = 0; ordinal < allowed.length; ordinal++) {
        if (allowed[ordinal] === 0) continue;
        const bytes = vectors.getBinary(ordinal);
        if (!bytes || bytes.byteLength !== (dims + 1) * 4) continue;
        alignedBytes.set(bytes);
        const dnorm = aligned[0]!;
        if (dnorm === 0) continue;
        let dot = 0;
        for (let i = 0; i < dims; i++) dot += aligned[i + 1]! * query[i]!;
        top.offer(ordinal, dot / (dnorm * qnorm));
      }
      return hitsFor(top.results(), cachedFilter, filter.targets);
    },

    async getFileChunks(repoId, branch, path) {
      ensureOpen();
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

    async deleteRepository(repoId) {
      ensureOpen();
      const prefix = `${repoId}${SEP}`;
      await root.transaction(() => {
        const stats = readStats();
        const changes: PostingChanges = new Map();
        const blobKeys: string[] = [];
        for (const { key, value } of rangeWithPrefix(blobs, prefix)) {
          blobKeys.push(key);
          removeOrdinals(value.ordinals, changes, stats);
        }
        applyPostingChanges(changes);
        for (const key of blobKeys) blobs.removeSync(key);
        for (const key of [...rangeWithPrefix(branches, prefix)].map((e) => e.key)) branches.removeSync(key);
        meta.putSync("stats", stats);
      });
      touch(repoId);
    },

    async truncate() {
      ensureOpen();
      await root.transaction(() => {
        for (const db of all) db.clearSync();
      });
      filterCache.clear();
      impactCache.clear();
      impactCacheBytes = 0;
      repoGenerations.clear();
      truncatedAt = ++writes;
    },

    async close() {
      if (closed) return;
      closed = true;
      filterCache.clear();
      await root.close();
    },
  };
  // Read-path caches are dropped with a truncate (they are keyed by generation, so this only frees memory).
  const truncateIndex = index.truncate.bind(index);
  index.truncate = async () => {
    try {
      await truncateIndex();
    } finally {
      docCache.clear();
      docRingSize = 0;
      docHand = 0;
    }
  };
  return index;
}
