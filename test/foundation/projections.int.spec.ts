import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createEmbeddedEventStore } from "../../src/eventstore/embedded.ts";
import { createCatalogue, createCataloguedEventStore, defineEvent, InvalidEventError, UnknownEventTypeError } from "../../src/eventstore/catalogue.ts";
import { newEvent } from "../../src/eventstore/new-event.ts";
import type { EventStore } from "../../src/eventstore/port.ts";
import { createLmdbReadStore } from "../../src/readstore/lmdb.ts";
import type { ReadStore } from "../../src/readstore/port.ts";
import { createProjectionRunner, type Projection } from "../../projections/runner.ts";

const Counted = defineEvent("Counted", 1, z.object({ bucket: z.string() }));
const CountedV2 = defineEvent("Counted", 2, z.object({ bucket: z.string(), amount: z.number().int() }), (v1) => ({ ...v1, amount: 1 }));
const catalogue = createCatalogue([Counted, CountedV2]);
const ctx = { orgId: "org", actor: "test", correlationId: "c1" };

const counter = (version = 1): Projection => ({
  name: "counter",
  version,
  canHandle: ["Counted"],
  handle(events, { tx }) {
    for (const e of events) {
      const { bucket, amount } = e.data as { bucket: string; amount: number };
      // Idempotent: remember which event ids were applied.
      if (tx.get(["seen", e.id])) continue;
      tx.put(["seen", e.id], true);
      tx.put(["bucket", bucket], (tx.get<number>(["bucket", bucket]) ?? 0) + amount);
    }
  },
});

describe("projection runner", () => {
  const dirs: string[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  async function open(dir?: string) {
    const root = dir ?? mkdtempSync(join(tmpdir(), "loupe-proj-"));
    if (!dir) dirs.push(root);
    const eventStore: EventStore = createCataloguedEventStore(createEmbeddedEventStore({ dir: join(root, "events") }), catalogue);
    const readStore: ReadStore = createLmdbReadStore({ dir: join(root, "rm") });
    return { root, eventStore, readStore };
  }

  async function appendMany(eventStore: EventStore, n: number, version = 2) {
    let last = 0;
    for (let i = 0; i < n; i += 50) {
      const batch = Array.from({ length: Math.min(50, n - i) }, (_, j) =>
        newEvent("Counted", version === 1 ? { bucket: `b${(i + j) % 7}` } : { bucket: `b${(i + j) % 7}`, amount: 2 }, ctx, version),
      );
      last = (await eventStore.appendToStream(`s-${i % 3}`, batch)).lastPosition;
    }
    return last;
  }

  it("refuses unknown and invalid events, and upcasts old versions on read", async () => {
    const { eventStore, readStore } = await open();
    cleanups.push(() => eventStore.close(), () => readStore.close());
    await expect(eventStore.appendToStream("x", [newEvent("Nope", {}, ctx)])).rejects.toBeInstanceOf(UnknownEventTypeError);
    await expect(eventStore.appendToStream("x", [newEvent("Counted", { bucket: 3 }, ctx, 2)])).rejects.toBeInstanceOf(InvalidEventError);
    expect(await eventStore.headPosition()).toBe(0);
    await eventStore.appendToStream("x", [newEvent("Counted", { bucket: "old" }, ctx, 1)]);
    const [read] = await eventStore.readAll();
    expect(read).toMatchObject({ schemaVersion: 2, data: { bucket: "old", amount: 1 } });
  });

  it("builds the model live, reports lag, and waits for a position", async () => {
    const { eventStore, readStore } = await open();
    const runner = createProjectionRunner({ eventStore, readStore, projections: [counter()], batchSize: 100 });
    cleanups.push(() => eventStore.close(), () => readStore.close(), () => runner.stop());
    await runner.start();
    const last = await appendMany(eventStore, 700);
    expect(await runner.waitForPosition(last, 10_000)).toBe(true);
    const view = readStore.view("counter");
    const total = view.range<number>(["bucket"]).reduce((sum, e) => sum + e.value, 0);
    expect(total).toBe(1400);
    const [status] = await runner.status();
    expect(status).toMatchObject({ name: "counter", checkpoint: last, lag: 0 });
    expect(readStore.meta("counter")?.checkpoint).toBe(last);
  });

  it("rebuilds from zero to the same content, twice, while readers keep reading", async () => {
    const { eventStore, readStore } = await open();
    const runner = createProjectionRunner({ eventStore, readStore, projections: [counter()], batchSize: 64 });
    cleanups.push(() => eventStore.close(), () => readStore.close(), () => runner.stop());
    await runner.start();
    await runner.waitForPosition(await appendMany(eventStore, 1500), 10_000);
    const liveHash = readStore.contentHash("counter");

    let reading = true;
    let reads = 0;
    const emptyReads: number[] = [];
    const reader = (async () => {
      while (reading) {
        const total = readStore.view("counter").range<number>(["bucket"]).reduce((s, e) => s + e.value, 0);
        if (total !== 3000) emptyReads.push(total);
        reads++;
        await new Promise((r) => setImmediate(r));
      }
    })();
    await runner.rebuild("counter");
    expect(readStore.contentHash("counter")).toBe(liveHash);
    await runner.rebuild("counter");
    reading = false;
    await reader;
    expect(readStore.contentHash("counter")).toBe(liveHash);
    expect(reads).toBeGreaterThan(10);
    expect(emptyReads).toEqual([]);
    expect(readStore.meta("counter")?.generation).toBe(2);
  });

  it("resumes from its checkpoint after a restart and rebuilds when its version changes", async () => {
    const first = await open();
    let runner = createProjectionRunner({ eventStore: first.eventStore, readStore: first.readStore, projections: [counter(1)] });
    await runner.start();
    await runner.waitForPosition(await appendMany(first.eventStore, 200), 10_000);
    await runner.stop();
    const hash = first.readStore.contentHash("counter");
    await appendMany(first.eventStore, 100);
    await first.eventStore.close();
    await first.readStore.close();

    const second = await open(first.root);
    dirs.push(first.root);
    runner = createProjectionRunner({ eventStore: second.eventStore, readStore: second.readStore, projections: [counter(2)] });
    cleanups.push(() => second.eventStore.close(), () => second.readStore.close(), () => runner.stop());
    await runner.start();
    expect(second.readStore.meta("counter")).toMatchObject({ version: 2, generation: 1 });
    await runner.waitForPosition(await second.eventStore.headPosition(), 10_000);
    const total = second.readStore.view("counter").range<number>(["bucket"]).reduce((s, e) => s + e.value, 0);
    expect(total).toBe(600);
    expect(second.readStore.contentHash("counter")).not.toBe(hash);
  });

  it("projects appends as the store announces them, without the idle poll and without forced wake-ups", async () => {
    const { eventStore, readStore } = await open();
    const ignoring: Projection = { name: "ignoring", version: 1, canHandle: ["Other"], handle: () => {} };
    const projections = [counter(), { ...counter(), name: "counter2" }, ignoring];
    // An idle poll far beyond the waits' timeout: only append notices can wake the loops in time.
    const runner = createProjectionRunner({ eventStore, readStore, projections, batchSize: 100, idleMs: 60_000 });
    cleanups.push(() => eventStore.close(), () => readStore.close(), () => runner.stop());
    await runner.start();
    const reached = await Promise.all(
      Array.from({ length: 8 }, async (_, writer) => {
        const results: boolean[] = [];
        for (let i = 0; i < 25; i++) {
          const { lastPosition } = await eventStore.appendToStream(`w-${writer}`, [newEvent("Counted", { bucket: `b${writer}`, amount: 1 }, ctx, 2)]);
          results.push(await runner.waitForPosition(lastPosition, 5_000));
        }
        return results;
      }),
    );
    expect(reached.flat().every(Boolean)).toBe(true);
    expect(readStore.view("counter2").range<number>(["bucket"]).reduce((sum, e) => sum + e.value, 0)).toBe(200);
  }, 60_000);

  it("opens its wake-up subscription again after it fails (a store without append notices, like EventStoreDB)", async () => {
    const { eventStore, readStore } = await open();
    let subscriptions = 0;
    // The subscription of a store whose connection drops once: the first one fails, later ones work.
    const { watchAppends: _none, ...withoutNotices } = eventStore;
    const dropping: EventStore = {
      ...withoutNotices,
      subscribeToAll(options) {
        if (++subscriptions > 1) return eventStore.subscribeToAll(options);
        const failure = setTimeout(() => options.onError?.(new Error("connection dropped")), 20);
        return { stop: async () => clearTimeout(failure) };
      },
    };
    // An idle poll far beyond the test: only the subscription can wake the loops in time.
    const runner = createProjectionRunner({ eventStore: dropping, readStore, projections: [counter()], idleMs: 60_000 });
    cleanups.push(() => eventStore.close(), () => readStore.close(), () => runner.stop());
    await runner.start();
    await new Promise((r) => setTimeout(r, 1_000)); // the failure, then the reopening after 0.5 s
    expect(subscriptions).toBe(2);
    await eventStore.appendToStream("s", [newEvent("Counted", { bucket: "late", amount: 3 }, ctx, 2)]);
    // Read the model itself: waitForPosition would wake the loops on its own.
    const deadline = Date.now() + 5_000;
    while (readStore.view("counter").get<number>(["bucket", "late"]) === undefined && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(readStore.view("counter").get<number>(["bucket", "late"])).toBe(3);
  });

  it("rebuilds a read model whose checkpoint is past the log's head (appends a machine crash took back)", async () => {
    const { eventStore, readStore } = await open();
    const last = await appendMany(eventStore, 20);
    let runner = createProjectionRunner({ eventStore, readStore, projections: [counter()] });
    await runner.start();
    expect(await runner.waitForPosition(last, 10_000)).toBe(true);
    await runner.stop();
    // The read model saw two more events than the log kept.
    const meta = readStore.meta("counter")!;
    await readStore.commit("counter", meta.generation, last + 2, meta.version, (tx) => tx.put(["bucket", "lost"], 2));
    runner = createProjectionRunner({ eventStore, readStore, projections: [counter()] });
    cleanups.push(() => eventStore.close(), () => readStore.close(), () => runner.stop());
    await runner.start();
    expect(readStore.meta("counter")!.generation).toBe(meta.generation + 1);
    expect(readStore.meta("counter")!.checkpoint).toBe(last);
    const buckets = readStore.view("counter").range<number>(["bucket"]);
    expect(buckets.some((e) => e.key.includes("lost"))).toBe(false);
    expect(buckets.reduce((sum, e) => sum + e.value, 0)).toBe(40);
  });

  it("reads each batch once for projections at the same position, and stores a checkpoint past ignored events at stop", async () => {
    const { root, eventStore, readStore } = await open();
    let reads = 0; // reads that returned events
    const counting: EventStore = {
      ...eventStore,
      readAll: async (...args) => {
        const events = await eventStore.readAll(...args);
        if (events.length > 0) reads++;
        return events;
      },
    };
    const ignoring: Projection = { name: "ignoring", version: 1, canHandle: ["Other"], handle: () => {} };
    const projections = [counter(), { ...counter(), name: "counter2" }, { ...counter(), name: "counter3" }, ignoring];
    const runner = createProjectionRunner({ eventStore: counting, readStore, projections, batchSize: 100, idleMs: 60_000 });
    await runner.start();
    reads = 0;
    const last = await appendMany(eventStore, 50);
    expect(await runner.waitForPosition(last, 10_000)).toBe(true);
    // Four projections, one new batch: read once.
    expect(reads).toBe(1);
    expect(readStore.meta("counter")?.checkpoint).toBe(last);
    expect(readStore.meta("ignoring")?.checkpoint ?? 0).toBeLessThan(last); // not written per batch
    await runner.stop();
    expect(readStore.meta("ignoring")?.checkpoint).toBe(last); // stored at stop
    await eventStore.close();
    await readStore.close();

    // A crash before the checkpoint was stored only means the ignored events are read again.
    const reopened = await open(root);
    const again = createProjectionRunner({ eventStore: reopened.eventStore, readStore: reopened.readStore, projections, batchSize: 100 });
    cleanups.push(() => reopened.eventStore.close(), () => reopened.readStore.close(), () => again.stop());
    await again.start();
    expect(await again.waitForPosition(last, 10_000)).toBe(true);
    const total = reopened.readStore.view("counter2").range<number>(["bucket"]).reduce((sum, e) => sum + e.value, 0);
    expect(total).toBe(100);
  });
});

describe("lmdb read store ranges", () => {
  it("includes keys whose next part starts beyond U+FFFF and excludes siblings of the prefix", async () => {
    const dir = mkdtempSync(join(tmpdir(), "loupe-rs-"));
    const readStore = createLmdbReadStore({ dir });
    try {
      await readStore.commit("space", 0, 1, 1, (tx) => {
        tx.put(["a", "x"], 1);
        tx.put(["a", "\uffff"], 2);
        tx.put(["a", "😀 emoji"], 3);
        tx.put(["a", "\u{10FFFF}"], 4);
        tx.put(["ab", "y"], 5);
        tx.put(["b", "z"], 6);
      });
      expect(readStore.view("space").range<number>(["a"]).map((e) => e.value)).toEqual([1, 2, 3, 4]);
      expect(readStore.view("space").count(["a"])).toBe(4);
    } finally {
      await readStore.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
