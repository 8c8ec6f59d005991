/** The repository status record GET /v2/repositories/{id} answers (fields the CLI reads). */
export type RepositoryStatus = {
  id?: string;
  repository: string;
  remote: string;
  branch: string;
  status: string;
  filesProcessed: number;
  numFiles: number;
  sha: string | null;
  sampleQuestions?: string[];
  failureReason?: string | null;
  indexedAt?: string | null;
  updatedAt?: string | null;
};

export const repositoryIdOf = (r: RepositoryStatus) => r.id ?? `${r.remote}:${r.branch}:${r.repository}`;
