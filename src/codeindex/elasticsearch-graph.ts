/**
 * The code graph in the Elasticsearch adapter (./elasticsearch.ts): one document per (repoId, path,
 * blobId) in `${prefix}graph` (schema/elasticsearch/graph.json) holding the file's graph unindexed, with
 * the names it defines (`defNames`) and uses (`refNames`) as keywords. Branch membership is the chunks'
 * terms lookup on the branch document's fileKeys. Imports are resolved per branch (./graph/resolve.ts),
 * cached under a hash of the branch's file set and of this process's graph writes to the repository.
 */
import { createHash } from "node:crypto";
import { errors, type Client, type estypes } from "@elastic/elasticsearch";
import type { BranchFile, BranchFileGraph, DefinitionHit, FileGraphContent, FileGraphRecord, IndexFilter, ReferenceHit } from "./port.ts";
import { decodeGraph } from "./graph/codec.ts";
import { createBranchGraphCache } from "./graph/cache.ts";
import { resolveBranchGraph, type BranchGraph, type ResolverFile } from "./graph/resolve.ts";

type GraphSource = {
  orgId: string;
  repoId: string;
  path: string;
  blobId: string;
  fileKey: string;
  language: string;
  defNames: string[];
  refNames: string[];
  graph: FileGraphContent;
};

type Target = IndexFilter["targets"][number];

export type ElasticsearchGraphDeps = {
  client: Client;
  index: string;
  refresh: boolean | "wait_for";
  ensureIndices(): Promise<void>;
  fileKey(repoId: string, path: string, blobId: string): string;
  /** Documents visible through one target (repository + the branch's fileKeys). */
  targetQuery(target: Target): estypes.QueryDslQueryContainer;
  getBranchFiles(repoId: string, branch: string): Promise<BranchFile[]>;
};

const DEFAULT_LIMIT = 1000;
const MAX_WINDOW = 10_000;
const PAGE = 1000;

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
/** Document ids stay short whatever the path's length (Elasticsearch caps ids at 512 bytes). */
const docId = (fileKey: string): string => createHash("sha256").update(fileKey).digest("hex");

export function createElasticsearchGraph(deps: ElasticsearchGraphDeps) {
  const { client, index, refresh, ensureIndices, fileKey, targetQuery } = deps;
  const cache = createBranchGraphCache();
  const writes = new Map<string, number>();
  const wrote = (repoId: string) => writes.set(repoId, (writes.get(repoId) ?? 0) + 1);

  async function branchGraph(repoId: string, branch: string, files: BranchFile[]): Promise<BranchGraph> {
    const hash = createHash("sha256");
    for (const f of files) hash.update(`${f.path}\u0000${f.blobId}\u0000`);
    const key = `${hash.digest("hex")}:${writes.get(repoId) ?? 0}`;
    return cache.get(`${repoId}\u0000${branch}`, key, async () => {
      const resolverFiles: ResolverFile[] = [];
      let after: estypes.SortResults | undefined;
      for (;;) {
        const response = await client.search<Pick<GraphSource, "path" | "language"> & { graph?: Partial<FileGraphContent> }>({
          index,
          size: PAGE,
          _source: { includes: ["path", "language", "graph.package", "graph.imports"] },
          sort: [{ fileKey: "asc" }],
          ...(after ? { search_after: after } : {}),
          query: { bool: { filter: [targetQuery({ repoId, branch })] } },
        });
        const hits = response.hits.hits;
        for (const hit of hits) {
          const s = hit._source;
          if (!s) continue;
          const imports = s.graph?.imports ?? [];
          const pkg = s.graph?.package ?? null;
          if (imports.length > 0 || pkg !== null) resolverFiles.push({ path: s.path, language: s.language, package: pkg, imports });
        }
        if (hits.length < PAGE) break;
        after = hits[hits.length - 1]!.sort;
      }
      return resolveBranchGraph(files.map((f) => f.path), resolverFiles);
    });
  }

  /** Graph documents holding `field` = one of `values`, per target (in target order, by path), first target wins. */
  async function matching(filter: IndexFilter, field: "defNames" | "refNames", values: string[], limit: number) {
    if (filter.targets.length === 0 || values.length === 0 || limit <= 0) return [];
    await ensureIndices();
    const perTarget = await Promise.all(
      filter.targets.map(async (target) => {
        const clauses: estypes.QueryDslQueryContainer[] = [{ term: { orgId: filter.orgId } }, { terms: { [field]: values } }, targetQuery(target)];
        if (filter.pathPrefix) clauses.push({ prefix: { path: filter.pathPrefix } });
        const response = await client.search<GraphSource>({
          index,
          size: Math.min(limit, MAX_WINDOW),
          _source: { includes: ["repoId", "path", "blobId", "fileKey", "language", "graph.definitions", "graph.references"] },
          sort: [{ path: "asc" }, { blobId: "asc" }],
          query: { bool: { filter: clauses } },
        });
        return response.hits.hits.flatMap((h) => (h._source ? [h._source] : []));
      }),
    );
    const seen = new Set<string>();
    const out: { target: Target; source: GraphSource }[] = [];
    perTarget.forEach((sources, t) => {
      for (const source of sources) {
        if (seen.has(source.fileKey)) continue;
        seen.add(source.fileKey);
        out.push({ target: filter.targets[t]!, source });
      }
    });
    return out;
  }

  return {
    wrote,
    dropCaches(): void {
      cache.clear();
      writes.clear();
    },

    async upsertGraphs(records: FileGraphRecord[]): Promise<void> {
      if (records.length === 0) return;
      await ensureIndices();
      const graphs = records.map((r) => ({ ...r, ...decodeGraph(r.graph) }));
      const operations = graphs.flatMap((g) => {
        const key = fileKey(g.repoId, g.path, g.blobId);
        const source: GraphSource = {
          orgId: g.orgId,
          repoId: g.repoId,
          path: g.path,
          blobId: g.blobId,
          fileKey: key,
          language: g.language,
          defNames: [...new Set(g.definitions.map((d) => d.name))].sort(),
          refNames: [...new Set(g.references.map((r) => r.name))].sort(),
          graph: { package: g.package ?? null, definitions: g.definitions, references: g.references, imports: g.imports },
        };
        return [{ index: { _index: index, _id: docId(key) } }, source];
      });
      const response = await client.bulk({ operations, refresh });
      for (const g of graphs) wrote(g.repoId);
      if (response.errors) {
        const failed = response.items.find((item) => item.index?.error);
        throw new Error(`Elasticsearch graph upsert failed: ${JSON.stringify(failed?.index?.error)}`);
      }
    },

    async getFileGraph(repoId: string, branch: string, path: string): Promise<BranchFileGraph | null> {
      await ensureIndices();
      const files = await deps.getBranchFiles(repoId, branch);
      const file = files.find((f) => f.path === path);
      if (!file) return null;
      let source: GraphSource | undefined;
      try {
        source = (await client.get<GraphSource>({ index, id: docId(fileKey(repoId, path, file.blobId)) }))._source;
      } catch (error) {
        if (error instanceof errors.ResponseError && error.statusCode === 404) return null;
        throw error;
      }
      if (!source) return null;
      const targets = (await branchGraph(repoId, branch, files)).targets.get(path) ?? [];
      const { graph } = source;
      return {
        orgId: source.orgId,
        repoId,
        branch,
        path,
        blobId: file.blobId,
        language: source.language,
        package: graph.package ?? null,
        definitions: graph.definitions,
        references: graph.references,
        imports: graph.imports.map((imp, i) => ({ ...imp, targets: targets[i] ?? [] })),
      };
    },

    async findDefinitions(filter: IndexFilter, names: string[], limit = DEFAULT_LIMIT): Promise<DefinitionHit[]> {
      const wanted = new Set(names);
      const hits: DefinitionHit[] = [];
      for (const { target, source } of await matching(filter, "defNames", [...wanted], limit)) {
        const defs = source.graph.definitions.filter((d) => wanted.has(d.name)).sort((a, b) => a.startLine - b.startLine || byText(a.name, b.name));
        for (const def of defs) hits.push({ repoId: source.repoId, branch: target.branch, path: source.path, blobId: source.blobId, language: source.language, def });
      }
      return hits.slice(0, Math.max(0, limit));
    },

    async findReferences(filter: IndexFilter, name: string, limit = DEFAULT_LIMIT): Promise<ReferenceHit[]> {
      const hits: ReferenceHit[] = [];
      for (const { target, source } of await matching(filter, "refNames", [name], limit)) {
        const refs = source.graph.references.filter((r) => r.name === name).sort((a, b) => a.line - b.line || Number(a.call) - Number(b.call));
        for (const ref of refs) hits.push({ repoId: source.repoId, branch: target.branch, path: source.path, blobId: source.blobId, line: ref.line, call: ref.call });
      }
      return hits.slice(0, Math.max(0, limit));
    },

    async importsOf(repoId: string, branch: string, path: string): Promise<string[]> {
      await ensureIndices();
      return (await branchGraph(repoId, branch, await deps.getBranchFiles(repoId, branch))).importsOf.get(path) ?? [];
    },

    async importersOf(repoId: string, branch: string, path: string): Promise<string[]> {
      await ensureIndices();
      return (await branchGraph(repoId, branch, await deps.getBranchFiles(repoId, branch))).importersOf.get(path) ?? [];
    },
  };
}
