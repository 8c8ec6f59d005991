import { join } from "node:path";
import type { Config } from "../config.ts";
import type { EventStore } from "./port.ts";
import { createEmbeddedEventStore } from "./embedded.ts";
import { createCataloguedEventStore } from "./catalogue.ts";
import { catalogue } from "../../schema/events/index.ts";

/**
 * Opens the configured event store, catalogued, loading the EventStoreDB client only when it is
 * configured: for the operator scripts, which should start fast (same choice as loupe.ts's openEventStore).
 */
export async function openEventStoreLazily(config: Config): Promise<EventStore> {
  const raw = config.eventStoreUrl
    ? (await import("./eventstoredb.ts")).createEventStoreDbEventStore({ connectionString: config.eventStoreUrl })
    : createEmbeddedEventStore({ dir: join(config.dataDir, "events") });
  return createCataloguedEventStore(raw, catalogue);
}
