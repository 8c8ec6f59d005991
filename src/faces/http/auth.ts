import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "./env.ts";
import type { KeyService, Principal } from "../../features/access/service.ts";
import type { Logger } from "../../logging.ts";
import { HttpError } from "./errors.ts";

/** Every /v2 route needs `Authorization: Bearer <key>`; missing, unknown or revoked keys get 401. */
export function authenticate(keys: KeyService): MiddlewareHandler<AppEnv> {
  // One child logger per API key, reused: pino serialises (and redacts) a child's bindings when the
  // child is made, which every request paid even when it logged nothing.
  const childLoggers = new Map<string, { base: Logger; child: Logger }>();
  const loggerFor = (base: Logger, principal: Principal): Logger => {
    const key = `${principal.keyId}\u0000${principal.orgId}`;
    const known = childLoggers.get(key);
    if (known && known.base === base) return known.child;
    const child = base.child({ keyId: principal.keyId, orgId: principal.orgId });
    if (childLoggers.size >= 1024) childLoggers.delete(childLoggers.keys().next().value!);
    childLoggers.set(key, { base, child });
    return child;
  };
  return async (c, next) => {
    const header = c.req.header("authorization");
    if (!header) throw new HttpError(401, "unauthorized", "Missing Authorization header (expected: Bearer <API key>)");
    const principal = keys.authenticate(header);
    if (!principal) throw new HttpError(401, "unauthorized", "Invalid or revoked API key");
    c.set("principal", principal);
    c.set("logger", loggerFor(c.get("logger"), principal));
    await next();
  };
}

export function requireAdmin(c: Context<AppEnv>) {
  if (c.get("principal").role !== "admin") throw new HttpError(403, "forbidden", "This operation needs an admin API key");
}
