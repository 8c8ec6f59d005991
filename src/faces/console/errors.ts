import type { ContentfulStatusCode } from "hono/utils/http-status";

/** An error a console page shows as an HTML page with this status. */
export class ConsoleError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
  ) {
    super(message);
    this.name = "ConsoleError";
  }
}

export const forbidden = () => new ConsoleError(403, "This page needs an admin API key.");
