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
