import { createCatalogue, type EventDefinition } from "../eventstore/catalogue.ts";
import { accessEvents } from "./access/events.ts";
import { pullRequestEvents } from "./pull-requests/events.ts";
import { reviewCommentEvents } from "./review-comments/events.ts";
import { codeReviewEvents } from "./code-reviews/events.ts";
import { customContextEvents } from "./custom-context/events.ts";
import { repositoryEvents } from "./repositories/events.ts";
import { querySessionEvents } from "./query-sessions/events.ts";
import { operationEvents } from "./operations/events.ts";

/** Every event type Loupe records, by domain. Add a domain's list here. */
export const eventDefinitions: EventDefinition[] = [...accessEvents, ...repositoryEvents, ...pullRequestEvents, ...reviewCommentEvents, ...codeReviewEvents, ...customContextEvents, ...querySessionEvents, ...operationEvents];

export const catalogue = createCatalogue(eventDefinitions);
