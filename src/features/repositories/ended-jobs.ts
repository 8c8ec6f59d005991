/**
 * Indexing jobs that have ended with a failure the repositories read model does not show yet.
 *
 * On a full disk the read model's commits can be refused until there is room again (the projection
 * runner retries them), and a job's `RepositoryIndexingFailed` can itself be refused until then
 * (jobs.ts retries it): the record would read "processing" although no worker is on the job any more.
 * Readers are shown the failure from here instead, until the read model shows the job ended (or a newer
 * job replaced it). After a restart, the failures the log holds past the read model's checkpoint are
 * read back into it (`seed`).
 */
import type { StoredEvent } from "../../eventstore/port.ts";
import { eventIn } from "../../eventstore/catalogue.ts";
import { RepositoryIndexingFailed } from "./events.ts";
import type { RepositoryRecord } from "./projection.ts";

const isFailure = eventIn([RepositoryIndexingFailed]);
const isUnfinished = (status: RepositoryRecord["status"]) => status === "submitted" || status === "cloning" || status === "processing";

export type EndedJobs = {
  /** The job's worker gave up with `reason` (the reason as clients see it). */
  failed(ended: { orgId: string; repoId: string; jobId: string; reason: string; at?: string }): void;
  /** Reads back the failures among events the read model has not applied yet (after a restart). */
  seed(events: readonly StoredEvent[]): void;
  /** The record as readers see it: failed when its job ended so and the read model does not show it yet. */
  view(record: RepositoryRecord): RepositoryRecord;
};

export function createEndedJobs(): EndedJobs {
  const failures = new Map<string, { jobId: string; reason: string; at: string }>();
  const keyOf = (orgId: string, repoId: string) => `${orgId}\u0000${repoId}`;
  return {
    failed({ orgId, repoId, jobId, reason, at }) {
      failures.set(keyOf(orgId, repoId), { jobId, reason, at: at ?? new Date().toISOString() });
    },
    seed(events) {
      for (const event of events) {
        if (!isFailure(event)) continue;
        const { orgId, repoId, jobId, reason } = event.data;
        failures.set(keyOf(orgId, repoId), { jobId, reason, at: event.time });
      }
    },
    view(record) {
      const key = keyOf(record.orgId, record.repoId);
      const ended = failures.get(key);
      if (!ended || ended.jobId !== record.jobId) return record; // none, or the read model is on another job
      if (!isUnfinished(record.status)) {
        failures.delete(key); // the read model shows it now
        return record;
      }
      return { ...record, status: "failed", failureReason: ended.reason, updatedAt: ended.at };
    },
  };
}
