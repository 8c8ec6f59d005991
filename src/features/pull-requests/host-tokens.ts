/**
 * Which host token an organisation's work may use.
 *
 * The service tokens (LOUPE_REVIEW_TOKEN_<HOST>) are the operator's: they serve only the organisations
 * the operator runs, the bootstrap organisation and the one webhooks record into (LOUPE_WEBHOOK_ORG),
 * never another tenant. Any other organisation brings its own token with the request (X-Host-Token, or
 * the provider-named header), which lives in memory for that work only. So a tenant never lists, clones,
 * reviews or posts with the operator's access, and the host's answer to the tenant's own token decides
 * what it may reach (interface.md section 1: the read permission of the source-host token).
 */
import { DomainError } from "../../eventstore/decider.ts";
import type { Remote } from "../../hosts/types.ts";

/** The request needed a host token and had none it may use (HTTP 400, tool interface -32602). */
export class HostTokenRequiredError extends DomainError {
  /** `field`: the header a client sends the token in. */
  constructor(remote: Remote, purpose: string) {
    super(
      "invalid",
      `X-Host-Token: a ${remote} token that can read the repository is required to ${purpose}: ` +
        `the service's own host token serves only the operator's organisations; send yours in the X-Host-Token header`,
      "X-Host-Token",
    );
    this.name = "HostTokenRequiredError";
  }
}

export type HostTokens = ReturnType<typeof createHostTokens>;

export function createHostTokens(deps: {
  /** The service tokens per host (never logged, never recorded). */
  serviceTokens: Partial<Record<Remote, string>>;
  /** Clone bases per host: a `file://` base has no host to ask, so git needs no token there. */
  hostUrls: Record<Remote, string>;
  /** LOUPE_FILE_HOSTS_NEED_TOKEN: treat `file://` bases like real hosts. */
  fileHostsNeedToken: boolean;
  /** The organisations the service tokens serve: the bootstrap organisation and the webhook organisation. */
  operatorOrgs: () => readonly (string | undefined)[];
}) {
  const isOperatorOrg = (orgId: string) => deps.operatorOrgs().includes(orgId);
  /** The operator's token of `remote`, for work of an organisation it serves; undefined for any other. */
  const serviceToken = (orgId: string, remote: Remote): string | undefined => (isOperatorOrg(orgId) ? deps.serviceTokens[remote] : undefined);
  /** Whether git on `remote` asks a host at all (a `file://` clone base does not, unless configured to). */
  const gitNeedsToken = (remote: Remote) => deps.fileHostsNeedToken || !deps.hostUrls[remote].startsWith("file://");

  return {
    isOperatorOrg,
    serviceToken,
    gitNeedsToken,
    /**
     * The token for a request of `orgId` on `remote`: the caller's own, else the service token when
     * `orgId` is an operator organisation (which may also go without one: public repositories). Any
     * other organisation must bring its own: HostTokenRequiredError, unless `needed` says the host is
     * not asked (a `file://` clone base).
     */
    forRequest(orgId: string, remote: Remote, callerToken: string | undefined, purpose: string, needed = true): string | undefined {
      if (callerToken) return callerToken;
      if (isOperatorOrg(orgId)) return deps.serviceTokens[remote];
      if (needed) throw new HostTokenRequiredError(remote, purpose);
      return undefined;
    },
  };
}
