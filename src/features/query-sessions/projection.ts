import { defineProjection } from "../../../projections/runner.ts";
import type { QuerySessionEvent } from "./events.ts";
import type { ReadView } from "../../readstore/port.ts";
import type { SearchReference, SearchResult } from "../code-search/service.ts";

/**
 * Query sessions by organisation (POST /v2/query, POST /v2/search; read by GET /v2/query/{sessionId}).
 * Keys: ["session", orgId, sessionId] -> QuerySessionRecord
 *       ["turn", orgId, sessionId, turnId] -> QueryTurn (turn ids are ulids: key order = time order)
 */
/** A source of an answer: a search result item (interface.md 2.2). */
export type QuerySource = SearchResult;

/**
 * A reference as a search turn records it (QuerySessionSearched v2): no summary, which is the code
 * index's; GET /v2/query/{sessionId} adds it from there. Turns recorded before v2 keep theirs.
 */
export type QueryReference = SearchReference;

export type QueryTurn = {
  turnId: string;
  kind: "query" | "search";
  question: string;
  messages: { role: "user" | "assistant" | "system"; content: string }[];
  repositories: { remote: string; repository: string; branch: string }[];
  genius: boolean;
  askedAt: string;
  /** Null until answered (or when the answer failed). */
  answer: { message: string; sources: QueryReference[]; model: string | null; notes: string[]; ms: number; answeredAt: string } | null;
};

export type QuerySessionRecord = { sessionId: string; orgId: string; createdAt: string; updatedAt: string; turns: number };

export const querySessionsProjection = defineProjection<QuerySessionEvent>({
  name: "query-sessions",
  version: 1,
  canHandle: ["QuerySessionQuestionAsked", "QuerySessionAnswered", "QuerySessionSearched"],
  handle(events, { tx }) {
    for (const event of events) {
      const orgId = event.metadata.orgId;
      const { sessionId, turnId } = event.data;
      const sessionKey = ["session", orgId, sessionId];
      const turnKey = ["turn", orgId, sessionId, turnId];
      /** Writes a new or re-asked turn and counts it in its session. */
      const putTurn = (turn: QueryTurn) => {
        const session = tx.get<QuerySessionRecord>(sessionKey);
        const existing = tx.get<QueryTurn>(turnKey);
        tx.put(turnKey, { ...turn, answer: turn.answer ?? existing?.answer ?? null } satisfies QueryTurn);
        tx.put(sessionKey, {
          sessionId,
          orgId,
          createdAt: session?.createdAt ?? event.time,
          updatedAt: event.time,
          turns: (session?.turns ?? 0) + (existing ? 0 : 1),
        } satisfies QuerySessionRecord);
      };
      switch (event.type) {
        case "QuerySessionQuestionAsked": {
          const d = event.data;
          putTurn({ turnId, kind: d.kind, question: d.question, messages: d.messages, repositories: d.repositories, genius: Boolean(d.genius), askedAt: event.time, answer: null });
          break;
        }
        case "QuerySessionSearched": {
          const d = event.data;
          putTurn({
            turnId,
            kind: "search",
            question: d.question,
            messages: [],
            repositories: d.repositories,
            genius: Boolean(d.genius),
            askedAt: event.time,
            answer: { message: "", sources: d.sources, model: null, notes: d.notes, ms: d.ms, answeredAt: event.time },
          });
          break;
        }
        case "QuerySessionAnswered": {
          const d = event.data;
          const turn = tx.get<QueryTurn>(turnKey);
          if (!turn) continue;
          tx.put(turnKey, {
            ...turn,
            answer: { message: d.message, sources: d.sources, model: d.model ?? null, notes: d.notes, ms: d.ms, answeredAt: event.time },
          } satisfies QueryTurn);
          const session = tx.get<QuerySessionRecord>(sessionKey);
          if (session) tx.put(sessionKey, { ...session, updatedAt: event.time });
          break;
        }
      }
    }
  },
});

export function querySessionQueries(view: () => ReadView) {
  return {
    get(orgId: string, sessionId: string): QuerySessionRecord | undefined {
      return view().get<QuerySessionRecord>(["session", orgId, sessionId]);
    },
    /** The organisation's sessions, most recently updated first. */
    recent(orgId: string, limit: number): QuerySessionRecord[] {
      return view()
        .range<QuerySessionRecord>(["session", orgId])
        .map((e) => e.value)
        .sort((a, b) => (a.updatedAt > b.updatedAt ? -1 : a.updatedAt < b.updatedAt ? 1 : 0))
        .slice(0, limit);
    },
    turns(orgId: string, sessionId: string): QueryTurn[] {
      return view()
        .range<QueryTurn>(["turn", orgId, sessionId])
        .map((e) => e.value);
    },
    /** The newest `n` turns, oldest first (a long session is not read whole for follow-up context). */
    recentTurns(orgId: string, sessionId: string, n: number): QueryTurn[] {
      return view()
        .range<QueryTurn>(["turn", orgId, sessionId], { reverse: true, limit: n })
        .map((e) => e.value)
        .reverse();
    },
  };
}
