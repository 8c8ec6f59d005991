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
