/**
 * Which host token an organisation's work may use.
 *
 * The service tokens (LOUPE_REVIEW_TOKEN_<HOST>) are the operator's: they serve only the organisations
 * the operator runs, the bootstrap organisation and the one webhooks record into (LOUPE_WEBHOOK_ORG),
 * never another tenant. Any other organisation brings its own token with the request (X-Host-Token, or
 * the provider-named header), which lives in memory for that work only. So a tenant never lists, clones,
 * reviews or posts with the operator's access, and the host's answer to the tenant's own token decides
 * what it may reach (interface.md section 1: the read permission of the source-host token).
 *
 * A repository the host serves to anyone (public) needs no token: a tenant without one works on it with
 * anonymous requests, as anyone on the internet could (the host's anonymous rate limits apply). Whether
 * it is public is asked of the host anonymously (`checkReadAccess` without a token, as
 * src/features/repositories/visibility.ts does); a host that does not say (rate limited, unreachable)
 * is an error of its own (HostRateLimitError, HostError), never taken for "private".
 */
import { DomainError } from "../../eventstore/decider.ts";
import type { Remote } from "../../hosts/types.ts";
import type { Hosts } from "../../hosts/index.ts";

/** The request needed a host token and had none it may use (HTTP 400, tool interface -32602). */
export class HostTokenRequiredError extends DomainError {
  /** `field`: the header a client sends the token in. */
  constructor(remote: Remote, purpose: string) {
    super(
      "invalid",
      `X-Host-Token: a ${remote} token that can read the repository is required to ${purpose}: ` +
        `${remote} does not serve it without one (it is private, or not there), and the service's own host token serves only the operator's organisations; send yours in the X-Host-Token header`,
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
  /** The hosts' APIs, asked anonymously whether a repository is public. */
  hosts: Pick<Hosts, "get">;
}) {
  const isOperatorOrg = (orgId: string) => deps.operatorOrgs().includes(orgId);
  /** The operator's token of `remote`, for work of an organisation it serves; undefined for any other. */
  const serviceToken = (orgId: string, remote: Remote): string | undefined => (isOperatorOrg(orgId) ? deps.serviceTokens[remote] : undefined);
  /** Whether git on `remote` asks a host at all (a `file://` clone base does not, unless configured to). */
  const gitNeedsToken = (remote: Remote) => deps.fileHostsNeedToken || !deps.hostUrls[remote].startsWith("file://");

  /**
   * Whether the host serves `name` to anyone: its API read without a token. False for a private (or
   * absent) repository; throws the host's error when it does not say (rate limited, unreachable).
   */
  const isPublic = (remote: Remote, name: string): Promise<boolean> => deps.hosts.get(remote).checkReadAccess(name, undefined);

  /**
   * The token for work of `orgId` on the repository `name` of `remote`: the caller's own, else the
   * service token when `orgId` is an operator organisation (which may also go without one: public
   * repositories). Any other organisation without a token of its own works anonymously on a public
   * repository (no token, and `public`: the host said so when asked), and is refused with
   * HostTokenRequiredError for any other one, unless `needed` says the host is not asked at all (a
   * `file://` clone base). The host's errors about the anonymous question (a rate limit, unreachable)
   * are thrown as they are.
   */
  async function access(orgId: string, remote: Remote, name: string, callerToken: string | undefined, purpose: string, needed = true): Promise<{ token: string | undefined; public: boolean }> {
    if (callerToken) return { token: callerToken, public: false };
    if (isOperatorOrg(orgId)) return { token: deps.serviceTokens[remote], public: false };
    if (!needed) return { token: undefined, public: false };
    if (await isPublic(remote, name)) return { token: undefined, public: true };
    throw new HostTokenRequiredError(remote, purpose);
  }

  return {
    isOperatorOrg,
    serviceToken,
    gitNeedsToken,
    isPublic,
    access,
    /** The token of `access` alone. */
    forRepository: async (...args: Parameters<typeof access>): Promise<string | undefined> => (await access(...args)).token,
  };
}
