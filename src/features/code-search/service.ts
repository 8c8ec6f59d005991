/**
 * Code search over the repositories a request names: which of them the caller may search, then the
 * search itself, shaped as the interface's references.
 *
 * - Repositories: `{ remote, repository, branch? }`; branch omitted = the repository's default branch
 *   (as the host reported it when the repository was last submitted), if indexed. Each must be indexed for the caller's organisation (looked up first: an unknown one is
 *   refused without asking the host) AND readable with the request's host token (./permissions.ts);
 *   otherwise the request is refused naming it, with the same message whether it is unknown or
 *   unreadable. A repository whose first index is still running (or failed) is
 *   refused as not ready, unless other repositories of the request are usable: then the answer covers
 *   what is indexed and carries a note. A repository being RE-indexed is searched at its last index.
 */
import type { Hosts, Remote } from "../../hosts/index.ts";
import { codeIndexRepoId, displayRepositoryId, fromLocalAlias, LOCAL_ALIAS, repositoryId, shownRef } from "../../indexing/repo-id.ts";
import { fileSummaryOf, type SearchHitFile, type SearchOutcome, type SearchRequest, type SearchTarget, type Searcher } from "../../retrieval/search.ts";
import type { AnswerSource } from "../../retrieval/answer/spans.ts";
import { chunkOf, spanCode } from "../../retrieval/answer/spans.ts";
import { sourceLines } from "../../retrieval/answer/cited.ts";
import { excerptOf } from "../../retrieval/excerpt.ts";
import type { ChunkDocument, CodeIndex } from "../../codeindex/port.ts";
import type { RepositoryRecord } from "../repositories/projection.ts";
import { createAccessChecker } from "./permissions.ts";

/** A search result item (interface.md 2.2): a file of a repository, its relevant lines, its summary. */
export type SearchResult = {
  repository: string;
  remote: string;
  branch: string;
  filepath: string;
  linestart: number | null;
  lineend: number | null;
  summary: string;
  distance: number | null;
};

/** A result as a session records it: where it points, without the summary (which is the code index's). */
export type SearchReference = Omit<SearchResult, "summary"> & { summary?: string };

/** A reference with the code of its span and why it was chosen (for assistants and the console). */
export type CodeReference = {
  repository: string;
  remote: string;
  branch: string;
  filepath: string;
  linestart: number | null;
  lineend: number | null;
  /** The code of the span (at most MAX_CODE_LINES lines). */
  code: string;
  /** One line: what in the span answers the query. */
  reason: string;
  distance: number | null;
};

/** Lines of code a reference carries at most. */
export const MAX_CODE_LINES = 120;
/** Files an answer reads whole (their chunks) to cite definitions: at most five places are listed. */
const ANSWER_FILES = 6;

/**
 * A repository as a request names it: one of the hosts, or `local` with the bare name of a repository
 * indexed by path (read as its stored form, `github` + `local/<name>`).
 */
export type RepositoryReference = { remote: Remote | typeof LOCAL_ALIAS; repository: string; branch?: string | undefined };
export type ResolvedRepository = { record: RepositoryRecord; target: SearchTarget };
export type Resolution = { repos: ResolvedRepository[]; notes: string[] };

/** Why the repositories of a request cannot be searched (the faces map each kind to their own status). */
export class SearchRefusal extends Error {
  constructor(
    readonly kind: "not_found" | "not_ready" | "host_unavailable",
    message: string,
    readonly details: unknown = null,
  ) {
    super(message);
    this.name = "SearchRefusal";
  }
}

export type CodeSearchDeps = {
  searcher: Searcher;
  codeIndex: CodeIndex;
  hosts: Hosts;
  hostUrls: Record<Remote, string>;
  fileHostsNeedToken: boolean;
  /** Clone URL override (local repositories under LOUPE_LOCAL_ROOTS). */
  cloneUrlFor?: ((remote: Remote, repository: string) => string | undefined) | undefined;
  /** Whether an organisation may read local repositories (the bootstrap one only); default: any. */
  mayReadLocal?: ((orgId: string) => boolean) | undefined;
  /** The organisation's indexed repositories (the repositories read model). */
  repositories: { get(orgId: string, id: string): RepositoryRecord | undefined; list(orgId: string): RepositoryRecord[] };
  /** Told of every search run (the metrics count them). */
  onSearch?: (() => void) | undefined;
};

/** Why a span was chosen, in one line: the definition it is, and what made its file rank. */
function reasonOf(chunk: ChunkDocument | undefined, reasons: readonly string[]): string {
  const what = chunk?.symbol ? `${chunk.kind} ${chunk.parent ? `${chunk.parent}.` : ""}${chunk.symbol}` : chunk ? `${chunk.kind} of code` : "the file";
  const why = reasons.length > 0 ? reasons.slice(0, 3).join("; ") : "matches the query's words";
  return `${what}: ${why}`;
}

/** A reference as the client wrote it (`local:main:shop-1a2b3c4d` stays so), for messages. */
const refText = (r: RepositoryReference) => `${r.remote}:${r.branch ?? "(default branch)"}:${r.repository}`;

/** The stored form of a reference (a `local` one is `github` + `local/<name>`). */
const storedRef = (ref: RepositoryReference): { remote: Remote; repository: string; branch?: string | undefined } =>
  fromLocalAlias(ref) as { remote: Remote; repository: string; branch?: string | undefined };

export function createCodeSearchService(deps: CodeSearchDeps) {
  const { searcher, repositories } = deps;
  const access = createAccessChecker({ hosts: deps.hosts, hostUrls: deps.hostUrls, fileHostsNeedToken: deps.fileHostsNeedToken, cloneUrlFor: deps.cloneUrlFor });

  /**
   * The record a reference names. Without a branch: the repository's default branch as the host
   * reported it at the latest submission of any of its branches, whatever was indexed last (so a
   * re-index of another branch never changes the answer, and a default branch being re-indexed is
   * searched at its previous index). Undefined when that branch is not indexed. Only when the host
   * never told (records made before it was recorded): the branch last submitted without a name, else
   * the only branch indexed.
   */
  function findRecord(orgId: string, remote: Remote, repository: string, branch: string | undefined): RepositoryRecord | undefined {
    if (branch) return repositories.get(orgId, repositoryId(remote, branch, repository));
    const lower = repository.toLowerCase();
    const candidates = repositories.list(orgId).filter((r) => r.remote === remote && r.repository.toLowerCase() === lower);
    const told = candidates.filter((r) => r.defaultBranch !== undefined).sort((a, b) => b.submittedAt.localeCompare(a.submittedAt))[0];
    if (told) return told.defaultBranch === null ? undefined : candidates.find((r) => r.branch === told.defaultBranch);
    const unnamed = candidates.filter((r) => r.requestedBranch === null).sort((a, b) => b.submittedAt.localeCompare(a.submittedAt));
    return unnamed[0] ?? (candidates.length === 1 ? candidates[0] : undefined);
  }

  /** The repository record a result file came from (a request names at most 20 repositories). */
  const recordOf = (f: SearchHitFile, repos: ResolvedRepository[]): RepositoryRecord =>
    repos.find((r) => r.target.repoId === f.repoId && r.target.branch === f.branch)!.record;

  return {
    /** The indexed record a reference names: its branch, or the default branch indexed. */
    findRepository: (orgId: string, ref: RepositoryReference): RepositoryRecord | undefined => {
      const stored = storedRef(ref);
      return findRecord(orgId, stored.remote, stored.repository, stored.branch);
    },

    /** The index first (no host call for an unknown repository), then permission; an unreadable repository looks exactly like an unknown one. */
    async resolve(orgId: string, refs: RepositoryReference[], hostToken: (remote: Remote) => string | undefined): Promise<Resolution> {
      const notFound: string[] = [];
      const notReady: string[] = [];
      const notes: string[] = [];
      const repos: ResolvedRepository[] = [];
      for (const ref of refs) {
        const stored = storedRef(ref);
        const remote = stored.remote;
        // The index first: a reference this organisation never indexed is answered without asking the host.
        let record = findRecord(orgId, remote, stored.repository, stored.branch);
        // A local repository another organisation indexed before only the bootstrap one could: not shown to it.
        // (The local-path check first: asking which organisation is the bootstrap one reads the read store.)
        if (record && deps.cloneUrlFor?.(remote, record.repository) !== undefined && deps.mayReadLocal && !deps.mayReadLocal(orgId)) record = undefined;
        if (record) {
          let readable: boolean;
          try {
            readable = await access.canRead(remote, record.repository, hostToken(remote));
          } catch {
            throw new SearchRefusal("host_unavailable", `Could not verify read access with ${remote}; try again later`);
          }
          if (!readable) record = undefined;
        }
        if (!record) {
          notFound.push(refText(ref));
          continue;
        }
        const name = displayRepositoryId(record.remote, record.branch, record.repository);
        if (!record.sha) {
          notReady.push(
            record.status === "failed"
              ? `${name} failed to index (${record.failureReason ?? "unknown reason"}); submit it again with POST /v2/repositories`
              : `${name} is still being indexed (${record.status}, ${record.filesProcessed}/${record.numFiles} files)`,
          );
          continue;
        }
        if (record.status !== "completed") {
          notes.push(
            record.status === "failed"
              ? `${name}: the latest re-index failed; answering over the previous index (${record.sha.slice(0, 12)}).`
              : `${name} is being re-indexed (${record.status}); answering over the previous index (${record.sha.slice(0, 12)}).`,
          );
        }
        repos.push({
          record,
          target: { repoId: codeIndexRepoId(orgId, record.remote, record.repository), branch: record.branch, version: record.sha },
        });
      }
      if (notFound.length > 0) {
        throw new SearchRefusal(
          "not_found",
          `Repository not found: ${notFound.join(", ")}. It is not indexed for this organisation, or your host token cannot read it.`,
          notFound.map((r) => ({ repository: r })),
        );
      }
      if (repos.length === 0) {
        throw new SearchRefusal("not_ready", `Repository not ready: ${notReady.join("; ")}. Poll GET /v2/repositories/{id} until its status is completed.`);
      }
      for (const n of notReady) notes.push(`${n}; it is left out of this answer.`);
      return { repos, notes };
    },

    /** Searches the resolved repositories: the result files, and the query's trace frames (for an answer). */
    async search(orgId: string, resolution: Resolution, request: Omit<SearchRequest, "orgId" | "targets">): Promise<Pick<SearchOutcome, "files" | "frames">> {
      deps.onSearch?.();
      const { files, frames } = await searcher.search({ orgId, targets: resolution.repos.map((r) => r.target), ...request });
      return { files, frames };
    },

    /**
     * Result files with the repository they belong to (for answers). The first ANSWER_FILES files carry
     * all of their chunks, so an answer cites each place as the definition it is (a long function's
     * windows as the function, a long class's header as the class: ../../retrieval/answer/cited.ts), and
     * each file's `linestart`-`lineend` is the lines the answer cites for its best place. A file whose
     * chunks the search already read carries them (`fileChunks`): they are not read again.
     */
    async answerSources(files: SearchHitFile[], repos: ResolvedRepository[]): Promise<AnswerSource[]> {
      return Promise.all(
        files.map(async ({ fileChunks: read, ...f }, i) => {
          const record = recordOf(f, repos);
          const source: AnswerSource = { ...f, repository: record.repository, remote: record.remote };
          if (i >= ANSWER_FILES || f.chunks.length === 0) return source;
          source.fileChunks = read ?? (await deps.codeIndex.getFileChunks(f.repoId, f.branch, f.path));
          const lines = sourceLines(source);
          return lines ? { ...source, ...lines } : source;
        }),
      );
    },

    /**
     * The wire form of result files, built directly (a search needs no chunks): each file's references in
     * file order, best span first (several per file where several carry the evidence).
     */
    toWire(files: SearchHitFile[], repos: ResolvedRepository[]): SearchResult[] {
      return files.flatMap((f) => {
        const record = recordOf(f, repos);
        const where = { repository: record.repository, remote: record.remote, branch: f.branch, filepath: f.path };
        if (f.references.length === 0) return [{ ...where, linestart: f.linestart, lineend: f.lineend, summary: f.summary, distance: f.distance }];
        return f.references.map((r) => ({ ...where, linestart: r.linestart, lineend: r.lineend, summary: f.summary, distance: f.distance }));
      });
    },

    /**
     * References with their code and a one-line reason, in the order toWire gives (needs the files' chunks);
     * for display only, so a local repository is already the `local` remote with its name.
     */
    toCodeReferences(files: SearchHitFile[], repos: ResolvedRepository[]): CodeReference[] {
      return files.flatMap((f) => {
        const record = recordOf(f, repos);
        const spans = f.references.length > 0 ? f.references : [{ linestart: f.linestart ?? 0, lineend: f.lineend ?? 0, score: f.score }];
        return spans.map((r) => {
          const chunk = chunkOf(f.chunks, r.linestart, r.lineend);
          // A long definition shows its opening and the window the search matched (excerpt.ts).
          const code = excerptOf(chunk ? spanCode(chunk, r.linestart, r.lineend) : "", r.linestart, r.focus, MAX_CODE_LINES);
          return {
            ...shownRef({ repository: record.repository, remote: record.remote }),
            branch: f.branch,
            filepath: f.path,
            linestart: f.references.length > 0 ? r.linestart : f.linestart,
            lineend: f.references.length > 0 ? r.lineend : f.lineend,
            code,
            reason: reasonOf(chunk, f.reasons),
            distance: f.distance,
          };
        });
      });
    },

    /**
     * The indexed lines of a file of an indexed repository (rebuilt from its chunks; lines no chunk
     * covers are absent), for the console's code view. Check read access with `resolve` first.
     */
    async indexedLines(orgId: string, file: { remote: string; repository: string; branch: string; filepath: string }): Promise<Map<number, string>> {
      const chunks = await deps.codeIndex.getFileChunks(codeIndexRepoId(orgId, file.remote, file.repository), file.branch, file.filepath);
      const lines = new Map<number, string>();
      for (const chunk of chunks) {
        chunk.text.split("\n").forEach((text, i) => {
          const n = chunk.startLine + i;
          if (n <= chunk.endLine && !lines.has(n)) lines.set(n, text);
        });
      }
      return lines;
    },

    /** The summary of a file a recorded reference points at, as its branch is indexed now ("" once it is gone). */
    async summaryOf(orgId: string, reference: SearchReference): Promise<string> {
      const chunks = await deps.codeIndex.getFileChunks(codeIndexRepoId(orgId, reference.remote, reference.repository), reference.branch, reference.filepath);
      return chunks[0] ? fileSummaryOf(chunks[0]) : "";
    },
  };
}

export type CodeSearchService = ReturnType<typeof createCodeSearchService>;
