/**
 * The EventStore contract against a real EventStoreDB/KurrentDB server.
 * Runs only when LOUPE_TEST_ESDB_URL is set, e.g.
 *   docker run -p 2113:2113 -e EVENTSTORE_INSECURE=true -e EVENTSTORE_CLUSTER_SIZE=1 \
 *     eventstore/eventstore:24.10.0-bookworm-slim
 *   LOUPE_TEST_ESDB_URL='esdb://localhost:2113?tls=false' npx vitest run test/eventstore
 * The contract uses unique stream names and works relative to the head, so a server that
 * already holds data is fine.
 */
import { describe } from "vitest";
import { createEventStoreDbEventStore } from "../../src/eventstore/eventstoredb.ts";
import { eventStoreContract } from "../contract/eventstore.contract.ts";

const url = process.env["LOUPE_TEST_ESDB_URL"];

describe.skipIf(!url)("real EventStoreDB at LOUPE_TEST_ESDB_URL", () => {
  eventStoreContract("eventstoredb adapter, real server", async () => {
    const store = createEventStoreDbEventStore({ connectionString: url as string });
    return { store, cleanup: () => store.close() };
  });
});
