/**
 * The code graph in the embedded index (layout.ts: graphs, graphimports, graphnames). A file's graph is
 * stored under its blob key, like its chunks; each name it defines or uses gets one key under the
 * repository, so a lookup by name is one range read per target branch, checked against the branch's
 * file set (`branches`). Imports are resolved per branch (../graph/resolve.ts) from the raw specs and
 * the branch's files, cached until the repository's generation moves.
 */
import type {
  BranchFileGraph,
  DefinitionHit,
  FileGraph,
  GraphDefinition,
  GraphImport,
  IndexFilter,
  ReferenceHit,
} from "../port.ts";
import { createBranchGraphCache } from "../graph/cache.ts";
import { resolveBranchGraph, type BranchGraph, type ResolverFile } from "../graph/resolve.ts";
import {
  SEP,
  blobKey,
  branchKey,
  rangeWithPrefix,
  type Generations,
  type IndexLayout,
  type StoredGraph,
  type StoredGraphImports,
  type StoredGraphName,
} from "./layout.ts";

const DEFAULT_LIMIT = 1000;

const nameKey = (repoId: string, tag: "d" | "r", name: string, path: string, blobId: string) =>
  `${repoId}${SEP}${tag}${name}${SEP}${path}${SEP}${blobId}`;

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Stored form with a fixed key order, so an unchanged graph compares equal and is not rewritten. */
export function storedGraph(graph: FileGraph): StoredGraph {
  return {
    orgId: graph.orgId,
    language: graph.language,
    package: graph.package ?? null,
    definitions: graph.definitions.map((d) => ({
      name: d.name,
      kind: d.kind,
      label: d.label,
      parent: d.parent ?? null,
      startLine: d.startLine,
      endLine: d.endLine,
      params: d.params ? d.params.map((p) => ({ name: p.name, hasDefault: p.hasDefault })) : null,
      paramsText: d.paramsText ?? null,
    })),
    references: graph.references.map((r) => ({ name: r.name, line: r.line, call: r.call })),
    imports: graph.imports.map((i): GraphImport => ({ spec: i.spec, kind: i.kind, line: i.line, ...(i.names ? { names: [...i.names] } : {}) })),
  };
}

/** The name keys of a stored graph and their values. */
function nameEntries(repoId: string, path: string, blobId: string, graph: StoredGraph): Map<string, StoredGraphName> {
  const defs = new Map<string, GraphDefinition[]>();
  for (const def of graph.definitions) {
    const list = defs.get(def.name);
    if (list) list.push(def);
    else defs.set(def.name, [def]);
  }
  const refs = new Map<string, number[]>();
  for (const ref of graph.references) {
    const code = ref.line * 2 + (ref.call ? 1 : 0);
    const list = refs.get(ref.name);
    if (list) list.push(code);
    else refs.set(ref.name, [code]);
  }
  const out = new Map<string, StoredGraphName>();
  for (const [name, d] of defs) out.set(nameKey(repoId, "d", name, path, blobId), { o: graph.orgId, d });
  for (const [name, l] of refs) out.set(nameKey(repoId, "r", name, path, blobId), { o: graph.orgId, l: [...new Set(l)].sort((a, b) => a - b) });
  return out;
}

export function createGraphStore(layout: IndexLayout, generations: Generations) {
  const { root, graphs, graphImports, graphNames, branches } = layout;
  const cache = createBranchGraphCache();

  /** Inside a write transaction: removes the graph of one blob and its names. */
  function removeGraphSync(repoId: string, path: string, blobId: string): void {
    const key = blobKey(repoId, path, blobId);
    const old = graphs.get(key);
    if (!old) return;
    for (const name of nameEntries(repoId, path, blobId, old).keys()) graphNames.removeSync(name);
    graphs.removeSync(key);
    graphImports.removeSync(key);
  }

  /** Inside a write transaction: removes every graph of a repository. */
  function removeRepositorySync(repoId: string): void {
    const prefix = `${repoId}${SEP}`;
    for (const key of [...rangeWithPrefix(graphs, prefix)].map((e) => e.key)) graphs.removeSync(key);
    for (const key of [...rangeWithPrefix(graphImports, prefix)].map((e) => e.key)) graphImports.removeSync(key);
    for (const key of [...rangeWithPrefix(graphNames, prefix)].map((e) => e.key)) graphNames.removeSync(key);
  }

  /** True when `path` is on the branch with that blob. */
  const onBranch = (repoId: string, branch: string, path: string, blobId: string): boolean => branches.get(branchKey(repoId, branch, path)) === blobId;

  function branchGraph(repoId: string, branch: string): Promise<BranchGraph> {
    return cache.get(`${repoId}${SEP}${branch}`, String(generations.generationOf(repoId)), async () => {
      const prefix = branchKey(repoId, branch, "");
      const paths: string[] = [];
      const files: ResolverFile[] = [];
      for (const { key, value: blobId } of rangeWithPrefix(branches, prefix)) {
        const path = key.slice(prefix.length);
        paths.push(path);
        const record: StoredGraphImports | undefined = graphImports.get(blobKey(repoId, path, blobId));
        if (record) files.push({ path, language: record.language, package: record.package, imports: record.imports });
      }
      return resolveBranchGraph(paths, files);
    });
  }

  /** Entries of `tag`+`name` visible through the filter's targets (first target wins), in target, path order. */
  function namedEntries(filter: IndexFilter, tag: "d" | "r", name: string) {
    const out: { target: number; repoId: string; branch: string; path: string; blobId: string; value: StoredGraphName }[] = [];
    const seen = new Set<string>();
    filter.targets.forEach(({ repoId, branch }, target) => {
      const prefix = `${repoId}${SEP}${tag}${name}${SEP}`;
      for (const { key, value } of rangeWithPrefix(graphNames, prefix)) {
        if (value.o !== filter.orgId) continue;
        const rest = key.slice(prefix.length);
        const cut = rest.lastIndexOf(SEP);
        const path = rest.slice(0, cut);
        const blobId = rest.slice(cut + 1);
        if (filter.pathPrefix && !path.startsWith(filter.pathPrefix)) continue;
        if (!onBranch(repoId, branch, path, blobId)) continue;
        const id = `${repoId}${SEP}${path}${SEP}${blobId}`;
        if (seen.has(id)) continue;
        seen.add(id);
        out.push({ target, repoId, branch, path, blobId, value });
      }
    });
    return out;
  }

  return {
    removeGraphSync,
    removeRepositorySync,
    dropCaches: () => cache.clear(),

    async upsertGraphs(input: FileGraph[]): Promise<void> {
      if (input.length === 0) return;
      const repoIds = new Set<string>();
      await root.transaction(() => {
        for (const graph of input) {
          const key = blobKey(graph.repoId, graph.path, graph.blobId);
          const stored = storedGraph(graph);
          const old = graphs.get(key);
          if (old && JSON.stringify(old) === JSON.stringify(stored)) continue;
          if (old) removeGraphSync(graph.repoId, graph.path, graph.blobId);
          graphs.putSync(key, stored);
          if (stored.imports.length > 0 || stored.package !== null) {
            graphImports.putSync(key, { language: stored.language, package: stored.package, imports: stored.imports });
          }
          for (const [name, value] of nameEntries(graph.repoId, graph.path, graph.blobId, stored)) graphNames.putSync(name, value);
          repoIds.add(graph.repoId);
        }
      });
      for (const repoId of repoIds) generations.touch(repoId);
    },

    async getFileGraph(repoId: string, branch: string, path: string): Promise<BranchFileGraph | null> {
      const blobId = branches.get(branchKey(repoId, branch, path));
      if (blobId === undefined) return null;
      const stored = graphs.get(blobKey(repoId, path, blobId));
      if (!stored) return null;
      const targets = (await branchGraph(repoId, branch)).targets.get(path) ?? [];
      const { orgId, language, package: pkg, definitions, references, imports } = stored;
      return {
        orgId,
        repoId,
        branch,
        path,
        blobId,
        language,
        package: pkg,
        definitions,
        references,
        imports: imports.map((imp, i) => ({ ...imp, targets: targets[i] ?? [] })),
      };
    },

    async findDefinitions(filter: IndexFilter, names: string[], limit = DEFAULT_LIMIT): Promise<DefinitionHit[]> {
      const hits: (DefinitionHit & { target: number })[] = [];
      for (const name of [...new Set(names)]) {
        for (const entry of namedEntries(filter, "d", name)) {
          const language = graphs.get(blobKey(entry.repoId, entry.path, entry.blobId))?.language ?? "";
          for (const def of entry.value.d ?? []) {
            hits.push({ target: entry.target, repoId: entry.repoId, branch: entry.branch, path: entry.path, blobId: entry.blobId, language, def });
          }
        }
      }
      hits.sort((a, b) => a.target - b.target || byText(a.path, b.path) || a.def.startLine - b.def.startLine || byText(a.def.name, b.def.name));
      return hits.slice(0, Math.max(0, limit)).map(({ target: _target, ...hit }) => hit);
    },

    async findReferences(filter: IndexFilter, name: string, limit = DEFAULT_LIMIT): Promise<ReferenceHit[]> {
      const hits: (ReferenceHit & { target: number })[] = [];
      for (const entry of namedEntries(filter, "r", name)) {
        for (const code of entry.value.l ?? []) {
          hits.push({ target: entry.target, repoId: entry.repoId, branch: entry.branch, path: entry.path, blobId: entry.blobId, line: code >> 1, call: (code & 1) === 1 });
        }
      }
      hits.sort((a, b) => a.target - b.target || byText(a.path, b.path) || a.line - b.line || Number(a.call) - Number(b.call));
      return hits.slice(0, Math.max(0, limit)).map(({ target: _target, ...hit }) => hit);
    },

    async importsOf(repoId: string, branch: string, path: string): Promise<string[]> {
      return (await branchGraph(repoId, branch)).importsOf.get(path) ?? [];
    },

    async importersOf(repoId: string, branch: string, path: string): Promise<string[]> {
      return (await branchGraph(repoId, branch)).importersOf.get(path) ?? [];
    },
  };
}

export type GraphStore = ReturnType<typeof createGraphStore>;
