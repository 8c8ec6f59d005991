/**
 * Review findings that read the repository's code graph (the target branch as indexed): broken
 * callers (src/review/graph/broken-callers.ts). Run once per review run, before its files are
 * reviewed; each file's findings then go through the file's review like any other finding
 * (strictness, team rules on the same line, dedupe, addressed detection, the model's context).
 * Without an indexed branch of the repository there is nothing to read: no finding, and the summary
 * says the callers were not checked. A failure of the index never fails the review.
 */
import type { CodeIndex, IndexFilter } from "../../codeindex/port.ts";
import type { Logger } from "../../logging.ts";
import type { Remote } from "../../hosts/types.ts";
import type { DiffFile } from "../../review/diff.ts";
import type { Finding } from "../../review/findings.ts";
import { brokenCallerFinding, findBrokenCallers, type BranchGraph } from "../../review/graph/broken-callers.ts";
import { codeIndexRepoId } from "../../indexing/repo-id.ts";

export type IndexedRepositories = (orgId: string) => readonly { remote: string; repository: string; branch: string; sha: string | null }[];

export type GraphFindings = {
  /** Findings by the path of the file they are on. */
  byPath: Map<string, Finding[]>;
  /** The indexed branch whose graph was read; null when the repository is not indexed (nothing was checked). */
  branch: string | null;
};

/** The indexed branch of a repository to read: the first of `branches` that is indexed, else any. */
export function indexedBranchOf(indexed: IndexedRepositories, orgId: string, remote: Remote, name: string, branches: readonly (string | null)[]) {
  const list = indexed(orgId).filter((r) => r.remote === remote && r.repository.toLowerCase() === name.toLowerCase() && r.sha);
  return branches.map((b) => list.find((r) => r.branch === b)).find(Boolean) ?? list[0] ?? null;
}

/** The code index narrowed to one indexed branch, as the graph findings read it. */
export function branchGraphOf(codeIndex: CodeIndex, target: { orgId: string; repoId: string; branch: string }): BranchGraph {
  const filter: IndexFilter = { orgId: target.orgId, targets: [{ repoId: target.repoId, branch: target.branch }] };
  const imports = new Map<string, Promise<string[]>>();
  return {
    async callersOf(name) {
      return (await codeIndex.findReferences(filter, name, 5000)).filter((r) => r.call).map((r) => ({ path: r.path, line: r.line }));
    },
    async definitionsOf(name) {
      return (await codeIndex.findDefinitions(filter, [name], 1000)).map((d) => ({ path: d.path, kind: d.def.kind, parent: d.def.parent, params: d.def.params }));
    },
    importsOf(path) {
      if (!imports.has(path)) imports.set(path, codeIndex.importsOf(target.repoId, target.branch, path));
      return imports.get(path)!;
    },
  };
}

export async function graphFindingsFor(input: {
  codeIndex: CodeIndex | null | undefined;
  indexedRepositories: IndexedRepositories | undefined;
  logger: Logger;
  orgId: string;
  remote: Remote;
  name: string;
  /** Branches to prefer, in order (the pull request's target, then the default branch). */
  branches: readonly (string | null)[];
  files: readonly DiffFile[];
  readBase(path: string): Promise<string | null>;
  readHead(path: string): Promise<string | null>;
}): Promise<GraphFindings> {
  const none: GraphFindings = { byPath: new Map(), branch: null };
  if (!input.codeIndex || !input.indexedRepositories) return none;
  const pick = indexedBranchOf(input.indexedRepositories, input.orgId, input.remote, input.name, input.branches);
  if (!pick) return none;
  const graph = branchGraphOf(input.codeIndex, { orgId: input.orgId, repoId: codeIndexRepoId(input.orgId, input.remote, pick.repository), branch: pick.branch });
  try {
    const broken = await findBrokenCallers({ files: input.files, readBase: input.readBase, readHead: input.readHead, graph });
    const byPath = new Map<string, Finding[]>();
    for (const b of broken) {
      const finding = brokenCallerFinding(b);
      byPath.set(finding.path, [...(byPath.get(finding.path) ?? []), finding]);
    }
    return { byPath, branch: pick.branch };
  } catch (error) {
    input.logger.warn({ err: { message: error instanceof Error ? error.message : String(error) } }, "broken callers from the code graph failed; reviewing without them");
    return none;
  }
}
