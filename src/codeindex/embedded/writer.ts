/**
 * The write path of the embedded code index: upserts (new chunks appended in bulk from precomputed
 * terms; changed chunks re-posted under the same ordinal), blob and repository deletion, branch file
 * sets. Each write is one lmdb transaction, committed with lmdb-js's overlappingSync; writes run one at
 * a time, and each touches the generations of the repositories it changed.
 */
import type { BranchFile, ChunkDocument, DocumentTerms, UpsertOptions } from "../port.ts";
import { analyseDocuments } from "../analysis.ts";
import { FIELD_COUNT, analyseDoc } from "../fields.ts";
import {
  appendRun,
  appendSegmentInto,
  appendedLength,
  blockOf,
  encodePayload,
  postingKey,
  newSegmentArena,
  resetSegmentArena,
  updateBlock,
} from "./postings.ts";
import type { AppendSegment, Posting } from "./postings.ts";
import { APPEND, SEP, blobKey, branchKey, rangeWithPrefix, storedDoc, type BlobEntry, type Generations, type IndexLayout, type Stats, type StoredDoc } from "./layout.ts";
import { encodeVector, sameVector } from "./vector.ts";

type PostingChanges = Map<string, { add: Posting[]; remove: Set<number> }>;

/** A write's segment arena larger than this is dropped after the write rather than kept for the next. */
const ARENA_KEEP_BYTES = 32 * 1024 * 1024;

/** Removal of what other stores keep per blob or repository (the code graph), inside the writer's transactions. */
export type BlobCompanions = {
  removeGraphSync(repoId: string, path: string, blobId: string): void;
  removeRepositorySync(repoId: string): void;
};

export function createIndexWriter(layout: IndexLayout, generations: Generations, companions: BlobCompanions) {
  const { commit, meta, docs, vectors, ids, postings, dfs, blobs, branches, readStats } = layout;
  const { touch } = generations;

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

  return {
    async upsertChunks(input: ChunkDocument[], options?: UpsertOptions): Promise<void> {
      if (input.length === 0) return;
      const byId = new Map<string, ChunkDocument>();
      for (const doc of input) byId.set(doc.id, doc); // last one wins within a batch
      const repoIds = new Set([...byId.values()].map((d) => d.repoId));
      // Precomputed terms describe `input` in order: usable when it has no duplicates and every document is new.
      const supplied = options?.terms;
      let useSupplied = supplied !== undefined && byId.size === input.length && supplied.reduce((n, t) => n + t.docCount, 0) === input.length;
      await commit(() => {
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

    async deleteBlob(repoId: string, path: string, blobId: string): Promise<void> {
      const key = blobKey(repoId, path, blobId);
      await commit(() => {
        companions.removeGraphSync(repoId, path, blobId);
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

    async setBranchFiles(repoId: string, branch: string, files: BranchFile[]): Promise<void> {
      const wanted = new Map<string, string>();
      for (const file of files) wanted.set(file.path, file.blobId);
      const prefix = branchKey(repoId, branch, "");
      await commit(() => {
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

    async deleteRepository(repoId: string): Promise<void> {
      const prefix = `${repoId}${SEP}`;
      await commit(() => {
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
        companions.removeRepositorySync(repoId);
        meta.putSync("stats", stats);
      });
      touch(repoId);
    },

    /** Empties every database (the caller drops the read caches and moves the generations). */
    async clear(): Promise<void> {
      await commit(() => {
        for (const db of layout.all) db.clearSync();
      });
    },
  };
}

export type IndexWriter = ReturnType<typeof createIndexWriter>;
