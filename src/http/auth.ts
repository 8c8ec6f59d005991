import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "./env.ts";
import type { KeyService } from "../auth/keys.ts";
import { HttpError } from "./errors.ts";

/** Every /v2 route needs `Authorization: Bearer <key>`; missing, unknown or revoked keys get 401. */
export function authenticate(keys: KeyService): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const header = c.req.header("authorization");
    if (!header) throw new HttpError(401, "unauthorized", "Missing Authorization header (expected: Bearer <API key>)");
    const principal = keys.authenticate(header);
    if (!principal) throw new HttpError(401, "unauthorized", "Invalid or revoked API key");
    c.set("principal", principal);
    c.set("logger", c.get("logger").child({ keyId: principal.keyId, orgId: principal.orgId }));
    await next();
  };
}

export function requireAdmin(c: Context<AppEnv>) {
  if (c.get("principal").role !== "admin") throw new HttpError(403, "forbidden", "This operation needs an admin API key");
}
