/**
 * Recording a session's turns. A response waits for its session events to be durably appended (nothing
 * acknowledged is lost), never for the projection. Until a turn's events are projected it is kept here,
 * so a follow-up in the session (retrieval context, chat history) and a read of the session see it as
 * if it were.
 */
import type { EventStore } from "../../eventstore/port.ts";
import type { ProjectionRunner } from "../../../projections/runner.ts";
import { newEvent, type CommandContext } from "../../eventstore/new-event.ts";
import type { Logger } from "../../logging.ts";
import { querySessionStream } from "./decider.ts";
import type { QuerySessionDecidedEvent } from "./events.ts";
import type { QueryTurn } from "./projection.ts";

type PendingSession = { turns: Map<string, QueryTurn>; settled: Set<Promise<void>> };

export function createTurnRecorder(deps: { eventStore: EventStore; runner: ProjectionRunner; logger: Logger }) {
  const { eventStore, runner, logger } = deps;
  const pendingSessions = new Map<string, PendingSession>();
  const sessionKey = (orgId: string, sid: string) => `${orgId}\u0000${sid}`;

  async function append(ctx: CommandContext, sid: string, events: QuerySessionDecidedEvent[]) {
    const result = await eventStore.appendToStream(
      querySessionStream(ctx.orgId, sid),
      events.map((e) => newEvent(e.type, e.data, ctx, e.type === "QuerySessionSearched" ? 2 : 1)),
    );
    return result.lastPosition;
  }

  return {
    /**
     * Appends a turn's events (in order, one stream); `turn` is what the projection will hold. Resolves
     * once the events are durably appended (or the append failed and was logged).
     */
    record(ctx: CommandContext, sid: string, turn: QueryTurn, events: Promise<QuerySessionDecidedEvent[]>, after?: Promise<unknown>): Promise<void> {
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
          const position = await append(ctx, sid, await events);
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
    },

    /** Waits until every turn of the session recorded so far is readable from the projection. */
    async settled(orgId: string, sid: string): Promise<void> {
      const pending = pendingSessions.get(sessionKey(orgId, sid));
      if (pending) await Promise.all([...pending.settled]);
    },

    /** The newest turns of a session: `projected` merged with the ones still being recorded. */
    withPending(orgId: string, sid: string, projected: QueryTurn[], n: number): QueryTurn[] {
      const pending = pendingSessions.get(sessionKey(orgId, sid));
      if (!pending || pending.turns.size === 0) return projected;
      const byId = new Map(projected.map((t) => [t.turnId, t]));
      for (const [id, t] of pending.turns) {
        const known = byId.get(id);
        if (!known || (!known.answer && t.answer)) byId.set(id, t);
      }
      return [...byId.values()].sort((a, b) => (a.turnId < b.turnId ? -1 : a.turnId > b.turnId ? 1 : 0)).slice(-n);
    },
  };
}

export type TurnRecorder = ReturnType<typeof createTurnRecorder>;
