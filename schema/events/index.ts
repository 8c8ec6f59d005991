import { createCatalogue, type EventDefinition } from "../../src/eventstore/catalogue.ts";
import { accessEvents } from "./access.ts";

/** Every event type Loupe records, by domain. Add a domain's list here. */
export const eventDefinitions: EventDefinition[] = [...accessEvents];

export const catalogue = createCatalogue(eventDefinitions);
