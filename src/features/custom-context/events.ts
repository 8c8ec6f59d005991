import { z } from "zod";
import { defineEvent, type DecidedEventOf, type EventOf } from "../../eventstore/catalogue.ts";
import { ScopeSchema } from "../../review/scope.ts";
import { MAX_INPUT_DEPTH, nestsDeeperThan, tooDeepMessage } from "../../json-bounds.ts";

/**
 * Custom context (interface.md 2.6): coding patterns and instructions of an organisation.
 * Stream: `customcontext-<orgId>-<id>`. There is no delete: status INACTIVE disables.
 */
export const customContextType = z.enum(["CUSTOM_INSTRUCTION", "PATTERN"]);
export const customContextStatus = z.enum(["ACTIVE", "INACTIVE", "SUGGESTED"]);

/**
 * The limits of a custom context, declared once: the event schemas below and every face's input schema
 * (HTTP, MCP, GraphQL, the console's forms) use them, and the service checks them before it decides, so
 * input over a limit is refused up front with a message naming the field, never by the event store.
 */
export const CUSTOM_CONTEXT_LIMITS = { body: 50_000, metadataDepth: MAX_INPUT_DEPTH, metadataCharacters: 50_000 } as const;

/** `body: must be at most 50000 characters (got 60000)`, or null when the body fits. */
export const bodyLimitProblem = (body: string): string | null =>
  body.length > CUSTOM_CONTEXT_LIMITS.body ? `body: must be at most ${CUSTOM_CONTEXT_LIMITS.body} characters (got ${body.length})` : null;

/** A custom context's body as every schema checks it (zod's message names the limit: "Too big: ... <=50000 characters"). */
export const customContextBody = z.string().max(CUSTOM_CONTEXT_LIMITS.body);

/** Free-form `metadata` (interface.md 2.6: an object; seen keys `subtype`, `includeUris`). */
const metadataObject = z.record(z.string(), z.unknown());
/** The depth bound is the one every face puts on free-form input (json-bounds.ts), with the same message. */
const metadataDepthProblem = (metadata: unknown): string | null =>
  nestsDeeperThan(metadata, CUSTOM_CONTEXT_LIMITS.metadataDepth) ? tooDeepMessage(CUSTOM_CONTEXT_LIMITS.metadataDepth) : null;

/**
 * `metadata` as the faces and the service take it: an object nesting at most 32 levels, at most 50,000
 * characters as JSON (checked in that order, without recursion, so any depth is refused cleanly).
 */
export const customContextMetadata = metadataObject.superRefine((metadata, ctx) => {
  const deep = metadataDepthProblem(metadata);
  if (deep) return void ctx.addIssue({ code: "custom", message: deep });
  const characters = JSON.stringify(metadata).length;
  if (characters > CUSTOM_CONTEXT_LIMITS.metadataCharacters) {
    ctx.addIssue({ code: "custom", message: `must be at most ${CUSTOM_CONTEXT_LIMITS.metadataCharacters} characters as JSON (got ${characters})` });
  }
});

/**
 * `metadata` as the events hold it: the depth bound only (what the log's encoder takes); learned
 * suggestions list the paths their comments were on, however many.
 */
const storedMetadata = metadataObject.superRefine((metadata, ctx) => {
  const deep = metadataDepthProblem(metadata);
  if (deep) ctx.addIssue({ code: "custom", message: deep });
});

export const CustomContextCreated = defineEvent(
  "CustomContextCreated",
  1,
  z.object({
    id: z.string().uuid(),
    type: customContextType,
    body: customContextBody,
    status: customContextStatus,
    scopes: ScopeSchema,
    metadata: storedMetadata,
    /** "user" (created through a face) or "learned" (suggested from human review comments). */
    source: z.enum(["user", "learned"]),
  }),
);

export const CustomContextStatusChanged = defineEvent(
  "CustomContextStatusChanged",
  1,
  z.object({ id: z.string().uuid(), status: customContextStatus, previousStatus: customContextStatus }),
);

export const CustomContextUpdated = defineEvent(
  "CustomContextUpdated",
  1,
  z.object({
    id: z.string().uuid(),
    body: customContextBody.optional(),
    scopes: ScopeSchema.optional(),
    metadata: storedMetadata.optional(),
  }),
);

/** Human comments across pull requests repeat a point: the evidence behind a SUGGESTED pattern. */
export const SuggestedPatternLearned = defineEvent(
  "SuggestedPatternLearned",
  1,
  z.object({
    id: z.string().uuid(),
    body: customContextBody,
    evidenceCount: z.number().int().nonnegative(),
    comments: z
      .array(
        z.object({
          id: z.string().max(200),
          prKey: z.string().max(1000),
          prNumber: z.number().int().nonnegative(),
          repository: z.string().max(300),
          remote: z.string().max(20),
          authorLogin: z.string().max(300),
          filePath: z.string().max(4096).nullable(),
          body: z.string().max(2000),
          createdAt: z.string(),
        }),
      )
      .max(2000),
  }),
);

export const customContextEvents = [CustomContextCreated, CustomContextStatusChanged, CustomContextUpdated, SuggestedPatternLearned];

export type CustomContextEvent =
  | EventOf<typeof CustomContextCreated>
  | EventOf<typeof CustomContextStatusChanged>
  | EventOf<typeof CustomContextUpdated>
  | EventOf<typeof SuggestedPatternLearned>;
export type CustomContextDecidedEvent =
  | DecidedEventOf<typeof CustomContextCreated>
  | DecidedEventOf<typeof CustomContextStatusChanged>
  | DecidedEventOf<typeof CustomContextUpdated>;
