/**
 * Repository identifiers.
 *
 * - Public id (wire facts): `remote:branch:owner/repo`, owner/repo lower-cased; URL-encoded in the
 *   status endpoint. One id per indexed branch.
 * - Code-index repository key: `orgId:remote:owner/repo` (no branch), so every branch of a repository
 *   shares content-addressed chunks (a second branch costs only its changed files) and one
 *   organisation's chunks never mix with another's. Branches are file sets (setBranchFiles) under it.
 */
import type { Remote } from "../hosts/types.ts";

export type RepositoryRef = { remote: Remote; branch: string; repository: string };

/**
 * Local repositories (indexed by path on the server) are stored as `local/<name>-<hash>` of the
 * `github` remote (the wire's remotes are fixed), and shown and accepted as the `local` remote:
 * `local:<branch>:<name>-<hash>`.
 */
export const LOCAL_OWNER = "local";
export const LOCAL_REMOTE = "github" as const;
export const LOCAL_ALIAS = "local";

/** The `local:` form of a stored local repository's name, or null for any other repository. */
export const localAlias = (remote: string, repository: string): string | null =>
  remote === LOCAL_REMOTE && repository.toLowerCase().startsWith(`${LOCAL_OWNER}/`) ? repository.slice(LOCAL_OWNER.length + 1) : null;

/**
 * A reference as users see it: a local repository as the `local` remote with its name (`widget-shop-1a2b3c4d`,
 * the form `fromLocalAlias` and `parseRepositoryId` accept back); any other reference unchanged.
 */
export function shownRef<R extends { remote: string; repository: string }>(ref: R): R {
  const local = localAlias(ref.remote, ref.repository);
  return local === null ? ref : { ...ref, remote: LOCAL_ALIAS, repository: local };
}

/** The stored form of a reference that may use the `local` remote: `{ remote: "github", repository: "local/<name>" }`. */
export function fromLocalAlias<R extends { remote: string; repository: string }>(ref: R): R {
  if (typeof ref.remote !== "string" || ref.remote.trim().toLowerCase() !== LOCAL_ALIAS || typeof ref.repository !== "string") return ref;
  return { ...ref, remote: LOCAL_REMOTE, repository: `${LOCAL_OWNER}/${ref.repository.trim()}` };
}

/** The public id of a repository, in the `local:` form for local repositories. */
export const displayRepositoryId = (remote: string, branch: string, repository: string): string => {
  const local = localAlias(remote, repository);
  return local === null ? repositoryId(remote, branch, repository) : `${LOCAL_ALIAS}:${branch}:${local.toLowerCase()}`;
};

/**
 * The branch part of the id of a submission that named no branch when the host could not be reached to
 * resolve the default branch (never a valid branch name). A later submission that resolves it replaces it.
 */
export const UNRESOLVED_BRANCH = "HEAD";

export const repositoryId = (remote: string, branch: string, repository: string): string =>
  `${remote}:${branch}:${repository.toLowerCase()}`;

/** Splits a public id (`local:<branch>:<name>` too); null when it is not of the form remote:branch:owner/repo. */
export function parseRepositoryId(id: string): RepositoryRef | null {
  const first = id.indexOf(":");
  const last = id.lastIndexOf(":");
  if (first <= 0 || last === first) return null;
  const remote = id.slice(0, first).toLowerCase();
  if (remote === LOCAL_ALIAS) {
    const branch = id.slice(first + 1, last);
    const name = id.slice(last + 1);
    return branch && name && !name.includes("/") ? { remote: LOCAL_REMOTE, branch, repository: `${LOCAL_OWNER}/${name}` } : null;
  }
  if (!["github", "gitlab", "bitbucket", "azure"].includes(remote)) return null;
  // Branch names cannot contain ':' (git check-ref-format), owner/repo cannot either.
  const branch = id.slice(first + 1, last);
  const repository = id.slice(last + 1);
  if (!branch || !repository) return null;
  return { remote: remote as Remote, branch, repository };
}

/** A stored id (`github:main:local/<name>` for a local repository) in the form users see; any other string unchanged. */
export function shownRepositoryId(storedId: string): string {
  const ref = parseRepositoryId(storedId);
  return ref ? displayRepositoryId(ref.remote, ref.branch, ref.repository) : storedId;
}

/** The stored id of an id as users give it (shown or stored form, any case of owner/repo); null when it is not an id. */
export function storedRepositoryId(publicId: string): string | null {
  const ref = parseRepositoryId(publicId);
  return ref ? repositoryId(ref.remote, ref.branch, ref.repository) : null;
}

/** The code index's repository key for (org, remote, owner/repo). */
export const codeIndexRepoId = (orgId: string, remote: string, repository: string): string =>
  `${orgId}:${remote}:${repository.toLowerCase()}`;

/** Code-index search target of a public repository reference (IndexFilter.targets entry). */
export const codeIndexTarget = (orgId: string, ref: RepositoryRef): { repoId: string; branch: string } => ({
  repoId: codeIndexRepoId(orgId, ref.remote, ref.repository),
  branch: ref.branch,
});

/** Chunk document id. */
export const chunkId = (indexRepoId: string, path: string, blobId: string, ordinal: number): string =>
  `${indexRepoId}|${path}|${blobId}|${ordinal}`;
