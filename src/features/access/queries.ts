/** The access read models' records and the queries over them. */
import type { ReadView } from "../../readstore/port.ts";
import { createReadMemo } from "../../readstore/memo.ts";

/** An API key as the read model holds it: its hash, never the secret. */
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

/**
 * An organisation another one created, kept under the creator: `["provisioned", <creator orgId>, <event id>]`.
 * `orgId` is the creator's; the key names only the creator, so the record belongs to the creator alone
 * (the audit's read-model views show an entry to the organisations its key or `orgId` names).
 */
export type ProvisionedRecord = { orgId: string; provisionedOrgId: string; name: string; createdAt: string };

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
