/**
 * The embedded code index's storage: one lmdb environment (`${dir}/code-index.mdb`) holding
 *   meta      "stats" -> { format, nextOrdinal, docCount, lengthSums[] }
 *   docs      ordinal (uint32) -> chunk without its vector (msgpack)
 *   vectors   ordinal (uint32) -> Float32 [norm, ...values]
 *   ids       chunk id -> ordinal
 *   postings  `${term}\x1f${block}` -> posting block (see postings.ts)
 *   df        term -> document frequency
 *   blobs     `${repoId}\x1f${path}\x1f${blobId}` -> { orgId, ordinals }
 *   branches  `${repoId}\x1f${branch}\x1f${path}` -> blobId (one small key per file: replacing a set
 *             writes only the changed paths, a membership check is one lookup)
 *   graphs        blob key -> { orgId, language, graph } (the file's encoded code graph, graph-store.ts)
 *   graphimports  blob key -> its language, package and raw imports (what branch resolution reads)
 *   graphnames    `${repoId}\x1f${name}\x1f${path}\x1f${blobId}` -> 1, per name the file defines
 * and the generations that key the read caches.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { open } from "lmdb";
import type { Database, RootDatabase } from "lmdb";
import { createCommitGuard, type StorageSpace } from "../../storage-errors.ts";
import { LMDB_MAP_BYTES, LMDB_WRITE_OPTIONS } from "../../lmdb-map.ts";
import type { ChunkDocument, GraphImport } from "../port.ts";
import { FIELD_COUNT } from "../fields.ts";

/** Bump when the tokenizer, fields or posting format change: an index of another format must be rebuilt. */
export const EMBEDDED_INDEX_FORMAT = 2;

export type Stats = { format: number; nextOrdinal: number; docCount: number; lengthSums: number[] };
export type StoredDoc = Omit<ChunkDocument, "vector">;
export type BlobEntry = { orgId: string; ordinals: number[] };
/** A file's graph: `graph` is its canonical encoding (../graph/codec.ts). */
export type StoredGraph = { orgId: string; language: string; graph: string };
export type StoredGraphImports = { language: string; package: string | null; imports: GraphImport[] };

export const SEP = "\x1f";
export const APPEND = { append: true };
const DOCS_COMPRESSION = { threshold: 2000 };
export const blobKey = (repoId: string, path: string, blobId: string) => `${repoId}${SEP}${path}${SEP}${blobId}`;
export const branchKey = (repoId: string, branch: string, path: string) => `${repoId}${SEP}${branch}${SEP}${path}`;

export class IndexFormatError extends Error {
  constructor(found: number) {
    super(`code index format ${found} found, ${EMBEDDED_INDEX_FORMAT} expected: truncate and rebuild the index`);
    this.name = "IndexFormatError";
  }
}

/** Stored form with a fixed key order, so equal chunks serialise equally (idempotent upserts). */
export function storedDoc(doc: ChunkDocument): StoredDoc {
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

export type IndexLayout = {
  root: RootDatabase;
  /**
   * Runs `fn` in a write transaction and waits for its commit; a commit the file system refuses (a full
   * disk) throws a StorageFullError / StorageWriteError (src/storage-errors.ts) and writes nothing.
   */
  commit<T>(fn: () => T): Promise<T>;
  /**
   * Resolves once every commit that succeeded so far is synced to disk (the sync of the last of them:
   * syncs run in commit order). A refused commit since then does not hold it up, as lmdb-js's
   * `root.flushed` would (the refused commit's sync never comes).
   */
  synced(): Promise<void>;
  /** Closes the environment (settling a failed commit first: CommitGuard.settle). */
  close(): Promise<void>;
  meta: Database<Stats, string>;
  docs: Database<StoredDoc, number>;
  vectors: Database<Uint8Array, number>;
  ids: Database<number, string>;
  postings: Database<Uint8Array, string>;
  dfs: Database<number, string>;
  blobs: Database<BlobEntry, string>;
  branches: Database<string, string>;
  graphs: Database<StoredGraph, string>;
  graphImports: Database<StoredGraphImports, string>;
  graphNames: Database<number, string>;
  all: { clearSync(): void }[];
  /** The collection statistics as stored (empty ones for a new index). */
  readStats(): Stats;
};

/** Opens (or creates) the index under `dir`; an index of another format is refused. */
export function openLayout(dir: string, options: { storageSpace?: StorageSpace } = {}): IndexLayout {
  mkdirSync(dir, { recursive: true });
  const root: RootDatabase = open({ path: join(dir, "code-index.mdb"), maxDbs: 12, mapSize: LMDB_MAP_BYTES, ...LMDB_WRITE_OPTIONS });
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
  const graphs: Database<StoredGraph, string> = root.openDB({ name: "graphs", compression: DOCS_COMPRESSION });
  const graphImports: Database<StoredGraphImports, string> = root.openDB({ name: "graphimports" });
  const graphNames: Database<number, string> = root.openDB({ name: "graphnames" });
  const all = [meta, docs, vectors, ids, postings, dfs, blobs, branches, graphs, graphImports, graphNames];

  const emptyStats = (): Stats => ({
    format: EMBEDDED_INDEX_FORMAT,
    nextOrdinal: 0,
    docCount: 0,
    lengthSums: new Array<number>(FIELD_COUNT).fill(0),
  });
  const existing = meta.get("stats");
  if (existing && existing.format !== EMBEDDED_INDEX_FORMAT) throw new IndexFormatError(existing.format);
  const guard = createCommitGuard(dir, options.storageSpace);
  let lastSynced: Promise<void> = Promise.resolve();
  const commit = async <T>(fn: () => T): Promise<T> => {
    const { committed, synced } = guard.transaction(root, fn);
    const result = await committed;
    lastSynced = synced;
    return result;
  };
  const close = async () => {
    await guard.settle(root);
    await root.close();
  };
  return { root, commit, synced: () => lastSynced, close, meta, docs, vectors, ids, postings, dfs, blobs, branches, graphs, graphImports, graphNames, all, readStats: () => meta.get("stats") ?? emptyStats() };
}

export function* rangeWithPrefix<V>(db: Database<V, string>, prefix: string): Generator<{ key: string; value: V }> {
  for (const entry of db.getRange({ start: prefix })) {
    if (!entry.key.startsWith(prefix)) return;
    yield entry;
  }
}

/**
 * Generations: a repository's changes whenever anything of it is written, the whole index's whenever
 * anything is written, and none is ever reused (a truncate moves every repository past all earlier
 * values), so read caches keyed by them are never stale. A reader in another thread is handed the
 * writer's (`generationOf`, `writeGeneration` options).
 */
export function createGenerations(options: { generationOf?: (repoId: string) => number; writeGeneration?: () => number }) {
  const repoGenerations = new Map<string, number>();
  let writes = 0; // the last generation handed out
  let truncatedAt = 0;
  return {
    touch: (repoId: string) => repoGenerations.set(repoId, ++writes),
    generationOf: options.generationOf ?? ((repoId: string) => Math.max(repoGenerations.get(repoId) ?? 0, truncatedAt)),
    writeGeneration: options.writeGeneration ?? (() => writes),
    /** After a truncate: every repository moves past all earlier generations. */
    truncated(): void {
      repoGenerations.clear();
      truncatedAt = ++writes;
    },
  };
}

export type Generations = ReturnType<typeof createGenerations>;
