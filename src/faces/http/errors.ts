import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { hostErrorAnswer, type HostError } from "../../hosts/errors.ts";

/** An error with an HTTP status and a stable code, rendered as `{ error: { code, message, details } }`. */
export class HttpError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly details: unknown = null,
  ) {
    super(message);
    this.name = "HttpError";
  }
}

export const errorBody = (code: string, message: string, details: unknown = null) => ({
  error: { code, message, details },
});

export function jsonError(c: Context, status: ContentfulStatusCode, code: string, message: string, details: unknown = null) {
  return c.json(errorBody(code, message, details), status);
}

/**
 * A git host's API failing a call a route made for the caller (e.g. the pull request backfill): 404
 * repository_not_found when the host says the repository is not there or not readable with the token,
 * 429 host_rate_limited when it refused the call for its rate limit (anonymous calls have the lowest),
 * else 502 host_unavailable (network error, timeout, the host's own failure).
 */
export function hostErrorAsHttp(error: HostError): HttpError {
  const { reason, message } = hostErrorAnswer(error);
  return new HttpError(({ host_rate_limited: 429, repository_not_found: 404, host_unavailable: 502 } as const)[reason], reason, message);
}
