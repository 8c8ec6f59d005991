/**
 * POST /v2/search (references only), POST /v2/query (answer + references), GET /v2/query/{sessionId}.
 *
 * - Repositories: `{ remote, repository, branch? }`; branch omitted = the default branch that was
 *   indexed. Each must be readable with the request's host token (src/features/code-search/permissions.ts) AND
 *   indexed for the caller's organisation; otherwise the request fails with 404 naming it, with the
 *   same message whether it is unknown or unreadable. A repository whose first index is still running
 *   (or failed) gives 409, unless other repositories of the request are usable: then the answer covers
 *   what is indexed and carries a note. A repository being RE-indexed is searched at its last index.
 * - Sessions: `sessionId` (new ulid when absent) is returned in the `x-session-id` header; each
 *   question and answer is recorded (src/features/query-sessions/events.ts). Follow-ups in a session use the
 *   earlier questions as retrieval context and the earlier turns as chat history.
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
import { codeIndexRepoId, repositoryId } from "../../../indexing/repo-id.ts";
import { createHosts, type Remote } from "../../../hosts/index.ts";
import { createModelsFromEnv } from "../../../models/config.ts";
import type { ChatMessage, ChatModel } from "../../../models/chat.ts";
import { fileSummaryOf, type SearchHitFile, type SearchTarget } from "../../../retrieval/search.ts";
import { createAccessChecker, hostTokenFor } from "../../../features/code-search/permissions.ts";
import { chatRequest, extractiveAnswer, type AnswerSource } from "../../../retrieval/answer.ts";
import { newEvent, type CommandContext } from "../../../eventstore/new-event.ts";
import { querySessionQueries, type QueryReference, type QuerySource, type QueryTurn } from "../../../features/query-sessions/projection.ts";
import type { RepositoryView } from "../../../features/repositories/indexer.ts";

const MAX_QUERY_CHARS = 100_000;


const remoteSchema = z.preprocess(
  (v) => (typeof v === "string" ? v.trim().toLowerCase() : v),
  z.enum(["github", "gitlab", "bitbucket", "azure"], { error: "must be one of github, gitlab, bitbucket, azure" }),
);
const repositoryRef = z.object({
  remote: remoteSchema,
  repository: z
    .string({ error: "must be a string of the form owner/repo" })
    .trim()
    .min(1, "must not be empty")
    .max(300)
    .regex(/^[^/\s]+(\/[^/\s]+)+$/, "must be of the form owner/repo"),
  branch: z.string({ error: "must be a string" }).trim().max(255).nullish().transform((v) => (v ? v : undefined)),
});
const repositories = z
  .array(repositoryRef, { error: "must be an array of { remote, repository, branch? }" })
  .min(1, "name at least one repository")
  .max(20, "at most 20 repositories per request");
const sessionId = z
  .string({ error: "must be a string" })
  .trim()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9._:-]+$/, "may contain letters, digits and . _ : - only")
  .optional();
const queryText = z
  .string({ error: "must be a string" })
  .max(MAX_QUERY_CHARS, `must be at most ${MAX_QUERY_CHARS} characters`)
  .refine((v) => v.trim().length > 0, "must not be empty");

export const searchBody = z.object({
  query: queryText,
  repositories,
  sessionId,
  stream: z.boolean({ error: "must be a boolean" }).optional(),
  genius: z.boolean({ error: "must be a boolean" }).optional(),
  limit: z.number().int().min(1).max(100).optional(),
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

type ResolvedRepo = { record: RepositoryView; target: SearchTarget };
/** A session event as the routes record it (QuerySessionSearched is at v2). */
type SessionEvent = { type: string; schemaVersion?: number; data: Record<string, unknown> };

/** What a search turn records of a result: where it points (the summary stays in the code index). */
const referenceOf = ({ summary: _summary, ...reference }: QuerySource): QueryReference => reference;
/** A recorded reference with a summary, in the wire's field order. */
const withSummary = ({ summary: _recorded, distance, ...where }: QueryReference, summary: string): QuerySource => ({ ...where, summary, distance });
type Resolution = { repos: ResolvedRepo[]; notes: string[] };

const refText = (r: { remote: string; repository: string; branch?: string | undefined }) => `${r.remote}:${r.branch ?? "(default branch)"}:${r.repository}`;

export function searchRoutes(app: Hono<AppEnv>, services: Services) {
  const { config, indexer, eventStore, runner, readStore, logger } = services;
  const models = createModelsFromEnv(config.env);
  const chat: ChatModel | null = models.chat;
  const { searcher } = services;
  const hosts = createHosts({
    github: { apiBase: config.hostApiUrls.github },
    gitlab: { apiBase: config.hostApiUrls.gitlab },
    bitbucket: { apiBase: config.hostApiUrls.bitbucket },
    azure: { apiBase: config.hostApiUrls.azure },
  });
  const access = createAccessChecker({
    hosts, hostUrls: config.hostUrls, fileHostsNeedToken: config.fileHostsNeedToken,
    cloneUrlFor: services.localRepositories?.cloneUrlFor, // local repositories (LOUPE_LOCAL_ROOTS)
  });
  const sessions = querySessionQueries(() => readStore.view("query-sessions"));

  /** Permission first (so an unreadable repository looks exactly like an unknown one), then the index. */
  async function resolve(c: Context<AppEnv>, refs: z.infer<typeof repositoryRef>[]): Promise<Resolution> {
    const orgId = c.get("principal").orgId;
    const notFound: string[] = [];
    const notReady: string[] = [];
    const notes: string[] = [];
    const repos: ResolvedRepo[] = [];
    for (const ref of refs) {
      const remote = ref.remote as Remote;
      let readable: boolean;
      try {
        readable = await access.canRead(remote, ref.repository, hostTokenFor((n) => c.req.header(n), remote));
      } catch {
        throw new HttpError(502, "host_unavailable", `Could not verify read access with ${remote}; try again later`);
      }
      const record = readable ? findRecord(orgId, remote, ref.repository, ref.branch) : undefined;
      if (!record) {
        notFound.push(refText(ref));
        continue;
      }
      const name = repositoryId(record.remote, record.branch, record.repository);
      if (!record.sha) {
        notReady.push(
          record.status === "failed"
            ? `${name} failed to index (${record.failureReason ?? "unknown reason"}); submit it again with POST /v2/repositories`
            : `${name} is still being indexed (${record.status}, ${record.filesProcessed}/${record.numFiles} files)`,
        );
        continue;
      }
      if (record.status !== "completed") {
        notes.push(
          record.status === "failed"
            ? `${name}: the latest re-index failed; answering over the previous index (${record.sha.slice(0, 12)}).`
            : `${name} is being re-indexed (${record.status}); answering over the previous index (${record.sha.slice(0, 12)}).`,
        );
      }
      repos.push({
        record,
        target: { repoId: codeIndexRepoId(orgId, record.remote, record.repository), branch: record.branch, version: record.sha },
      });
    }
    if (notFound.length > 0) {
      throw new HttpError(
        404,
        "repository_not_found",
        `Repository not found: ${notFound.join(", ")}. It is not indexed for this organisation, or your host token cannot read it.`,
        notFound.map((r) => ({ repository: r })),
      );
    }
    if (repos.length === 0) {
      throw new HttpError(409, "repository_not_ready", `Repository not ready: ${notReady.join("; ")}. Poll GET /v2/repositories/{id} until its status is completed.`);
    }
    for (const n of notReady) notes.push(`${n}; it is left out of this answer.`);
    return { repos, notes };
  }

  function findRecord(orgId: string, remote: Remote, repository: string, branch: string | undefined): RepositoryView | undefined {
    if (branch) return indexer.get(orgId, repositoryId(remote, branch, repository));
    const lower = repository.toLowerCase();
    const candidates = indexer.list(orgId).filter((r) => r.remote === remote && r.repository.toLowerCase() === lower);
    const byDefault = candidates.filter((r) => r.requestedBranch === null);
    const pool = byDefault.length > 0 ? byDefault : candidates;
    return pool.sort((a, b) => Number(Boolean(b.sha)) - Number(Boolean(a.sha)) || (b.indexedAt ?? "").localeCompare(a.indexedAt ?? ""))[0];
  }

  /** The repository record a result file came from (a request names at most 20 repositories). */
  const recordOf = (f: SearchHitFile, repos: ResolvedRepo[]): RepositoryView =>
    repos.find((r) => r.target.repoId === f.repoId && r.target.branch === f.branch)!.record;

  function toSources(files: SearchHitFile[], repos: ResolvedRepo[]): AnswerSource[] {
    return files.map((f) => {
      const record = recordOf(f, repos);
      return { ...f, repository: record.repository, remote: record.remote };
    });
  }

  /** The wire form of result files, built directly (the search route needs no chunks). */
  function toWire(files: SearchHitFile[], repos: ResolvedRepo[]): QuerySource[] {
    return files.map((f) => {
      const record = recordOf(f, repos);
      return { repository: record.repository, remote: record.remote, branch: f.branch, filepath: f.path, linestart: f.linestart, lineend: f.lineend, summary: f.summary, distance: f.distance };
    });
  }

  const wire = (s: AnswerSource): QuerySource => ({
    repository: s.repository,
    remote: s.remote,
    branch: s.branch,
    filepath: s.path,
    linestart: s.linestart,
    lineend: s.lineend,
    summary: s.summary,
    distance: s.distance,
  });

  async function record(ctx: CommandContext, sid: string, events: SessionEvent[]) {
    const result = await eventStore.appendToStream(
      `querysession-${ctx.orgId}-${sid}`,
      events.map((e) => newEvent(e.type, { sessionId: sid, ...e.data }, ctx, e.schemaVersion)),
    );
    return result.lastPosition;
  }

  // A response waits for its session events to be durably appended (nothing acknowledged is lost),
  // never for the projection. Until a turn's events are projected it is kept here, so a follow-up in
  // the session (retrieval context, chat history) and GET /v2/query/{sessionId} see it as if it were.
  type PendingSession = { turns: Map<string, QueryTurn>; settled: Set<Promise<void>> };
  const pendingSessions = new Map<string, PendingSession>();
  const sessionKey = (orgId: string, sid: string) => `${orgId}\u0000${sid}`;

  /**
   * Appends a turn's events (in order, one stream); `turn` is what the projection will hold. Resolves
   * once the events are durably appended (or the append failed and was logged).
   */
  function recordTurn(ctx: CommandContext, sid: string, turn: QueryTurn, events: Promise<SessionEvent[]>, after?: Promise<unknown>): Promise<void> {
    const key = sessionKey(ctx.orgId, sid);
    let pending = pendingSessions.get(key);
    if (!pending) pendingSessions.set(key, (pending = { turns: new Map(), settled: new Set() }));
    const p = pending;
    p.turns.set(turn.turnId, turn);
    let markAppended!: () => void;
    const appended = new Promise<void>((resolve) => (markAppended = resolve));
    const done: Promise<void> = (async () => {
      try {
        await after;
        const position = await record(ctx, sid, await events);
        markAppended();
        await runner.waitForPosition(position, 10_000);
      } catch (error) {
        logger.warn({ err: { message: (error as Error).message }, sessionId: sid }, "recording the query session failed");
      } finally {
        markAppended();
      }
    })().finally(() => {
      p.settled.delete(done);
      if (p.turns.get(turn.turnId) === turn) p.turns.delete(turn.turnId);
      if (p.settled.size === 0 && p.turns.size === 0 && pendingSessions.get(key) === p) pendingSessions.delete(key);
    });
    p.settled.add(done);
    return appended;
  }

  /** Waits until every turn of the session recorded so far is readable from the projection. */
  async function sessionSettled(orgId: string, sid: string): Promise<void> {
    const pending = pendingSessions.get(sessionKey(orgId, sid));
    if (pending) await Promise.all([...pending.settled]);
  }

  /** The newest turns of a session: projected ones merged with the ones still being recorded. */
  function recentTurns(orgId: string, sid: string, n: number): QueryTurn[] {
    const projected = sessions.recentTurns(orgId, sid, n);
    const pending = pendingSessions.get(sessionKey(orgId, sid));
    if (!pending || pending.turns.size === 0) return projected;
    const byId = new Map(projected.map((t) => [t.turnId, t]));
    for (const [id, t] of pending.turns) {
      const known = byId.get(id);
      if (!known || (!known.answer && t.answer)) byId.set(id, t);
    }
    return [...byId.values()].sort((a, b) => (a.turnId < b.turnId ? -1 : a.turnId > b.turnId ? 1 : 0)).slice(-n);
  }

  // ------------------------------------------------------------------------------------------
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
    const { repos, notes } = await resolve(c, body.repositories);
    const sid = body.sessionId ?? ulid();
    const turnId = ulid();
    const started = performance.now();
    const earlier = body.sessionId ? sessionContext(ctx.orgId, sid) : { questions: [], history: [] }; // a new session has no turns
    const repositoriesRecorded = repos.map((r) => ({ remote: r.record.remote, repository: r.record.repository, branch: r.record.branch }));
    const asked = { turnId, kind: "search" as const, question: body.query, messages: [], repositories: repositoriesRecorded, genius: body.genius ?? false };
    const turn: QueryTurn = { ...asked, askedAt: new Date().toISOString(), answer: null };
    // One event once the search is done (the question alone if it fails).
    type SearchAnswer = { sources: QuerySource[]; notes: string[]; ms: number };
    let answered!: (answer: SearchAnswer | null) => void;
    const answer = new Promise<SearchAnswer | null>((r) => (answered = r));
    const recorded = recordTurn(
      ctx,
      sid,
      turn,
      answer.then((a) =>
        a
          ? [{ type: "QuerySessionSearched", schemaVersion: 2, data: { turnId, question: asked.question, repositories: asked.repositories, genius: asked.genius, sources: a.sources.map(referenceOf), notes: a.notes, ms: a.ms } }]
          : [{ type: "QuerySessionQuestionAsked", data: asked }],
      ),
    );
    const run = async () => {
      try {
        const outcome = await searcher.search({
          orgId: ctx.orgId,
          targets: repos.map((r) => r.target),
          query: body.query,
          context: earlier.questions.slice(-3),
          genius: body.genius ?? false,
          ...(body.limit ? { limit: body.limit } : {}),
          withChunks: false,
        });
        const sources = toWire(outcome.files, repos);
        const data = { sources: sources.slice(0, 100), notes, ms: Math.round(performance.now() - started) };
        turn.answer = { message: "", sources: data.sources, model: null, notes, ms: data.ms, answeredAt: new Date().toISOString() };
        answered(data);
        return sources;
      } catch (error) {
        answered(null);
        throw error;
      }
    };
    if (!body.stream) {
      const sources = await run();
      await recorded;
      c.header("x-session-id", sid);
      if (notes.length) c.header("x-loupe-notes", headerSafe(notes.join(" | ")));
      return c.json(sources);
    }
    return streamResponse(c, sid, async (emit) => {
      for (const n of notes) emit({ type: "status", message: n });
      emit({ type: "status", message: `Searching ${repos.length} repositor${repos.length === 1 ? "y" : "ies"}` });
      const sources = await run();
      emit({ type: "sources", message: sources });
      await recorded;
    });
  });

  app.post("/v2/query", async (c) => {
    const body = await readJson(c, queryBody);
    const ctx = commandContext(c.var);
    const { repos, notes } = await resolve(c, body.repositories);
    const sid = body.sessionId ?? ulid();
    const turnId = ulid();
    const started = performance.now();
    const earlier = body.sessionId ? sessionContext(ctx.orgId, sid) : { questions: [], history: [] }; // a new session has no turns
    const userMessages = body.messages.filter((m) => m.role === "user" && m.content.trim());
    const question = userMessages[userMessages.length - 1]!.content;
    const contextQuestions = [...earlier.questions, ...userMessages.slice(0, -1).map((m) => m.content)].slice(-3);
    const asked = {
      turnId,
      kind: "query" as const,
      question: question.slice(0, 100_000),
      messages: body.messages.map((m) => ({ role: m.role, content: m.content.slice(0, 100_000) })),
      repositories: repos.map((r) => ({ remote: r.record.remote, repository: r.record.repository, branch: r.record.branch })),
      genius: body.genius ?? false,
    };
    const turn: QueryTurn = { ...asked, askedAt: new Date().toISOString(), answer: null };
    // The question is recorded at once (an answer may take a while), without blocking the answer.
    const askedRecorded = recordTurn(ctx, sid, turn, Promise.resolve([{ type: "QuerySessionQuestionAsked", data: asked }]));

    const retrieve = async () => {
      const outcome = await searcher.search({
        orgId: ctx.orgId,
        targets: repos.map((r) => r.target),
        query: question,
        context: contextQuestions,
        genius: body.genius ?? false,
        limit: body.genius ? 20 : 12,
      });
      return toSources(outcome.files, repos);
    };
    const history: ChatMessage[] = [...earlier.history, ...body.messages.slice(0, -1).filter((m) => m.role !== "system").map((m) => ({ role: m.role as "user" | "assistant", content: m.content }))];
    const systemExtra = body.messages.filter((m) => m.role === "system").map((m) => m.content);
    const finish = async (message: string, sources: AnswerSource[]) => {
      const data = {
        turnId,
        message: message.slice(0, 200_000),
        sources: sources.map(wire).slice(0, 100),
        model: chat?.name ?? null,
        notes,
        ms: Math.round(performance.now() - started),
      };
      const answered: QueryTurn = { ...turn, answer: { message: data.message, sources: data.sources, model: data.model, notes, ms: data.ms, answeredAt: new Date().toISOString() } };
      // After the question's append (same stream, in order); the response waits for the durable append only.
      await recordTurn(ctx, sid, answered, Promise.resolve([{ type: "QuerySessionAnswered", data }]), askedRecorded);
    };

    if (!body.stream) {
      const sources = await retrieve();
      let message: string;
      if (chat) {
        try {
          message = await chat.complete(chatRequest({ chat, history, systemExtra, question, sources, notes }));
          if (notes.length) message = notes.map((n) => `> **Note:** ${n}`).join("\n") + "\n\n" + message;
        } catch (error) {
          logger.warn({ err: { message: (error as Error).message } }, "chat model failed; extractive answer");
          message = extractiveAnswer(question, sources, [...notes, "The language model could not be reached; this answer quotes the code instead."]);
        }
      } else message = extractiveAnswer(question, sources, notes);
      await finish(message, sources);
      c.header("x-session-id", sid);
      return c.json({ message, sources: sources.map(wire), sessionId: sid });
    }
    return streamResponse(c, sid, async (emit) => {
      for (const n of notes) emit({ type: "status", message: n });
      emit({ type: "status", message: `Searching ${repos.length} repositor${repos.length === 1 ? "y" : "ies"}` });
      const sources = await retrieve();
      emit({ type: "status", message: `Found ${sources.length} relevant file${sources.length === 1 ? "" : "s"}` });
      let message = "";
      if (chat) {
        emit({ type: "status", message: "Writing the answer" });
        try {
          if (notes.length) {
            const prefix = notes.map((n) => `> **Note:** ${n}`).join("\n") + "\n\n";
            message += prefix;
            emit({ type: "message", message: prefix });
          }
          for await (const delta of chat.stream(chatRequest({ chat, history, systemExtra, question, sources, notes, signal: c.req.raw.signal }))) {
            message += delta;
            emit({ type: "message", message: delta });
          }
        } catch (error) {
          logger.warn({ err: { message: (error as Error).message } }, "chat model failed while streaming");
          const fallback = "\n\n" + extractiveAnswer(question, sources, ["The language model failed; this answer quotes the code instead."]);
          message += fallback;
          emit({ type: "message", message: fallback });
        }
      } else {
        message = extractiveAnswer(question, sources, notes);
        // Paragraph-sized pieces, so clients render progressively as with a model.
        for (const piece of message.split(/(?<=\n\n)/)) emit({ type: "message", message: piece });
      }
      emit({ type: "sources", message: sources.map(wire) });
      await finish(message, sources);
    });
  });

  app.get("/v2/query/:sessionId", async (c) => {
    const orgId = c.get("principal").orgId;
    const sid = c.req.param("sessionId");
    await sessionSettled(orgId, sid); // turns still being recorded become readable first
    const session = sessions.get(orgId, sid);
    if (!session) throw new HttpError(404, "not_found", `Query session ${sid} not found`);
    return c.json({ ...session, orgId: undefined, turns: await withSummaries(orgId, sessions.turns(orgId, sid)) });
  });

  /**
   * Search turns record references without summaries: they are read here from the code index (the
   * file as its branch is indexed now; "" when it is no longer indexed). Each file is read once.
   */
  async function withSummaries(orgId: string, turns: QueryTurn[]): Promise<QueryTurn[]> {
    const summaries = new Map<string, Promise<string>>();
    const summaryOf = (s: QueryReference): Promise<string> => {
      const key = JSON.stringify([s.remote, s.repository, s.branch, s.filepath]);
      let summary = summaries.get(key);
      if (!summary) {
        summary = services.codeIndex
          .getFileChunks(codeIndexRepoId(orgId, s.remote, s.repository), s.branch, s.filepath)
          .then((chunks) => (chunks[0] ? fileSummaryOf(chunks[0]) : ""));
        summaries.set(key, summary);
      }
      return summary;
    };
    return Promise.all(
      turns.map(async (turn) => {
        if (!turn.answer || turn.answer.sources.every((s) => s.summary !== undefined)) return turn;
        const sources = await Promise.all(
          turn.answer.sources.map(async (s) => withSummary(s, s.summary ?? (await summaryOf(s)))),
        );
        return { ...turn, answer: { ...turn.answer, sources } };
      }),
    );
  }

  function sessionContext(orgId: string, sid: string): { questions: string[]; history: ChatMessage[] } {
    // Only the newest turns matter (3 questions, 6 turns of history): a long session is not read whole.
    const turns: QueryTurn[] = recentTurns(orgId, sid, 6);
    const questions = turns.map((t) => t.question);
    const history: ChatMessage[] = [];
    for (const t of turns.slice(-6)) {
      if (t.kind !== "query" || !t.answer) continue;
      history.push({ role: "user", content: t.question.slice(0, 8000) });
      history.push({ role: "assistant", content: t.answer.message.slice(0, 8000) });
    }
    return { questions, history };
  }
}

const headerSafe = (s: string) => s.replace(/[^\x20-\x7e]/g, "?").slice(0, 2000);

type StreamLine = { type: "status" | "message" | "sources"; message: unknown };

/** NDJSON (default) or SSE (Accept: text/event-stream); always ends with {"type":"status","message":""}. */
function streamResponse(c: Context<AppEnv>, sid: string, produce: (emit: (line: StreamLine) => void) => Promise<void>): Response {
  const sse = (c.req.header("accept") ?? "").includes("text/event-stream");
  const encoder = new TextEncoder();
  const logger = c.get("logger");
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      let open = true;
      const emit = (line: StreamLine) => {
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
