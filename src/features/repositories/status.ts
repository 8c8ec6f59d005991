/** A repository's status as the faces answer it (GET /v2/repositories/{id}, get_repository_status). */
import type { RepositoryRecord } from "./projection.ts";
import { displayRepositoryId, LOCAL_ALIAS, localAlias } from "../../indexing/repo-id.ts";

/** A local repository (indexed by path) answers as the `local` remote: `local:<branch>:<name>-<hash>`. */
export function repositoryStatus(record: RepositoryRecord) {
  const local = localAlias(record.remote, record.repository);
  return {
    repository: local ?? record.repository,
    remote: local === null ? record.remote : LOCAL_ALIAS,
    branch: record.branch,
    private: record.private,
    status: record.status,
    filesProcessed: record.filesProcessed,
    numFiles: record.numFiles,
    sampleQuestions: record.sampleQuestions,
    sha: record.sha,
    // Extras beyond the hosted service's fields.
    id: displayRepositoryId(record.remote, record.branch, record.repository),
    headSha: record.headSha,
    languages: record.languages,
    skipped: record.skipped,
    skippedCount: record.skippedCount,
    reusedFiles: record.reusedFiles,
    failureReason: record.failureReason,
    submittedAt: record.submittedAt,
    indexedAt: record.indexedAt,
    updatedAt: record.updatedAt,
  };
}
