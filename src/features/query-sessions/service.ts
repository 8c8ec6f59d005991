/**
 * Query sessions: searches (references only) and questions (an answer and its sources) over the
 * repositories a request resolved to, each recorded as a turn of a session. The session id is the
 * client's or a new ulid. Follow-ups in a session use the earlier questions as retrieval context and
 * the earlier turns as chat history.
 *
 * Streaming: a caller that passes `emit` gets progress and answer pieces as they come
 * (`{type: "status"|"message"|"sources", message}`); without it the answer is returned whole.
 */
import { ulid } from "../../ids.ts";
import type { CommandContext } from "../../eventstore/new-event.ts";
import type { EventStore } from "../../eventstore/port.ts";
import { DomainError } from "../../eventstore/decider.ts";
import type { ReadStore } from "../../readstore/port.ts";
import type { ProjectionRunner } from "../../../projections/runner.ts";
import type { Logger } from "../../logging.ts";
import type { ChatMessage, ChatModel } from "../../models/chat.ts";
import { chatRequest } from "../../retrieval/answer/chat.ts";
import { extractiveAnswer } from "../../retrieval/answer/extractive.ts";
import { shownRef } from "../../indexing/repo-id.ts";
import type { AnswerSource } from "../../retrieval/answer/spans.ts";
import type { CodeSearchService, Resolution, SearchResult } from "../code-search/service.ts";
import type { SearchHitFile } from "../../retrieval/search.ts";
import type { StackFrame } from "../../retrieval/query-analysis.ts";
import { querySessionDecider, type QuerySessionCommand, type QuerySessionState } from "./decider.ts";
import { querySessionQueries, type QueryReference, type QueryTurn } from "./projection.ts";
import { createTurnRecorder } from "./recorder.ts";

export type StreamLine = { type: "status" | "message" | "sources"; message: unknown };
export type Emit = (line: StreamLine) => void;
export type AskedMessage = { role: "user" | "assistant" | "system"; content: string };

export type QuerySessionDeps = {
  eventStore: EventStore;
  readStore: ReadStore;
  runner: ProjectionRunner;
  logger: Logger;
  codeSearch: CodeSearchService;
  chat: ChatModel | null;
};

/** What a search turn records of a result: where it points (the summary stays in the code index). */
const referenceOf = ({ summary: _summary, ...reference }: SearchResult): QueryReference => reference;
/** A recorded reference with a summary, in the wire's field order. */
const withSummary = ({ summary: _recorded, distance, ...where }: QueryReference, summary: string): SearchResult => ({ ...where, summary, distance });

const wire = (s: AnswerSource): SearchResult => ({
  repository: s.repository,
  remote: s.remote,
  branch: s.branch,
  filepath: s.path,
  linestart: s.linestart,
  lineend: s.lineend,
  summary: s.summary,
  distance: s.distance,
});

/** A turn as users see it: local repositories as the `local` remote, in its repositories and its sources. */
const shownTurn = (turn: QueryTurn): QueryTurn => ({
  ...turn,
  repositories: turn.repositories.map(shownRef),
  answer: turn.answer && { ...turn.answer, sources: turn.answer.sources.map(shownRef) },
});

const repositoriesOf = (resolution: Resolution) => resolution.repos.map((r) => ({ remote: r.record.remote, repository: r.record.repository, branch: r.record.branch }));
const searching = (resolution: Resolution) => `Searching ${resolution.repos.length} repositor${resolution.repos.length === 1 ? "y" : "ies"}`;

export function createQuerySessionService(deps: QuerySessionDeps) {
  const { codeSearch, chat, logger } = deps;
  const recorder = createTurnRecorder(deps);
  const sessions = querySessionQueries(() => deps.readStore.view("query-sessions"));
  const decide = (command: QuerySessionCommand, state: QuerySessionState = querySessionDecider.initialState()) => querySessionDecider.decide(command, state);

  /** The newest turns of a session: projected ones merged with the ones still being recorded. */
  const recentTurns = (orgId: string, sid: string, n: number): QueryTurn[] => recorder.withPending(orgId, sid, sessions.recentTurns(orgId, sid, n), n);

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

  return {
    /**
     * A search turn: references only. `sessionId` is the client's; `newSessionId` the id a new session gets
     * (a streamed response names it before the turn starts). Resolves with the references once the turn is durably recorded
     * (one event when the search is done; the question alone if it fails).
     */
    async search(
      ctx: CommandContext,
      resolution: Resolution,
      input: { query: string; sessionId?: string | undefined; newSessionId?: string; genius?: boolean | undefined; limit?: number | undefined; withCode?: boolean },
      emit?: Emit,
    ): Promise<{ sessionId: string; turnId: string; sources: SearchResult[]; files: SearchHitFile[] }> {
      // Before anything is recorded: the faces refuse a blank query too, this holds whichever calls.
      if (!input.query.trim()) throw new DomainError("invalid", "query: must not be empty", "query");
      const sid = input.sessionId ?? input.newSessionId ?? ulid();
      const turnId = ulid();
      const started = performance.now();
      const earlier = input.sessionId ? sessionContext(ctx.orgId, sid) : { questions: [], history: [] }; // a new session has no turns
      const asked = { turnId, kind: "search" as const, question: input.query, messages: [], repositories: repositoriesOf(resolution), genius: input.genius ?? false };
      const turn: QueryTurn = { ...asked, askedAt: new Date().toISOString(), answer: null };
      type SearchAnswer = { sources: SearchResult[]; ms: number };
      let answered!: (answer: SearchAnswer | null) => void;
      const answer = new Promise<SearchAnswer | null>((r) => (answered = r));
      const recorded = recorder.record(
        ctx,
        sid,
        turn,
        answer.then((a) =>
          a
            ? decide({ type: "RecordSearch", sessionId: sid, turn: { turnId, question: asked.question, repositories: asked.repositories, genius: asked.genius, sources: a.sources.map(referenceOf), notes: resolution.notes, ms: a.ms } })
            : decide({ type: "AskQuestion", sessionId: sid, turn: asked }),
        ),
      );
      if (emit) {
        for (const n of resolution.notes) emit({ type: "status", message: n });
        emit({ type: "status", message: searching(resolution) });
      }
      let sources: SearchResult[];
      let files: SearchHitFile[];
      try {
        ({ files } = await codeSearch.search(ctx.orgId, resolution, {
          query: input.query,
          context: earlier.questions.slice(-3),
          genius: input.genius ?? false,
          ...(input.limit ? { limit: input.limit } : {}),
          withChunks: input.withCode === true,
        }));
        sources = codeSearch.toWire(files, resolution.repos);
        const data = { sources: sources.slice(0, 100), ms: Math.round(performance.now() - started) };
        turn.answer = { message: "", sources: data.sources, model: null, notes: resolution.notes, ms: data.ms, answeredAt: new Date().toISOString() };
        answered(data);
      } catch (error) {
        answered(null);
        throw error;
      }
      // Recorded as stored; shown with a local repository as the `local` remote.
      const shown = sources.map(shownRef);
      emit?.({ type: "sources", message: shown });
      await recorded;
      return { sessionId: sid, turnId, sources: shown, files };
    },

    /** A question turn: the answer (chat model, or extractive offline) and its sources. */
    async ask(
      ctx: CommandContext,
      resolution: Resolution,
      input: { messages: AskedMessage[]; sessionId?: string | undefined; newSessionId?: string; genius?: boolean | undefined; signal?: AbortSignal },
      emit?: Emit,
    ): Promise<{ sessionId: string; message: string; sources: SearchResult[] }> {
      const { notes } = resolution;
      const userMessages = input.messages.filter((m) => m.role === "user" && m.content.trim());
      const last = userMessages[userMessages.length - 1];
      // Before anything is recorded: the faces refuse this too, this holds whichever calls.
      if (!last) throw new DomainError("invalid", "messages: needs a non-empty user message", "messages");
      const question = last.content;
      const sid = input.sessionId ?? input.newSessionId ?? ulid();
      const turnId = ulid();
      const started = performance.now();
      const earlier = input.sessionId ? sessionContext(ctx.orgId, sid) : { questions: [], history: [] }; // a new session has no turns
      const contextQuestions = [...earlier.questions, ...userMessages.slice(0, -1).map((m) => m.content)].slice(-3);
      const asked = {
        turnId,
        kind: "query" as const,
        question: question.slice(0, 100_000),
        messages: input.messages.map((m) => ({ role: m.role, content: m.content.slice(0, 100_000) })),
        repositories: repositoriesOf(resolution),
        genius: input.genius ?? false,
      };
      const turn: QueryTurn = { ...asked, askedAt: new Date().toISOString(), answer: null };
      // The question is recorded at once (an answer may take a while), without blocking the answer.
      const askedEvents = decide({ type: "AskQuestion", sessionId: sid, turn: asked });
      const askedRecorded = recorder.record(ctx, sid, turn, Promise.resolve(askedEvents));
      const afterAsked = askedEvents.reduce(querySessionDecider.evolve, querySessionDecider.initialState());

      if (emit) {
        for (const n of notes) emit({ type: "status", message: n });
        emit({ type: "status", message: searching(resolution) });
      }
      const { files, frames } = await codeSearch.search(ctx.orgId, resolution, {
        query: question,
        context: contextQuestions,
        genius: input.genius ?? false,
        limit: input.genius ? 20 : 12,
      });
      const sources = await codeSearch.answerSources(files, resolution.repos);
      const shown = sources.map(shownRef); // what the answer names and the caller sees; the turn records `sources`
      emit?.({ type: "status", message: `Found ${sources.length} relevant file${sources.length === 1 ? "" : "s"}` });
      const history: ChatMessage[] = [...earlier.history, ...input.messages.slice(0, -1).filter((m) => m.role !== "system").map((m) => ({ role: m.role as "user" | "assistant", content: m.content }))];
      const systemExtra = input.messages.filter((m) => m.role === "system").map((m) => m.content);
      const message = emit
        ? await streamAnswer(emit, { history, systemExtra, question, frames, sources: shown, notes, ...(input.signal ? { signal: input.signal } : {}) })
        : await completeAnswer({ history, systemExtra, question, frames, sources: shown, notes });
      emit?.({ type: "sources", message: shown.map(wire) });

      const data = {
        turnId,
        message: message.slice(0, 200_000),
        sources: sources.map(wire).slice(0, 100),
        model: chat?.name ?? null,
        notes,
        ms: Math.round(performance.now() - started),
      };
      const answeredTurn: QueryTurn = { ...turn, answer: { message: data.message, sources: data.sources, model: data.model, notes, ms: data.ms, answeredAt: new Date().toISOString() } };
      // After the question's append (same stream, in order); the response waits for the durable append only.
      await recorder.record(ctx, sid, answeredTurn, Promise.resolve(decide({ type: "RecordAnswer", sessionId: sid, answer: data }, afterAsked)), askedRecorded);
      return { sessionId: sid, message, sources: shown.map(wire) };
    },

    /** The organisation's sessions, most recently updated first (the console's list of past sessions). */
    recent: (orgId: string, limit = 20) => sessions.recent(orgId, limit),

    /** A session of the caller's organisation with its turns (undefined when there is none). */
    async get(orgId: string, sid: string) {
      await recorder.settled(orgId, sid); // turns still being recorded become readable first
      const session = sessions.get(orgId, sid);
      if (!session) return undefined;
      const turns = await withSummaries(orgId, sessions.turns(orgId, sid));
      return { ...session, orgId: undefined, turns: turns.map(shownTurn) };
    },

    /**
     * What a search's page needs of its session, without reading summaries from the code index (`get`
     * reads them): the turns as shown (their repositories and questions) and the search's retrieval
     * context as when it was recorded, the last 3 questions before the newest search turn of `query`
     * (before none: the session's last 3). Undefined when the organisation has no such session.
     */
    async searchContext(orgId: string, sid: string, query: string): Promise<{ turns: QueryTurn[]; context: string[] } | undefined> {
      await recorder.settled(orgId, sid); // turns still being recorded become readable first
      if (!sessions.get(orgId, sid)) return undefined;
      const turns = sessions.turns(orgId, sid).map(shownTurn);
      const at = turns.findLastIndex((t) => t.kind === "search" && t.question === query);
      const context = (at < 0 ? turns : turns.slice(0, at)).map((t) => t.question).slice(-3);
      return { turns, context };
    },
  };

  /** `frames`: the question's trace frames as its search read them (the extractive answer quotes where one points). */
  type AnswerInput = { history: ChatMessage[]; systemExtra: string[]; question: string; frames: readonly StackFrame[]; sources: AnswerSource[]; notes: string[]; signal?: AbortSignal };

  async function completeAnswer(a: AnswerInput): Promise<string> {
    if (!chat) return extractiveAnswer(a.question, a.sources, a.notes, a.frames);
    try {
      let message = await chat.complete(chatRequest({ chat, ...a }));
      if (a.notes.length) message = a.notes.map((n) => `> **Note:** ${n}`).join("\n") + "\n\n" + message;
      return message;
    } catch (error) {
      logger.warn({ err: { message: (error as Error).message } }, "chat model failed; extractive answer");
      return extractiveAnswer(a.question, a.sources, [...a.notes, "The language model could not be reached; this answer quotes the code instead."], a.frames);
    }
  }

  async function streamAnswer(emit: Emit, a: AnswerInput): Promise<string> {
    let message = "";
    if (!chat) {
      message = extractiveAnswer(a.question, a.sources, a.notes, a.frames);
      // Paragraph-sized pieces, so clients render progressively as with a model.
      for (const piece of message.split(/(?<=\n\n)/)) emit({ type: "message", message: piece });
      return message;
    }
    emit({ type: "status", message: "Writing the answer" });
    try {
      if (a.notes.length) {
        const prefix = a.notes.map((n) => `> **Note:** ${n}`).join("\n") + "\n\n";
        message += prefix;
        emit({ type: "message", message: prefix });
      }
      for await (const delta of chat.stream(chatRequest({ chat, ...a }))) {
        message += delta;
        emit({ type: "message", message: delta });
      }
    } catch (error) {
      logger.warn({ err: { message: (error as Error).message } }, "chat model failed while streaming");
      const fallback = "\n\n" + extractiveAnswer(a.question, a.sources, ["The language model failed; this answer quotes the code instead."], a.frames);
      message += fallback;
      emit({ type: "message", message: fallback });
    }
    return message;
  }

  /**
   * Search turns record references without summaries: they are read here from the code index (the
   * file as its branch is indexed now; "" when it is no longer indexed). Each file is read once.
   */
  async function withSummaries(orgId: string, turns: QueryTurn[]): Promise<QueryTurn[]> {
    const summaries = new Map<string, Promise<string>>();
    const summaryOf = (s: QueryReference): Promise<string> => {
      const key = JSON.stringify([s.remote, s.repository, s.branch, s.filepath]);
      let summary = summaries.get(key);
      if (!summary) summaries.set(key, (summary = codeSearch.summaryOf(orgId, s)));
      return summary;
    };
    return Promise.all(
      turns.map(async (turn) => {
        if (!turn.answer || turn.answer.sources.every((s) => s.summary !== undefined)) return turn;
        const sources = await Promise.all(turn.answer.sources.map(async (s) => withSummary(s, s.summary ?? (await summaryOf(s)))));
        return { ...turn, answer: { ...turn.answer, sources } };
      }),
    );
  }
}

export type QuerySessionService = ReturnType<typeof createQuerySessionService>;
