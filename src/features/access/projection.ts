import { defineProjection } from "../../../projections/runner.ts";
import type { ApiKeyEvent, OrganisationEvent } from "./events.ts";
import type { ApiKeyRecord, ProvisionedRecord } from "./queries.ts";

/** API keys by hash (for authentication) and by organisation (for listing). No secrets: hashes only. */
export const apiKeysProjection = defineProjection<ApiKeyEvent>({
  name: "api-keys",
  version: 1,
  canHandle: ["ApiKeyIssued", "ApiKeyRevoked"],
  handle(events, { tx }) {
    for (const event of events) {
      if (event.type === "ApiKeyIssued") {
        const d = event.data;
        const record: ApiKeyRecord = {
          keyId: d.keyId,
          orgId: d.orgId,
          name: d.name,
          role: d.role,
          keyHash: d.keyHash,
          bootstrap: d.bootstrap,
          createdAt: event.time,
          createdBy: event.metadata.actor,
          revokedAt: null,
        };
        tx.put(["byHash", record.keyHash], [record.orgId, record.keyId]);
        tx.put(["key", record.orgId, record.keyId], record);
      } else {
        const key = ["key", event.data.orgId, event.data.keyId];
        const record = tx.get<ApiKeyRecord>(key);
        if (record && !record.revokedAt) tx.put(key, { ...record, revokedAt: event.time });
      }
    }
  },
});

/** Organisations by id, and under each creator the organisations it created (`ProvisionedRecord`). */
export const organisationsProjection = defineProjection<OrganisationEvent>({
  name: "organisations",
  version: 1,
  canHandle: ["OrganisationCreated", "OrganisationProvisioned"],
  handle(events, { tx }) {
    for (const event of events) {
      if (event.type === "OrganisationCreated") {
        const d = event.data;
        if (!tx.get(["org", d.orgId])) tx.put(["org", d.orgId], { orgId: d.orgId, name: d.name, createdAt: event.time });
      } else {
        const creator = event.metadata.orgId;
        const record: ProvisionedRecord = { orgId: creator, provisionedOrgId: event.data.provisionedOrgId, name: event.data.name, createdAt: event.time };
        tx.put(["provisioned", creator, event.id], record);
      }
    }
  },
});

