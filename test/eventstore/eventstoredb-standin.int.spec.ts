/**
 * The EventStoreDB adapter against a PROTOCOL STAND-IN (test/support/esdb-standin.ts): an
 * in-process gRPC server built from the client's own service definitions. This exercises the
 * adapter's wire path in CI; it is NOT EventStoreDB. eventstoredb-real.int.spec.ts runs the
 * same contract against a real server when LOUPE_TEST_ESDB_URL is set.
 */
import { describe, expect, it } from "vitest";
import { createEventStoreDbEventStore, toEsdbUuid } from "../../src/eventstore/eventstoredb.ts";
import { startEsdbStandIn } from "../support/esdb-standin.ts";
import { eventStoreContract, newEvent, uniqueStream } from "../contract/eventstore.contract.ts";

describe("PROTOCOL STAND-IN (not EventStoreDB): EventStoreDB adapter over gRPC", () => {
  eventStoreContract("eventstoredb adapter via protocol stand-in", async () => {
    const standIn = await startEsdbStandIn();
    const store = createEventStoreDbEventStore({ connectionString: standIn.connectionString });
    return {
      store,
      async cleanup() {
        await store.close();
        await standIn.stop();
      },
    };
  });

  it("skips the server's system events and keeps log positions (not counters)", async () => {
    const standIn = await startEsdbStandIn();
    const store = createEventStoreDbEventStore({ connectionString: standIn.connectionString });
    try {
      const stream = uniqueStream("sys");
      for (let i = 0; i < 6; i++) await store.appendToStream(stream, [newEvent()]);
      const all = await store.readAll();
      expect(all).toHaveLength(6);
      expect(standIn.recordCount()).toBeGreaterThan(6); // the stand-in wrote $-events in between
      expect(all.every((event) => !event.type.startsWith("$") && !event.streamName.startsWith("$"))).toBe(true);
      expect(all[1]!.position - all[0]!.position).toBeGreaterThan(1);
    } finally {
      await store.close();
      await standIn.stop();
    }
  });
});

describe("toEsdbUuid", () => {
  it("maps a ULID to the UUID with the same 128 bits, and other ids to a stable name-based UUID", () => {
    expect(toEsdbUuid("01ARZ3NDEKTSV4RRFFQ69G5FAV")).toBe("01563e3a-b5d3-d676-4c61-efb99302bd5b");
    expect(toEsdbUuid("not-a-ulid")).toBe(toEsdbUuid("not-a-ulid"));
    expect(toEsdbUuid("not-a-ulid")).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(toEsdbUuid("not-a-ulid")).not.toBe(toEsdbUuid("not-a-ulid2"));
  });
});
