/**
 * Instance-wide operations. Rebuilding a projection replays every organisation's records, so only an
 * admin key of the bootstrap organisation may ask for it; each rebuild is recorded (started, then
 * completed or failed) with the caller's key as actor, and one projection has at most one rebuild
 * under way: a second request while it runs is answered with that fact (DomainError "conflict"),
 * never queued behind it.
 */
import { ulid } from "../../ids.ts";
import type { EventStore } from "../../eventstore/port.ts";
import type { ProjectionRunner, ProjectionStatus } from "../../../projections/runner.ts";
import type { CommandContext } from "../../eventstore/new-event.ts";
import { DomainError, handleCommand } from "../../eventstore/decider.ts";
import { projectionRebuildDecider, projectionRebuildStream, type ProjectionRebuildCommand } from "./decider.ts";

export type OperationsService = ReturnType<typeof createOperationsService>;

export function createOperationsService(deps: {
  eventStore: EventStore;
  runner: ProjectionRunner;
  /** The bootstrap organisation: the only one whose admins run instance-wide operations. */
  operatorOrg: () => string | undefined;
}) {
  const { eventStore, runner } = deps;
  /** Rebuilds under way, by projection: when each was asked for. */
  const running = new Map<string, string>();
  const statusOf = async (name: string) => (await runner.status()).find((p) => p.name === name);
  const alreadyRunning = (name: string, since: string | undefined) =>
    new DomainError(
      "conflict",
      `A rebuild of ${name} is already running${since ? ` (asked for at ${since})` : ""}; nothing was started. Follow it with projection(name: "${name}") { state generation }`,
    );

  return {
    /** Whether `orgId` may run instance-wide operations (the console shows their buttons only then). */
    mayOperate: (orgId: string) => orgId === deps.operatorOrg(),

    /**
     * Replays the whole log into a fresh generation of `name` and switches readers to it; resolves with
     * its status when done. Throws DomainError forbidden (not the bootstrap organisation), not_found (no
     * such projection) or conflict (a rebuild of it is under way); the rebuild's own failure is recorded
     * and rethrown.
     */
    async rebuildProjection(name: string, context: CommandContext): Promise<ProjectionStatus> {
      if (context.orgId !== deps.operatorOrg()) {
        throw new DomainError("forbidden", "Only an admin key of the instance's bootstrap organisation may rebuild projections: they hold every organisation's records");
      }
      if (!runner.projections().some((p) => p.name === name)) throw new DomainError("not_found", `No projection named ${name}`);
      if (running.has(name)) throw alreadyRunning(name, running.get(name));
      running.set(name, new Date().toISOString()); // taken before the first await: two requests never both start
      try {
        // The runner rebuilds on its own too (a projection whose version changed, at start).
        if ((await statusOf(name))?.state === "rebuilding") throw alreadyRunning(name, undefined);
        const rebuildId = ulid();
        const stream = projectionRebuildStream(rebuildId);
        const record = (command: ProjectionRebuildCommand) => handleCommand(eventStore, stream, projectionRebuildDecider, command, context);
        await record({ type: "StartRebuild", rebuildId, projection: name });
        try {
          await runner.rebuild(name);
        } catch (error) {
          await record({ type: "FailRebuild", reason: error instanceof Error ? error.message : String(error) });
          throw error;
        }
        const status = (await statusOf(name))!;
        await record({ type: "CompleteRebuild", generation: status.generation });
        return status;
      } finally {
        running.delete(name);
      }
    },
  };
}
