import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createEmbeddedEventStore } from "../../src/eventstore/embedded.ts";
import { DuplicateEventIdError } from "../../src/eventstore/port.ts";
import type { EventStore, StoredEvent } from "../../src/eventstore/port.ts";
import { eventStoreContract, newEvent, uniqueStream } from "../contract/eventstore.contract.ts";

const appenderScript = fileURLToPath(new URL("../support/crash-appender.ts", import.meta.url));

async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), "loupe-es-"));
}

eventStoreContract("embedded lmdb", async () => {
  const dir = await tempDir();
  const store = createEmbeddedEventStore({ dir });
  return {
    store,
    async cleanup() {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});

describe("embedded event store specifics", () => {
  const opened: { store: EventStore; dir: string }[] = [];
  async function openStore(dir?: string) {
    const where = dir ?? (await tempDir());
    const store = createEmbeddedEventStore({ dir: where, pollIntervalMs: 50 });
    opened.push({ store, dir: where });
    return { store, dir: where };
  }
  afterEach(async () => {
    for (const { store, dir } of opened.splice(0)) {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("numbers positions 1, 2, 3... across streams, and headPosition is 0 when empty", async () => {
    const { store } = await openStore();
    expect(await store.headPosition()).toBe(0);
    await store.appendToStream("a", [newEvent(), newEvent()]);
    await store.appendToStream("b", [newEvent()]);
    const all = await store.readAll();
    expect(all.map((event) => event.position)).toEqual([1, 2, 3]);
    expect(await store.headPosition()).toBe(3);
  });

  it("keeps everything across close and reopen, and carries on numbering", async () => {
    const { store, dir } = await openStore();
    const stream = uniqueStream("reopen");
    await store.appendToStream(stream, [newEvent(), newEvent()], { expectedStreamVersion: "no_stream" });
    const before = await store.readAll();
    await store.close();

    const reopened = createEmbeddedEventStore({ dir });
    try {
      expect(await reopened.readAll()).toEqual(before);
      expect((await reopened.readStream(stream)).currentStreamVersion).toBe(1);
      const next = await reopened.appendToStream(stream, [newEvent()], { expectedStreamVersion: 1 });
      expect(next).toEqual({ nextExpectedStreamVersion: 2, createdNewStream: false, lastPosition: 3 });
    } finally {
      await reopened.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("rejects a batch that partly repeats stored event ids, writing nothing", async () => {
    const { store } = await openStore();
    const stream = uniqueStream("overlap");
    const stored = [newEvent(), newEvent()];
    await store.appendToStream(stream, stored);
    const fresh = newEvent();
    await expect(store.appendToStream(stream, [stored[1]!, fresh])).rejects.toBeInstanceOf(DuplicateEventIdError);
    await expect(store.appendToStream(uniqueStream("other"), stored)).rejects.toBeInstanceOf(DuplicateEventIdError);
    const repeatedInBatch = newEvent();
    await expect(store.appendToStream(stream, [repeatedInBatch, repeatedInBatch])).rejects.toBeInstanceOf(DuplicateEventIdError);
    expect((await store.readAll()).map((event) => event.id)).toEqual(stored.map((event) => event.id));
  });

  it("an append that resolved before close is there after reopening", async () => {
    const { store, dir } = await openStore();
    const writes = Array.from({ length: 50 }, (_, n) => store.appendToStream(`s-${n % 4}`, [newEvent()]));
    await store.close(); // must wait for the 50 in-flight appends
    const results = await Promise.all(writes);
    const reopened = createEmbeddedEventStore({ dir });
    try {
      expect(await reopened.headPosition()).toBe(50);
      expect(results.map((result) => result.lastPosition).sort((x, y) => x - y)).toEqual(
        Array.from({ length: 50 }, (_, n) => n + 1),
      );
    } finally {
      await reopened.close();
    }
  });

  it("delivers events appended by another process to a subscriber", async () => {
    const { store, dir } = await openStore();
    const seen: StoredEvent[] = [];
    const subscription = store.subscribeToAll({ onEvent: (event) => void seen.push(event) });
    try {
      const exitCode = await new Promise<number | null>((resolve, reject) => {
        const child = spawn(process.execPath, ["--import", "tsx", appenderScript, dir, "count", "25"], {
          stdio: ["ignore", "ignore", "inherit"],
        });
        child.on("error", reject);
        child.on("exit", resolve);
      });
      expect(exitCode).toBe(0);
      const deadline = Date.now() + 5_000;
      while (seen.length < 25 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(seen.map((event) => event.position)).toEqual(Array.from({ length: 25 }, (_, n) => n + 1));
    } finally {
      await subscription.stop();
    }
  });
});
