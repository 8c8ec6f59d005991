import { defineProjection } from "../../../projections/runner.ts";
import { PULL_REQUEST_SNAPSHOT_EVENTS, type PullRequestEvent, type PullRequestSnapshot, type PullRequestSnapshotEvent } from "./events.ts";
import type { ReviewCommentEvent } from "../review-comments/events.ts";
import { prKey, type RepositoryRef } from "../../hosts/pull-request-key.ts";

/**
 * Pull requests by organisation, converged to the host's newest snapshot (by the host's
 * `updatedAt`; equal times: the later event wins), plus the webhook deliveries already recorded.
 *
 * Keys: ["pr", orgId, prKey] -> PullRequestRecord.
 */
export type PullRequestRecord = {
  id: string;
  orgId: string;
  repository: RepositoryRef;
  number: number;
  title: string;
  description: string;
  state: "open" | "closed";
  merged: boolean;
  isDraft: boolean;
  authorLogin: string;
  sourceBranch: string;
  targetBranch: string;
  headSha: string;
  baseSha: string | null;
  labels: string[];
  createdAt: string;
  /** Host time of the snapshot held. */
  updatedAt: string;
  stats: { changedFiles: number; additions: number; deletions: number };
  url: string;
  /** Head commits seen, oldest first (by host time), at most 200. */
  headHistory: { sha: string; at: string }[];
  /** Commits between a base (usually the last reviewed head) and a head, from the last refresh. */
  commits: { baseSha: string; headSha: string; list: { sha: string; message: string; authorName: string; committedAt: string }[] } | null;
  /** Time the service first recorded it. */
  recordedAt: string;
};

type Snapshot = PullRequestSnapshot;


function applySnapshot(existing: PullRequestRecord | undefined, orgId: string, repository: RepositoryRef, s: Snapshot, time: string): PullRequestRecord {
  const key = prKey({ remote: repository.remote, name: repository.name, number: s.number });
  const history = [...(existing?.headHistory ?? [])];
  if (s.headSha && !history.some((h) => h.sha === s.headSha)) {
    history.push({ sha: s.headSha, at: s.updatedAt });
    history.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
    if (history.length > 200) history.splice(0, history.length - 200);
  }
  const newer = !existing || s.updatedAt >= existing.updatedAt;
  if (!newer) return { ...existing!, headHistory: history, repository: mergeRepository(existing!.repository, repository) };
  return {
    id: key,
    orgId,
    repository: mergeRepository(existing?.repository, repository),
    number: s.number,
    title: s.title,
    description: s.description,
    state: s.state,
    merged: s.merged,
    isDraft: s.isDraft,
    authorLogin: s.authorLogin ?? existing?.authorLogin ?? "",
    sourceBranch: s.sourceBranch,
    targetBranch: s.targetBranch,
    headSha: s.headSha || existing?.headSha || "",
    baseSha: s.baseSha ?? existing?.baseSha ?? null,
    labels: s.labels,
    createdAt: existing && existing.createdAt < s.createdAt ? existing.createdAt : s.createdAt,
    updatedAt: s.updatedAt,
    stats: s.stats ?? existing?.stats ?? { changedFiles: 0, additions: 0, deletions: 0 },
    url: s.url || existing?.url || "",
    headHistory: history,
    commits: existing?.commits ?? null,
    recordedAt: existing?.recordedAt ?? time,
  };
}

function mergeRepository(existing: RepositoryRef | undefined, next: RepositoryRef): RepositoryRef {
  if (!existing) return next;
  return { remote: existing.remote, name: existing.name, defaultBranch: next.defaultBranch ?? existing.defaultBranch };
}

export const pullRequestsProjection = defineProjection<PullRequestEvent>({
  name: "pull-requests",
  version: 1,
  canHandle: [...PULL_REQUEST_SNAPSHOT_EVENTS, "PullRequestCommitsRecorded"],
  handle(events, { tx }) {
    for (const event of events) {
      const orgId = event.metadata.orgId;
      const repository = event.data.repository;
      if (event.type === "PullRequestCommitsRecorded") {
        const d = event.data;
        const key = prKey({ remote: repository.remote, name: repository.name, number: d.prNumber });
        const existing = tx.get<PullRequestRecord>(["pr", orgId, key]);
        if (!existing) continue;
        tx.put(["pr", orgId, key], { ...existing, commits: { baseSha: d.baseSha, headSha: d.headSha, list: d.commits } });
      } else {
        const s = event.data.pullRequest;
        const key = prKey({ remote: repository.remote, name: repository.name, number: s.number });
        const existing = tx.get<PullRequestRecord>(["pr", orgId, key]);
        tx.put(["pr", orgId, key], applySnapshot(existing, orgId, repository, s, event.time));
      }
    }
  },
});

/** Webhook deliveries already recorded, for dedupe: ["delivery", orgId, remote, deliveryId] -> first position. */
export const webhookDeliveriesProjection = defineProjection<PullRequestSnapshotEvent | Exclude<ReviewCommentEvent, { type: "ReviewCommentAddressed" | "ReviewCommentsPosted" }>>({
  name: "webhook-deliveries",
  version: 1,
  canHandle: [...PULL_REQUEST_SNAPSHOT_EVENTS, "ReviewCommentCreated", "ReviewCommentEdited", "ReviewCommentDeleted", "ReviewCommentResolved"],
  handle(events, { tx }) {
    for (const event of events) {
      const { deliveryId, repository } = event.data;
      if (typeof deliveryId !== "string" || !repository?.remote) continue;
      const key = ["delivery", event.metadata.orgId, repository.remote, deliveryId];
      if (tx.get(key) === undefined) tx.put(key, event.position);
    }
  },
});
