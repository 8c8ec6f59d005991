import type { Remote } from "./types.ts";

/**
 * A failed call to a git host. The message names the host, the operation, the method, the URL path
 * and the HTTP status; it never carries a token, a secret, a query string or a response body.
 */
export class HostError extends Error {
  readonly remote: Remote;
  readonly operation: string;
  /** HTTP status, or undefined for network errors / bad input. */
  readonly status: number | undefined;

  constructor(remote: Remote, operation: string, message: string, status?: number) {
    super(`${remote} ${operation}: ${message}`);
    this.name = "HostError";
    this.remote = remote;
    this.operation = operation;
    this.status = status;
  }
}

/**
 * The host refused a call for its rate limit (HTTP 429, or a 403 with `x-ratelimit-remaining: 0`, a
 * `retry-after` or a message naming the limit, as GitHub sends: ./shared.ts, isRateLimited): no answer
 * about the repository. Anonymous calls have the host's lowest limits (GitHub: 60 an hour per address).
 */
export class HostRateLimitError extends HostError {
  constructor(remote: Remote, operation: string, message: string, status?: number) {
    super(remote, operation, message, status);
    this.name = "HostRateLimitError";
  }
}

/**
 * What a failed host call made for a caller means to that caller, the same on every face: the host
 * refused it for its rate limit (`host_rate_limited`), said the repository is not there or not readable
 * (`repository_not_found`), or could not be reached or failed (`host_unavailable`). The message names
 * host, operation and path only.
 */
export function hostErrorAnswer(error: HostError): { reason: "host_rate_limited" | "repository_not_found" | "host_unavailable"; message: string } {
  if (error instanceof HostRateLimitError || error.status === 429) {
    return {
      reason: "host_rate_limited",
      message: `${error.remote} refused the call for its rate limit (${error.message}): try again later, or send a host token (X-Host-Token), whose limit is higher than an anonymous caller's`,
    };
  }
  if (error.status === 401 || error.status === 403 || error.status === 404) {
    return { reason: "repository_not_found", message: `The ${error.remote} API refused the call (${error.message}): the repository does not exist there, or the host token cannot read it` };
  }
  return { reason: "host_unavailable", message: `Could not reach ${error.remote} (${error.message}); try again later` };
}

/**
 * A verified webhook delivery that cannot be recorded as it is: a field its event needs is missing or
 * malformed, or its delivery id is unusable. Each issue names the field as the host sends it (a header,
 * or a payload path such as `pull_request.number`) and what is wrong with it, never its value.
 */
export class WebhookPayloadError extends Error {
  readonly remote: Remote;
  readonly issues: readonly { field: string; problem: string }[];

  constructor(remote: Remote, issues: readonly { field: string; problem: string }[]) {
    super(`${remote} webhook: ${issues.map((i) => `${i.field}: ${i.problem}`).join("; ")}`);
    this.name = "WebhookPayloadError";
    this.remote = remote;
    this.issues = issues;
  }
}
