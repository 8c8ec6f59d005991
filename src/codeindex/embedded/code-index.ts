/**
 * Embedded code index: an inverted index on lmdb (memory-mapped, so opening costs nothing and a restart
 * re-parses nothing). Works on Node and Deno. See docs/code-index.md for the design.
 *
 * Its parts: ./layout.ts (the databases, keys and generations), ./writer.ts (the write path),
 * ./reader.ts with ./scoring.ts (search and the read caches), ./vector.ts (vectors), ./postings.ts
 * (the posting block format).
 *
 * One process owns an index directory (in-memory caches of branch filters assume it is the only writer).
 */
import type { CodeIndex } from "../port.ts";
import type { StorageSpace } from "../../storage-errors.ts";
import { createGenerations, openLayout } from "./layout.ts";
import { createIndexReader } from "./reader.ts";
import { createIndexWriter } from "./writer.ts";
import { createGraphStore } from "./graph-store.ts";

export { EMBEDDED_INDEX_FORMAT, IndexFormatError } from "./layout.ts";

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
   * For a reader in another thread (see src/retrieval/search-threads/): the writer's generation of each
   * repository (EmbeddedCodeIndex.generationOf), which keys this instance's read caches. Such an
   * instance must not write.
   */
  generationOf?: (repoId: string) => number;
  /** For such a reader: the writer's generation of the whole index (EmbeddedCodeIndex.writeGeneration). */
  writeGeneration?: () => number;
  /** Bytes of scored postings (ordinals and impacts of recently queried terms) kept in memory per instance (default 32 MB; 0 disables). */
  postingCacheBytes?: number;
  /** Told when a write finds the file system full (before the write's StorageFullError is thrown). */
  storageSpace?: StorageSpace;
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

export function createEmbeddedCodeIndex(options: EmbeddedCodeIndexOptions): EmbeddedCodeIndex {
  const layout = openLayout(options.dir, options.storageSpace ? { storageSpace: options.storageSpace } : {});
  const generations = createGenerations(options);
  const reader = createIndexReader(layout, generations, {
    maxQueryTerms: options.maxQueryTerms ?? 32,
    k1: options.k1 ?? 1.2,
    minQueryIdf: options.minQueryIdf ?? 0.2,
    postingCacheBytes: options.postingCacheBytes ?? 32 * 1024 * 1024,
  });
  const graph = createGraphStore(layout, generations, reader.filesWithTerms);
  const writer = createIndexWriter(layout, generations, graph);
  let closed = false;
  const ensureOpen = (): void => {
    if (closed) throw new Error("code index is closed");
  };

  const index: EmbeddedCodeIndex = {
    takesDocumentTerms: true,
    generationOf: generations.generationOf,
    writeGeneration: generations.writeGeneration,
    refresh: () => layout.root.resetReadTxn(),
    // Writes commit with lmdb-js's overlappingSync (synced right after the commit, outside the writer lock).
    flushed: () => layout.synced(),
    async upsertChunks(docs, upsertOptions) {
      ensureOpen();
      await writer.upsertChunks(docs, upsertOptions);
    },
    async deleteBlob(repoId, path, blobId) {
      ensureOpen();
      await writer.deleteBlob(repoId, path, blobId);
    },
    async hasBlob(repoId, path, blobId) {
      ensureOpen();
      return reader.hasBlob(repoId, path, blobId);
    },
    async setBranchFiles(repoId, branch, files) {
      ensureOpen();
      await writer.setBranchFiles(repoId, branch, files);
    },
    async getBranchFiles(repoId, branch) {
      ensureOpen();
      return reader.getBranchFiles(repoId, branch);
    },
    async searchLexical(query, filter, limit) {
      return (await index.searchLexicalMany([{ text: query, limit }], filter))[0]!;
    },
    async searchLexicalMany(queries, filter) {
      ensureOpen();
      return reader.searchLexicalMany(queries, filter);
    },
    async searchFiles(query, filter) {
      ensureOpen();
      return reader.searchFiles(query, filter);
    },
    async searchVector(vector, filter, limit) {
      ensureOpen();
      return reader.searchVector(vector, filter, limit);
    },
    async getFileChunks(repoId, branch, path) {
      ensureOpen();
      return reader.getFileChunks(repoId, branch, path);
    },
    async upsertGraphs(graphs) {
      ensureOpen();
      await graph.upsertGraphs(graphs);
    },
    async getFileGraph(repoId, branch, path) {
      ensureOpen();
      return graph.getFileGraph(repoId, branch, path);
    },
    async findDefinitions(filter, names, limit) {
      ensureOpen();
      return graph.findDefinitions(filter, names, limit);
    },
    async findReferences(filter, name, limit) {
      ensureOpen();
      return graph.findReferences(filter, name, limit);
    },
    async importsOf(repoId, branch, path) {
      ensureOpen();
      return graph.importsOf(repoId, branch, path);
    },
    async importersOf(repoId, branch, path) {
      ensureOpen();
      return graph.importersOf(repoId, branch, path);
    },
    async deleteRepository(repoId) {
      ensureOpen();
      await writer.deleteRepository(repoId);
    },
    async truncate() {
      ensureOpen();
      try {
        await writer.clear();
        generations.truncated();
      } finally {
        reader.dropCaches();
        graph.dropCaches();
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      reader.dropFilters();
      await layout.close();
    },
  };
  return index;
}
