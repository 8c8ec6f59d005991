import { z } from "zod";
import { defineEvent, type DecidedEventOf, type EventOf } from "../../eventstore/catalogue.ts";

/**
 * Instance-wide operations an admin of the bootstrap organisation runs, recorded in that organisation
 * with the caller's key as actor. A projection rebuild: stream `projectionrebuild-<rebuildId>`,
 * Started -> Completed | Failed.
 */
const rebuildId = z.string().min(1).max(100);
const projection = z.string().min(1).max(200);

export const ProjectionRebuildStarted = defineEvent("ProjectionRebuildStarted", 1, z.object({ rebuildId, projection }));

export const ProjectionRebuildCompleted = defineEvent(
  "ProjectionRebuildCompleted",
  1,
  z.object({ rebuildId, projection, /** The generation readers switched to. */ generation: z.number().int().min(0) }),
);

export const ProjectionRebuildFailed = defineEvent("ProjectionRebuildFailed", 1, z.object({ rebuildId, projection, reason: z.string().max(2000) }));

export const operationEvents = [ProjectionRebuildStarted, ProjectionRebuildCompleted, ProjectionRebuildFailed];

export type ProjectionRebuildEvent =
  | EventOf<typeof ProjectionRebuildStarted>
  | EventOf<typeof ProjectionRebuildCompleted>
  | EventOf<typeof ProjectionRebuildFailed>;
export type ProjectionRebuildDecidedEvent =
  | DecidedEventOf<typeof ProjectionRebuildStarted>
  | DecidedEventOf<typeof ProjectionRebuildCompleted>
  | DecidedEventOf<typeof ProjectionRebuildFailed>;
