import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { ulid } from "ulid";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLmdbReadStore } from "../../src/readstore/lmdb.ts";
import { createMemoryReadStore } from "../../src/readstore/memory.ts";
import type { Key, ReadStore } from "../../src/readstore/port.ts";
import { createEmbeddedEventStore } from "../../src/eventstore/embedded.ts";
import { createCataloguedEventStore } from "../../src/eventstore/catalogue.ts";
import { newEvent } from "../../src/eventstore/new-event.ts";
import { catalogue } from "../../src/features/catalogue.ts";
import { createProjectionRunner } from "../../projections/runner.ts";
import { allProjections } from "../../src/features/read-models.ts";
import { replayAsOf } from "../../src/audit/as-of.ts";

describe("in-memory read store against the lmdb one", () => {
  let dir: string;
  let lmdb: ReadStore;
  const memory = createMemoryReadStore();
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "loupe-memstore-"));
    lmdb = createLmdbReadStore({ dir: join(dir, "readmodels") });
  });
  afterAll(async () => {
    await lmdb.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("orders keys, answers ranges and hashes content exactly like lmdb", async () => {
    // Not astral-plane characters: lmdb.ts's range end bound ("\uffff\uffff") sorts below them in UTF-8.
    const strings = ["", "a", "ab", "b", "Z", "é", "\uffef", "org1", "org10", "org2", "k-1", "k_1"];
    const keys: Key[] = [];
    for (const a of ["x", "y", 1, 2, 10, -1, 1.5]) {
      for (const b of strings) keys.push([a, b]);
      keys.push([a]);
      keys.push([a, 3, "z"]);
      keys.push([a, 0]);
    }
    const write = (tx: { put(k: Key, v: unknown): void; remove(k: Key): void }) => {
      keys.forEach((k, i) => tx.put(k, { i, k, nested: { list: [i, String(k)] } }));
      tx.remove(["y", "ab"]);
      tx.put(["x", "a"], { replaced: true });
    };
    await lmdb.commit("m", 0, 1, 1, write);
    await memory.commit("m", 0, 1, 1, write);

    for (const prefix of [[], ["x"], ["y"], [1], [10], ["x", "a"], ["x", "org1"], ["nope"]] as Key[]) {
      expect(memory.view("m").range(prefix), JSON.stringify(prefix)).toEqual(lmdb.view("m").range(prefix));
      expect(memory.view("m").count(prefix)).toBe(lmdb.view("m").count(prefix));
      const options = { reverse: true, limit: 3, offset: 1 };
      expect(memory.view("m").range(prefix, options)).toEqual(lmdb.view("m").range(prefix, options));
    }
    expect(memory.view("m").get(["x", "é"])).toEqual(lmdb.view("m").get(["x", "é"]));
    expect(memory.contentHash("m")).toBe(lmdb.contentHash("m"));
  });

  it("commits all or nothing", async () => {
    await memory.commit("t", 0, 1, 1, (tx) => tx.put(["a"], 1));
    await expect(
      memory.commit("t", 0, 2, 1, (tx) => {
        tx.put(["a"], 2);
        tx.put(["b"], 3);
        tx.remove(["a"]);
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    // (lmdb hands a one-element key back as its element; the memory store does the same.)
    expect(memory.view("t").range([])).toEqual([{ key: "a", value: 1 }]);
    expect(memory.meta("t")?.checkpoint).toBe(1);
  });
});

describe("a read model replayed as of the head equals the one the runner built", () => {
  it("has the same content hash for every projection", async () => {
    const dir = mkdtempSync(join(tmpdir(), "loupe-asof-"));
    const eventStore = createCataloguedEventStore(createEmbeddedEventStore({ dir: join(dir, "events") }), catalogue);
    const readStore = createLmdbReadStore({ dir: join(dir, "readmodels") });
    try {
      for (let o = 0; o < 3; o++) {
        const orgId = ulid();
        const ctx = { orgId, actor: "system", correlationId: ulid() };
        await eventStore.appendToStream(`organisation-${orgId}`, [newEvent("OrganisationCreated", { orgId, name: `org ${o}` }, ctx)]);
        for (let k = 0; k < 40; k++) {
          const keyId = ulid();
          const data = { keyId, orgId, name: `k${k}`, role: k % 2 ? "member" : "admin", keyHash: randomBytes(32).toString("hex"), bootstrap: false };
          const events = [newEvent("ApiKeyIssued", data, ctx)];
          if (k % 3 === 0) events.push(newEvent("ApiKeyRevoked", { keyId, orgId, reason: null }, ctx));
          await eventStore.appendToStream(`apikey-${keyId}`, events);
        }
      }
      const runner = createProjectionRunner({ eventStore, readStore, projections: allProjections });
      await runner.start();
      expect(await runner.waitForPosition(await eventStore.headPosition(), 20_000)).toBe(true);
      await runner.stop();
      const replayed = await replayAsOf(eventStore, allProjections, { position: await eventStore.headPosition() });
      for (const p of allProjections) expect(replayed.store.contentHash(p.name), p.name).toBe(readStore.contentHash(p.name));
    } finally {
      await readStore.close();
      await eventStore.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
