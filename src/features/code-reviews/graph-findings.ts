/**
 * Review findings that read the repository's code graph (the target branch as indexed): broken
 * callers (src/review/graph/broken-callers.ts) and broken imports (src/review/graph/broken-imports.ts:
 * files the change deletes or moves that others still import), found once per review run before its
 * files are reviewed (the engine asks earlier when the change deletes or moves files, or only removes
 * lines from one: such a file with a finding is reviewed, not skipped); each file's findings then go
 * through the file's review like any other finding
 * (strictness, team rules on the same line, dedupe, addressed detection, the model's context).
 * Without an indexed branch of the repository there is nothing to read: no finding, and the summary
 * says the callers were not checked. A failure of the index never fails the review.
 * Also the one choice of the indexed branch that every index-backed part of a review reads
 * (`indexTargetOf`: the broken callers, ./graph-review.ts, related code, the summary's checks).
 */
import type { CodeIndex, IndexFilter } from "../../codeindex/port.ts";
import type { Logger } from "../../logging.ts";
import type { Remote } from "../../hosts/types.ts";
import type { DiffFile } from "../../review/diff.ts";
import type { Finding } from "../../review/findings.ts";
import { brokenCallerFinding, deletedFileCallersFinding, findBrokenCallers, type BranchGraph, type BrokenCaller } from "../../review/graph/broken-callers.ts";
import { brokenImportFinding, findBrokenImports } from "../../review/graph/broken-imports.ts";
import { createParseCache, type ParseFile } from "../../review/graph/calls.ts";
import { codeIndexRepoId } from "../../indexing/repo-id.ts";

export type IndexedRepositories = (orgId: string) => readonly { remote: string; repository: string; branch: string; sha: string | null }[];

/** One indexed branch of a repository in the code index. */
export type IndexTarget = { orgId: string; repoId: string; branch: string };

export type GraphFindings = {
  /** Findings by the path of the file they are on. */
  byPath: Map<string, Finding[]>;
  /** The indexed branch whose graph was read; null when the repository is not indexed (nothing was checked). */
  branch: string | null;
};

/**
 * The indexed branch of a repository to read, as a code index target: the first of `branches` that is
 * indexed, else any indexed branch; null when the repository is not indexed.
 */
export function indexTargetOf(indexed: IndexedRepositories | undefined, orgId: string, remote: Remote, name: string, branches: readonly (string | null)[]): IndexTarget | null {
  const list = indexed ? indexed(orgId).filter((r) => r.remote === remote && r.repository.toLowerCase() === name.toLowerCase() && r.sha) : [];
  const pick = branches.map((b) => list.find((r) => r.branch === b)).find(Boolean) ?? list[0];
  return pick ? { orgId, repoId: codeIndexRepoId(orgId, remote, pick.repository), branch: pick.branch } : null;
}

/** The code index narrowed to one indexed branch, as the graph findings read it. */
export function branchGraphOf(codeIndex: CodeIndex, target: IndexTarget): BranchGraph {
  const filter: IndexFilter = { orgId: target.orgId, targets: [{ repoId: target.repoId, branch: target.branch }] };
  const imports = new Map<string, Promise<string[]>>();
  // A name is looked up once per run: its callers and users are one lookup, and the checks ask for the same definitions again.
  const references = new Map<string, ReturnType<CodeIndex["findReferences"]>>();
  const referencesOf = (name: string) => {
    if (!references.has(name)) references.set(name, codeIndex.findReferences(filter, name, 5000));
    return references.get(name)!;
  };
  const definitions = new Map<string, ReturnType<CodeIndex["findDefinitions"]>>();
  const definitionsNamed = (name: string) => {
    if (!definitions.has(name)) definitions.set(name, codeIndex.findDefinitions(filter, [name], 1000));
    return definitions.get(name)!;
  };
  return {
    async callersOf(name) {
      return (await referencesOf(name)).filter((r) => r.call).map((r) => ({ path: r.path, line: r.line }));
    },
    async usersOf(name) {
      return (await referencesOf(name)).map((r) => ({ path: r.path, line: r.line }));
    },
    async definitionsOf(name) {
      return (await definitionsNamed(name)).map((d) => ({ path: d.path, kind: d.def.kind, parent: d.def.parent, params: d.def.params }));
    },
    importersOf(path) {
      return codeIndex.importersOf(target.repoId, target.branch, path);
    },
    importsOf(path) {
      if (!imports.has(path)) imports.set(path, codeIndex.importsOf(target.repoId, target.branch, path));
      return imports.get(path)!;
    },
  };
}

export async function graphFindingsFor(input: {
  codeIndex: CodeIndex | null | undefined;
  /** The repository's indexed branch (`indexTargetOf`); null when it is not indexed. */
  target: IndexTarget | null;
  logger: Logger;
  files: readonly DiffFile[];
  readBase(path: string): Promise<string | null>;
  readHead(path: string): Promise<string | null>;
  /** Reads files at the head together ahead of `readHead` (optional). */
  prefetchHead?(paths: string[]): Promise<void>;
  /** Every file at the diff's base and at the head (broken imports resolve imports against both). */
  basePaths(): Promise<readonly string[]>;
  headPaths(): Promise<readonly string[]>;
  /** Files not looked at as importers (`.loupe/` ignores). */
  skipImporter?(path: string): boolean;
  /** The review run's parses (src/review/graph/calls.ts), else a cache for this call. */
  parse?: ParseFile;
}): Promise<GraphFindings> {
  const none: GraphFindings = { byPath: new Map(), branch: null };
  if (!input.codeIndex || !input.target) return none;
  const { codeIndex, target, logger } = input;
  const graph = branchGraphOf(codeIndex, target);
  const failed = (what: string) => (error: unknown): never[] => {
    logger.warn({ err: { message: error instanceof Error ? error.message : String(error) } }, `${what} from the code graph failed; reviewing without them`);
    return [];
  };
  // Each version of a file parsed once for both (src/review/graph/calls.ts).
  const parse = input.parse ?? createParseCache();
  const [callers, imports] = await Promise.all([
    findBrokenCallers({ files: input.files, readBase: input.readBase, readHead: input.readHead, graph, parse }).catch(failed("broken callers")),
    findBrokenImports({
      parse,
      files: input.files,
      importersOf: (path) => codeIndex.importersOf(target.repoId, target.branch, path),
      readHead: input.readHead,
      ...(input.prefetchHead ? { prefetchHead: input.prefetchHead } : {}),
      basePaths: input.basePaths,
      headPaths: input.headPaths,
      ...(input.skipImporter ? { skipImporter: input.skipImporter } : {}),
    }).catch(failed("broken imports")),
  ]);
  // A deleted file's callers, one finding per file; a caller that already fails to import a removed file is named there only.
  const failing = new Set(imports.flatMap((b) => b.imports.map((s) => s.path)));
  const deleted = new Set(input.files.filter((f) => f.status === "deleted").map((f) => f.path));
  const ofDeleted = new Map<string, BrokenCaller[]>();
  for (const b of callers.filter((c) => deleted.has(c.change.path))) {
    const sites = b.sites.filter((s) => !failing.has(s.path));
    if (sites.length > 0) ofDeleted.set(b.change.path, [...(ofDeleted.get(b.change.path) ?? []), { ...b, sites }]);
  }
  const findings = [
    // One finding per changed definition: on its lines, or (a removed one no added line takes the place of) on the file as a whole.
    ...callers.filter((c) => !deleted.has(c.change.path)).map(brokenCallerFinding),
    ...[...ofDeleted].map(([path, broken]) => deletedFileCallersFinding(path, broken)),
    ...imports.map(brokenImportFinding),
  ];
  const byPath = new Map<string, Finding[]>();
  for (const finding of findings) byPath.set(finding.path, [...(byPath.get(finding.path) ?? []), finding]);
  return { byPath, branch: target.branch };
}
