import type { EventStore, StoredEvent } from "../eventstore/port.ts";

/**
 * The history of an entity: every event that touched it, in log order. An event touches `entityId`
 * when its stream is the entity's (`<kind>-<id>` or the id itself) or when its data names the id in
 * an id field (`keyId`, `repoId`, `customContextId`, `codeReviewId`, ... or a list such as `keyIds`),
 * at any depth.
 */
const SCAN_BATCH = 1000;
const MAX_DEPTH = 4;

function mentions(value: unknown, entityId: string, depth: number): boolean {
  if (depth > MAX_DEPTH || !value || typeof value !== "object") return false;
  if (Array.isArray(value)) return value.some((v) => mentions(v, entityId, depth + 1));
  for (const [k, v] of Object.entries(value)) {
    const idField = k === "id" || /Id$/.test(k);
    if (idField && v === entityId) return true;
    if (/Ids$/.test(k) && Array.isArray(v) && v.includes(entityId)) return true;
    if (v && typeof v === "object" && mentions(v, entityId, depth + 1)) return true;
  }
  return false;
}

export function eventTouches(event: StoredEvent, entityId: string): boolean {
  return (
    event.streamName === entityId ||
    event.streamName.endsWith(`-${entityId}`) ||
    event.id === entityId ||
    mentions(event.data, entityId, 0)
  );
}

export type EntityHistory = {
  entityId: string;
  events: StoredEvent[];
  /** The streams the events came from. */
  streams: string[];
  /** More events touched the entity than `limit`. */
  truncated: boolean;
};

/** Scans the log in pages (one pass, nothing kept but the matches). `orgId` limits it to one organisation. */
export async function entityHistory(
  eventStore: EventStore,
  entityId: string,
  options: { orgId?: string; limit?: number } = {},
): Promise<EntityHistory> {
  const limit = options.limit ?? 10_000;
  const events: StoredEvent[] = [];
  let truncated = false;
  let cursor = 0;
  scan: for (;;) {
    const batch = await eventStore.readAll({ fromPosition: cursor, maxCount: SCAN_BATCH });
    for (const event of batch) {
      cursor = event.position;
      if (options.orgId !== undefined && event.metadata.orgId !== options.orgId) continue;
      if (!eventTouches(event, entityId)) continue;
      if (events.length === limit) {
        truncated = true;
        break scan;
      }
      events.push(event);
    }
    if (batch.length < SCAN_BATCH) break;
  }
  return { entityId, events, streams: [...new Set(events.map((e) => e.streamName))], truncated };
}
