import { ulid } from "../ids.ts";
import type { EventMetadata, NewEvent } from "./port.ts";

/** Who is acting and why: carried into every event a command appends. */
export type CommandContext = {
  orgId: string;
  actor: string;
  correlationId: string;
  causationId?: string | null;
};

export function newEvent(
  type: string,
  data: Record<string, unknown>,
  context: CommandContext,
  schemaVersion = 1,
): NewEvent {
  const metadata: EventMetadata = {
    orgId: context.orgId,
    actor: context.actor,
    correlationId: context.correlationId,
    causationId: context.causationId ?? null,
  };
  return { id: ulid(), type, schemaVersion, time: new Date().toISOString(), data, metadata };
}
