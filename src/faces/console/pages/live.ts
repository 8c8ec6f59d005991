/**
 * The live parts of the pages, as server-sent events: the organisation's repositories while any of
 * them is indexing, and code reviews while any of them runs. Each stream sends a snapshot when it
 * changes (read from the read models every LIVE_POLL_MS), then `idle` and closes once nothing moves.
 */
import type { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import type { Services } from "../../../services.ts";
import type { ConsoleEnv } from "../env.ts";
import { repositoryLive } from "./repositories.tsx";
import { TERMINAL_STATUSES } from "../../../review/status.ts";
import { collapseHistory } from "./reviews.tsx";

const LIVE_POLL_MS = 250;
const LIVE_MAX_MS = 15 * 60 * 1000;
const REPOSITORY_DONE = new Set(["completed", "failed"]);

/** Sends `snapshot()` whenever it changes until `done(snapshot)` holds (then `idle`), the client leaves, or the time cap. */
function live<T>(c: Parameters<typeof streamSSE>[0], event: string, snapshot: () => T, done: (value: T) => boolean) {
  return streamSSE(c, async (stream) => {
    let last = "";
    const started = Date.now();
    let closed = false;
    stream.onAbort(() => {
      closed = true;
    });
    await stream.writeSSE({ event: "hello", data: "{}", retry: 3000 });
    while (!closed && Date.now() - started < LIVE_MAX_MS) {
      const value = snapshot();
      const data = JSON.stringify(value);
      if (data !== last) {
        last = data;
        await stream.writeSSE({ event, data });
      }
      if (done(value)) {
        await stream.writeSSE({ event: "idle", data: "{}" });
        break;
      }
      await stream.sleep(LIVE_POLL_MS);
    }
  });
}

export function livePages(app: Hono<ConsoleEnv>, services: Services) {
  const { indexer, reviews } = services;

  app.get("/live/repositories", (c) => {
    const orgId = c.get("session").principal.orgId;
    return live(
      c,
      "repositories",
      () => indexer.list(orgId).map((r) => repositoryLive(indexer.get(orgId, r.repoId) ?? r)),
      (repos) => repos.every((r) => REPOSITORY_DONE.has(r.status)),
    );
  });

  app.get("/live/reviews", (c) => {
    const orgId = c.get("session").principal.orgId;
    const ids = (c.req.query("ids") ?? "").split(",").map((s) => s.trim()).filter(Boolean).slice(0, 50);
    const terminal: readonly string[] = TERMINAL_STATUSES;
    return live(
      c,
      "reviews",
      () =>
        ids.flatMap((id) => {
          const r = reviews.record(orgId, id);
          if (!r) return [];
          return [{ id: r.id, status: r.status, completedFiles: r.metadata.completedFiles, totalFiles: r.metadata.totalFiles, completedAt: r.completedAt, reason: r.reason, history: collapseHistory(r.history).map((h) => ({ status: h.status, at: h.at })) }];
        }),
      (list) => list.every((r) => terminal.includes(r.status)),
    );
  });
}
