/**
 * Host read permissions for search and query: before a repository is referenced, the caller's host
 * token must be able to read it (src/hosts checkReadAccess against the configured API base).
 *
 * - Answers are cached for `ttlMs` (default 60 s) under sha256(token) + remote + repository: the token
 *   itself is never kept, logged or recorded.
 * - Repositories cloned from a `file://` base (self-hosted mirrors, tests, the eval) need no token,
 *   unless LOUPE_FILE_HOSTS_NEED_TOKEN=true: then they are checked against the host API like any
 *   other (used by the tests to exercise each host adapter while the git data stays local, and by
 *   deployments that clone from a local mirror but must honour the host's permissions).
 * - A repository the token cannot read is reported exactly like one that does not exist (the caller
 *   decides the message; see src/faces/http/routes/search.ts).
 */
import { createHash } from "node:crypto";
import type { Hosts, Remote } from "../../hosts/index.ts";

export type AccessChecker = {
  canRead(remote: Remote, repository: string, token: string | undefined): Promise<boolean>;
};

export type AccessCheckerOptions = {
  hosts: Hosts;
  /** Web/clone base per remote (config.hostUrls). */
  hostUrls: Record<Remote, string>;
  fileHostsNeedToken?: boolean;
  /** Clone URL override (local repositories, src/features/repositories/local.ts): a file:// answer needs no token. */
  cloneUrlFor?: (remote: Remote, repository: string) => string | undefined;
  ttlMs?: number;
  now?: () => number;
};

export function createAccessChecker(options: AccessCheckerOptions): AccessChecker {
  const ttl = options.ttlMs ?? 60_000;
  const now = options.now ?? Date.now;
  const cache = new Map<string, { value: boolean; at: number }>();
  const inflight = new Map<string, Promise<boolean>>();
  const MAX_ENTRIES = 10_000;

  return {
    async canRead(remote, repository, token) {
      if (options.hostUrls[remote]?.startsWith("file://") && !options.fileHostsNeedToken) return true;
      // A local repository (registered by an admin under LOUPE_LOCAL_ROOTS) has no host to ask.
      if (options.cloneUrlFor?.(remote, repository)?.startsWith("file://")) return true;
      const tokenHash = token ? createHash("sha256").update(token).digest("hex") : "anonymous";
      const key = `${tokenHash}\u0000${remote}\u0000${repository.toLowerCase()}`;
      const hit = cache.get(key);
      if (hit && now() - hit.at < ttl) return hit.value;
      const pending = inflight.get(key);
      if (pending) return pending;
      const check = options.hosts
        .get(remote)
        .checkReadAccess(repository, token)
        .then((value) => {
          cache.set(key, { value, at: now() });
          if (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value!);
          return value;
        })
        .finally(() => inflight.delete(key));
      inflight.set(key, check);
      return check;
    },
  };
}

/** The host token of a request: the provider-named header for `remote` first, then the generic ones. */
export function hostTokenFor(header: (name: string) => string | undefined, remote: Remote): string | undefined {
  const named = { github: "x-github-token", gitlab: "x-gitlab-token", bitbucket: "x-bitbucket-token", azure: "x-azure-token" }[remote];
  for (const name of [named, "x-host-token", "x-github-token", "x-gitlab-token", "x-bitbucket-token", "x-azure-token"]) {
    const value = header(name)?.trim();
    if (value) return value.replace(/^(bearer|token)\s+/i, "");
  }
  return undefined;
}
