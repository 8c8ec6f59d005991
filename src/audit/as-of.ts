import type { EventStore, StoredEvent } from "../eventstore/port.ts";
import type { Projection } from "../../projections/runner.ts";
import type { ReadStore } from "../readstore/port.ts";
import { createMemoryReadStore } from "../readstore/memory.ts";

/**
 * A read model AS OF a past point of the log, computed by replaying the log up to that point into a
 * temporary in-memory read store, with the same projection definitions the service runs.
 *
 * The point is a position (events with position <= it) or a time: the longest prefix of the log whose
 * events were recorded at or before that time (replay stops at the first later event, so the model is
 * always the state after some whole prefix of the log, never a log with holes).
 */
export type AsOf = { position: number } | { time: string };

export type ModelAsOf = {
  /** A temporary store holding the replayed models (only the projections asked for). */
  store: ReadStore;
  /** Position of the last event applied (0 when none). */
  position: number;
  /** Time of the last event applied (null when none). */
  time: string | null;
  eventsApplied: number;
};

const BATCH = 500;

/** Parses a CLI/API "as of" value: digits are a position, anything else an ISO time. */
export function parseAsOf(value: string): AsOf {
  if (/^\d+$/.test(value.trim())) return { position: Number(value.trim()) };
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new Error(`Not a log position or an ISO time: ${value}`);
  return { time: new Date(ms).toISOString() };
}

export async function replayAsOf(
  eventStore: EventStore,
  projections: readonly Projection[],
  asOf: AsOf,
): Promise<ModelAsOf> {
  const store = createMemoryReadStore();
  const limitMs = "time" in asOf ? Date.parse(asOf.time) : Infinity;
  const limitPosition = "position" in asOf ? asOf.position : Infinity;
  let position = 0;
  let time: string | null = null;
  let eventsApplied = 0;
  for (;;) {
    const batch = await eventStore.readAll({ fromPosition: position, maxCount: BATCH });
    const accepted: StoredEvent[] = [];
    let done = batch.length < BATCH;
    for (const event of batch) {
      if (event.position > limitPosition || Date.parse(event.time) > limitMs) {
        done = true;
        break;
      }
      accepted.push(event);
    }
    if (accepted.length > 0) {
      const last = accepted[accepted.length - 1]!;
      for (const projection of projections) {
        const relevant = accepted.filter((e) => projection.canHandle.includes(e.type));
        await store.commit(projection.name, 0, last.position, projection.version, (tx) => {
          if (relevant.length > 0) projection.handle(relevant, { tx });
        });
      }
      position = last.position;
      time = last.time;
      eventsApplied += accepted.length;
    }
    if (done) break;
  }
  return { store, position, time, eventsApplied };
}
