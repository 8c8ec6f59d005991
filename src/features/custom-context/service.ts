/**
 * Custom context (interface.md 2.6, tools list/get/search/create_custom_context): commands through
 * the decider, reads from the `custom-context` read model, and learning of SUGGESTED patterns from
 * human review comments that repeat a point across pull requests (src/review/learned-patterns.ts).
 */
import { randomUUID } from "node:crypto";
import type { EventStore } from "../../eventstore/port.ts";
import type { ReadStore } from "../../readstore/port.ts";
import type { ProjectionRunner } from "../../../projections/runner.ts";
import { newEvent, type CommandContext } from "../../eventstore/new-event.ts";
import { DomainError, handleCommand } from "../../eventstore/decider.ts";
import { bodyLimitProblem, customContextMetadata } from "./events.ts";
import { customContextDecider, type CustomContextStatus, type CustomContextType } from "./decider.ts";
import { customContextCounts, type CustomContextRecord, type LinkedComment } from "./projection.ts";
import type { CommentRecord } from "../review-comments/projection.ts";
import { ScopeSchema, scopeNestingProblem, type Scope } from "../../review/scope.ts";
import { patternCostProblem, patternWarning, type CustomContextLike } from "../../review/patterns.ts";

export { patternWarning };
import { learnPatterns } from "../../review/learned-patterns.ts";
import { customContextStream } from "./decider.ts";
import { uuidFrom } from "../../ids.ts";
import { clampLimit, lexicalScore } from "../../readstore/listing.ts";

export const LIST_CUSTOM_CONTEXT = { defaultLimit: 20, maxLimit: 100 } as const;
export const SEARCH_CUSTOM_CONTEXT = { defaultLimit: 10, maxLimit: 50 } as const;

const TYPES = ["CUSTOM_INSTRUCTION", "PATTERN"] as const;
const STATUSES = ["ACTIVE", "INACTIVE", "SUGGESTED"] as const;

export type CustomContextListItem = {
  id: string;
  type: CustomContextType;
  body: string;
  status: CustomContextStatus;
  scopes: Record<string, unknown>;
  metadata: Record<string, unknown>;
  evidenceCount: number;
  commentsCount: number;
  createdAt: string;
  /** True for patterns the service suggested (learned from comments). */
  greptileGenerated: boolean;
};

export type CustomContextDetail = CustomContextListItem & { linkedComments: LinkedComment[] };

export type CreateCustomContextInput = {
  body?: string;
  type?: string;
  status?: string;
  scopes?: unknown;
  metadata?: Record<string, unknown>;
};

function parseScopes(scopes: unknown): Scope {
  if (scopes === undefined || scopes === null) return {};
  // Before the recursive schema: a scope nested thousands of levels deep would overflow the stack there.
  const nesting = scopeNestingProblem(scopes);
  if (nesting) throw new DomainError("invalid", `Invalid scopes: ${nesting}`, "scopes");
  const parsed = ScopeSchema.safeParse(scopes);
  if (!parsed.success) {
    throw new DomainError("invalid", `Invalid scopes: ${parsed.error.issues.map((i) => `${i.path.join(".") || "(scopes)"}: ${i.message}`).join("; ")}`, "scopes");
  }
  return parsed.data;
}

function enumValue<T extends string>(value: string | undefined, allowed: readonly T[], field: string, fallback: T): T {
  if (value === undefined) return fallback;
  const upper = value.toUpperCase() as T;
  if (!allowed.includes(upper)) throw new DomainError("invalid", `${field} must be one of ${allowed.join(", ")}`, field);
  return upper;
}

/** `metadata` within its limits (an object, depth and size: events.ts), or invalid input naming it. */
function parseMetadata(metadata: unknown): Record<string, unknown> {
  const parsed = customContextMetadata.safeParse(metadata);
  if (!parsed.success) throw new DomainError("invalid", `metadata: ${parsed.error.issues[0]?.code === "invalid_type" ? "must be an object" : parsed.error.issues[0]?.message}`, "metadata");
  return parsed.data;
}

/**
 * Refuses, as invalid input and before anything is decided or appended, a body over the limit, or a
 * PATTERN body with a regex that would cost more than the review engine's budget per line.
 */
function checkBody(body: string | undefined, type: string) {
  const problem = body === undefined ? null : (bodyLimitProblem(body) ?? patternCostProblem(type, body));
  if (problem) throw new DomainError("invalid", problem, "body");
}

/** A custom context as the faces list it (interface.md 2.6). */
export const customContextListItem = (r: CustomContextRecord): CustomContextListItem => ({
  id: r.id,
  type: r.type,
  body: r.body,
  status: r.status,
  scopes: r.scopes,
  metadata: r.metadata,
  ...customContextCounts(r),
  createdAt: r.createdAt,
  greptileGenerated: r.source === "learned",
});

export function createCustomContextService({ eventStore, readStore, runner }: { eventStore: EventStore; readStore: ReadStore; runner: ProjectionRunner }) {
  const view = () => readStore.view("custom-context");
  const settle = async (position: number | null) => {
    if (position !== null) await runner.waitForPosition(position, 10_000);
  };
  const records = (orgId: string) => view().range<CustomContextRecord>(["ctx", orgId]).map((e) => e.value);
  const record = (orgId: string, id: string) => view().get<CustomContextRecord>(["ctx", orgId, id]);

  const detail = (r: CustomContextRecord): CustomContextDetail => ({ ...customContextListItem(r), linkedComments: r.linkedComments });
  const newestFirst = (a: CustomContextRecord, b: CustomContextRecord) => (a.createdAt > b.createdAt ? -1 : a.createdAt < b.createdAt ? 1 : a.id < b.id ? -1 : 1);

  let learning: Promise<unknown> = Promise.resolve();

  const service = {
    /** list_custom_context. Newest first. */
    list(orgId: string, input: { type?: string; greptileGenerated?: boolean; status?: string; limit?: number; offset?: number } = {}) {
      const type = input.type === undefined ? undefined : enumValue(input.type, TYPES, "type", "CUSTOM_INSTRUCTION");
      const status = input.status === undefined ? undefined : enumValue(input.status, STATUSES, "status", "ACTIVE");
      const all = records(orgId)
        .filter((r) => type === undefined || r.type === type)
        .filter((r) => status === undefined || r.status === status)
        .filter((r) => input.greptileGenerated === undefined || (r.source === "learned") === input.greptileGenerated)
        .sort(newestFirst);
      const limit = clampLimit(input.limit, LIST_CUSTOM_CONTEXT);
      const offset = Math.max(0, Math.floor(input.offset ?? 0));
      return { customContexts: all.slice(offset, offset + limit).map(customContextListItem), total: all.length };
    },

    /** get_custom_context. */
    get(orgId: string, customContextId: string): { customContext: CustomContextDetail } {
      const r = record(orgId, customContextId);
      if (!r) throw new DomainError("not_found", `Custom context ${customContextId} not found`);
      return { customContext: detail(r) };
    },

    /** search_custom_context: lexical over body, type and metadata. */
    search(orgId: string, input: { query: string; limit?: number }) {
      const query = input.query.trim();
      if (query === "") throw new DomainError("invalid", "query must not be empty", "query");
      const matches = records(orgId)
        .map((r) => ({ r, score: lexicalScore(query, r.body, r.type, JSON.stringify(r.metadata)) }))
        .filter((m) => m.score > 0)
        .sort((a, b) => b.score - a.score || newestFirst(a.r, b.r));
      const limit = clampLimit(input.limit, SEARCH_CUSTOM_CONTEXT);
      return { customContexts: matches.slice(0, limit).map((m) => customContextListItem(m.r)), query, total: matches.length };
    },

    /**
     * create_custom_context. Defaults: CUSTOM_INSTRUCTION, ACTIVE, scopes {}. A PATTERN that can never
     * match a change (no needle, a refused regex) is still created, and the answer carries `warning`;
     * one with a regex over the cost limit is refused (checkBody).
     */
    async create(orgId: string, input: CreateCustomContextInput, context: CommandContext) {
      const id = randomUUID();
      const contextType = enumValue(input.type, TYPES, "type", "CUSTOM_INSTRUCTION");
      checkBody(input.body, contextType);
      const metadata = parseMetadata(input.metadata ?? {});
      const { lastPosition } = await handleCommand(
        eventStore,
        customContextStream(orgId, id),
        customContextDecider,
        {
          type: "CreateCustomContext",
          id,
          contextType,
          body: input.body ?? "",
          status: enumValue(input.status, STATUSES, "status", "ACTIVE"),
          scopes: parseScopes(input.scopes),
          metadata,
          source: "user",
        },
        { ...context, orgId },
      );
      await settle(lastPosition);
      const r = record(orgId, id)!;
      const warning = patternWarning(r.type, r.body);
      return {
        customContext: { id: r.id, type: r.type, body: r.body, scopes: r.scopes, status: r.status, metadata: r.metadata, createdAt: r.createdAt },
        // Additive to interface.md 4.2: present when the context can never match a change offline.
        ...(warning ? { warning } : {}),
      };
    },

    /** Status change (the way to disable a pattern: INACTIVE; there is no delete). */
    async setStatus(orgId: string, customContextId: string, status: string, context: CommandContext) {
      if (!record(orgId, customContextId)) throw new DomainError("not_found", `Custom context ${customContextId} not found`);
      const { lastPosition } = await handleCommand(
        eventStore,
        customContextStream(orgId, customContextId),
        customContextDecider,
        { type: "ChangeCustomContextStatus", id: customContextId, status: enumValue(status, STATUSES, "status", "ACTIVE") },
        { ...context, orgId },
      );
      await settle(lastPosition);
      return service.get(orgId, customContextId);
    },

    async update(orgId: string, customContextId: string, input: { body?: string; scopes?: unknown; metadata?: Record<string, unknown> }, context: CommandContext) {
      const existing = record(orgId, customContextId);
      if (!existing) throw new DomainError("not_found", `Custom context ${customContextId} not found`);
      checkBody(input.body, existing.type);
      const { lastPosition } = await handleCommand(
        eventStore,
        customContextStream(orgId, customContextId),
        customContextDecider,
        {
          type: "UpdateCustomContext",
          id: customContextId,
          ...(input.body !== undefined ? { body: input.body } : {}),
          ...(input.scopes !== undefined ? { scopes: parseScopes(input.scopes) } : {}),
          ...(input.metadata !== undefined ? { metadata: parseMetadata(input.metadata) } : {}),
        },
        { ...context, orgId },
      );
      await settle(lastPosition);
      return service.get(orgId, customContextId);
    },

    /** ACTIVE custom context of the organisation, in the shape the review core consumes. */
    activeContexts(orgId: string): CustomContextLike[] {
      return records(orgId)
        .filter((r) => r.status === "ACTIVE")
        .map((r) => ({ id: r.id, type: r.type, body: r.body, status: r.status, scopes: r.scopes as CustomContextLike["scopes"], metadata: r.metadata }));
    },

    /**
     * Learns SUGGESTED patterns from the organisation's human review comments. A learned group that
     * shares a comment with an existing suggestion updates it; otherwise a new SUGGESTED PATTERN
     * appears. Serialised per process; returns the ids created or updated.
     */
    learn(orgId: string, context: CommandContext): Promise<string[]> {
      const run = learning.catch(() => undefined).then(() => learnNow(orgId, context));
      learning = run;
      return run;
    },
  };

  async function learnNow(orgId: string, context: CommandContext): Promise<string[]> {
    const human = readStore
      .view("review-comments")
      .range<CommentRecord>(["comment", orgId])
      .map((e) => e.value)
      .filter((c) => !c.isGreptileComment && c.kind === "human");
    if (human.length < 2) return [];
    // learnPatterns counts distinct pull requests by number: number them uniquely across repositories.
    const prIndex = new Map([...new Set(human.map((c) => c.prKey))].sort().map((k, i) => [k, i + 1]));
    const byId = new Map(human.map((c) => [c.id, c]));
    const learned = learnPatterns(human.map((c) => ({ id: c.id, prNumber: prIndex.get(c.prKey)!, body: c.body, path: c.filePath })));
    const suggestions = records(orgId).filter((r) => r.source === "learned");
    const touched: string[] = [];
    let last: number | null = null;
    for (const pattern of learned) {
      const ids = new Set(pattern.commentIds);
      const match = suggestions.find((s) => s.linkedComments.some((l) => l.relation === "evidence" && ids.has(l.id)));
      const evidence = pattern.commentIds.map((id) => byId.get(id)!).map((c) => ({
        id: c.id,
        prKey: c.prKey,
        prNumber: c.prNumber,
        repository: c.repository.name,
        remote: c.repository.remote,
        authorLogin: c.authorLogin,
        filePath: c.filePath,
        body: c.body.slice(0, 2000),
        createdAt: c.createdAt,
      }));
      const ctx = { ...context, orgId };
      if (match) {
        const known = match.linkedComments.filter((l) => l.relation === "evidence").map((l) => l.id).sort().join(",");
        if (known === [...ids].sort().join(",")) continue;
        const r = await eventStore.appendToStream(customContextStream(orgId, match.id), [
          newEvent("SuggestedPatternLearned", { id: match.id, body: pattern.body, evidenceCount: pattern.evidenceCount, comments: evidence }, ctx),
        ]);
        last = r.lastPosition;
        touched.push(match.id);
      } else {
        const id = uuidFrom(`learned\0${orgId}\0${[...ids].sort()[0]}`);
        const created = await handleCommand(
          eventStore,
          customContextStream(orgId, id),
          customContextDecider,
          {
            type: "CreateCustomContext",
            id,
            // Prose with no code to match is an instruction (the model weighs it; offline, summaries list it
            // for a human), not a PATTERN that could never match.
            contextType: patternWarning("PATTERN", pattern.body) === null ? "PATTERN" : "CUSTOM_INSTRUCTION",
            body: pattern.body,
            status: "SUGGESTED",
            scopes: {},
            metadata: { subtype: "learned_from_comments", ...(pattern.paths.length > 0 ? { includeUris: pattern.paths } : {}) },
            source: "learned",
          },
          ctx,
        ).catch((error: unknown) => {
          if (error instanceof DomainError && error.code === "conflict") return null; // learned before
          throw error;
        });
        if (!created) continue;
        const r = await eventStore.appendToStream(customContextStream(orgId, id), [
          newEvent("SuggestedPatternLearned", { id, body: pattern.body, evidenceCount: pattern.evidenceCount, comments: evidence }, ctx),
        ]);
        last = r.lastPosition;
        touched.push(id);
      }
    }
    await settle(last);
    return touched;
  }

  return service;
}

export type CustomContextService = ReturnType<typeof createCustomContextService>;
