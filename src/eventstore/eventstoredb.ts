/**
 * EventStoreDB / KurrentDB adapter over @eventstore/db-client (gRPC).
 *
 * Envelope: the event's `data` is the ESDB event data (JSON); the rest of the envelope goes in
 * the ESDB event metadata: `{ id, schemaVersion, time, orgId, actor, correlationId,
 * causationId, $correlationId, $causationId }` (the `$` copies feed ESDB's own projections).
 * ESDB event ids must be UUIDs: a ULID maps losslessly to one (same 128 bits), any other id
 * to a name-based (SHA-1) UUID; the original id is read back from the metadata. The mapping
 * is deterministic, so a retried append carries the same UUIDs and ESDB's own idempotency
 * applies.
 *
 * Positions. An $all position is a pair (commit, prepare). For events appended through the
 * gRPC API (ESDB >= 20, KurrentDB) every event is its own "committed prepare" record and the
 * server reports it at (commit = prepare = the record's log position); see AllReader in the
 * server, which builds `new TFPos(prepare.LogPosition, prepare.LogPosition)`. Only legacy
 * explicit transactions (TCP API) produce several events sharing one commit position with
 * distinct prepare positions. So:
 *   - the port's position is the commit position, a strictly increasing per-event number;
 *   - "strictly after N" reads from (N, N), which the server treats as inclusive, and drops
 *     anything at or before N on the client, so nothing is skipped or repeated;
 *   - an event whose commit and prepare differ (legacy transaction) cannot be given a unique
 *     number this way, so reads fail loudly with UnsupportedPositionError instead of silently
 *     skipping or repeating events.
 * AppendResult.lastPosition is read back from the last appended event (one extra read by
 * revision) rather than trusted from the append response, whose position fields describe the
 * write as a whole.
 *
 * System events ($-prefixed types or streams) are filtered out of readAll, readAllBackwards,
 * headPosition and subscriptions.
 */
import { createHash } from "node:crypto";
import {
  ANY,
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  StreamNotFoundError,
  WrongExpectedVersionError,
  excludeSystemEvents,
  jsonEvent,
} from "@eventstore/db-client";
import type { AppendExpectedRevision, Position, ResolvedEvent } from "@eventstore/db-client";
import { DuplicateEventIdError, ExpectedVersionConflictError } from "./port.ts";
import type {
  AppendResult,
  EventMetadata,
  EventStore,
  ExpectedStreamVersion,
  NewEvent,
  ReadStreamResult,
  StoredEvent,
  SubscribeOptions,
  Subscription,
} from "./port.ts";

export type EventStoreDbEventStoreOptions = {
  /** e.g. "esdb://localhost:2113?tls=false" */
  connectionString: string;
};

export class UnsupportedPositionError extends Error {
  constructor(readonly commit: bigint, readonly prepare: bigint) {
    super(
      `Event at commit ${commit} / prepare ${prepare}: events sharing a commit position ` +
        "(legacy explicit transactions) are not supported by the Loupe EventStoreDB adapter",
    );
    this.name = "UnsupportedPositionError";
  }
}

type StoredMetadata = EventMetadata & {
  id: string;
  schemaVersion: number;
  time: string;
  $correlationId?: string;
  $causationId?: string;
};

const PAGE = 256;

export function createEventStoreDbEventStore(options: EventStoreDbEventStoreOptions): EventStore {
  const client = EventStoreDBClient.connectionString(options.connectionString);
  const subscriptions = new Set<Subscription>();
  const pendingWrites = new Set<Promise<unknown>>();
  let closed = false;

  async function appendToStream(
    streamName: string,
    events: NewEvent[],
    appendOptions?: { expectedStreamVersion?: ExpectedStreamVersion },
  ): Promise<AppendResult> {
    if (closed) throw new Error("Event store is closed");
    const ids = events.map((event) => event.id);
    if (new Set(ids).size !== ids.length) throw new DuplicateEventIdError(streamName, ids);
    const expected = appendOptions?.expectedStreamVersion ?? "any";
    const write = appendAndLocate(streamName, events, expected);
    pendingWrites.add(write);
    try {
      return await write;
    } finally {
      pendingWrites.delete(write);
    }
  }

  async function appendAndLocate(
    streamName: string,
    events: NewEvent[],
    expected: ExpectedStreamVersion,
  ): Promise<AppendResult> {
    let nextRevision: bigint;
    try {
      const result = await client.appendToStream(streamName, events.map(toEsdbEvent), {
        expectedRevision: toExpectedRevision(expected),
      });
      nextRevision = result.nextExpectedRevision;
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) {
        const actual = typeof error.actualVersion === "bigint" ? Number(error.actualVersion) : -1;
        throw new ExpectedVersionConflictError(streamName, expected, actual);
      }
      throw error;
    }
    const nextExpectedStreamVersion = Number(nextRevision);
    if (events.length === 0) {
      return { nextExpectedStreamVersion, createdNewStream: false, lastPosition: await headPosition() };
    }
    const [last] = await collect(
      client.readStream(streamName, { fromRevision: nextRevision, maxCount: 1, direction: FORWARDS }),
    );
    if (!last) throw new Error(`Appended event ${streamName}@${nextRevision} could not be read back`);
    return {
      nextExpectedStreamVersion,
      createdNewStream: nextExpectedStreamVersion - events.length + 1 === 0,
      lastPosition: positionOf(last),
    };
  }

  async function readStream(
    streamName: string,
    readOptions?: { from?: number; maxCount?: number },
  ): Promise<ReadStreamResult> {
    try {
      const [lastResolved] = await collect(
        client.readStream(streamName, { fromRevision: END, direction: BACKWARDS, maxCount: 1 }),
      );
      if (!lastResolved?.event) return { currentStreamVersion: -1, events: [], streamExists: false };
      const currentStreamVersion = Number(lastResolved.event.revision);
      const from = Math.max(0, readOptions?.from ?? 0);
      if (from > currentStreamVersion || readOptions?.maxCount === 0) {
        return { currentStreamVersion, events: [], streamExists: true };
      }
      const resolved = await collect(
        client.readStream(streamName, {
          fromRevision: BigInt(from),
          direction: FORWARDS,
          ...(readOptions?.maxCount === undefined ? {} : { maxCount: readOptions.maxCount }),
        }),
      );
      return { currentStreamVersion, events: resolved.map(toStoredEvent), streamExists: true };
    } catch (error) {
      if (error instanceof StreamNotFoundError) {
        return { currentStreamVersion: -1, events: [], streamExists: false };
      }
      throw error;
    }
  }

  /** Non-system events strictly after `after`, paging past filtered system events. */
  async function readAll(readOptions?: { fromPosition?: number; maxCount?: number }): Promise<StoredEvent[]> {
    const wanted = readOptions?.maxCount ?? Infinity;
    let after = readOptions?.fromPosition ?? 0;
    const result: StoredEvent[] = [];
    while (result.length < wanted) {
      const page = await collect(
        client.readAll({ fromPosition: after > 0 ? toPosition(after) : START, direction: FORWARDS, maxCount: PAGE }),
      );
      let progressed = false;
      for (const resolved of page) {
        const position = positionOf(resolved);
        if (position <= after) continue;
        after = position;
        progressed = true;
        if (isUserEvent(resolved)) result.push(toStoredEvent(resolved));
        if (result.length >= wanted) break;
      }
      if (page.length < PAGE || !progressed) break;
    }
    return result;
  }

  async function readAllBackwards(readOptions?: {
    beforePosition?: number;
    maxCount?: number;
  }): Promise<StoredEvent[]> {
    const wanted = readOptions?.maxCount ?? Infinity;
    let before = readOptions?.beforePosition;
    const result: StoredEvent[] = [];
    while (result.length < wanted) {
      const page = await collect(
        client.readAll({
          fromPosition: before === undefined ? END : toPosition(before),
          direction: BACKWARDS,
          maxCount: PAGE,
        }),
      );
      let progressed = false;
      for (const resolved of page) {
        const position = positionOf(resolved);
        if (before !== undefined && position >= before) continue;
        before = position;
        progressed = true;
        if (isUserEvent(resolved)) result.push(toStoredEvent(resolved));
        if (result.length >= wanted) break;
      }
      if (page.length < PAGE || !progressed) break;
    }
    return result;
  }

  async function headPosition(): Promise<number> {
    const [newest] = await readAllBackwards({ maxCount: 1 });
    return newest?.position ?? 0;
  }

  function subscribeToAll(subscribeOptions: SubscribeOptions): Subscription {
    let checkpoint = subscribeOptions.fromPosition ?? 0;
    let stopped = false;
    let caughtUp = false;
    const markCaughtUp = () => {
      if (caughtUp || stopped) return;
      caughtUp = true;
      subscribeOptions.onCaughtUp?.();
    };
    const grpcSubscription = client.subscribeToAll({
      fromPosition: checkpoint > 0 ? toPosition(checkpoint) : START,
      filter: excludeSystemEvents(),
    });
    // Servers since 23.10 send "caughtUp"; older ones never do, and then onCaughtUp is not
    // called. The signal is emitted when the message is decoded, while events before it may
    // still sit in the stream's buffer: count those down so onCaughtUp follows their delivery.
    let delivering = false;
    let eventsBeforeCaughtUp: number | undefined;
    grpcSubscription.on("caughtUp", () => {
      const buffered = grpcSubscription.readableLength;
      if (buffered === 0 && !delivering) markCaughtUp();
      else eventsBeforeCaughtUp = buffered;
    });

    const run = async () => {
      for await (const resolved of grpcSubscription as AsyncIterable<ResolvedEvent>) {
        if (stopped) break;
        if (eventsBeforeCaughtUp !== undefined) eventsBeforeCaughtUp--;
        const position = positionOf(resolved);
        if (position > checkpoint && isUserEvent(resolved)) {
          delivering = true;
          await subscribeOptions.onEvent(toStoredEvent(resolved));
          delivering = false;
        }
        if (position > checkpoint) checkpoint = position;
        if (eventsBeforeCaughtUp !== undefined && eventsBeforeCaughtUp <= 0) {
          eventsBeforeCaughtUp = undefined;
          markCaughtUp();
        }
      }
    };
    const running = run().catch((error: unknown) => {
      if (stopped) return;
      stopped = true;
      void grpcSubscription.unsubscribe();
      if (subscribeOptions.onError) subscribeOptions.onError(error);
      else console.error("event store subscription stopped", error);
    });

    const subscription: Subscription = {
      async stop() {
        if (!stopped) {
          stopped = true;
          await grpcSubscription.unsubscribe();
          grpcSubscription.destroy();
        }
        await running;
        subscriptions.delete(subscription);
      },
    };
    subscriptions.add(subscription);
    return subscription;
  }

  async function close(): Promise<void> {
    if (closed) return;
    closed = true;
    await Promise.all([...subscriptions].map((subscription) => subscription.stop()));
    await Promise.allSettled([...pendingWrites]);
    await client.dispose();
  }

  return { appendToStream, readStream, readAll, readAllBackwards, subscribeToAll, headPosition, close };
}

function toExpectedRevision(expected: ExpectedStreamVersion): AppendExpectedRevision {
  switch (expected) {
    case "any":
      return ANY;
    case "no_stream":
      return NO_STREAM;
    case "stream_exists":
      return STREAM_EXISTS;
    default:
      // The port's version of an empty stream is -1, which EventStoreDB spells NO_STREAM.
      return expected < 0 ? NO_STREAM : BigInt(expected);
  }
}

function toEsdbEvent(event: NewEvent) {
  const metadata: StoredMetadata = {
    ...event.metadata,
    id: event.id,
    schemaVersion: event.schemaVersion,
    time: event.time,
    $correlationId: event.metadata.correlationId,
    ...(event.metadata.causationId === null ? {} : { $causationId: event.metadata.causationId }),
  };
  return jsonEvent({ id: toEsdbUuid(event.id), type: event.type, data: event.data, metadata });
}

function toStoredEvent(resolved: ResolvedEvent): StoredEvent {
  const recorded = resolved.event;
  if (!recorded) throw new Error("Resolved event without a recorded event");
  const stored = (isRecord(recorded.metadata) ? recorded.metadata : {}) as Partial<StoredMetadata>;
  return {
    id: typeof stored.id === "string" ? stored.id : recorded.id,
    type: recorded.type,
    schemaVersion: typeof stored.schemaVersion === "number" ? stored.schemaVersion : 1,
    time: typeof stored.time === "string" ? stored.time : recorded.created.toISOString(),
    data: isRecord(recorded.data) ? recorded.data : { value: recorded.data },
    metadata: {
      orgId: stored.orgId ?? "system",
      actor: stored.actor ?? "system",
      correlationId: stored.correlationId ?? recorded.id,
      causationId: stored.causationId ?? null,
    },
    streamName: recorded.streamId,
    streamVersion: Number(recorded.revision),
    position: positionOf(resolved),
  };
}

function positionOf(resolved: ResolvedEvent): number {
  const position = resolved.event?.position;
  if (!position) throw new Error("Event without an $all position");
  if (position.commit !== position.prepare) throw new UnsupportedPositionError(position.commit, position.prepare);
  return Number(position.commit);
}

function toPosition(position: number): Position {
  const value = BigInt(position);
  return { commit: value, prepare: value };
}

function isUserEvent(resolved: ResolvedEvent): boolean {
  const event = resolved.event;
  return !!event && !event.type.startsWith("$") && !event.streamId.startsWith("$");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}

async function collect<T>(source: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of source) items.push(item);
  return items;
}

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const ULID_PATTERN = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/i;

/** ESDB event id for a Loupe event id: a ULID's own 128 bits, else a name-based UUID. */
export function toEsdbUuid(id: string): string {
  let hex: string;
  if (ULID_PATTERN.test(id)) {
    let value = 0n;
    for (const char of id.toUpperCase()) value = value * 32n + BigInt(CROCKFORD.indexOf(char));
    hex = value.toString(16).padStart(32, "0");
  } else {
    const digest = createHash("sha1").update(`loupe-event-id:${id}`).digest();
    digest[6] = ((digest[6] ?? 0) & 0x0f) | 0x50; // version 5
    digest[8] = ((digest[8] ?? 0) & 0x3f) | 0x80; // RFC 4122 variant
    hex = digest.subarray(0, 16).toString("hex");
  }
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
