import { join } from "node:path";
import type { Config } from "../config.ts";
import type { EventStore } from "./port.ts";
import { createEmbeddedEventStore } from "./embedded.ts";
import { createCataloguedEventStore } from "./catalogue.ts";
import { catalogue } from "../features/catalogue.ts";

/**
 * Opens the configured event store (EventStoreDB when LOUPE_EVENTSTORE_URL is set, else the embedded
 * store under the data dir), wrapped by the catalogue. The EventStoreDB client is loaded only when it
 * is configured, so the service and the operator scripts start fast.
 */
export async function openEventStore(config: Config): Promise<EventStore> {
  const raw = config.eventStoreUrl
    ? (await import("./eventstoredb.ts")).createEventStoreDbEventStore({ connectionString: config.eventStoreUrl })
    : createEmbeddedEventStore({ dir: join(config.dataDir, "events") });
  return createCataloguedEventStore(raw, catalogue);
}
