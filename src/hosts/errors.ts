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
 * A verified webhook delivery that cannot be recorded as it is: a field its event needs is missing or
 * malformed, or a delivery id is unusable. `field` names it as the host sends it (a header, or a
 * payload path such as `pull_request.number`). The message names the field and what is wrong, never a
 * value of a header carrying a secret.
 */
export class WebhookPayloadError extends Error {
  readonly remote: Remote;
  readonly field: string;
  readonly problem: string;

  constructor(remote: Remote, field: string, problem: string) {
    super(`${remote} webhook: ${field}: ${problem}`);
    this.name = "WebhookPayloadError";
    this.remote = remote;
    this.field = field;
    this.problem = problem;
  }
}
