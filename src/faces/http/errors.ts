import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

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
