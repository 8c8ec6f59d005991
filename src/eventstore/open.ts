import { join } from "node:path";
import type { Config } from "../config.ts";
import type { EventStore } from "./port.ts";
import type { StorageSpace } from "../storage-errors.ts";
import { createEmbeddedEventStore } from "./embedded.ts";
import { createCataloguedEventStore, type Catalogue } from "./catalogue.ts";

/**
 * Opens the configured event store (EventStoreDB when LOUPE_EVENTSTORE_URL is set, else the embedded
 * store under the data dir), wrapped by the catalogue. The EventStoreDB client is loaded only when it
 * is configured, so the service and the operator scripts start fast. The catalogue comes from the
 * composition root (src/features/catalogue.ts), assembled from the features' event modules.
 */
export async function openEventStore(config: Config, catalogue: Catalogue, options: { storageSpace?: StorageSpace } = {}): Promise<EventStore> {
  const raw = config.eventStoreUrl
    ? (await import("./eventstoredb.ts")).createEventStoreDbEventStore({ connectionString: config.eventStoreUrl })
    : createEmbeddedEventStore({ dir: join(config.dataDir, "events"), ...options });
  return createCataloguedEventStore(raw, catalogue);
}
