/**
 * Indexing a git repository on the server's disk by path: register it (./local.ts checks the path is
 * under LOUPE_LOCAL_ROOTS, symlinks resolved, and is a repository's top level), then submit it like any
 * repository. The HTTP face (POST /v2/repositories/local) and the console call this, so both check the
 * same things and answer with the same `local:<branch>:<name>-<hash>` id.
 */
import type { CommandContext } from "../../eventstore/new-event.ts";
import { validateBranchName } from "../../git/names.ts";
import { localAlias, shownRepositoryId } from "../../indexing/repo-id.ts";
import type { Indexer, SubmitResult } from "./indexer.ts";
import { LOCAL_PATHS_OPERATOR_ONLY, LocalPathError, type LocalRepositories } from "./local.ts";

export type LocalSubmitResult = SubmitResult & {
  /** The id users see: `local:<branch>:<name>-<hash>`. */
  repositoryId: string;
  /** `<name>-<hash>`, of the `local` remote. */
  repository: string;
  /** The resolved path. */
  path: string;
};

/**
 * Throws LocalPathError (disabled, another organisation than the bootstrap one, outside the roots, not
 * found, not a repository) or GitNameError (branch). A refusal registers nothing.
 */
export async function submitLocalRepository(
  services: { indexer: Indexer; localRepositories: LocalRepositories },
  input: { orgId: string; path: string; branch?: string | undefined; reload?: boolean },
  ctx: CommandContext,
): Promise<LocalSubmitResult> {
  if (services.localRepositories.enabled() && !services.localRepositories.mayIndex(input.orgId)) throw new LocalPathError(403, LOCAL_PATHS_OPERATOR_ONLY);
  if (input.branch !== undefined) validateBranchName(input.branch); // before the path is registered: bad input changes nothing
  const local = await services.localRepositories.register(input.path);
  const result = await services.indexer.submit(
    { orgId: input.orgId, remote: local.remote, repository: local.repository, branch: input.branch, reload: input.reload ?? false },
    ctx,
  );
  return {
    ...result,
    repositoryId: shownRepositoryId(result.repoId),
    repository: localAlias(local.remote, local.repository) ?? local.repository,
    path: local.path,
  };
}
