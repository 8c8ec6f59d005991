import { z } from "zod";
import type { StoredEvent } from "../../../eventstore/port.ts";
import type { EventFilter } from "../../../audit/event-log.ts";
import { redact } from "../../../audit/redact.ts";
import { builder } from "../builder.ts";

/** An event of the log, as recorded (secret-bearing fields of `data`, such as key hashes, redacted). */
export const Event = builder.objectRef<StoredEvent>("Event").implement({
  description: "One event of the log. `data` is the event's payload at the newest schema version, with secrets and key hashes redacted.",
  fields: (t) => ({
    id: t.exposeID("id"),
    type: t.exposeString("type"),
    schemaVersion: t.exposeInt("schemaVersion"),
    time: t.expose("time", { type: "DateTime" }),
    streamName: t.exposeString("streamName"),
    streamVersion: t.exposeInt("streamVersion"),
    position: t.expose("position", { type: "Position" }),
    orgId: t.id({ resolve: (e) => e.metadata.orgId }),
    actor: t.string({ description: "Who caused it: an API key id, 'system' or 'webhook:<host>'.", resolve: (e) => e.metadata.actor }),
    correlationId: t.string({ resolve: (e) => e.metadata.correlationId }),
    causationId: t.string({ nullable: true, resolve: (e) => e.metadata.causationId }),
    data: t.field({ type: "JSON", resolve: (e) => redact(e.data) }),
  }),
});

export const EventFilterInput = builder.inputType("EventFilter", {
  description: "All given conditions must hold. Events are always limited to the caller's organisation.",
  fields: (t) => ({
    stream: t.string({ description: "Exact stream name, e.g. apikey-01J...", validate: z.string().min(1).max(500) }),
    types: t.stringList({ description: "Any of these event types." }),
    since: t.field({ type: "DateTime", description: "Recorded at or after (inclusive)." }),
    until: t.field({ type: "DateTime", description: "Recorded at or before (inclusive)." }),
    correlationId: t.string({ validate: z.string().min(1).max(200) }),
    actor: t.string({ description: "An API key id, 'system' or 'webhook:<host>'.", validate: z.string().min(1).max(200) }),
  }),
});

export const DEFAULT_PAGE = 50;
export const MAX_PAGE = 1000;
const cursor = z.string().regex(/^\d+$/, "a cursor is an event position (digits)").nullish();
const pageSize = z.number().int().min(0).max(MAX_PAGE).nullish();

builder.queryFields((t) => ({
  events: t.connection(
    {
      type: Event,
      description:
        "The event browser: the caller's organisation's events in log order, filtered. Page forward with first/after or backward with last/before; cursors are log positions. The log is read in pages, never whole.",
      args: { filter: t.arg({ type: EventFilterInput }) },
      validate: z
        .looseObject({ first: pageSize, last: pageSize, after: cursor, before: cursor })
        .refine((a) => a.first == null || a.last == null, { message: "Pass first or last, not both" }),
      resolve: async (_root, args, ctx) => {
        const f = args.filter;
        const filter: EventFilter = {
          orgId: ctx.principal.orgId,
          streamName: f?.stream ?? undefined,
          types: f?.types ?? undefined,
          since: f?.since ?? undefined,
          until: f?.until ?? undefined,
          correlationId: f?.correlationId ?? undefined,
          actor: f?.actor ?? undefined,
        };
        const after = args.after != null ? Number(args.after) : undefined;
        const before = args.before != null ? Number(args.before) : undefined;
        const backward = args.last != null || (args.before != null && args.first == null);
        const { audit } = ctx.services;
        if (backward) {
          const page = await audit.eventsBackward(filter, before, args.last ?? DEFAULT_PAGE, after ?? 0);
          return connectionOf(page.events, { hasPreviousPage: page.hasMore, hasNextPage: false });
        }
        const page = await audit.eventsForward(filter, after ?? 0, args.first ?? DEFAULT_PAGE, before);
        return connectionOf(page.events, { hasPreviousPage: false, hasNextPage: page.hasMore });
      },
    },
    { name: "EventConnection" },
    { name: "EventEdge" },
  ),
  event: t.field({
    type: Event,
    nullable: true,
    description: "One event by log position (null when absent or of another organisation).",
    args: { position: t.arg({ type: "Position", required: true }) },
    resolve: async (_root, { position }, ctx) => {
      return (await ctx.services.audit.event(ctx.principal.orgId, position)) ?? null;
    },
  }),
}));

function connectionOf(events: StoredEvent[], flags: { hasNextPage: boolean; hasPreviousPage: boolean }) {
  const edges = events.map((node) => ({ cursor: String(node.position), node }));
  return {
    edges,
    pageInfo: {
      ...flags,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
  };
}
