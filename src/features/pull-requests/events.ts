import { z } from "zod";
import { defineEvent, type DecidedEventOf, type EventOf } from "../../eventstore/catalogue.ts";
import { repositoryRefSchema } from "../../hosts/pull-request-key.ts";

/**
 * Pull/merge requests as the git hosts report them (webhooks) or as a backfill listed them.
 *
 * Every pull-request event carries the whole snapshot the host sent plus the host's `updatedAt`:
 * the read model keeps the newest snapshot by `updatedAt`, so deliveries arriving out of order
 * (an edit before the open) converge to the host's latest state. `deliveryId` is the host's
 * delivery id (GitHub X-GitHub-Delivery, ...), the dedupe key of webhooks; null for backfills.
 * Stream: `pullrequest-<orgId>-<remote>:<owner/repo lower-cased>#<number>` (./decider.ts).
 */
export const pullRequestSnapshotSchema = z.object({
  number: z.number().int().nonnegative(),
  title: z.string().max(10_000),
  description: z.string().max(200_000),
  state: z.enum(["open", "closed"]),
  merged: z.boolean(),
  isDraft: z.boolean(),
  /** Null when the host did not name the author (GitLab hooks): the read model keeps what it had. */
  authorLogin: z.string().max(300).nullable(),
  sourceBranch: z.string().max(500),
  targetBranch: z.string().max(500),
  headSha: z.string().max(100),
  baseSha: z.string().max(100).nullable(),
  labels: z.array(z.string().max(500)).max(500),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Null when the host did not send them: the read model keeps what it had. */
  stats: z
    .object({ changedFiles: z.number().int().nonnegative(), additions: z.number().int().nonnegative(), deletions: z.number().int().nonnegative() })
    .nullable(),
  url: z.string().max(2000),
});

const pullRequestEventData = z.object({
  repository: repositoryRefSchema,
  pullRequest: pullRequestSnapshotSchema,
  source: z.enum(["webhook", "backfill"]),
  deliveryId: z.string().max(300).nullable(),
  /** The host's action word, neutral form (opened, edited, synchronized, ...). */
  action: z.string().max(100),
});

export const PullRequestOpened = defineEvent("PullRequestOpened", 1, pullRequestEventData);
/** Title, description, branches or other fields changed (host `edited`), or a backfill refreshed it. */
export const PullRequestUpdated = defineEvent("PullRequestUpdated", 1, pullRequestEventData);
/** The head commit changed (new commits pushed). */
export const PullRequestSynchronized = defineEvent("PullRequestSynchronized", 1, pullRequestEventData);
export const PullRequestClosed = defineEvent("PullRequestClosed", 1, pullRequestEventData);
export const PullRequestMerged = defineEvent("PullRequestMerged", 1, pullRequestEventData);
export const PullRequestReopened = defineEvent("PullRequestReopened", 1, pullRequestEventData);
/** ready_for_review / converted_to_draft. */
export const PullRequestDraftChanged = defineEvent("PullRequestDraftChanged", 1, pullRequestEventData);
export const PullRequestLabelsChanged = defineEvent("PullRequestLabelsChanged", 1, pullRequestEventData);

/** Commits found between the last reviewed head and the current head (recorded by a refresh). */
export const PullRequestCommitsRecorded = defineEvent(
  "PullRequestCommitsRecorded",
  1,
  z.object({
    repository: repositoryRefSchema,
    prNumber: z.number().int().nonnegative(),
    baseSha: z.string().max(100),
    headSha: z.string().max(100),
    commits: z
      .array(
        z.object({
          sha: z.string().max(100),
          message: z.string().max(10_000),
          authorName: z.string().max(300),
          committedAt: z.string(),
        }),
      )
      .max(500),
  }),
);

export const PULL_REQUEST_SNAPSHOT_EVENTS = [
  "PullRequestOpened",
  "PullRequestUpdated",
  "PullRequestSynchronized",
  "PullRequestClosed",
  "PullRequestMerged",
  "PullRequestReopened",
  "PullRequestDraftChanged",
  "PullRequestLabelsChanged",
] as const;

export const pullRequestEvents = [
  PullRequestOpened,
  PullRequestUpdated,
  PullRequestSynchronized,
  PullRequestClosed,
  PullRequestMerged,
  PullRequestReopened,
  PullRequestDraftChanged,
  PullRequestLabelsChanged,
  PullRequestCommitsRecorded,
];

type SnapshotEvent =
  | typeof PullRequestOpened
  | typeof PullRequestUpdated
  | typeof PullRequestSynchronized
  | typeof PullRequestClosed
  | typeof PullRequestMerged
  | typeof PullRequestReopened
  | typeof PullRequestDraftChanged
  | typeof PullRequestLabelsChanged;
export type PullRequestSnapshotEvent = EventOf<SnapshotEvent>;
export type PullRequestEvent = EventOf<SnapshotEvent | typeof PullRequestCommitsRecorded>;
/** What every snapshot event records. */
export type PullRequestSnapshotData = DecidedEventOf<typeof PullRequestOpened>["data"];
/** The snapshot events share one shape: one member for all of them. */
export type PullRequestDecidedEvent = { type: SnapshotEvent["type"]; data: PullRequestSnapshotData } | DecidedEventOf<typeof PullRequestCommitsRecorded>;
export type PullRequestSnapshot = PullRequestSnapshotEvent["data"]["pullRequest"];
