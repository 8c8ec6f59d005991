import { defineProjection } from "../../../projections/runner.ts";
import type { RepositoryEvent } from "./events.ts";
import type { ReadView } from "../../readstore/port.ts";
import { createReadMemo } from "../../readstore/memo.ts";
import { createHash } from "node:crypto";
import { codeIndexRepoId, repositoryId, UNRESOLVED_BRANCH } from "../../indexing/repo-id.ts";

/**
 * Repository indexing status, rebuilt from the repository events. Keys (all scoped by orgId):
 *   ["repo", orgId, repoId]             -> RepositoryRecord
 *   ["jobfile", orgId, repoId, path]    -> blobId of a file the current job has recorded (dedupes
 *                                          filesProcessed across a resumed job; cleared at the end)
 *   ["cand", orgId, indexRepoId, path]  -> SampleCandidate (prominent symbols, for sample questions)
 *   ["blobver", orgId, indexRepoId, path, blobId] -> [chunker version that made the blob's chunks, chunk count]
 * (`path` in keys goes through pathKey: very long paths are hashed to stay within lmdb's key size.)
 *
 * A submission with no branch whose default branch resolved replaces the record of an earlier one that
 * could not resolve it (`remote:HEAD:owner/repo`, failed, nothing indexed): that record only stood for
 * "the default branch", which now has its own record, so it leaves the read model (its events stay in the log).
 */
export const pathKey = (path: string): string =>
  path.length <= 400 ? path : `#${createHash("sha256").update(path).digest("hex")}`;

export type RepositoryStatus = "submitted" | "cloning" | "processing" | "completed" | "failed";

export type RepositoryRecord = {
  repoId: string;
  orgId: string;
  remote: string;
  repository: string;
  /** The branch indexed (resolved when the request named none). */
  branch: string;
  /** As requested; null = default branch. */
  requestedBranch: string | null;
  /**
   * The repository's default branch as the host reported it at the latest submission of this record
   * (null: the host has none; absent: not known, e.g. records made before it was recorded).
   */
  defaultBranch?: string | null;
  /** What the host says (readable without a token or not); false while it could not be told. */
  private: boolean;
  status: RepositoryStatus;
  jobId: string;
  reload: boolean;
  notify: boolean;
  filesProcessed: number;
  numFiles: number;
  /** Commit of the last completed index (usable for search), null before the first completion. */
  sha: string | null;
  /** Commit the current job is indexing. */
  headSha: string | null;
  languages: Record<string, number>;
  skipped: { path: string; reason: string }[];
  skippedCount: number;
  sampleQuestions: string[];
  failureReason: string | null;
  chunkerVersion: string | null;
  /** Chunker version of the last completed index. */
  indexedChunkerVersion: string | null;
  fileFilterVersion?: string | null;
  /** File filter version of the last completed index (absent in records made before it existed). */
  indexedFileFilterVersion?: string | null;
  reusedFiles: number;
  submittedAt: string;
  startedAt: string | null;
  indexedAt: string | null;
  updatedAt: string;
};

/** A file's prominent definitions; `label` is the language's word for one (`struct`, `enum`, `trait`), when the event has it. */
export type SampleCandidate = { path: string; blobId: string; language?: string; symbols: { name: string; kind: string; label?: string; lines: number }[] };

type SymbolData = { name: string; kind: string; label?: string | undefined; startLine: number; endLine: number };

const CANDIDATE_KINDS = new Set(["class", "interface", "function", "method", "type", "enum"]);

/**
 * The file's most prominent definitions (largest classes and functions with meaningful names). A Rust
 * `impl` block is not one: it adds to a type defined by its `struct` or `enum`, which a question names.
 */
function candidates(symbols: SymbolData[]): SampleCandidate["symbols"] {
  return symbols
    .filter((s) => CANDIDATE_KINDS.has(s.kind) && !s.label?.startsWith("impl") && s.name.length >= 4 && !s.name.startsWith("_") && /^[A-Za-z_$][\w$]*$/.test(s.name))
    .map((s) => ({ name: s.name, kind: s.kind, ...(s.label ? { label: s.label } : {}), lines: Math.max(1, s.endLine - s.startLine + 1) }))
    .sort((a, b) => b.lines - a.lines)
    .slice(0, 3);
}

/** A record of a default branch never resolved that indexed nothing and is not running: replaced once the default branch resolves. */
const isUnresolvedPlaceholder = (r: RepositoryRecord) =>
  r.branch === UNRESOLVED_BRANCH && r.requestedBranch === null && r.sha === null && r.status === "failed";

export const repositoriesProjection = defineProjection<RepositoryEvent>({
  name: "repositories",
  version: 3,
  canHandle: [
    "RepositorySubmitted",
    "RepositoryIndexingStarted",
    "RepositoryFilesIndexed",
    "RepositoryIndexingCompleted",
    "RepositoryIndexingFailed",
  ],
  handle(events, { tx }) {
    const clearJobFiles = (orgId: string, repoId: string) => {
      for (const entry of tx.range(["jobfile", orgId, repoId])) tx.remove(entry.key);
    };
    for (const event of events) {
      const { orgId, repoId } = event.data;
      const key = ["repo", orgId, repoId];
      const record = tx.get<RepositoryRecord>(key);
      if (event.type === "RepositorySubmitted") {
        if (event.data.branch == null && event.data.resolvedBranch !== UNRESOLVED_BRANCH) {
          const placeholderId = repositoryId(event.data.remote, UNRESOLVED_BRANCH, event.data.repository);
          const placeholder = tx.get<RepositoryRecord>(["repo", orgId, placeholderId]);
          if (placeholder && isUnresolvedPlaceholder(placeholder)) {
            clearJobFiles(orgId, placeholderId);
            tx.remove(["repo", orgId, placeholderId]);
          }
        }
        clearJobFiles(orgId, repoId);
        tx.put(key, {
          repoId,
          orgId,
          remote: event.data.remote,
          repository: event.data.repository,
          branch: event.data.resolvedBranch,
          requestedBranch: event.data.branch ?? null,
          // What the host said this time; when it could not tell, what it said before.
          private: event.data.private ?? record?.private ?? false,
          ...(event.data.defaultBranch !== undefined ? { defaultBranch: event.data.defaultBranch } : record?.defaultBranch !== undefined ? { defaultBranch: record.defaultBranch } : {}),
          status: "submitted",
          jobId: event.data.jobId,
          reload: Boolean(event.data.reload),
          notify: Boolean(event.data.notify),
          filesProcessed: 0,
          numFiles: 0,
          sha: record?.sha ?? null,
          headSha: null,
          languages: {},
          skipped: [],
          skippedCount: 0,
          sampleQuestions: record?.sampleQuestions ?? [],
          failureReason: null,
          chunkerVersion: null,
          indexedChunkerVersion: record?.indexedChunkerVersion ?? null,
          fileFilterVersion: null,
          indexedFileFilterVersion: record?.indexedFileFilterVersion ?? null,
          reusedFiles: 0,
          submittedAt: event.time,
          startedAt: null,
          indexedAt: record?.indexedAt ?? null,
          updatedAt: event.time,
        } satisfies RepositoryRecord);
        continue;
      }
      if (!record || record.jobId !== event.data.jobId) continue; // an event of a superseded job
      if (event.type === "RepositoryIndexingStarted") {
        tx.put(key, {
          ...record,
          status: "processing",
          branch: event.data.branch,
          headSha: event.data.sha,
          numFiles: event.data.numFiles,
          skipped: event.data.skipped,
          skippedCount: event.data.skippedCount,
          chunkerVersion: event.data.chunkerVersion,
          fileFilterVersion: event.data.fileFilterVersion ?? null,
          startedAt: record.startedAt ?? event.time,
          updatedAt: event.time,
        } satisfies RepositoryRecord);
      } else if (event.type === "RepositoryFilesIndexed") {
        const languages = { ...record.languages };
        let processed = record.filesProcessed;
        let reused = record.reusedFiles;
        const indexRepo = codeIndexRepoId(orgId, record.remote, record.repository);
        for (const file of event.data.files) {
          const fileKey = ["jobfile", orgId, repoId, pathKey(file.path)];
          if (tx.get<[string, string]>(fileKey)?.[1] === file.blobId) continue;
          tx.put(fileKey, [file.path, file.blobId]);
          if (!file.reused && record.chunkerVersion) tx.put(["blobver", orgId, indexRepo, pathKey(file.path), file.blobId], [record.chunkerVersion, file.chunks]);
          processed++;
          if (file.reused) reused++;
          languages[file.language] = (languages[file.language] ?? 0) + 1;
          const best = candidates(file.symbols);
          if (best.length > 0) tx.put(["cand", orgId, indexRepo, pathKey(file.path)], { path: file.path, blobId: file.blobId, language: file.language, symbols: best } satisfies SampleCandidate);
        }
        tx.put(key, { ...record, filesProcessed: processed, reusedFiles: reused, languages, updatedAt: event.time } satisfies RepositoryRecord);
      } else if (event.type === "RepositoryIndexingCompleted") {
        clearJobFiles(orgId, repoId);
        tx.put(key, {
          ...record,
          status: "completed",
          branch: event.data.branch,
          sha: event.data.sha,
          headSha: event.data.sha,
          filesProcessed: event.data.filesProcessed,
          numFiles: event.data.numFiles,
          sampleQuestions: event.data.sampleQuestions,
          indexedChunkerVersion: record.chunkerVersion,
          indexedFileFilterVersion: record.fileFilterVersion ?? null,
          failureReason: null,
          indexedAt: event.time,
          updatedAt: event.time,
        } satisfies RepositoryRecord);
      } else if (event.type === "RepositoryIndexingFailed") {
        clearJobFiles(orgId, repoId);
        tx.put(key, { ...record, status: "failed", failureReason: event.data.reason, updatedAt: event.time } satisfies RepositoryRecord);
      }
    }
  },
});

/**
 * Queries over the repositories read model. With `version` (the read model's ReadStore.version), records
 * read by `get` are kept, frozen, until it changes.
 */
export function repositoryQueries(view: () => ReadView, version?: () => number) {
  const records = version ? createReadMemo<RepositoryRecord>(version) : null;
  return {
    get(orgId: string, repoId: string): RepositoryRecord | undefined {
      const load = () => view().get<RepositoryRecord>(["repo", orgId, repoId]);
      return records ? records.get(`${orgId}\u0000${repoId}`, load) : load();
    },
    list(orgId: string): RepositoryRecord[] {
      return view()
        .range<RepositoryRecord>(["repo", orgId])
        .map((e) => e.value);
    },
    /** Jobs submitted or started but neither completed nor failed, in every organisation. */
    unfinished(): RepositoryRecord[] {
      return view()
        .range<RepositoryRecord>(["repo"])
        .map((e) => e.value)
        .filter((r) => r.status === "submitted" || r.status === "cloning" || r.status === "processing");
    },
    /** Files the current job has already recorded: path -> blobId. */
    jobFiles(orgId: string, repoId: string): Map<string, string> {
      const out = new Map<string, string>();
      for (const e of view().range<[string, string]>(["jobfile", orgId, repoId])) out.set(e.value[0], e.value[1]);
      return out;
    },
    candidates(orgId: string, indexRepoId: string): SampleCandidate[] {
      return view()
        .range<SampleCandidate>(["cand", orgId, indexRepoId])
        .map((e) => e.value);
    },
  };
}
export type RepositoryQueries = ReturnType<typeof repositoryQueries>;
