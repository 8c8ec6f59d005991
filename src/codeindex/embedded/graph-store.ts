/**
 * The code graph in the embedded index (layout.ts: graphs, graphimports, graphnames). A file's graph is
 * stored under its blob key, like its chunks, in its canonical encoding (../graph/codec.ts) as the parse
 * worker made it. Each name a file defines gets one key under the repository, so finding definitions is
 * one range read per name and target. References get no keys of their own (they were most of the
 * graph's writes): the chunks' postings of the name's words give the candidate files (every non-blank
 * line of a file is in one of its chunks), whose graphs are then read. Imports are resolved per branch
 * (../graph/resolve.ts), cached until the repository's generation moves.
 */
import type { BranchFileGraph, DefinitionHit, GraphDefinition, FileGraphRecord, IndexFilter, ReferenceHit } from "../port.ts";
import { forEachWord, wordTokens } from "../tokenize.ts";
import { createBranchGraphCache } from "../graph/cache.ts";
import { decodeGraph, decodeGraphOutline, referencesNamed } from "../graph/codec.ts";
import { resolveBranchGraph, type BranchGraph, type ResolverFile } from "../graph/resolve.ts";
import { SEP, blobKey, branchKey, rangeWithPrefix, type Generations, type IndexLayout, type StoredGraph } from "./layout.ts";

const DEFAULT_LIMIT = 1000;
/** Files whose decoded definitions are kept (a search's definition lookups read the same files again and again). */
const OUTLINES_KEPT = 1_024;

const nameKey = (repoId: string, name: string, path: string, blobId: string) => `${repoId}${SEP}${name}${SEP}${path}${SEP}${blobId}`;

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Index terms that every chunk holding `name` as written also holds (none when its words give none). */
function termsOfName(name: string): string[] {
  const terms = new Set<string>();
  forEachWord(name, (word) => {
    const tokens = wordTokens(word);
    const whole = word.toLowerCase();
    const term = tokens.includes(whole) ? whole : tokens[0];
    if (term !== undefined) terms.add(term);
  });
  return [...terms];
}

type Place = { target: number; repoId: string; path: string; blobId: string };

/** What the files-with-terms lookup of the chunk reader (reader.ts) gives. */
export type CandidateFiles = (terms: readonly string[], filter: IndexFilter) => Place[];

export function createGraphStore(layout: IndexLayout, generations: Generations, candidateFiles: CandidateFiles) {
  const { commit, graphs, graphImports, graphNames, branches } = layout;
  const cache = createBranchGraphCache();
  /** Decoded definitions by blob key, with the stored graph's organisation and language; dropped when the blob's graph is written or removed. */
  const outlines = new Map<string, { orgId: string; language: string; definitions: GraphDefinition[] }>();

  /** The definitions of a place's graph when it belongs to the filter's organisation, decoded once. */
  function definitionsAt(filter: IndexFilter, place: Place): { language: string; definitions: GraphDefinition[] } | null {
    const key = blobKey(place.repoId, place.path, place.blobId);
    let outline = outlines.get(key);
    if (outline === undefined) {
      const stored = graphs.get(key);
      if (!stored) return null;
      outline = { orgId: stored.orgId, language: stored.language, definitions: decodeGraphOutline(stored.graph).definitions };
      if (outlines.size >= OUTLINES_KEPT) outlines.delete(outlines.keys().next().value!);
      outlines.set(key, outline);
    }
    return outline.orgId === filter.orgId ? outline : null;
  }

  /** Inside a write transaction: removes the graph of one blob and its name keys. */
  function removeGraphSync(repoId: string, path: string, blobId: string): void {
    const key = blobKey(repoId, path, blobId);
    outlines.delete(key);
    const old = graphs.get(key);
    if (!old) return;
    for (const def of decodeGraphOutline(old.graph).definitions) graphNames.removeSync(nameKey(repoId, def.name, path, blobId));
    graphs.removeSync(key);
    graphImports.removeSync(key);
  }

  /** Inside a write transaction: removes every graph of a repository. */
  function removeRepositorySync(repoId: string): void {
    const prefix = `${repoId}${SEP}`;
    outlines.clear();
    for (const key of [...rangeWithPrefix(graphs, prefix)].map((e) => e.key)) graphs.removeSync(key);
    for (const key of [...rangeWithPrefix(graphImports, prefix)].map((e) => e.key)) graphImports.removeSync(key);
    for (const key of [...rangeWithPrefix(graphNames, prefix)].map((e) => e.key)) graphNames.removeSync(key);
  }

  const onBranch = (repoId: string, branch: string, path: string, blobId: string): boolean => branches.get(branchKey(repoId, branch, path)) === blobId;

  function branchGraph(repoId: string, branch: string): Promise<BranchGraph> {
    return cache.get(`${repoId}${SEP}${branch}`, String(generations.generationOf(repoId)), async () => {
      const prefix = branchKey(repoId, branch, "");
      const paths: string[] = [];
      const files: ResolverFile[] = [];
      for (const { key, value: blobId } of rangeWithPrefix(branches, prefix)) {
        const path = key.slice(prefix.length);
        paths.push(path);
        const record = graphImports.get(blobKey(repoId, path, blobId));
        if (record) files.push({ path, language: record.language, package: record.package, imports: record.imports });
      }
      return resolveBranchGraph(paths, files);
    });
  }

  /** The stored graph of a place when it belongs to the filter's organisation. */
  function graphAt(filter: IndexFilter, place: { repoId: string; path: string; blobId: string }): StoredGraph | null {
    const stored = graphs.get(blobKey(place.repoId, place.path, place.blobId));
    return stored && stored.orgId === filter.orgId ? stored : null;
  }

  /** Places of the filter's branches, every file (a name that yields no index term). */
  function branchPlaces(filter: IndexFilter): Place[] {
    const out: Place[] = [];
    const seen = new Set<string>();
    filter.targets.forEach(({ repoId, branch }, target) => {
      const prefix = branchKey(repoId, branch, filter.pathPrefix ?? "");
      const start = branchKey(repoId, branch, "").length;
      for (const { key, value: blobId } of rangeWithPrefix(branches, prefix)) {
        const path = key.slice(start);
        const id = blobKey(repoId, path, blobId);
        if (seen.has(id)) continue;
        seen.add(id);
        out.push({ target, repoId, path, blobId });
      }
    });
    return out;
  }

  return {
    removeGraphSync,
    removeRepositorySync,
    dropCaches: () => {
      cache.clear();
      outlines.clear();
    },

    async upsertGraphs(input: FileGraphRecord[]): Promise<void> {
      if (input.length === 0) return;
      const repoIds = new Set<string>();
      await commit(() => {
        for (const record of input) {
          const key = blobKey(record.repoId, record.path, record.blobId);
          const old = graphs.get(key);
          if (old && old.graph === record.graph && old.orgId === record.orgId && old.language === record.language) continue;
          if (old) removeGraphSync(record.repoId, record.path, record.blobId); // its decoded definitions too
          const outline = decodeGraphOutline(record.graph);
          graphs.putSync(key, { orgId: record.orgId, language: record.language, graph: record.graph });
          if (outline.imports.length > 0 || outline.package !== null) {
            graphImports.putSync(key, { language: record.language, package: outline.package, imports: outline.imports });
          }
          for (const name of new Set(outline.definitions.map((d) => d.name))) graphNames.putSync(nameKey(record.repoId, name, record.path, record.blobId), 1);
          repoIds.add(record.repoId);
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
      const graph = decodeGraph(stored.graph);
      return {
        orgId: stored.orgId,
        repoId,
        branch,
        path,
        blobId,
        language: stored.language,
        package: graph.package,
        definitions: graph.definitions,
        references: graph.references,
        imports: graph.imports.map((imp, i) => ({ ...imp, targets: targets[i] ?? [] })),
      };
    },

    async findDefinitions(filter: IndexFilter, names: string[], limit = DEFAULT_LIMIT): Promise<DefinitionHit[]> {
      const wanted = new Set(names);
      const places = new Map<string, Place>();
      filter.targets.forEach(({ repoId, branch }, target) => {
        for (const name of wanted) {
          const prefix = `${repoId}${SEP}${name}${SEP}`;
          for (const { key } of rangeWithPrefix(graphNames, prefix)) {
            const rest = key.slice(prefix.length);
            const cut = rest.lastIndexOf(SEP);
            const path = rest.slice(0, cut);
            const blobId = rest.slice(cut + 1);
            const id = blobKey(repoId, path, blobId);
            if (places.has(id) || (filter.pathPrefix && !path.startsWith(filter.pathPrefix)) || !onBranch(repoId, branch, path, blobId)) continue;
            places.set(id, { target, repoId, path, blobId });
          }
        }
      });
      const hits: (DefinitionHit & { target: number })[] = [];
      for (const place of places.values()) {
        const stored = definitionsAt(filter, place);
        if (!stored) continue;
        for (const def of stored.definitions) {
          if (!wanted.has(def.name)) continue;
          hits.push({ target: place.target, repoId: place.repoId, branch: filter.targets[place.target]!.branch, path: place.path, blobId: place.blobId, language: stored.language, def });
        }
      }
      hits.sort((a, b) => a.target - b.target || byText(a.path, b.path) || a.def.startLine - b.def.startLine || byText(a.def.name, b.def.name));
      return hits.slice(0, Math.max(0, limit)).map(({ target: _target, ...hit }) => hit);
    },

    async findReferences(filter: IndexFilter, name: string, limit = DEFAULT_LIMIT): Promise<ReferenceHit[]> {
      const terms = termsOfName(name);
      const places = terms.length > 0 ? candidateFiles(terms, filter) : branchPlaces(filter);
      const hits: (ReferenceHit & { target: number })[] = [];
      for (const place of places) {
        const stored = graphAt(filter, place);
        if (!stored) continue;
        const branch = filter.targets[place.target]!.branch;
        for (const code of referencesNamed(stored.graph, name)) {
          hits.push({ target: place.target, repoId: place.repoId, branch, path: place.path, blobId: place.blobId, line: code >> 1, call: (code & 1) === 1 });
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
