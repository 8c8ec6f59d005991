import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { HostError } from "../../hosts/errors.ts";

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
 * A git host's API failing a call a route made for the caller (e.g. the pull request backfill): 404 when
 * the host says the repository is not there or not readable with the token, else 502 host_unavailable
 * (network error, timeout, the host's own failure). The message names host, operation and path only.
 */
export function hostErrorAsHttp(error: HostError): HttpError {
  if (error.status === 401 || error.status === 403 || error.status === 404) {
    return new HttpError(404, "repository_not_found", `The ${error.remote} API refused the call (${error.message}): the repository does not exist there, or the host token cannot read it`);
  }
  return new HttpError(502, "host_unavailable", `Could not reach ${error.remote} (${error.message}); try again later`);
}
