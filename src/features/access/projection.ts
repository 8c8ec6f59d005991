import type { Projection } from "../../../projections/runner.ts";
import type { ReadView } from "../../readstore/port.ts";
import { createReadMemo } from "../../readstore/memo.ts";

/** API keys by hash (for authentication) and by organisation (for listing). No secrets: hashes only. */
export type ApiKeyRecord = {
  keyId: string;
  orgId: string;
  name: string;
  role: "admin" | "member";
  keyHash: string;
  bootstrap: boolean;
  createdAt: string;
  createdBy: string;
  revokedAt: string | null;
};

export type OrganisationRecord = { orgId: string; name: string; createdAt: string };

export const apiKeysProjection: Projection = {
  name: "api-keys",
  version: 1,
  canHandle: ["ApiKeyIssued", "ApiKeyRevoked"],
  handle(events, { tx }) {
    for (const event of events) {
      const d = event.data as Record<string, unknown>;
      if (event.type === "ApiKeyIssued") {
        const record: ApiKeyRecord = {
          keyId: d.keyId as string,
          orgId: d.orgId as string,
          name: d.name as string,
          role: d.role as ApiKeyRecord["role"],
          keyHash: d.keyHash as string,
          bootstrap: d.bootstrap as boolean,
          createdAt: event.time,
          createdBy: event.metadata.actor,
          revokedAt: null,
        };
        tx.put(["byHash", record.keyHash], [record.orgId, record.keyId]);
        tx.put(["key", record.orgId, record.keyId], record);
      } else if (event.type === "ApiKeyRevoked") {
        const key = ["key", d.orgId as string, d.keyId as string];
        const record = tx.get<ApiKeyRecord>(key);
        if (record && !record.revokedAt) tx.put(key, { ...record, revokedAt: event.time });
      }
    }
  },
};

export const organisationsProjection: Projection = {
  name: "organisations",
  version: 1,
  canHandle: ["OrganisationCreated"],
  handle(events, { tx }) {
    for (const event of events) {
      const d = event.data as { orgId: string; name: string };
      if (!tx.get(["org", d.orgId])) tx.put(["org", d.orgId], { orgId: d.orgId, name: d.name, createdAt: event.time });
    }
  },
};

/**
 * Queries over the access read models. With `version` (the read model's ReadStore.version), keys found by
 * `byHash` are kept, frozen, until it changes.
 */
export function apiKeyQueries(view: () => ReadView, version?: () => number) {
  const byHashes = version ? createReadMemo<ApiKeyRecord>(version) : null;
  return {
    byHash(keyHash: string): ApiKeyRecord | undefined {
      const load = () => {
        const v = view();
        const ref = v.get<[string, string]>(["byHash", keyHash]);
        return ref ? v.get<ApiKeyRecord>(["key", ref[0], ref[1]]) : undefined;
      };
      return byHashes ? byHashes.get(keyHash, load) : load();
    },
    list(orgId: string): ApiKeyRecord[] {
      return view()
        .range<ApiKeyRecord>(["key", orgId])
        .map((e) => e.value);
    },
    get(orgId: string, keyId: string): ApiKeyRecord | undefined {
      return view().get<ApiKeyRecord>(["key", orgId, keyId]);
    },
    count(): number {
      return view().count(["byHash"]);
    },
  };
}
