import { DomainError, type Decider, type DomainEvent } from "../../eventstore/decider.ts";

export type ApiKeyRole = "admin" | "member";

export type ApiKeyCommand =
  | { type: "IssueApiKey"; keyId: string; orgId: string; name: string; role: ApiKeyRole; keyHash: string; bootstrap: boolean }
  | { type: "RevokeApiKey"; keyId: string; orgId: string; reason: string | null };

export type ApiKeyState =
  | { status: "none" }
  | { status: "active" | "revoked"; keyId: string; orgId: string; role: ApiKeyRole };

export const apiKeyStream = (keyId: string) => `apikey-${keyId}`;

export const apiKeyDecider: Decider<ApiKeyCommand, ApiKeyState> = {
  initialState: () => ({ status: "none" }),
  evolve(state, event) {
    const d = event.data as Record<string, string>;
    switch (event.type) {
      case "ApiKeyIssued":
        return { status: "active", keyId: d.keyId!, orgId: d.orgId!, role: d.role as ApiKeyRole };
      case "ApiKeyRevoked":
        return state.status === "none" ? state : { ...state, status: "revoked" };
      default:
        return state;
    }
  },
  decide(command, state): DomainEvent[] {
    switch (command.type) {
      case "IssueApiKey": {
        if (state.status !== "none") throw new DomainError("conflict", `API key ${command.keyId} already exists`);
        const { type: _type, ...data } = command;
        return [{ type: "ApiKeyIssued", data }];
      }
      case "RevokeApiKey": {
        if (state.status === "none" || state.orgId !== command.orgId) {
          throw new DomainError("not_found", `API key ${command.keyId} not found`);
        }
        if (state.status === "revoked") return [];
        return [{ type: "ApiKeyRevoked", data: { keyId: command.keyId, orgId: command.orgId, reason: command.reason } }];
      }
    }
  },
};
