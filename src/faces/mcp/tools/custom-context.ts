/** list_custom_context, get_custom_context, search_custom_context, create_custom_context (interface.md 4.2). */
import { z } from "zod";
import {
  customContextBase,
  customContextDetail,
  customContextListItem,
  customContextStatus,
  customContextType,
  defineTool,
  limit,
  offset,
  commandContextOf,
} from "./common.ts";
import { ScopeSchema } from "../../../review/scope.ts";
import { CUSTOM_CONTEXT_LIMITS, customContextBody, customContextMetadata } from "../../../features/custom-context/events.ts";

export const LIST_CUSTOM_CONTEXT_LIMIT = { default: 20, max: 100 } as const;
export const SEARCH_CUSTOM_CONTEXT_LIMIT = { default: 10, max: 50 } as const;

export const listCustomContextInput = z.strictObject({
  type: customContextType.optional().describe("CUSTOM_INSTRUCTION or PATTERN"),
  greptileGenerated: z.boolean().optional().describe("true: only service-learned context; false: only context created by users"),
  limit: limit(LIST_CUSTOM_CONTEXT_LIMIT.default, LIST_CUSTOM_CONTEXT_LIMIT.max),
  offset,
});
export const listCustomContextOutput = z.object({ customContexts: z.array(customContextListItem), total: z.number().int().min(0) });

export const listCustomContext = defineTool({
  name: "list_custom_context",
  title: "List custom context",
  description:
    "Your organisation's custom context: coding patterns and custom review instructions with their status " +
    "(ACTIVE, INACTIVE, SUGGESTED) and scopes. Filter by type and by source (greptileGenerated). limit default 20, max 100.",
  input: listCustomContextInput,
  output: listCustomContextOutput,
  readOnly: true,
  run: async (args, ctx) => ctx.services.customContext.list(ctx.principal.orgId, args),
});

export const getCustomContextInput = z.strictObject({ customContextId: z.uuid().describe("Custom context id (UUID)") });
export const getCustomContextOutput = z.object({ customContext: customContextDetail });

export const getCustomContext = defineTool({
  name: "get_custom_context",
  title: "Get custom context",
  description: "One custom context entry with its scopes, metadata and the review comments linked to it as evidence.",
  input: getCustomContextInput,
  output: getCustomContextOutput,
  readOnly: true,
  run: async (args, ctx) => ctx.services.customContext.get(ctx.principal.orgId, args.customContextId),
});

export const searchCustomContextInput = z.strictObject({
  query: z.string().min(1).max(1000).describe("Text to search for in custom context"),
  limit: limit(SEARCH_CUSTOM_CONTEXT_LIMIT.default, SEARCH_CUSTOM_CONTEXT_LIMIT.max),
});
export const searchCustomContextOutput = z.object({ customContexts: z.array(customContextListItem), query: z.string(), total: z.number().int().min(0) });

export const searchCustomContext = defineTool({
  name: "search_custom_context",
  title: "Search custom context",
  description: "Search your organisation's custom context (patterns and instructions), best match first. limit default 10, max 50.",
  input: searchCustomContextInput,
  output: searchCustomContextOutput,
  readOnly: true,
  run: async (args, ctx) => ctx.services.customContext.search(ctx.principal.orgId, args),
});

export const createCustomContextInput = z.strictObject({
  body: customContextBody.optional().describe("The pattern or instruction text"),
  type: customContextType.optional().describe("CUSTOM_INSTRUCTION (default) or PATTERN"),
  status: customContextStatus.optional().describe("ACTIVE (default), INACTIVE or SUGGESTED"),
  scopes: ScopeSchema.optional().describe(
    'Where it applies: {} everywhere (default); {"AND":[conditions]} or {"OR":[conditions]}; a condition is ' +
      '{"field":"filepath"|"repository","operator":"MATCHES"|"NOT_MATCHES"|"EQUALS"|"NOT_EQUALS","value":"<glob or text>"}',
  ),
  metadata: customContextMetadata
    .optional()
    .describe(`Free-form data, e.g. {subtype, includeUris}: an object nesting at most ${CUSTOM_CONTEXT_LIMITS.metadataDepth} levels, at most ${CUSTOM_CONTEXT_LIMITS.metadataCharacters} characters as JSON`),
});
export const createCustomContextOutput = z.object({
  customContext: customContextBase,
  /** Additive: why the pattern can never match a change without a chat model (absent when it can). */
  warning: z.string().optional(),
});

export const createCustomContext = defineTool({
  name: "create_custom_context",
  title: "Create custom context",
  description:
    "Record a coding pattern or custom review instruction for your organisation. There is no delete: " +
    "disable an entry by creating it with (or changing it to) status INACTIVE. A PATTERN whose body holds no code to " +
    "match (put it in backticks, or write a /regex/) is answered with a warning.",
  input: createCustomContextInput,
  output: createCustomContextOutput,
  readOnly: false,
  run: (args, ctx) => ctx.services.customContext.create(ctx.principal.orgId, args, commandContextOf(ctx)),
});
