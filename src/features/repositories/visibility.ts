/**
 * Whether a repository is private, as its host tells it: whether anyone can read it without a token.
 * Whether the request carried a token says nothing about that (a token is often sent to every host).
 *
 * - Cloned from a `file://` URL (a local repository, a self-hosted mirror base): anyone the server
 *   serves reads it, so it is not private; unless LOUPE_FILE_HOSTS_NEED_TOKEN makes such hosts answer
 *   through their API like any other (then the API is asked, as below). Local repositories never ask.
 * - Read without a token at submission (the `ls-remote` preflight succeeded anonymously): public.
 * - Otherwise the host API is asked without a token (`checkReadAccess`): not readable = private.
 *   Undefined when it cannot be told (the preflight failed; the host unreachable, slow, failing or
 *   rate limited, as GitHub answers anonymous callers over their quota with 403), so the record keeps
 *   what the host said before; a failed or late check is logged.
 */
import type { Logger } from "../../logging.ts";
import type { Hosts, Remote } from "../../hosts/index.ts";

export type VisibilityQuestion = {
  remote: Remote;
  repository: string;
  cloneUrl: string;
  /** The clone URL is a registered local repository's (src/features/repositories/local.ts). */
  local: boolean;
  withToken: boolean;
  /** The preflight read the repository (with the request's token, if any). */
  readable: boolean;
};

export function createVisibility({ hosts, fileHostsNeedToken, timeoutMs, logger }: { hosts: Hosts; fileHostsNeedToken: boolean; timeoutMs: number; logger: Logger }) {
  const unknown = (q: VisibilityQuestion, reason: string): undefined => {
    logger.warn({ remote: q.remote, repository: q.repository, reason }, "repository visibility not told by the host; the record keeps its previous value");
    return undefined;
  };
  return {
    async isPrivate(q: VisibilityQuestion): Promise<boolean | undefined> {
      const fileUrl = q.cloneUrl.startsWith("file:");
      if (q.local || (fileUrl && !fileHostsNeedToken)) return false;
      if (!q.readable) return undefined;
      if (!q.withToken && !fileUrl) return false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(unknown(q, `no answer within ${timeoutMs} ms`)), timeoutMs)));
      try {
        const anonymous = hosts
          .get(q.remote)
          .checkReadAccess(q.repository, undefined)
          .then(
            (readable) => !readable,
            (error: unknown) => unknown(q, error instanceof Error ? error.message : String(error)),
          );
        return await Promise.race([anonymous, late]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
