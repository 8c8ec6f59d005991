/**
 * POST /v2/search (references only), POST /v2/query (answer + references), GET /v2/query/{sessionId}:
 * parse the request, resolve its repositories and search or answer through the code search and query
 * session services (src/features/code-search, src/features/query-sessions), shape the response.
 *
 * - Repositories the caller may not search: 404 naming them (unknown or unreadable, the same answer),
 *   409 when none has finished its first index, 502 when the host cannot be asked.
 * - Sessions: `sessionId` (new ulid when absent) is returned in the `x-session-id` header.
 * - `stream: true`: NDJSON lines `{type: "status"|"message"|"sources", message}` ending with
 *   `{"type":"status","message":""}`; Server-Sent Events (`data: <json>`) when the client sends
 *   `Accept: text/event-stream`.
 * - Notes (partial coverage) also travel in the `x-loupe-notes` header (search) or the answer (query).
 */
import type { Context, Hono } from "hono";
import { z } from "zod";
import { ulid } from "../../../ids.ts";
import { commandContext, type AppEnv } from "../env.ts";
import type { Services } from "../../../services.ts";
import { HttpError } from "../errors.ts";
import { readJson } from "../validate.ts";
import { describeRoute } from "../route-docs.ts";
import type { Remote } from "../../../hosts/index.ts";
import { hostTokenFor } from "../../../features/code-search/permissions.ts";
import { SearchRefusal, type RepositoryReference, type Resolution } from "../../../features/code-search/service.ts";
import type { Emit } from "../../../features/query-sessions/service.ts";
import {
  checkRepositoryReference,
  MAX_QUERY_CHARS,
  MAX_REPOSITORIES,
  queryText,
  referenceBranch,
  referenceRemote,
  referenceRepository,
  repositoriesMessage,
  searchLimit,
  sessionIdText,
} from "../../../features/code-search/request.ts";

const remoteSchema = z.preprocess((v) => (typeof v === "string" ? v.trim().toLowerCase() : v), referenceRemote);
/**
 * Checked by the rules git names obey (src/git/names.ts), so a bad reference is a 400 before any host is
 * asked. `{ remote: "local", repository: "<name>" }` names a repository indexed by path; the MCP tools
 * share these pieces (src/features/code-search/request.ts).
 */
const repositoryRef = z
  .object({
    remote: remoteSchema,
    repository: referenceRepository,
    branch: referenceBranch.nullish().transform((v) => (v ? v : undefined)),
  })
  .superRefine(checkRepositoryReference);
const repositories = z
  .array(repositoryRef, { error: repositoriesMessage })
  .min(1, "name at least one repository")
  .max(MAX_REPOSITORIES, `at most ${MAX_REPOSITORIES} repositories per request`);
const sessionId = sessionIdText.optional();

export const searchBody = z.object({
  query: queryText,
  repositories,
  sessionId,
  stream: z.boolean({ error: "must be a boolean" }).optional(),
  genius: z.boolean({ error: "must be a boolean" }).optional(),
  limit: searchLimit.optional(),
});

export const queryBody = z.object({
  messages: z
    .array(
      z.object({
        id: z.union([z.string(), z.number()]).optional(),
        content: z.string({ error: "must be a string" }).max(MAX_QUERY_CHARS, `must be at most ${MAX_QUERY_CHARS} characters`),
        role: z.enum(["user", "assistant", "system"], { error: "must be user, assistant or system" }),
      }),
      { error: "must be an array of { role, content }" },
    )
    .min(1, "send at least one message")
    .max(200)
    .refine((ms) => ms.some((m) => m.role === "user" && m.content.trim().length > 0), "needs a non-empty user message"),
  repositories,
  sessionId,
  stream: z.boolean({ error: "must be a boolean" }).optional(),
  genius: z.boolean({ error: "must be a boolean" }).optional(),
});

const source = z
  .object({
    repository: z.string(),
    remote: z.string(),
    branch: z.string(),
    filepath: z.string(),
    linestart: z.number().int().nullable(),
    lineend: z.number().int().nullable(),
    summary: z.string(),
    distance: z.number().nullable().describe("1 - score / best score of this query: 0 = best match, in [0, 1]"),
  })
  .meta({ id: "SearchResult" });

const REFUSAL_STATUS = { not_found: [404, "repository_not_found"], not_ready: [409, "repository_not_ready"], host_unavailable: [502, "host_unavailable"] } as const;

export function searchRoutes(app: Hono<AppEnv>, services: Services) {
  const { codeSearch, querySessions } = services;

  /** The request's repositories as the caller may search them; a refusal becomes its HTTP error. */
  async function resolve(c: Context<AppEnv>, refs: RepositoryReference[]): Promise<Resolution> {
    try {
      return await codeSearch.resolve(c.get("principal").orgId, refs, (remote: Remote) => hostTokenFor((n) => c.req.header(n), remote));
    } catch (error) {
      if (!(error instanceof SearchRefusal)) throw error;
      const [status, code] = REFUSAL_STATUS[error.kind];
      throw new HttpError(status, code, error.message, error.details ?? undefined);
    }
  }

  describeRoute(app, {
    method: "post",
    path: "/v2/search",
    summary: "Natural-language search over indexed repositories: references only",
    description:
      "Returns files best first, one item per file with its most relevant line range. `distance` = 1 - score / best score " +
      "(0 for the best match, not comparable across queries; lexical and structural evidence only when no embedder is set). " +
      "The session id (sent or new) is returned in `x-session-id`. With `stream: true`: NDJSON (or SSE with Accept: text/event-stream) " +
      "lines {type: status|sources, message}, ending with {type: status, message: \"\"}.",
    tags: ["search"],
    hostToken: true,
    body: searchBody,
    responses: {
      200: { description: "Results, best first", schema: z.array(source) },
      400: { description: "Invalid request (empty query, no repositories, wrong types)" },
      404: { description: "A repository is not indexed, or the host token cannot read it (same answer)" },
      409: { description: "No repository of the request has finished its first index" },
      413: { description: "Body too large" },
    },
  });
  describeRoute(app, {
    method: "post",
    path: "/v2/query",
    summary: "Ask a question about indexed repositories: an answer (markdown) plus references",
    description:
      "The answer comes from the configured chat model grounded in retrieved code, or, with none configured, is an extractive " +
      "summary of the top references. `genius: true` searches deeper. Follow-ups with the same `sessionId` use the earlier turns. " +
      "Streaming as for /v2/search, with {type: message} text deltas.",
    tags: ["search"],
    hostToken: true,
    body: queryBody,
    responses: {
      200: { description: "Answer and sources", schema: z.object({ message: z.string(), sources: z.array(source), sessionId: z.string() }) },
      400: { description: "Invalid request" },
      404: { description: "A repository is not indexed, or the host token cannot read it (same answer)" },
      409: { description: "No repository of the request has finished its first index" },
    },
  });
  describeRoute(app, {
    method: "get",
    path: "/v2/query/:sessionId",
    summary: "The turns (questions and answers) of a query session of the caller's organisation",
    description:
      "Turns oldest first, each with its answer's sources. A search turn records where its sources point; their `summary` is " +
      "read from the code index when the session is read (the file as its branch is indexed now, \"\" once it is gone).",
    tags: ["search"],
    params: { sessionId: "Session id (x-session-id of a search or query response)" },
    responses: { 200: { description: "The session" }, 404: { description: "No such session in this organisation" } },
  });

  app.post("/v2/search", async (c) => {
    const body = await readJson(c, searchBody);
    const ctx = commandContext(c.var);
    const resolution = await resolve(c, body.repositories);
    const input = { query: body.query, sessionId: body.sessionId, genius: body.genius, limit: body.limit };
    if (!body.stream) {
      const { sessionId, sources } = await querySessions.search(ctx, resolution, input);
      c.header("x-session-id", sessionId);
      if (resolution.notes.length) c.header("x-loupe-notes", headerSafe(resolution.notes.join(" | ")));
      return c.json(sources);
    }
    const sid = body.sessionId ?? ulid();
    return streamResponse(c, sid, (emit) => querySessions.search(ctx, resolution, { ...input, newSessionId: sid }, emit));
  });

  app.post("/v2/query", async (c) => {
    const body = await readJson(c, queryBody);
    const ctx = commandContext(c.var);
    const resolution = await resolve(c, body.repositories);
    const input = { messages: body.messages, sessionId: body.sessionId, genius: body.genius };
    if (!body.stream) {
      const { sessionId, message, sources } = await querySessions.ask(ctx, resolution, input);
      c.header("x-session-id", sessionId);
      return c.json({ message, sources, sessionId });
    }
    const sid = body.sessionId ?? ulid();
    return streamResponse(c, sid, (emit) => querySessions.ask(ctx, resolution, { ...input, newSessionId: sid, signal: c.req.raw.signal }, emit));
  });

  app.get("/v2/query/:sessionId", async (c) => {
    const sid = c.req.param("sessionId");
    const session = await querySessions.get(c.get("principal").orgId, sid);
    if (!session) throw new HttpError(404, "not_found", `Query session ${sid} not found`);
    return c.json(session);
  });
}

const headerSafe = (s: string) => s.replace(/[^\x20-\x7e]/g, "?").slice(0, 2000);

/** NDJSON (default) or SSE (Accept: text/event-stream); always ends with {"type":"status","message":""}. */
function streamResponse(c: Context<AppEnv>, sid: string, produce: (emit: Emit) => Promise<unknown>): Response {
  const sse = (c.req.header("accept") ?? "").includes("text/event-stream");
  const encoder = new TextEncoder();
  const logger = c.get("logger");
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      let open = true;
      const emit: Emit = (line) => {
        if (!open) return;
        const json = JSON.stringify(line);
        try {
          controller.enqueue(encoder.encode(sse ? `data: ${json}\n\n` : `${json}\n`));
        } catch {
          open = false; // the client went away
        }
      };
      try {
        await produce(emit);
      } catch (error) {
        logger.error({ err: { message: (error as Error).message } }, "streamed search failed");
        emit({ type: "status", message: "error: the request failed while streaming" });
      }
      emit({ type: "status", message: "" });
      if (open) controller.close();
    },
  });
  return new Response(body, {
    status: 200,
    headers: {
      "content-type": sse ? "text/event-stream; charset=utf-8" : "application/x-ndjson; charset=utf-8",
      "cache-control": "no-cache",
      "x-session-id": sid,
      "x-request-id": c.get("requestId"),
    },
  });
}
