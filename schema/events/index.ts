import { createCatalogue, type EventDefinition } from "../../src/eventstore/catalogue.ts";
import { accessEvents } from "./access.ts";
import { pullRequestEvents } from "./pull-requests.ts";
import { reviewEvents } from "./reviews.ts";
import { customContextEvents } from "./custom-context.ts";
import { repositoryEvents } from "./repository.ts";
import { querySessionEvents } from "./query-sessions.ts";

/** Every event type Loupe records, by domain. Add a domain's list here. */
export const eventDefinitions: EventDefinition[] = [...accessEvents, ...repositoryEvents, ...pullRequestEvents, ...reviewEvents, ...customContextEvents, ...querySessionEvents];

export const catalogue = createCatalogue(eventDefinitions);
