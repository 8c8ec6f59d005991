import type { Projection } from "../../../projections/runner.ts";
import type { ReadView } from "../../readstore/port.ts";

/**
 * Query sessions by organisation (POST /v2/query, POST /v2/search; read by GET /v2/query/{sessionId}).
 * Keys: ["session", orgId, sessionId] -> QuerySessionRecord
 *       ["turn", orgId, sessionId, turnId] -> QueryTurn (turn ids are ulids: key order = time order)
 */
export type QuerySource = {
  repository: string;
  remote: string;
  branch: string;
  filepath: string;
  linestart: number | null;
  lineend: number | null;
  summary: string;
  distance: number | null;
};

/**
 * A reference as a search turn records it (QuerySessionSearched v2): no summary, which is the code
 * index's; GET /v2/query/{sessionId} adds it from there. Turns recorded before v2 keep theirs.
 */
export type QueryReference = Omit<QuerySource, "summary"> & { summary?: string };

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

export const querySessionsProjection: Projection = {
  name: "query-sessions",
  version: 1,
  canHandle: ["QuerySessionQuestionAsked", "QuerySessionAnswered", "QuerySessionSearched"],
  handle(events, { tx }) {
    for (const event of events) {
      const orgId = event.metadata.orgId;
      const d = event.data as Record<string, unknown>;
      const sessionId = d.sessionId as string;
      const turnId = d.turnId as string;
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
      if (event.type === "QuerySessionQuestionAsked") {
        putTurn({
          turnId,
          kind: d.kind as QueryTurn["kind"],
          question: d.question as string,
          messages: d.messages as QueryTurn["messages"],
          repositories: d.repositories as QueryTurn["repositories"],
          genius: Boolean(d.genius),
          askedAt: event.time,
          answer: null,
        });
      } else if (event.type === "QuerySessionSearched") {
        putTurn({
          turnId,
          kind: "search",
          question: d.question as string,
          messages: [],
          repositories: d.repositories as QueryTurn["repositories"],
          genius: Boolean(d.genius),
          askedAt: event.time,
          answer: { message: "", sources: d.sources as QueryReference[], model: null, notes: d.notes as string[], ms: d.ms as number, answeredAt: event.time },
        });
      } else if (event.type === "QuerySessionAnswered") {
        const turn = tx.get<QueryTurn>(turnKey);
        if (!turn) continue;
        tx.put(turnKey, {
          ...turn,
          answer: {
            message: d.message as string,
            sources: d.sources as QuerySource[],
            model: (d.model as string | null) ?? null,
            notes: d.notes as string[],
            ms: d.ms as number,
            answeredAt: event.time,
          },
        } satisfies QueryTurn);
        const session = tx.get<QuerySessionRecord>(sessionKey);
        if (session) tx.put(sessionKey, { ...session, updatedAt: event.time });
      }
    }
  },
};

export function querySessionQueries(view: () => ReadView) {
  return {
    get(orgId: string, sessionId: string): QuerySessionRecord | undefined {
      return view().get<QuerySessionRecord>(["session", orgId, sessionId]);
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
