import type { Logger } from "../../logging.ts";
import type { Principal } from "../../features/access/service.ts";
import type { CommandContext } from "../../eventstore/new-event.ts";

/** Per-request values set by the middleware. */
export type AppEnv = {
  Variables: {
    requestId: string;
    logger: Logger;
    principal: Principal;
  };
};

/** The command context of an authenticated request: its org, key id and request id as correlation. */
export function commandContext(vars: { principal: Principal; requestId: string }): CommandContext {
  return { orgId: vars.principal.orgId, actor: vars.principal.keyId, correlationId: vars.requestId, causationId: null };
}
