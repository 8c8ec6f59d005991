import { describe, expect, it } from "vitest";
import { apiKeyDecider, apiKeyStream, organisationDecider, organisationStream } from "../../src/features/access/decider.ts";
import type { ApiKeyDecidedEvent } from "../../src/features/access/events.ts";
import { deciderSpec } from "../support/decider.ts";

const keys = deciderSpec(apiKeyDecider);
const organisations = deciderSpec(organisationDecider);
const issue = { type: "IssueApiKey" as const, keyId: "k1", orgId: "org1", name: "ci", role: "member" as const, keyHash: "f".repeat(64), bootstrap: false };
const issued: ApiKeyDecidedEvent = { type: "ApiKeyIssued", data: { keyId: "k1", orgId: "org1", name: "ci", role: "member", keyHash: "f".repeat(64), bootstrap: false } };
const revoked: ApiKeyDecidedEvent = { type: "ApiKeyRevoked", data: { keyId: "k1", orgId: "org1", reason: "leaked" } };

describe("organisation decider", () => {
  it("names its stream by organisation", () => expect(organisationStream("org1")).toBe("organisation-org1"));
  it("creates an organisation once", () => {
    organisations.given([]).when({ type: "CreateOrganisation", orgId: "org1", name: "Acme" }).then([{ type: "OrganisationCreated", data: { orgId: "org1", name: "Acme" } }]);
    organisations
      .given([{ type: "OrganisationCreated", data: { orgId: "org1", name: "Acme" } }])
      .when({ type: "CreateOrganisation", orgId: "org1", name: "Acme again" })
      .thenFails("conflict");
  });
  it("records in the creator's stream each organisation it created", () => {
    organisations
      .given([{ type: "OrganisationCreated", data: { orgId: "org1", name: "Acme" } }])
      .when({ type: "RecordProvisioned", provisionedOrgId: "org2", name: "Tenant" })
      .then([{ type: "OrganisationProvisioned", data: { provisionedOrgId: "org2", name: "Tenant" } }]);
  });
});

describe("API key decider", () => {
  it("names its stream by key", () => expect(apiKeyStream("k1")).toBe("apikey-k1"));
  it("issues a key (its hash only) once", () => {
    keys.given([]).when(issue).then([issued]);
    keys.given([issued]).when(issue).thenFails("conflict", /already exists/);
  });
  it("revokes a key of the same organisation, once", () => {
    keys.given([issued]).when({ type: "RevokeApiKey", keyId: "k1", orgId: "org1", reason: "leaked" }).then([revoked]);
    keys.given([issued, revoked]).when({ type: "RevokeApiKey", keyId: "k1", orgId: "org1", reason: "again" }).then([]);
  });
  it("does not reveal another organisation's key, or one never issued", () => {
    keys.given([issued]).when({ type: "RevokeApiKey", keyId: "k1", orgId: "org2", reason: null }).thenFails("not_found");
    keys.given([]).when({ type: "RevokeApiKey", keyId: "k1", orgId: "org1", reason: null }).thenFails("not_found");
  });
});
