/** A repository's status as the faces answer it (GET /v2/repositories/{id}, get_repository_status). */
import type { RepositoryRecord } from "./projection.ts";

export function repositoryStatus(record: RepositoryRecord) {
  return {
    repository: record.repository,
    remote: record.remote,
    branch: record.branch,
    private: record.private,
    status: record.status,
    filesProcessed: record.filesProcessed,
    numFiles: record.numFiles,
    sampleQuestions: record.sampleQuestions,
    sha: record.sha,
    // Extras beyond the hosted service's fields.
    id: record.repoId,
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
