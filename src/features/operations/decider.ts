/** A projection rebuild's aggregate: started once, then completed or failed once. */
import { DomainError, type Decider } from "../../eventstore/decider.ts";
import type { ProjectionRebuildDecidedEvent } from "./events.ts";

export const projectionRebuildStream = (rebuildId: string) => `projectionrebuild-${rebuildId}`;

export type ProjectionRebuildCommand =
  | { type: "StartRebuild"; rebuildId: string; projection: string }
  | { type: "CompleteRebuild"; generation: number }
  | { type: "FailRebuild"; reason: string };

export type ProjectionRebuildState =
  | { status: "none" }
  | { status: "running" | "completed" | "failed"; rebuildId: string; projection: string };

export const projectionRebuildDecider: Decider<ProjectionRebuildCommand, ProjectionRebuildState, ProjectionRebuildDecidedEvent> = {
  initialState: () => ({ status: "none" }),
  evolve(state, event) {
    switch (event.type) {
      case "ProjectionRebuildStarted":
        return { status: "running", rebuildId: event.data.rebuildId, projection: event.data.projection };
      case "ProjectionRebuildCompleted":
        return state.status === "none" ? state : { ...state, status: "completed" };
      case "ProjectionRebuildFailed":
        return state.status === "none" ? state : { ...state, status: "failed" };
    }
  },
  decide(command, state) {
    switch (command.type) {
      case "StartRebuild":
        if (state.status !== "none") throw new DomainError("conflict", `Rebuild ${command.rebuildId} already exists`);
        return [{ type: "ProjectionRebuildStarted", data: { rebuildId: command.rebuildId, projection: command.projection } }];
      case "CompleteRebuild":
        if (state.status !== "running") return [];
        return [{ type: "ProjectionRebuildCompleted", data: { rebuildId: state.rebuildId, projection: state.projection, generation: command.generation } }];
      case "FailRebuild":
        if (state.status !== "running") return [];
        return [{ type: "ProjectionRebuildFailed", data: { rebuildId: state.rebuildId, projection: state.projection, reason: command.reason.slice(0, 2000) } }];
    }
  },
};
