/**
 * The query session aggregate: its turns, each asked once and answered at most once. Stream:
 * `querysession-<orgId>-<sessionId>`.
 *
 * The service decides from the request's own turn without reading the stream first (a read before every
 * search would add to its latency): a turn id is a new ulid, so the stream's history cannot change the
 * decision, and the turn's own events are folded into the state between its question and its answer.
 */
import { DomainError, type Decider } from "../../eventstore/decider.ts";
import type { QuerySessionDecidedEvent } from "./events.ts";

type Data<T extends QuerySessionDecidedEvent["type"]> = Omit<Extract<QuerySessionDecidedEvent, { type: T }>["data"], "sessionId">;

export const querySessionStream = (orgId: string, sessionId: string) => `querysession-${orgId}-${sessionId}`;

export type QuerySessionCommand =
  /** A question (query) or a search whose references could not be given (its question alone). */
  | { type: "AskQuestion"; sessionId: string; turn: Data<"QuerySessionQuestionAsked"> }
  /** A search and its references, one event. */
  | { type: "RecordSearch"; sessionId: string; turn: Data<"QuerySessionSearched"> }
  | { type: "RecordAnswer"; sessionId: string; answer: Data<"QuerySessionAnswered"> };

export type QuerySessionState = { turns: ReadonlyMap<string, "asked" | "answered"> };

export const querySessionDecider: Decider<QuerySessionCommand, QuerySessionState, QuerySessionDecidedEvent> = {
  initialState: () => ({ turns: new Map() }),
  evolve(state, event) {
    const turns = new Map(state.turns);
    switch (event.type) {
      case "QuerySessionQuestionAsked":
        turns.set(event.data.turnId, "asked");
        break;
      case "QuerySessionSearched":
      case "QuerySessionAnswered":
        turns.set(event.data.turnId, "answered");
        break;
    }
    return { turns };
  },
  decide(command, state) {
    switch (command.type) {
      case "AskQuestion":
        if (state.turns.has(command.turn.turnId)) throw new DomainError("conflict", `Turn ${command.turn.turnId} was already asked`);
        return [{ type: "QuerySessionQuestionAsked", data: { sessionId: command.sessionId, ...command.turn } }];
      case "RecordSearch":
        if (state.turns.has(command.turn.turnId)) throw new DomainError("conflict", `Turn ${command.turn.turnId} was already recorded`);
        return [{ type: "QuerySessionSearched", data: { sessionId: command.sessionId, ...command.turn } }];
      case "RecordAnswer": {
        const turn = state.turns.get(command.answer.turnId);
        if (turn === undefined) throw new DomainError("not_found", `Turn ${command.answer.turnId} was not asked in session ${command.sessionId}`);
        if (turn === "answered") throw new DomainError("conflict", `Turn ${command.answer.turnId} is already answered`);
        return [{ type: "QuerySessionAnswered", data: { sessionId: command.sessionId, ...command.answer } }];
      }
    }
  },
};
