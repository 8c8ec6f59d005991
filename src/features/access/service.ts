import { createHash, randomBytes } from "node:crypto";
import { ulid } from "../../ids.ts";
import type { EventStore } from "../../eventstore/port.ts";
import type { CommandContext } from "../../eventstore/new-event.ts";
import { DomainError, handleCommand } from "../../eventstore/decider.ts";
import { apiKeyDecider, apiKeyStream, organisationDecider, organisationStream, type ApiKeyRole } from "./decider.ts";
import type { ProjectionRunner } from "../../../projections/runner.ts";
import type { ReadStore } from "../../readstore/port.ts";
import { apiKeyQueries, type ApiKeyRecord, type OrganisationRecord, type ProvisionedRecord } from "./queries.ts";

/** The caller of a request, resolved from its API key. */
export type Principal = { keyId: string; orgId: string; role: ApiKeyRole };

/** Public view of a key: never the secret or its hash. */
export type ApiKeyInfo = Omit<ApiKeyRecord, "keyHash">;

export const hashApiKey = (key: string) => createHash("sha256").update(key, "utf8").digest("hex");
const generateKey = () => `lp_${randomBytes(32).toString("base64url")}`;
const toInfo = ({ keyHash: _hash, ...info }: ApiKeyRecord): ApiKeyInfo => info;

export type KeyService = ReturnType<typeof createKeyService>;

/** Who acts in a new organisation's own records when another organisation created it: never the creator's key. */
export const OPERATOR_ACTOR = "operator";

/** The context of a new organisation's own events: its id, and the neutral actor when another organisation created it. */
const asNewOrganisation = (orgId: string, creator: string | null, context: CommandContext): CommandContext => ({
  ...context,
  orgId,
  actor: creator === null ? context.actor : OPERATOR_ACTOR,
  causationId: creator === null ? context.causationId : null,
});

export function createKeyService({
  eventStore,
  readStore,
  runner,
}: {
  eventStore: EventStore;
  readStore: ReadStore;
  runner: ProjectionRunner;
}) {
  const keys = apiKeyQueries(() => readStore.view("api-keys"), () => readStore.version("api-keys"));
  const settle = async (position: number | null) => {
    if (position !== null) await runner.waitForPosition(position, 10_000);
  };

  const issueWithSecret = async (
    secret: string,
    input: { orgId: string; name: string; role: ApiKeyRole; bootstrap?: boolean },
    context: CommandContext,
  ) => {
    const keyId = ulid();
    const { lastPosition } = await handleCommand(
      eventStore,
      apiKeyStream(keyId),
      apiKeyDecider,
      { type: "IssueApiKey", keyId, keyHash: hashApiKey(secret), bootstrap: input.bootstrap ?? false, ...input },
      { ...context, orgId: input.orgId },
    );
    await settle(lastPosition);
    return keyId;
  };

  /** The instance's first organisation (ulids sort by creation): the one the bootstrap admin key belongs to. */
  const bootstrapOrgId = (): string | undefined => readStore.view("organisations").range<OrganisationRecord>(["org"], { limit: 1 })[0]?.value.orgId;

  /**
   * Creates an organisation. Once one exists, only the bootstrap organisation (the first one, whose
   * admin key the instance was started with) may create others: `context.orgId` is the caller's
   * (`system` for the instance's own commands, such as the bootstrap).
   *
   * A caller's creation is audited in its own organisation first (`OrganisationProvisioned` in its
   * stream, its key as actor, naming the new organisation's id and name); the new organisation's own
   * records name a neutral actor (`operator`), never the creator's key.
   */
  const createOrganisation = async (name: string, context: CommandContext): Promise<OrganisationRecord> => {
    const creator = context.orgId === "system" ? null : context.orgId;
    const bootstrapOrg = bootstrapOrgId();
    if (bootstrapOrg !== undefined && creator !== null && creator !== bootstrapOrg) {
      throw new DomainError("forbidden", "Only an admin key of the instance's bootstrap organisation may create organisations");
    }
    const orgId = ulid();
    if (creator !== null) {
      await handleCommand(eventStore, organisationStream(creator), organisationDecider, { type: "RecordProvisioned", provisionedOrgId: orgId, name }, context);
    }
    const { lastPosition } = await handleCommand(eventStore, organisationStream(orgId), organisationDecider, { type: "CreateOrganisation", orgId, name }, asNewOrganisation(orgId, creator, context));
    await settle(lastPosition);
    return readStore.view("organisations").get<OrganisationRecord>(["org", orgId])!;
  };

  return {
    bootstrapOrgId,
    /** Issues a new key; the secret is returned once and only its hash is recorded. */
    async issue(input: { orgId: string; name: string; role: ApiKeyRole }, context: CommandContext) {
      const secret = generateKey();
      const keyId = await issueWithSecret(secret, input, context);
      return { key: secret, info: toInfo(keys.get(input.orgId, keyId)!) };
    },
    issueWithSecret,
    async revoke(orgId: string, keyId: string, reason: string | null, context: CommandContext) {
      const { lastPosition } = await handleCommand(
        eventStore,
        apiKeyStream(keyId),
        apiKeyDecider,
        { type: "RevokeApiKey", keyId, orgId, reason },
        context,
      );
      await settle(lastPosition);
      return toInfo(keys.get(orgId, keyId)!);
    },
    createOrganisation,
    /**
     * Creates an organisation with its first admin key (POST /v2/organisations, GraphQL createOrganisation):
     * both recorded in the new organisation with the neutral actor; the secret is returned once.
     */
    async createOrganisationWithAdmin(name: string, context: CommandContext) {
      const organisation = await createOrganisation(name, context);
      const creator = context.orgId === "system" ? null : context.orgId;
      const secret = generateKey();
      const keyId = await issueWithSecret(secret, { orgId: organisation.orgId, name: `${name} admin`, role: "admin" }, asNewOrganisation(organisation.orgId, creator, context));
      return { organisation, key: secret, info: toInfo(keys.get(organisation.orgId, keyId)!) };
    },
    /** The organisations `orgId` created (their current records), oldest first. */
    provisionedBy(orgId: string): OrganisationRecord[] {
      const view = readStore.view("organisations");
      return view
        .range<ProvisionedRecord>(["provisioned", orgId])
        .flatMap((e) => view.get<OrganisationRecord>(["org", e.value.provisionedOrgId]) ?? []);
    },
    organisations(): OrganisationRecord[] {
      return readStore
        .view("organisations")
        .range<OrganisationRecord>(["org"])
        .map((e) => e.value);
    },
    authenticate(authorization: string | null | undefined): Principal | null {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
      if (!match) return null;
      const record = keys.byHash(hashApiKey(match[1]!));
      if (!record || record.revokedAt) return null;
      return { keyId: record.keyId, orgId: record.orgId, role: record.role };
    },
    list: (orgId: string) => keys.list(orgId).map(toInfo),
    get: (orgId: string, keyId: string) => {
      const record = keys.get(orgId, keyId);
      return record ? toInfo(record) : undefined;
    },
    hasAnyKey: () => keys.count() > 0,
    findByHash: (secret: string) => keys.byHash(hashApiKey(secret)),
  };
}
