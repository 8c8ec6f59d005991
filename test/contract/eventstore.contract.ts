/**
 * Contract every EventStore adapter must satisfy. Call eventStoreContract() inside a spec file.
 *
 * Tests work relative to the log's head at their start and use unique stream names, so they
 * also hold against a long-lived real server that already contains data. Positions are only
 * required to increase strictly (EventStoreDB's are log offsets); adapter specs check more.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ulid } from "ulid";
import { ExpectedVersionConflictError } from "../../src/eventstore/port.ts";
import type { EventStore, NewEvent, StoredEvent } from "../../src/eventstore/port.ts";

export type StoreFactory = () => Promise<{ store: EventStore; cleanup(): Promise<void> }>;

export function newEvent(overrides: Partial<NewEvent> = {}): NewEvent {
  return {
    id: ulid(),
    type: "TestHappened",
    schemaVersion: 1,
    time: new Date().toISOString(),
    data: { n: 1 },
    metadata: { orgId: "org-1", actor: "key-1", correlationId: ulid(), causationId: null },
    ...overrides,
  };
}

export function uniqueStream(prefix = "test"): string {
  return `${prefix}-${ulid()}`;
}

function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const check = () => {
      if (condition()) return resolve();
      if (Date.now() - started > timeoutMs) return reject(new Error("timed out waiting for condition"));
      setTimeout(check, 5);
    };
    check();
  });
}

export function eventStoreContract(label: string, makeStore: StoreFactory): void {
  describe(`EventStore contract: ${label}`, () => {
    let store: EventStore;
    let cleanup: () => Promise<void>;

    beforeEach(async () => {
      ({ store, cleanup } = await makeStore());
    });
    afterEach(async () => {
      await cleanup();
    });

    async function readOwn(fromPosition: number, streams: string[]): Promise<StoredEvent[]> {
      return (await store.readAll({ fromPosition })).filter((event) => streams.includes(event.streamName));
    }

    it("round-trips every envelope field through append, readStream and readAll", async () => {
      const stream = uniqueStream("roundtrip");
      const first = newEvent({
        type: "RepositoryRegistered",
        schemaVersion: 3,
        time: "2024-05-06T07:08:09.123Z",
        data: { name: "loupe", nested: { list: [1, "two", null], flag: true } },
        metadata: { orgId: "org-9", actor: "webhook:github", correlationId: ulid(), causationId: ulid() },
      });
      const second = newEvent({ type: "RepositoryRenamed", data: { name: "loupe2" } });

      const result = await store.appendToStream(stream, [first, second]);
      const read = await store.readStream(stream);

      expect(read.streamExists).toBe(true);
      expect(read.currentStreamVersion).toBe(1);
      expect(read.events).toHaveLength(2);
      const [storedFirst, storedSecond] = read.events as [StoredEvent, StoredEvent];
      expect(storedFirst).toEqual({ ...first, streamName: stream, streamVersion: 0, position: storedFirst.position });
      expect(storedSecond).toEqual({ ...second, streamName: stream, streamVersion: 1, position: storedSecond.position });
      expect(storedSecond.position).toBeGreaterThan(storedFirst.position);
      expect(result).toEqual({ nextExpectedStreamVersion: 1, createdNewStream: true, lastPosition: storedSecond.position });

      const all = await readOwn(storedFirst.position - 1, [stream]);
      expect(all).toEqual(read.events);

      const more = await store.appendToStream(stream, [newEvent()]);
      expect(more.createdNewStream).toBe(false);
      expect(more.nextExpectedStreamVersion).toBe(2);
      expect(await store.headPosition()).toBeGreaterThanOrEqual(more.lastPosition);
    });

    it("reports a missing stream and reads streams with from and maxCount", async () => {
      const missing = await store.readStream(uniqueStream("missing"));
      expect(missing).toEqual({ currentStreamVersion: -1, events: [], streamExists: false });

      const stream = uniqueStream("slice");
      await store.appendToStream(stream, Array.from({ length: 5 }, (_, n) => newEvent({ data: { n } })));
      const slice = await store.readStream(stream, { from: 1, maxCount: 2 });
      expect(slice.currentStreamVersion).toBe(4);
      expect(slice.events.map((event) => event.streamVersion)).toEqual([1, 2]);
      expect(slice.events.map((event) => event.data["n"])).toEqual([1, 2]);
      expect((await store.readStream(stream, { from: 3 })).events.map((e) => e.streamVersion)).toEqual([3, 4]);
    });

    describe("expected versions", () => {
      it("accepts matching expectations", async () => {
        const stream = uniqueStream("expect-ok");
        expect((await store.appendToStream(stream, [newEvent()], { expectedStreamVersion: "no_stream" })).nextExpectedStreamVersion).toBe(0);
        expect((await store.appendToStream(stream, [newEvent()], { expectedStreamVersion: 0 })).nextExpectedStreamVersion).toBe(1);
        expect((await store.appendToStream(stream, [newEvent()], { expectedStreamVersion: "stream_exists" })).nextExpectedStreamVersion).toBe(2);
        expect((await store.appendToStream(stream, [newEvent()], { expectedStreamVersion: "any" })).nextExpectedStreamVersion).toBe(3);
        expect((await store.appendToStream(uniqueStream("expect-any"), [newEvent()], { expectedStreamVersion: "any" })).createdNewStream).toBe(true);
      });

      it("treats -1 as the version of a stream that does not exist yet", async () => {
        const stream = uniqueStream("expect-minus-one");
        const first = await store.appendToStream(stream, [newEvent()], { expectedStreamVersion: -1 });
        expect(first).toMatchObject({ nextExpectedStreamVersion: 0, createdNewStream: true });
        await expect(store.appendToStream(stream, [newEvent()], { expectedStreamVersion: -1 })).rejects.toBeInstanceOf(ExpectedVersionConflictError);
      });

      it.each([
        { name: "an exact version that is behind", expected: 0 as const, actual: 1 },
        { name: "an exact version that is ahead", expected: 5 as const, actual: 1 },
        { name: "no_stream on an existing stream", expected: "no_stream" as const, actual: 1 },
      ])("rejects $name with ExpectedVersionConflictError and writes nothing", async ({ expected, actual }) => {
        const stream = uniqueStream("expect-conflict");
        await store.appendToStream(stream, [newEvent(), newEvent()]);
        const headBefore = await store.headPosition();

        const rejected = [newEvent(), newEvent()];
        const error = await store.appendToStream(stream, rejected, { expectedStreamVersion: expected }).catch((e: unknown) => e);

        expect(error).toBeInstanceOf(ExpectedVersionConflictError);
        expect(error).toMatchObject({ streamName: stream, expected, actual });
        const after = await store.readStream(stream);
        expect(after.currentStreamVersion).toBe(1);
        expect(after.events.map((event) => event.id)).not.toContain(rejected[0]?.id);
        expect(await store.headPosition()).toBe(headBefore);
      });

      it("rejects stream_exists and exact versions on a missing stream", async () => {
        const stream = uniqueStream("expect-missing");
        const exists = await store.appendToStream(stream, [newEvent()], { expectedStreamVersion: "stream_exists" }).catch((e: unknown) => e);
        expect(exists).toBeInstanceOf(ExpectedVersionConflictError);
        expect(exists).toMatchObject({ streamName: stream, expected: "stream_exists", actual: -1 });
        const exact = await store.appendToStream(stream, [newEvent()], { expectedStreamVersion: 0 }).catch((e: unknown) => e);
        expect(exact).toMatchObject({ name: "ExpectedVersionConflictError", actual: -1 });
        expect((await store.readStream(stream)).streamExists).toBe(false);
      });
    });

    describe("reading $all", () => {
      async function appendInterleaved() {
        const base = await store.headPosition();
        const a = uniqueStream("all-a");
        const b = uniqueStream("all-b");
        await store.appendToStream(a, [newEvent({ data: { step: 1 } })]);
        await store.appendToStream(b, [newEvent({ data: { step: 2 } }), newEvent({ data: { step: 3 } })]);
        await store.appendToStream(a, [newEvent({ data: { step: 4 } })]);
        return { base, a, b };
      }

      it("returns events of all streams in append order, positions strictly increasing", async () => {
        const { base, a, b } = await appendInterleaved();
        const events = await readOwn(base, [a, b]);
        expect(events.map((event) => event.data["step"])).toEqual([1, 2, 3, 4]);
        expect(events.map((event) => event.streamName)).toEqual([a, b, b, a]);
        for (let i = 1; i < events.length; i++) {
          expect(events[i]!.position).toBeGreaterThan(events[i - 1]!.position);
        }
        expect(events.every((event) => event.position > base)).toBe(true);
      });

      it("reads strictly after fromPosition and honours maxCount", async () => {
        const { base, a, b } = await appendInterleaved();
        const events = await readOwn(base, [a, b]);
        const afterFirst = await store.readAll({ fromPosition: events[0]!.position, maxCount: 2 });
        expect(afterFirst.map((event) => event.id)).toEqual([events[1]!.id, events[2]!.id]);
        const afterLast = await store.readAll({ fromPosition: events[3]!.position });
        expect(afterLast.map((event) => event.id)).not.toContain(events[3]!.id);
        expect(afterLast.every((event) => event.position > events[3]!.position)).toBe(true);
      });

      it("reads backwards, newest first, strictly before beforePosition", async () => {
        const { a, b, base } = await appendInterleaved();
        const events = await readOwn(base, [a, b]);
        const newest = await store.readAllBackwards({ maxCount: 4 });
        expect(newest.map((event) => event.id)).toEqual([...events].reverse().map((event) => event.id));
        const beforeLast = await store.readAllBackwards({ beforePosition: events[3]!.position, maxCount: 2 });
        expect(beforeLast.map((event) => event.id)).toEqual([events[2]!.id, events[1]!.id]);
        expect(await store.headPosition()).toBe(events[3]!.position);
      });
    });

    describe("subscribeToAll", () => {
      it("catches up from a checkpoint, goes live, and delivers one event at a time in order", async () => {
        const base = await store.headPosition();
        const stream = uniqueStream("sub");
        const before = Array.from({ length: 4 }, (_, n) => newEvent({ data: { n } }));
        for (const event of before) await store.appendToStream(stream, [event]);
        const [first] = (await store.readStream(stream)).events;

        const seen: StoredEvent[] = [];
        let inFlight = 0;
        let maxInFlight = 0;
        let caughtUpAfter = -1;
        const subscription = store.subscribeToAll({
          fromPosition: first!.position,
          async onEvent(event) {
            inFlight++;
            maxInFlight = Math.max(maxInFlight, inFlight);
            await new Promise((resolve) => setTimeout(resolve, 1));
            if (event.streamName === stream) seen.push(event);
            inFlight--;
          },
          onCaughtUp() {
            caughtUpAfter = seen.length;
          },
        });
        try {
          await waitFor(() => caughtUpAfter >= 0);
          expect(caughtUpAfter).toBe(3);
          const live = [newEvent({ data: { n: 4 } }), newEvent({ data: { n: 5 } })];
          await store.appendToStream(stream, live);
          await waitFor(() => seen.length === 5);
          expect(seen.map((event) => event.data["n"])).toEqual([1, 2, 3, 4, 5]);
          expect(maxInFlight).toBe(1);
          expect(base).toBeLessThan(first!.position);
        } finally {
          await subscription.stop();
        }
      });

      it("misses nothing and repeats nothing when appends race the catch-up", async () => {
        const base = await store.headPosition();
        const streams = [uniqueStream("race-a"), uniqueStream("race-b"), uniqueStream("race-c")];
        const preexisting = 300;
        for (let i = 0; i < preexisting; i += 30) {
          await store.appendToStream(
            streams[(i / 30) % 3]!,
            Array.from({ length: 30 }, (_, n) => newEvent({ data: { n: i + n } })),
          );
        }
        const delivered: StoredEvent[] = [];
        const subscription = store.subscribeToAll({
          fromPosition: base,
          async onEvent(event) {
            if (streams.includes(event.streamName)) delivered.push(event);
            if (delivered.length % 50 === 0) await new Promise((resolve) => setTimeout(resolve, 2));
          },
        });
        try {
          const racing = 150;
          const appends: Promise<unknown>[] = [];
          for (let i = 0; i < racing; i++) {
            appends.push(store.appendToStream(streams[i % 3]!, [newEvent({ data: { n: preexisting + i } })]));
            if (i % 10 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
          }
          await Promise.all(appends);
          await waitFor(() => delivered.length >= preexisting + racing);
          await new Promise((resolve) => setTimeout(resolve, 100)); // room for duplicates to show
          const expected = await readOwn(base, streams);
          expect(expected).toHaveLength(preexisting + racing);
          expect(delivered.map((event) => event.id)).toEqual(expected.map((event) => event.id));
          expect(new Set(delivered.map((event) => event.id)).size).toBe(delivered.length);
        } finally {
          await subscription.stop();
        }
      });

      it("stops delivering after stop()", async () => {
        const stream = uniqueStream("stop");
        let count = 0;
        const subscription = store.subscribeToAll({
          fromPosition: await store.headPosition(),
          onEvent(event) {
            if (event.streamName === stream) count++;
          },
        });
        await store.appendToStream(stream, [newEvent()]);
        await waitFor(() => count === 1);
        await subscription.stop();
        await store.appendToStream(stream, [newEvent()]);
        await new Promise((resolve) => setTimeout(resolve, 400));
        expect(count).toBe(1);
      });
    });

    it("lets exactly one of many concurrent appends with the same expected version win", async () => {
      const stream = uniqueStream("race");
      await store.appendToStream(stream, [newEvent()]);
      const contenders = Array.from({ length: 10 }, (_, n) => [newEvent({ data: { contender: n } }), newEvent()]);
      const outcomes = await Promise.allSettled(
        contenders.map((batch) => store.appendToStream(stream, batch, { expectedStreamVersion: 0 })),
      );
      const winners = outcomes.filter((outcome) => outcome.status === "fulfilled");
      const losers = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === "rejected");
      expect(winners).toHaveLength(1);
      expect(losers).toHaveLength(9);
      for (const loser of losers) expect(loser.reason).toBeInstanceOf(ExpectedVersionConflictError);
      const read = await store.readStream(stream);
      expect(read.currentStreamVersion).toBe(2);
      const winnerIndex = outcomes.findIndex((outcome) => outcome.status === "fulfilled");
      expect(read.events.slice(1).map((event) => event.id)).toEqual(contenders[winnerIndex]!.map((event) => event.id));
    });

    it("gives concurrent appends without expectations distinct versions and positions", async () => {
      const stream = uniqueStream("concurrent");
      const results = await Promise.all(
        Array.from({ length: 20 }, () => store.appendToStream(stream, [newEvent()])),
      );
      expect(new Set(results.map((result) => result.nextExpectedStreamVersion)).size).toBe(20);
      expect(new Set(results.map((result) => result.lastPosition)).size).toBe(20);
      const read = await store.readStream(stream);
      expect(read.events.map((event) => event.streamVersion)).toEqual(Array.from({ length: 20 }, (_, n) => n));
      const positions = read.events.map((event) => event.position);
      expect([...positions].sort((x, y) => x - y)).toEqual(positions);
    });

    it.each([
      { expectation: "no_stream" as const },
      { expectation: "any" as const },
    ])("treats a retry of the same batch ($expectation) as the original append", async ({ expectation }) => {
      const base = await store.headPosition();
      const stream = uniqueStream("retry");
      const batch = [newEvent(), newEvent(), newEvent()];
      const original = await store.appendToStream(stream, batch, { expectedStreamVersion: expectation });
      const retried = await store.appendToStream(stream, batch, { expectedStreamVersion: expectation });
      expect(retried).toEqual(original);
      const read = await store.readStream(stream);
      expect(read.events.map((event) => event.id)).toEqual(batch.map((event) => event.id));
      const all = await readOwn(base, [stream]);
      expect(all).toHaveLength(3);
    });

    it("close waits for pending appends, stops subscriptions and refuses new appends", async () => {
      const stream = uniqueStream("close");
      let delivered = 0;
      let stoppedCleanly = false;
      const subscription = store.subscribeToAll({
        fromPosition: await store.headPosition(),
        onEvent() {
          delivered++;
        },
      });
      const pending = store.appendToStream(stream, [newEvent()]);
      await store.close();
      await expect(pending).resolves.toMatchObject({ nextExpectedStreamVersion: 0 });
      await subscription.stop().then(() => (stoppedCleanly = true));
      expect(stoppedCleanly).toBe(true);
      const deliveredAtClose = delivered;
      await expect(store.appendToStream(stream, [newEvent()])).rejects.toThrow();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(delivered).toBe(deliveredAtClose);
    });
  });
}
