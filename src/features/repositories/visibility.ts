/**
 * Whether a repository is private, as its host tells it: whether anyone can read it without a token.
 * Whether the request carried a token says nothing about that (a token is often sent to every host).
 *
 * - Cloned from a `file://` URL (a local repository, a self-hosted mirror base): anyone the server
 *   serves reads it, so it is not private; unless LOUPE_FILE_HOSTS_NEED_TOKEN makes such hosts answer
 *   through their API like any other (then the API is asked, as below). Local repositories never ask.
 * - Read without a token at submission (the `ls-remote` preflight succeeded anonymously): public.
 * - Otherwise the host API is asked without a token (`checkReadAccess`): not readable = private.
 *   Undefined when it cannot be told (the host unreachable, slow, or the preflight failed), so the
 *   record keeps what the host said before.
 */
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

export function createVisibility({ hosts, fileHostsNeedToken, timeoutMs }: { hosts: Hosts; fileHostsNeedToken: boolean; timeoutMs: number }) {
  return {
    async isPrivate(q: VisibilityQuestion): Promise<boolean | undefined> {
      const fileUrl = q.cloneUrl.startsWith("file:");
      if (q.local || (fileUrl && !fileHostsNeedToken)) return false;
      if (!q.readable) return undefined;
      if (!q.withToken && !fileUrl) return false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), timeoutMs)));
      try {
        const anonymous = hosts.get(q.remote).checkReadAccess(q.repository, undefined).then((readable) => !readable, () => undefined);
        return await Promise.race([anonymous, late]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
