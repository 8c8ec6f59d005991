/**
 * Embedded event store on lmdb (one environment at `<dir>/events.lmdb`).
 *
 * Layout (sub-databases of one lmdb environment, so one write transaction covers them all):
 *   events       position (number)          -> StoredEvent
 *   streams      streamName                 -> last stream version
 *   streamIndex  [streamName, streamVersion] -> position
 *   eventIds     event id                   -> position
 *
 * Durability: the store is opened with lmdb-js's `overlappingSync` (its default on Linux/macOS,
 * never noSync/noMetaSync/mapAsync): a transaction commits and becomes visible, and its pages are
 * synced to disk right after, outside the writer lock, while the next transaction is already being
 * written. An append is acknowledged only once its commit is synced (the sync of the batch its
 * transaction joined, taken when it was queued: src/storage-errors.ts), which syncs the file, so
 * everything committed before it as well: nothing acknowledged can be lost. (Syncing inside the
 * commit, as `overlappingSync: false` does, made every writer and the serving thread's next write
 * wait for the disk.) A reader may see a committed event shortly before it is durable; after a crash of
 * the whole machine such an event can be gone, so the projection runner rebuilds any read model
 * whose checkpoint is past the log's head when it starts. A killed process loses nothing that was
 * committed (the pages are in the OS's cache; test/eventstore/crash.int.spec.ts).
 *
 * Ordering: every append runs in an lmdb async transaction callback; lmdb runs those callbacks
 * one at a time inside the single write transaction (serialised across processes by LMDB's
 * writer lock), so reading the head and the stream version inside the callback and assigning
 * positions there gives one global order and atomic expected-version checks. The callback
 * validates everything before its first write and returns a verdict instead of throwing, so a
 * rejected batch writes nothing (a throw would not undo writes already batched with others).
 *
 * A commit the file system refuses (a full disk: ENOSPC) aborts the whole transaction: the append
 * throws a StorageFullError (src/storage-errors.ts) and nothing of it is stored or acknowledged;
 * everything acknowledged before stays, and reads go on. An append whose commit succeeded while a later
 * one was refused is still acknowledged (it waits for its own sync, not the refused one's).
 *
 * Subscriptions read committed events from the log (notifications only wake them up), so
 * they cannot see a gap: positions are contiguous and each batch commits atomically. They also
 * poll the head every `pollIntervalMs` to see appends made by other processes.
 */
import { join } from "node:path";
import { open } from "lmdb";
import type { Database, RootDatabase } from "lmdb";
import { LMDB_MAP_BYTES, LMDB_WRITE_OPTIONS } from "../lmdb-map.ts";
import {
  DuplicateEventIdError,
  ExpectedVersionConflictError,
} from "./port.ts";
import type {
  AppendResult,
  EventStore,
  ExpectedStreamVersion,
  NewEvent,
  ReadStreamResult,
  StoredEvent,
  SubscribeOptions,
  Subscription,
} from "./port.ts";
import { matchesExpectedVersion } from "./expected-version.ts";
import { createCommitGuard, type StorageSpace } from "../storage-errors.ts";

export type EmbeddedEventStoreOptions = {
  dir: string;
  /** How often subscriptions look for appends made by other processes. Default 250 ms. */
  pollIntervalMs?: number;
  /** Told when an append finds the file system full (before the append's StorageFullError is thrown). */
  storageSpace?: StorageSpace;
};

type AppendVerdict =
  | { kind: "appended"; result: AppendResult; firstPosition: number }
  | { kind: "retried"; result: AppendResult }
  | { kind: "conflict"; actual: number }
  | { kind: "partialDuplicate"; duplicateIds: string[] };

const SUBSCRIPTION_PAGE = 256;

export function createEmbeddedEventStore(options: EmbeddedEventStoreOptions): EventStore {
  const pollIntervalMs = options.pollIntervalMs ?? 250;
  const root: RootDatabase = open({
    path: join(options.dir, "events.lmdb"),
    // The commit promise must mean "durable": see the header comment.
    overlappingSync: true, // acknowledged after `flushed`: see the header comment
    maxDbs: 8,
    mapSize: LMDB_MAP_BYTES,
    ...LMDB_WRITE_OPTIONS, // a failed commit must not be an unhandled rejection
  });
  const guardCommit = createCommitGuard(options.dir, options.storageSpace);
  const events: Database<StoredEvent, number> = root.openDB({ name: "events" });
  const streams: Database<number, string> = root.openDB({ name: "streams" });
  const streamIndex: Database<number, [string, number]> = root.openDB({ name: "streamIndex" });
  const eventIds: Database<number, string> = root.openDB({ name: "eventIds" });

  let closed = false;
  const pendingWrites = new Set<Promise<unknown>>();
  const wakeListeners = new Set<() => void>();
  const appendListeners = new Set<(lastPosition: number) => void>();
  const subscriptions = new Set<Subscription>();

  function lastPosition(): number {
    for (const key of events.getKeys({ reverse: true, limit: 1 })) return key;
    return 0;
  }

  function notifySubscribers(): void {
    for (const wake of wakeListeners) wake();
  }

  /** Runs inside the write transaction: decide, then (only if appending) write. */
  function appendInTransaction(
    streamName: string,
    batch: NewEvent[],
    expected: ExpectedStreamVersion,
  ): AppendVerdict {
    const existingPositions = batch.map((event) => eventIds.get(event.id));
    if (existingPositions.some((position) => position !== undefined)) {
      return judgeRetry(streamName, batch, existingPositions);
    }
    const current = streams.get(streamName) ?? -1;
    if (!matchesExpectedVersion(expected, current)) return { kind: "conflict", actual: current };
    if (batch.length === 0) {
      return {
        kind: "retried",
        result: { nextExpectedStreamVersion: current, createdNewStream: false, lastPosition: lastPosition() },
      };
    }
    const firstPosition = lastPosition() + 1;
    batch.forEach((event, index) => {
      const stored: StoredEvent = {
        ...event,
        streamName,
        streamVersion: current + 1 + index,
        position: firstPosition + index,
      };
      events.putSync(stored.position, stored);
      streamIndex.putSync([streamName, stored.streamVersion], stored.position);
      eventIds.putSync(event.id, stored.position);
    });
    const nextVersion = current + batch.length;
    streams.putSync(streamName, nextVersion);
    return {
      kind: "appended",
      firstPosition,
      result: {
        nextExpectedStreamVersion: nextVersion,
        createdNewStream: current === -1,
        lastPosition: firstPosition + batch.length - 1,
      },
    };
  }

  /** Some ids already exist: the batch is a retry only if it is exactly an earlier append. */
  function judgeRetry(
    streamName: string,
    batch: NewEvent[],
    existingPositions: (number | undefined)[],
  ): AppendVerdict {
    const stored = existingPositions.map((position) =>
      position === undefined ? undefined : events.get(position),
    );
    const first = stored[0];
    const isSameAppend =
      first !== undefined &&
      stored.every(
        (event, index) =>
          event !== undefined &&
          event.streamName === streamName &&
          event.streamVersion === first.streamVersion + index &&
          event.position === first.position + index,
      );
    if (!isSameAppend) {
      return {
        kind: "partialDuplicate",
        duplicateIds: batch.filter((_, index) => existingPositions[index] !== undefined).map((e) => e.id),
      };
    }
    const last = stored[stored.length - 1] as StoredEvent;
    return {
      kind: "retried",
      result: {
        nextExpectedStreamVersion: last.streamVersion,
        createdNewStream: first.streamVersion === 0,
        lastPosition: last.position,
      },
    };
  }

  async function appendToStream(
    streamName: string,
    batch: NewEvent[],
    appendOptions?: { expectedStreamVersion?: ExpectedStreamVersion },
  ): Promise<AppendResult> {
    if (closed) throw new Error("Event store is closed");
    const ids = new Set(batch.map((event) => event.id));
    if (ids.size !== batch.length) {
      throw new DuplicateEventIdError(streamName, [...findDuplicates(batch.map((e) => e.id))]);
    }
    const expected = appendOptions?.expectedStreamVersion ?? "any";
    const { committed: write, synced } = guardCommit.transaction(root, () => appendInTransaction(streamName, batch, expected));
    pendingWrites.add(write);
    let verdict: AppendVerdict;
    try {
      verdict = await write;
      if (verdict.kind === "appended") await synced; // durable before it is acknowledged
    } finally {
      pendingWrites.delete(write);
    }
    switch (verdict.kind) {
      case "appended":
        notifySubscribers();
        for (const listener of appendListeners) listener(verdict.result.lastPosition);
        return verdict.result;
      case "retried":
        return verdict.result;
      case "conflict":
        throw new ExpectedVersionConflictError(streamName, expected, verdict.actual);
      case "partialDuplicate":
        throw new DuplicateEventIdError(streamName, verdict.duplicateIds);
    }
  }

  function readAllSync(fromPosition: number, maxCount: number): StoredEvent[] {
    const result: StoredEvent[] = [];
    for (const { value } of events.getRange({ start: fromPosition + 1, limit: maxCount })) {
      result.push(value);
    }
    return result;
  }

  async function readStream(
    streamName: string,
    readOptions?: { from?: number; maxCount?: number },
  ): Promise<ReadStreamResult> {
    const current = streams.get(streamName);
    if (current === undefined) return { currentStreamVersion: -1, events: [], streamExists: false };
    const from = Math.max(0, readOptions?.from ?? 0);
    const found: StoredEvent[] = [];
    for (const { value: position } of streamIndex.getRange({
      start: [streamName, from],
      end: [streamName, current + 1],
      limit: readOptions?.maxCount ?? Infinity,
    })) {
      const event = events.get(position);
      if (event) found.push(event);
    }
    return { currentStreamVersion: current, events: found, streamExists: true };
  }

  async function readAll(readOptions?: { fromPosition?: number; maxCount?: number }): Promise<StoredEvent[]> {
    return readAllSync(readOptions?.fromPosition ?? 0, readOptions?.maxCount ?? Infinity);
  }

  async function readAllBackwards(readOptions?: {
    beforePosition?: number;
    maxCount?: number;
  }): Promise<StoredEvent[]> {
    const before = readOptions?.beforePosition;
    const range = events.getRange({
      reverse: true,
      ...(before === undefined ? {} : { start: before - 1 }),
      limit: readOptions?.maxCount ?? Infinity,
    });
    const result: StoredEvent[] = [];
    for (const { value } of range) result.push(value);
    return result;
  }

  function subscribeToAll(subscribeOptions: SubscribeOptions): Subscription {
    let checkpoint = subscribeOptions.fromPosition ?? 0;
    let stopped = false;
    let wakeCount = 0;
    let wakeUp: (() => void) | undefined;
    const wake = () => {
      wakeCount++;
      wakeUp?.();
    };
    wakeListeners.add(wake);

    const sleepUntilWokenOrPolled = (seenWakeCount: number) =>
      new Promise<void>((resolve) => {
        if (stopped || wakeCount !== seenWakeCount) return resolve();
        const timer = setTimeout(done, pollIntervalMs);
        function done() {
          clearTimeout(timer);
          wakeUp = undefined;
          resolve();
        }
        wakeUp = done;
      });

    const run = async () => {
      let caughtUp = false;
      while (!stopped) {
        // Take the wake counter before reading: a notification that lands while we deliver
        // makes the next sleep return at once instead of waiting for the poll.
        const seenWakeCount = wakeCount;
        const page = readAllSync(checkpoint, SUBSCRIPTION_PAGE);
        for (const event of page) {
          if (stopped) return;
          await subscribeOptions.onEvent(event);
          checkpoint = event.position;
        }
        if (page.length < SUBSCRIPTION_PAGE) {
          if (!caughtUp) {
            caughtUp = true;
            subscribeOptions.onCaughtUp?.();
          }
          await sleepUntilWokenOrPolled(seenWakeCount);
        }
      }
    };

    const running = run()
      .catch((error: unknown) => {
        stopped = true;
        if (subscribeOptions.onError) subscribeOptions.onError(error);
        else console.error("event store subscription stopped", error);
      })
      .finally(() => wakeListeners.delete(wake));

    const subscription: Subscription = {
      async stop() {
        stopped = true;
        wakeUp?.();
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
    await guardCommit.settle(root);
    await root.close();
  }

  return {
    appendToStream,
    readStream,
    readAll,
    readAllBackwards,
    subscribeToAll,
    watchAppends(listener) {
      appendListeners.add(listener);
      return { stop: () => void appendListeners.delete(listener) };
    },
    headPosition: async () => lastPosition(),
    close,
  };
}

function findDuplicates(ids: string[]): Set<string> {
  const seen = new Set<string>();
  const duplicates = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) duplicates.add(id);
    seen.add(id);
  }
  return duplicates;
}
