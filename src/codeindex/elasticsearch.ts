/**
 * Elasticsearch code index (scaled mode), on @elastic/elasticsearch 9.4 and the basic licence.
 *
 * Indices: `${prefix}chunks` (schema/elasticsearch/chunks.json), `${prefix}branches`
 * (schema/elasticsearch/branches.json) and `${prefix}graph` (schema/elasticsearch/graph.json, the code
 * graph: ./elasticsearch-graph.ts).
 *
 * Branch membership: chunks carry `fileKey` = `${repoId}|${blobId}|${path}`; a branch is one document in the
 * branches index listing the fileKeys of its files. Searches filter chunks with a terms lookup on that
 * document. So a second branch, or a push that changes one file, costs one branch document write plus the
 * changed file's chunks: no chunk is rewritten to record which branches hold it (storing branch names on
 * chunks would re-index every chunk of the repository per branch, vectors included).
 * A terms lookup reads at most `index.max_terms_count` keys (set to 262144 in the mapping).
 *
 * Lexical search is one multi_match (cross_fields, BM25 blended across fields) with the embedded adapter's
 * field weights as boosts; vector search is a knn query. Both filter by org, path prefix and branch.
 * No RRF (it needs a paid licence): the application fuses lexical and vector hits.
 */
import { Client, errors } from "@elastic/elasticsearch";
import type { estypes } from "@elastic/elasticsearch";
import chunksIndexDefinition from "../../schema/elasticsearch/chunks.json" with { type: "json" };
import branchesIndexDefinition from "../../schema/elasticsearch/branches.json" with { type: "json" };
import graphIndexDefinition from "../../schema/elasticsearch/graph.json" with { type: "json" };
import { createElasticsearchGraph } from "./elasticsearch-graph.ts";
import { FIELDS } from "./fields.ts";
import type { BranchFile, ChunkDocument, CodeIndex, FileHit, IndexFilter, IndexHit } from "./port.ts";

export type ElasticsearchCodeIndexOptions = {
  node: string;
  /** Prefix of both index names, e.g. "loupe-" (default). */
  indexPrefix?: string;
  /** Vector dimensions, fixed when the index is created; without it Elasticsearch takes the first vector's. */
  vectorDims?: number;
  /** Refresh after writes so they are searchable at once (default "wait_for"). */
  refresh?: boolean | "wait_for";
  /** Characters of a query sent to Elasticsearch (bug reports can be long). */
  maxQueryChars?: number;
  /** An existing client (tests, shared connection pools); `node` is then ignored. */
  client?: Client;
};

type ChunkSource = Omit<ChunkDocument, "vector"> & { fileKey: string; vector?: number[] };
type BranchSource = { repoId: string; branch: string; fileKeys: string[]; files: BranchFile[] };

const MAX_WINDOW = 10_000;

/** Field boosts for multi_match, from the shared field weights. */
const LEXICAL_FIELDS = FIELDS.map((f) => `${f.name === "path" ? "path.text" : f.name}^${f.weight}`);

export const fileKey = (repoId: string, path: string, blobId: string) => `${repoId}|${blobId}|${path}`;
const branchDocId = (repoId: string, branch: string) => `${repoId}|${branch}`;

export function createElasticsearchCodeIndex(options: ElasticsearchCodeIndexOptions): CodeIndex {
  const prefix = options.indexPrefix ?? "loupe-";
  const chunksIndex = `${prefix}chunks`;
  const branchesIndex = `${prefix}branches`;
  const graphIndex = `${prefix}graph`;
  const refresh = options.refresh ?? "wait_for";
  const maxQueryChars = options.maxQueryChars ?? 8000;
  const client = options.client ?? new Client({ node: options.node });
  const ownsClient = !options.client;

  let ready: Promise<void> | undefined;
  const ensureIndices = () => (ready ??= createIndices().catch((error) => {
    ready = undefined;
    throw error;
  }));

  async function createIndex(index: string, definition: { settings: object; mappings: object }): Promise<void> {
    if (await client.indices.exists({ index })) return;
    try {
      await client.indices.create({
        index,
        settings: definition.settings as estypes.IndicesIndexSettings,
        mappings: definition.mappings as estypes.MappingTypeMapping,
      });
    } catch (error) {
      // Another process created it first.
      if (error instanceof errors.ResponseError && error.body?.error?.type === "resource_already_exists_exception") return;
      throw error;
    }
  }

  async function createIndices(): Promise<void> {
    const chunks = structuredClone(chunksIndexDefinition) as { settings: object; mappings: { properties: Record<string, Record<string, unknown>> } };
    if (options.vectorDims) chunks.mappings.properties.vector!.dims = options.vectorDims;
    await createIndex(chunksIndex, chunks);
    await createIndex(branchesIndex, branchesIndexDefinition);
    await createIndex(graphIndex, graphIndexDefinition);
  }

  /** Chunks visible through one target: its repository and the files of its branch document. */
  function targetQuery(target: IndexFilter["targets"][number], name?: string): estypes.QueryDslQueryContainer {
    return {
      bool: {
        ...(name ? { _name: name } : {}),
        filter: [
          { term: { repoId: target.repoId } },
          { terms: { fileKey: { index: branchesIndex, id: branchDocId(target.repoId, target.branch), path: "fileKeys" } } },
        ],
      },
    };
  }

  function filterClauses(filter: IndexFilter, targets: estypes.QueryDslQueryContainer[]): estypes.QueryDslQueryContainer[] {
    const clauses: estypes.QueryDslQueryContainer[] = [{ term: { orgId: filter.orgId } }];
    if (filter.pathPrefix) clauses.push({ prefix: { path: filter.pathPrefix } });
    clauses.push(targets.length === 1 ? targets[0]! : { bool: { should: targets, minimum_should_match: 1 } });
    return clauses;
  }

  function toDoc(source: ChunkSource): ChunkDocument {
    const { fileKey: _fileKey, ...doc } = source;
    return doc;
  }

  function toSource(doc: ChunkDocument): ChunkSource {
    const { vector, ...rest } = doc;
    const source: ChunkSource = { ...rest, fileKey: fileKey(doc.repoId, doc.path, doc.blobId) };
    if (vector && vector.length > 0) source.vector = vector;
    return source;
  }

  async function deleteByQuery(index: string, query: estypes.QueryDslQueryContainer): Promise<void> {
    await client.deleteByQuery({ index, query, refresh: true, conflicts: "proceed", slices: "auto" });
  }

  const graph = createElasticsearchGraph({
    client,
    index: graphIndex,
    refresh,
    ensureIndices,
    fileKey,
    targetQuery: (target) => targetQuery(target),
    getBranchFiles: (repoId, branch) => index.getBranchFiles(repoId, branch),
  });

  const index: CodeIndex = {
    upsertGraphs: graph.upsertGraphs,
    getFileGraph: graph.getFileGraph,
    findDefinitions: graph.findDefinitions,
    findReferences: graph.findReferences,
    importsOf: graph.importsOf,
    importersOf: graph.importersOf,

    async upsertChunks(docs) {
      if (docs.length === 0) return;
      await ensureIndices();
      const operations = docs.flatMap((doc) => [{ index: { _index: chunksIndex, _id: doc.id } }, toSource(doc)]);
      const response = await client.bulk({ operations, refresh });
      if (response.errors) {
        const failed = response.items.find((item) => item.index?.error);
        throw new Error(`Elasticsearch bulk upsert failed: ${JSON.stringify(failed?.index?.error)}`);
      }
    },

    async deleteBlob(repoId, path, blobId) {
      await ensureIndices();
      await deleteByQuery(chunksIndex, { term: { fileKey: fileKey(repoId, path, blobId) } });
      await deleteByQuery(graphIndex, { term: { fileKey: fileKey(repoId, path, blobId) } });
      graph.wrote(repoId);
    },

    async hasBlob(repoId, path, blobId) {
      await ensureIndices();
      const response = await client.count({ index: chunksIndex, query: { term: { fileKey: fileKey(repoId, path, blobId) } } });
      return response.count > 0;
    },

    async setBranchFiles(repoId, branch, files) {
      await ensureIndices();
      const unique = new Map<string, string>();
      for (const file of files) unique.set(file.path, file.blobId);
      const entries = [...unique].map(([path, blobId]) => ({ path, blobId })).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      const document: BranchSource = {
        repoId,
        branch,
        fileKeys: entries.map((f) => fileKey(repoId, f.path, f.blobId)),
        files: entries,
      };
      await client.index({ index: branchesIndex, id: branchDocId(repoId, branch), document, refresh });
    },

    async getBranchFiles(repoId, branch) {
      await ensureIndices();
      try {
        const response = await client.get<BranchSource>({ index: branchesIndex, id: branchDocId(repoId, branch) });
        return response._source?.files ?? [];
      } catch (error) {
        if (error instanceof errors.ResponseError && error.statusCode === 404) return [];
        throw error;
      }
    },

    searchLexicalMany(queries, filter) {
      return Promise.all(queries.map((q) => index.searchLexical(q.text, filter, q.limit)));
    },

    async searchLexical(query, filter, limit) {
      if (limit <= 0 || filter.targets.length === 0 || query.trim() === "") return [];
      await ensureIndices();
      const targets = filter.targets.map((t, i) => targetQuery(t, `t${i}`));
      const response = await client.search<ChunkSource>({
        index: chunksIndex,
        size: Math.min(limit, MAX_WINDOW),
        _source_excludes: ["vector", "fileKey"],
        query: {
          bool: {
            must: {
              multi_match: {
                query: query.slice(0, maxQueryChars),
                type: "cross_fields",
                operator: "or",
                fields: LEXICAL_FIELDS,
                auto_generate_synonyms_phrase_query: false,
              },
            },
            filter: filterClauses(filter, targets),
          },
        },
      });
      return response.hits.hits.flatMap((hit): IndexHit[] => {
        if (!hit._source) return [];
        const matched = hit.matched_queries;
        const names = Array.isArray(matched) ? matched : Object.keys(matched ?? {});
        const t = names.map((n) => Number(n.slice(1))).filter((n) => Number.isInteger(n)).sort((a, b) => a - b)[0] ?? 0;
        return [{ doc: toDoc(hit._source), score: hit._score ?? 0, branch: filter.targets[t]!.branch }];
      });
    },

    async searchFiles(query, filter) {
      const { text, limit } = query;
      if (limit <= 0 || filter.targets.length === 0 || text.trim() === "") return [];
      await ensureIndices();
      // Per target, the files of the matching chunks by the sum of their chunk scores (an approximation
      // of the embedded adapter's file-level BM25: no saturation per file); the first target wins a path.
      const perTarget = await Promise.all(
        filter.targets.map(async (target) => {
          const response = await client.search({
            index: chunksIndex,
            size: 0,
            query: {
              bool: {
                must: { multi_match: { query: text.slice(0, maxQueryChars), type: "cross_fields", operator: "or", fields: LEXICAL_FIELDS, auto_generate_synonyms_phrase_query: false } },
                filter: filterClauses(filter, [targetQuery(target)]),
              },
            },
            aggs: { files: { terms: { field: "path", size: Math.min(limit, MAX_WINDOW), order: { score: "desc" } }, aggs: { score: { sum: { script: { source: "_score" } } } } } },
          });
          const files = response.aggregations?.files as { buckets?: { key: string; score: { value: number } }[] } | undefined;
          return (files?.buckets ?? []).map((b) => ({ repoId: target.repoId, branch: target.branch, path: String(b.key), score: b.score.value }));
        }),
      );
      const best = new Map<string, FileHit>();
      for (const hits of perTarget) for (const hit of hits) if (!best.has(`${hit.repoId}\u0000${hit.path}`)) best.set(`${hit.repoId}\u0000${hit.path}`, hit);
      return [...best.values()].sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)).slice(0, limit);
    },

    async searchVector(vector, filter, limit) {
      if (limit <= 0 || filter.targets.length === 0 || vector.length === 0) return [];
      await ensureIndices();
      // One knn per target (knn filters do not report matched named queries), merged; first target wins.
      const perTarget = await Promise.all(
        filter.targets.map(async (target) => {
          const response = await client.search<ChunkSource>({
            index: chunksIndex,
            size: Math.min(limit, MAX_WINDOW),
            _source_excludes: ["vector", "fileKey"],
            knn: {
              field: "vector",
              query_vector: vector,
              k: Math.min(limit, MAX_WINDOW),
              num_candidates: Math.min(Math.max(limit * 4, 100), MAX_WINDOW),
              filter: filterClauses(filter, [targetQuery(target)]),
            },
          });
          return response.hits.hits;
        }),
      );
      const best = new Map<string, IndexHit>();
      perTarget.forEach((hits, t) => {
        for (const hit of hits) {
          if (!hit._source || best.has(hit._source.id)) continue;
          // Elasticsearch reports cosine as (1 + cos) / 2; the port promises the cosine similarity.
          best.set(hit._source.id, { doc: toDoc(hit._source), score: 2 * (hit._score ?? 0) - 1, branch: filter.targets[t]!.branch });
        }
      });
      return [...best.values()].sort((a, b) => b.score - a.score).slice(0, limit);
    },

    async getFileChunks(repoId, branch, path) {
      await ensureIndices();
      const response = await client.search<ChunkSource>({
        index: chunksIndex,
        size: MAX_WINDOW,
        _source_excludes: ["fileKey"],
        sort: [{ ordinal: "asc" }],
        query: { bool: { filter: [{ term: { path } }, targetQuery({ repoId, branch })] } },
      });
      return response.hits.hits.flatMap((hit) => (hit._source ? [toDoc(hit._source)] : []));
    },

    async deleteRepository(repoId) {
      await ensureIndices();
      await deleteByQuery(chunksIndex, { term: { repoId } });
      await deleteByQuery(branchesIndex, { term: { repoId } });
      await deleteByQuery(graphIndex, { term: { repoId } });
      graph.wrote(repoId);
    },

    async truncate() {
      await ensureIndices();
      await deleteByQuery(chunksIndex, { match_all: {} });
      await deleteByQuery(branchesIndex, { match_all: {} });
      await deleteByQuery(graphIndex, { match_all: {} });
      graph.dropCaches();
    },

    async close() {
      if (ownsClient) await client.close();
    },
  };
  return index;
}
