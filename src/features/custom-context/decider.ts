import { DomainError, type Decider, type DomainEvent } from "../../eventstore/decider.ts";

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
      scopes: Record<string, unknown>;
      metadata: Record<string, unknown>;
      source: "user" | "learned";
    }
  | { type: "ChangeCustomContextStatus"; id: string; status: CustomContextStatus }
  | { type: "UpdateCustomContext"; id: string; body?: string; scopes?: Record<string, unknown>; metadata?: Record<string, unknown> };

export type CustomContextState = { exists: false } | { exists: true; id: string; status: CustomContextStatus };

/** Custom context: created once, status changes, updates. No delete (interface.md 3.3). */
export const customContextDecider: Decider<CustomContextCommand, CustomContextState> = {
  initialState: () => ({ exists: false }),
  evolve(state, event) {
    const d = event.data as Record<string, string>;
    if (event.type === "CustomContextCreated") return { exists: true, id: d.id!, status: d.status as CustomContextStatus };
    if (event.type === "CustomContextStatusChanged" && state.exists) return { ...state, status: d.status as CustomContextStatus };
    return state;
  },
  decide(command, state): DomainEvent[] {
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
