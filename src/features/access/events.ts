import { z } from "zod";
import { defineEvent, type DecidedEventOf, type EventOf } from "../../eventstore/catalogue.ts";

/** Organisations and API keys. Keys are stored as sha256 hashes only, never the secret. */
export const OrganisationCreated = defineEvent(
  "OrganisationCreated",
  1,
  z.object({ orgId: z.string().min(1), name: z.string().min(1).max(200) }),
);

/**
 * In the creating organisation's own stream (`organisation-<creator>`), with the creator's key as actor:
 * it created another organisation. Names the new organisation, never its keys.
 */
export const OrganisationProvisioned = defineEvent(
  "OrganisationProvisioned",
  1,
  z.object({ provisionedOrgId: z.string().min(1), name: z.string().min(1).max(200) }),
);

export const apiKeyRole = z.enum(["admin", "member"]);

export const ApiKeyIssued = defineEvent(
  "ApiKeyIssued",
  1,
  z.object({
    keyId: z.string().min(1),
    orgId: z.string().min(1),
    name: z.string().min(1).max(200),
    role: apiKeyRole,
    keyHash: z.string().regex(/^[0-9a-f]{64}$/, "must be a sha256 hex digest"),
    bootstrap: z.boolean(),
  }),
);

export const ApiKeyRevoked = defineEvent(
  "ApiKeyRevoked",
  1,
  z.object({ keyId: z.string().min(1), orgId: z.string().min(1), reason: z.string().max(500).nullable() }),
);

export const accessEvents = [OrganisationCreated, OrganisationProvisioned, ApiKeyIssued, ApiKeyRevoked];

export type OrganisationEvent = EventOf<typeof OrganisationCreated> | EventOf<typeof OrganisationProvisioned>;
export type ApiKeyEvent = EventOf<typeof ApiKeyIssued> | EventOf<typeof ApiKeyRevoked>;
export type OrganisationDecidedEvent = DecidedEventOf<typeof OrganisationCreated> | DecidedEventOf<typeof OrganisationProvisioned>;
export type ApiKeyDecidedEvent = DecidedEventOf<typeof ApiKeyIssued> | DecidedEventOf<typeof ApiKeyRevoked>;
