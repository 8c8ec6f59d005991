/**
 * Access: organisations and their API keys, one aggregate each. Streams: `organisation-<orgId>` and
 * `apikey-<keyId>`. A key is issued once (only its hash is recorded) and revoked at most once, by its
 * own organisation.
 */
import { DomainError, type Decider } from "../../eventstore/decider.ts";
import type { ApiKeyDecidedEvent, OrganisationDecidedEvent } from "./events.ts";

export type ApiKeyRole = "admin" | "member";

export const organisationStream = (orgId: string) => `organisation-${orgId}`;
export const apiKeyStream = (keyId: string) => `apikey-${keyId}`;

/**
 * `CreateOrganisation` starts the new organisation's stream; `RecordProvisioned` goes to the creating
 * organisation's stream (its audit of the organisations it created).
 */
export type OrganisationCommand =
  | { type: "CreateOrganisation"; orgId: string; name: string }
  | { type: "RecordProvisioned"; provisionedOrgId: string; name: string };
export type OrganisationState = { exists: boolean };

export const organisationDecider: Decider<OrganisationCommand, OrganisationState, OrganisationDecidedEvent> = {
  initialState: () => ({ exists: false }),
  evolve: () => ({ exists: true }),
  decide(command, state) {
    switch (command.type) {
      case "CreateOrganisation":
        if (state.exists) throw new DomainError("conflict", `Organisation ${command.orgId} already exists`);
        return [{ type: "OrganisationCreated", data: { orgId: command.orgId, name: command.name } }];
      case "RecordProvisioned":
        return [{ type: "OrganisationProvisioned", data: { provisionedOrgId: command.provisionedOrgId, name: command.name } }];
    }
  },
};

export type ApiKeyCommand =
  | { type: "IssueApiKey"; keyId: string; orgId: string; name: string; role: ApiKeyRole; keyHash: string; bootstrap: boolean }
  | { type: "RevokeApiKey"; keyId: string; orgId: string; reason: string | null };

export type ApiKeyState =
  | { status: "none" }
  | { status: "active" | "revoked"; keyId: string; orgId: string; role: ApiKeyRole };

export const apiKeyDecider: Decider<ApiKeyCommand, ApiKeyState, ApiKeyDecidedEvent> = {
  initialState: () => ({ status: "none" }),
  evolve(state, event) {
    switch (event.type) {
      case "ApiKeyIssued":
        return { status: "active", keyId: event.data.keyId, orgId: event.data.orgId, role: event.data.role };
      case "ApiKeyRevoked":
        return state.status === "none" ? state : { ...state, status: "revoked" };
    }
  },
  decide(command, state) {
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
