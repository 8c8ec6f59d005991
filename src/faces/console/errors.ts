import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ConsoleEnv } from "./env.ts";

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

/** Admin pages: a member key gets 403 (and its navigation has no link to them). */
export const requireAdmin = (c: Context<ConsoleEnv>) => {
  if (c.get("session").principal.role !== "admin") throw forbidden();
};
