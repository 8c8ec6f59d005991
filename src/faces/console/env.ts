import type { AppEnv } from "../http/env.ts";
import type { ConsoleSession } from "./session.ts";
import type { CommandContext } from "../../eventstore/new-event.ts";

/** The console's per-request values: the HTTP face's, plus the signed-in session (absent on sign-in). */
export type ConsoleEnv = {
  Variables: AppEnv["Variables"] & { session: ConsoleSession; sessionId: string };
};

/** The command context of a console request: the session's key as actor, the request id as correlation. */
export function consoleCommandContext(vars: { session: ConsoleSession; requestId: string }): CommandContext {
  const { principal } = vars.session;
  return { orgId: principal.orgId, actor: principal.keyId, correlationId: vars.requestId, causationId: null };
}
