import { z } from "zod";
import type { Entry, Key, ReadView } from "../../../readstore/port.ts";
import type { EntityHistory as History } from "../../../audit/history.ts";
import type { AsOf } from "../../../audit/as-of.ts";
import type { ReadModelSnapshot as AuditSnapshot } from "../../../audit/service.ts";
import { entryBelongsTo, redactEntries } from "../../../audit/redact.ts";
import { builder } from "../builder.ts";
import { Event } from "./event.ts";

/**
 * Audit: the history of any entity, and any read model as of a past log position or time (replayed
 * into a temporary in-memory store) or as it is now. Typed views of a snapshot (`apiKeys`,
 * `organisations`, ...) are added by each read model's own schema file with `snapshotField`.
 */
const EntityHistory = builder.objectRef<History>("EntityHistory").implement({
  description: "Every event of the caller's organisation that touched an entity, oldest first: who (actor) and when (time) are on each event.",
  fields: (t) => ({
    entityId: t.exposeString("entityId"),
    streams: t.exposeStringList("streams"),
    truncated: t.exposeBoolean("truncated", { description: "More events touched it than `limit`." }),
    events: t.field({ type: [Event], resolve: (h) => h.events }),
  }),
});

export type Snapshot = AuditSnapshot;

const ReadModelEntry = builder.objectRef<Entry<unknown>>("ReadModelEntry").implement({
  fields: (t) => ({
    key: t.field({ type: ["JSON"], resolve: (e) => e.key }),
    value: t.field({ type: "JSON", resolve: (e) => e.value }),
  }),
});

const keyPrefix = z.array(z.union([z.string(), z.number()])).max(20).nullish();

/** The caller's organisation's entries under `prefix`, secrets redacted. */
const visibleEntries = (s: Snapshot, prefix: Key) =>
  redactEntries(s.view.range<unknown>(prefix).filter((e) => entryBelongsTo(e, s.orgId)));

export const ReadModelSnapshot = builder.objectRef<Snapshot>("ReadModelSnapshot").implement({
  description:
    "A read model at one point of the log. Only entries that name the caller's organisation (in their key or as the value's orgId) are shown, with secrets and key hashes removed.",
  fields: (t) => ({
    projection: t.string({ resolve: (s) => s.projection.name }),
    version: t.int({ resolve: (s) => s.projection.version }),
    live: t.exposeBoolean("live", { description: "true: the served model now; false: replayed into a temporary store." }),
    position: t.expose("position", { type: "Position", description: "Last log position the model includes." }),
    time: t.expose("time", { type: "DateTime", nullable: true, description: "Time of the event at `position` (replays only)." }),
    eventsApplied: t.exposeInt("eventsApplied", { nullable: true, description: "Events replayed (replays only)." }),
    entryCount: t.int({
      args: { prefix: t.arg({ type: ["JSON"], validate: keyPrefix }) },
      resolve: (s, args) => visibleEntries(s, (args.prefix as Key | null) ?? []).length,
    }),
    entries: t.field({
      type: [ReadModelEntry],
      description: "Entries in key order under `prefix` (key elements: strings and numbers).",
      args: {
        prefix: t.arg({ type: ["JSON"], validate: keyPrefix }),
        first: t.arg.int({ defaultValue: 100, validate: z.number().int().min(0).max(5000) }),
        offset: t.arg.int({ defaultValue: 0, validate: z.number().int().min(0) }),
      },
      resolve: (s, args) => {
        const offset = args.offset ?? 0;
        return visibleEntries(s, (args.prefix as Key | null) ?? []).slice(offset, offset + (args.first ?? 100));
      },
    }),
  }),
});

/**
 * For typed views of one projection on ReadModelSnapshot, added by that read model's schema file:
 *   builder.objectField(ReadModelSnapshot, "apiKeys", (t) => t.field({ type: [ApiKey], nullable: true,
 *     resolve: (s) => { const view = snapshotView(s, "api-keys"); return view && ...; } }));
 * The view when the snapshot is of `projectionName`, else null.
 */
export const snapshotView = (s: Snapshot, projectionName: string): ReadView | null =>
  s.projection.name === projectionName ? s.view : null;

const AsOfInput = builder
  .inputType("AsOfInput", {
    description: "A past point of the log: a position (events <= it), or a time (the log prefix recorded at or before it). Exactly one.",
    fields: (t) => ({
      position: t.field({ type: "Position" }),
      time: t.field({ type: "DateTime" }),
    }),
  })
  .validate(
    z
      .object({ position: z.number().nullish(), time: z.string().nullish() })
      .refine((v) => (v.position == null) !== (v.time == null), { message: "Give exactly one of position and time" }),
  );

const projectionName = z.string().trim().min(1).max(200);

builder.queryFields((t) => ({
  entityHistory: t.field({
    type: EntityHistory,
    description:
      "Every event that touched an entity: by stream name (`apikey-<id>` or the id), or by the id in the event data (keyId, repoId, customContextId, codeReviewId, ...). Scans the log.",
    args: {
      entityId: t.arg.string({ required: true, validate: z.string().trim().min(1).max(500) }),
      limit: t.arg.int({ defaultValue: 1000, validate: z.number().int().min(1).max(10_000) }),
    },
    resolve: (_root, args, ctx) => ctx.services.audit.history(ctx.principal.orgId, args.entityId.trim(), args.limit ?? 1000),
  }),
  readModelAsOf: t.field({
    type: ReadModelSnapshot,
    description: "A read model as of a past point of the log, replayed from zero into a temporary store.",
    args: {
      projection: t.arg.string({ required: true, validate: projectionName }),
      asOf: t.arg({ type: AsOfInput, required: true }),
    },
    resolve: (_root, args, ctx) => {
      const asOf: AsOf = args.asOf.position != null ? { position: args.asOf.position } : { time: args.asOf.time! };
      return ctx.services.audit.readModelAsOf(ctx.principal.orgId, args.projection, asOf);
    },
  }),
  readModel: t.field({
    type: ReadModelSnapshot,
    description: "A read model as served now.",
    args: { projection: t.arg.string({ required: true, validate: projectionName }) },
    resolve: (_root, args, ctx) => ctx.services.audit.readModel(ctx.principal.orgId, args.projection),
  }),
}));
