/**
 * Audit: the event log of an organisation page by page, one event, an entity's history, and any read
 * model as served now or as of a past point of the log (replayed from zero into a temporary store).
 * What the admin faces (GraphQL, the web console) show of the log goes through here.
 */
import type { EventStore, StoredEvent } from "../eventstore/port.ts";
import type { ReadStore, ReadView } from "../readstore/port.ts";
import type { Projection, ProjectionRunner } from "../../projections/runner.ts";
import { DomainError } from "../eventstore/decider.ts";
import { eventAt, pageBackward, pageForward, type EventFilter, type EventPage } from "./event-log.ts";
import { entityHistory, type EntityHistory } from "./history.ts";
import { replayAsOf, type AsOf } from "./as-of.ts";

/** A read model at one point of the log: its view, and where in the log (and when) that is. */
export type ReadModelSnapshot = {
  projection: Projection;
  view: ReadView;
  position: number;
  time: string | null;
  eventsApplied: number | null;
  live: boolean;
  orgId: string;
};

export function createAuditService({ eventStore, readStore, runner }: { eventStore: EventStore; readStore: ReadStore; runner: ProjectionRunner }) {
  const definitionOf = (name: string): Projection => {
    const projection = runner.projections().find((p) => p.name === name);
    if (!projection) throw new DomainError("not_found", `No projection named ${name}`);
    return projection;
  };

  return {
    /** Events of `filter.orgId` after `after` (forward), or before `before` (backward), up to `limit`. */
    eventsForward: (filter: EventFilter, after: number, limit: number, before?: number): Promise<EventPage> => pageForward(eventStore, filter, after, limit, before),
    eventsBackward: (filter: EventFilter, before: number | undefined, limit: number, after: number): Promise<EventPage> => pageBackward(eventStore, filter, before, limit, after),
    /** One event by position (undefined when absent or of another organisation). */
    async event(orgId: string, position: number): Promise<StoredEvent | undefined> {
      const event = await eventAt(eventStore, position);
      return event && event.metadata.orgId === orgId ? event : undefined;
    },
    history: (orgId: string, entityId: string, limit: number): Promise<EntityHistory> => entityHistory(eventStore, entityId, { orgId, limit }),
    /** A read model as served now. */
    readModel(orgId: string, name: string): ReadModelSnapshot {
      const projection = definitionOf(name);
      return { projection, view: readStore.view(projection.name), position: readStore.meta(projection.name)?.checkpoint ?? 0, time: null, eventsApplied: null, live: true, orgId };
    },
    /** A read model as of a past position or time of the log. */
    async readModelAsOf(orgId: string, name: string, asOf: AsOf): Promise<ReadModelSnapshot> {
      const projection = definitionOf(name);
      const replayed = await replayAsOf(eventStore, [projection], asOf);
      return { projection, view: replayed.store.view(projection.name), position: replayed.position, time: replayed.time, eventsApplied: replayed.eventsApplied, live: false, orgId };
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
