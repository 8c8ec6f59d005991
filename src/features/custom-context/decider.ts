import { DomainError, type Decider } from "../../eventstore/decider.ts";
import type { Scope } from "../../review/scope.ts";
import type { CustomContextDecidedEvent } from "./events.ts";

/** `customcontext-<orgId>-<id>`: one custom context's creation, status changes and updates. */
export const customContextStream = (orgId: string, id: string) => `customcontext-${orgId}-${id}`;

export type CustomContextType = "CUSTOM_INSTRUCTION" | "PATTERN";
export type CustomContextStatus = "ACTIVE" | "INACTIVE" | "SUGGESTED";

export type CustomContextCommand =
  | {
      type: "CreateCustomContext";
      id: string;
      contextType: CustomContextType;
      body: string;
      status: CustomContextStatus;
      scopes: Scope;
      metadata: Record<string, unknown>;
      source: "user" | "learned";
    }
  | { type: "ChangeCustomContextStatus"; id: string; status: CustomContextStatus }
  | { type: "UpdateCustomContext"; id: string; body?: string; scopes?: Scope; metadata?: Record<string, unknown> };

export type CustomContextState = { exists: false } | { exists: true; id: string; status: CustomContextStatus };

/** Custom context: created once, status changes, updates. No delete (interface.md 3.3). */
export const customContextDecider: Decider<CustomContextCommand, CustomContextState, CustomContextDecidedEvent> = {
  initialState: () => ({ exists: false }),
  evolve(state, event) {
    if (event.type === "CustomContextCreated") return { exists: true, id: event.data.id, status: event.data.status };
    if (event.type === "CustomContextStatusChanged" && state.exists) return { ...state, status: event.data.status };
    return state;
  },
  decide(command, state) {
    switch (command.type) {
      case "CreateCustomContext": {
        if (state.exists) throw new DomainError("conflict", `Custom context ${command.id} already exists`);
        const { type: _t, contextType, ...rest } = command;
        return [{ type: "CustomContextCreated", data: { ...rest, type: contextType } }];
      }
      case "ChangeCustomContextStatus": {
        if (!state.exists) throw new DomainError("not_found", `Custom context ${command.id} not found`);
        if (state.status === command.status) return [];
        return [{ type: "CustomContextStatusChanged", data: { id: command.id, status: command.status, previousStatus: state.status } }];
      }
      case "UpdateCustomContext": {
        if (!state.exists) throw new DomainError("not_found", `Custom context ${command.id} not found`);
        const { type: _t, ...data } = command;
        if (data.body === undefined && data.scopes === undefined && data.metadata === undefined) return [];
        return [{ type: "CustomContextUpdated", data }];
      }
    }
  },
};
