import type { EventStore, StoredEvent } from "../eventstore/port.ts";

/**
 * The admin event browser over the raw log: filtered, cursor-paged by position, read in pages with
 * readAll / readAllBackwards (or readStream when one stream is asked for), never loaded whole.
 */
export type EventFilter = {
  /** Only this organisation's events (the admin face always sets it). */
  orgId?: string;
  streamName?: string;
  types?: readonly string[];
  /** ISO times, inclusive. */
  since?: string;
  until?: string;
  correlationId?: string;
  actor?: string;
};

export type EventPage = {
  /** In log order (oldest first), whichever direction was read. */
  events: StoredEvent[];
  /** More matches after the last event (forward) or before the first one (backward). */
  hasMore: boolean;
};

const SCAN_BATCH = 500;

export function eventMatches(event: StoredEvent, filter: EventFilter): boolean {
  if (filter.orgId !== undefined && event.metadata.orgId !== filter.orgId) return false;
  if (filter.streamName !== undefined && event.streamName !== filter.streamName) return false;
  if (filter.types && filter.types.length > 0 && !filter.types.includes(event.type)) return false;
  if (filter.correlationId !== undefined && event.metadata.correlationId !== filter.correlationId) return false;
  if (filter.actor !== undefined && event.metadata.actor !== filter.actor) return false;
  if (filter.since !== undefined && Date.parse(event.time) < Date.parse(filter.since)) return false;
  if (filter.until !== undefined && Date.parse(event.time) > Date.parse(filter.until)) return false;
  return true;
}

/** Reads batches of the log (or of one stream) after / before a position. */
type Source = {
  forward(afterPosition: number, max: number): Promise<StoredEvent[]>;
  /** Newest first. */
  backward(beforePosition: number | undefined, max: number): Promise<StoredEvent[]>;
};

const logSource = (store: EventStore): Source => ({
  forward: (afterPosition, max) => store.readAll({ fromPosition: afterPosition, maxCount: max }),
  backward: (beforePosition, max) => store.readAllBackwards({ beforePosition, maxCount: max }),
});

/** One stream, addressed by position: a binary search over its versions finds where a page starts. */
const streamSource = (store: EventStore, streamName: string): Source => {
  const positionAt = async (version: number) =>
    (await store.readStream(streamName, { from: version, maxCount: 1 })).events[0]?.position ?? Infinity;
  /** The first stream version whose position satisfies `atOrAfter`, in [0, current + 1]. */
  const firstVersion = async (atOrAfter: (position: number) => boolean) => {
    const { currentStreamVersion } = await store.readStream(streamName, { from: 0, maxCount: 1 });
    let lo = 0;
    let hi = currentStreamVersion + 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (atOrAfter(await positionAt(mid))) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
  return {
    async forward(afterPosition, max) {
      const from = await firstVersion((p) => p > afterPosition);
      return (await store.readStream(streamName, { from, maxCount: max })).events;
    },
    async backward(beforePosition, max) {
      const end = await firstVersion((p) => beforePosition !== undefined && p >= beforePosition);
      const from = Math.max(0, end - max);
      if (end <= from) return [];
      return (await store.readStream(streamName, { from, maxCount: end - from })).events.reverse();
    },
  };
};

/** Up to `first` matching events strictly after `after` (0 = from the start) and before `before` when given. */
export async function pageForward(
  store: EventStore,
  filter: EventFilter,
  after: number,
  first: number,
  before?: number,
): Promise<EventPage> {
  const source = filter.streamName !== undefined ? streamSource(store, filter.streamName) : logSource(store);
  const found: StoredEvent[] = [];
  let cursor = after;
  scan: for (;;) {
    const batch = await source.forward(cursor, SCAN_BATCH);
    if (batch.length === 0) break;
    for (const event of batch) {
      cursor = event.position;
      if (before !== undefined && event.position >= before) break scan;
      if (!eventMatches(event, filter)) continue;
      found.push(event);
      if (found.length > first) break scan;
    }
    if (batch.length < SCAN_BATCH) break;
  }
  return { events: found.slice(0, first), hasMore: found.length > first };
}

/** Up to `last` matching events strictly before `before` (undefined = from the end) and after `after`, oldest first. */
export async function pageBackward(
  store: EventStore,
  filter: EventFilter,
  before: number | undefined,
  last: number,
  after = 0,
): Promise<EventPage> {
  const source = filter.streamName !== undefined ? streamSource(store, filter.streamName) : logSource(store);
  const found: StoredEvent[] = [];
  let cursor = before;
  scan: for (;;) {
    const batch = await source.backward(cursor, SCAN_BATCH);
    if (batch.length === 0) break;
    for (const event of batch) {
      cursor = event.position;
      if (event.position <= after) break scan;
      if (!eventMatches(event, filter)) continue;
      found.push(event);
      if (found.length > last) break scan;
    }
    if (batch.length < SCAN_BATCH) break;
  }
  return { events: found.slice(0, last).reverse(), hasMore: found.length > last };
}

/** Reads one event by position (undefined when there is none). */
export async function eventAt(store: EventStore, position: number): Promise<StoredEvent | undefined> {
  if (position < 1) return undefined;
  const [event] = await store.readAll({ fromPosition: position - 1, maxCount: 1 });
  return event?.position === position ? event : undefined;
}
