import type { Config } from "./config.ts";
import type { EventStore } from "./eventstore/port.ts";
import type { ReadStore } from "./readstore/port.ts";
import type { ProjectionRunner } from "./projections/runner.ts";
import type { KeyService } from "./auth/keys.ts";
import type { Logger } from "./logging.ts";

/** What the three faces (HTTP, JSON-RPC, GraphQL) are given: read models and command services. */
export type Services = {
  config: Config;
  logger: Logger;
  eventStore: EventStore;
  readStore: ReadStore;
  runner: ProjectionRunner;
  keys: KeyService;
};
