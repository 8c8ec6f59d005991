import { z } from "zod";
import { defineEvent, type DecidedEventOf, type EventOf } from "../../eventstore/catalogue.ts";
import { prRef } from "../review-comments/events.ts";

/**
 * Code reviews: requested, started, each file reviewed, the summary, the outcome; and the posting of a
 * review to the host. A review's events, and the service comments each step made, go to the review's
 * stream `codereview-<id>` (./decider.ts).
 */
/**
 * Recorded in the review's stream right before the review is posted to the host (crash safety): a
 * review resumed with this event and no ReviewCommentsPosted first looks on the host for a review
 * whose summary carries the hidden marker `<!-- <idempotencyKey> -->` and posts only when none is there.
 */
export const ReviewPostRequested = defineEvent(
  "ReviewPostRequested",
  1,
  z.object({
    ...prRef,
    codeReviewId: z.string().uuid(),
    /** `loupe-review:<codeReviewId>`; the posted summary ends with `<!-- <idempotencyKey> -->`. */
    idempotencyKey: z.string().max(200),
    commitSha: z.string().max(100),
    inlineCount: z.number().int().nonnegative(),
  }),
);

export const CodeReviewRequested = defineEvent(
  "CodeReviewRequested",
  1,
  z.object({
    codeReviewId: z.string().uuid(),
    ...prRef,
    strictness: z.number().int().min(1).max(5),
    correlationId: z.string().uuid(),
    branch: z.string().max(500).nullable(),
    trigger: z.enum(["manual", "webhook"]),
    /** Drafts are skipped unless this is set (manual triggers set it). */
    includeDrafts: z.boolean(),
  }),
);

export const CodeReviewStarted = defineEvent(
  "CodeReviewStarted",
  1,
  z.object({
    codeReviewId: z.string().uuid(),
    headSha: z.string().max(100),
    /** Commit the diff is taken from: the merge base, or the head of the previous review. */
    diffBase: z.string().max(100),
    /** True when only the changes since the previous review are reviewed. */
    incremental: z.boolean(),
    totalFiles: z.number().int().nonnegative(),
    files: z.array(z.string().max(4096)).max(5000),
    skippedFiles: z.array(z.object({ path: z.string().max(4096), reason: z.string().max(500) })).max(5000),
  }),
);

const findingSummary = z.object({
  ruleId: z.string().max(200),
  severity: z.enum(["critical", "high", "medium", "low", "info"]),
  path: z.string().max(4096),
  lineStart: z.number().int(),
  lineEnd: z.number().int(),
  message: z.string().max(20_000),
});

export const CodeReviewFileReviewed = defineEvent(
  "CodeReviewFileReviewed",
  1,
  z.object({
    codeReviewId: z.string().uuid(),
    path: z.string().max(4096),
    completedFiles: z.number().int().nonnegative(),
    /** Ids of the comments created in this step (appended in the same batch). */
    commentIds: z.array(z.string().max(200)).max(5000),
    /** Findings posted for this file (for the summary). */
    findings: z.array(findingSummary).max(5000),
    /** Whether the chat model reviewed the file (absent in older events: unknown). */
    model: z.enum(["reviewed", "failed", "none"]).optional(),
  }),
);

export const CodeReviewSummaryGenerating = defineEvent("CodeReviewSummaryGenerating", 1, z.object({ codeReviewId: z.string().uuid() }));

export const CodeReviewCompleted = defineEvent(
  "CodeReviewCompleted",
  1,
  z.object({
    codeReviewId: z.string().uuid(),
    body: z.string().max(200_000),
    summaryCommentId: z.string().max(200).nullable(),
    headSha: z.string().max(100),
  }),
);

export const CodeReviewFailed = defineEvent("CodeReviewFailed", 1, z.object({ codeReviewId: z.string().uuid(), reason: z.string().max(2000) }));
export const CodeReviewSkipped = defineEvent("CodeReviewSkipped", 1, z.object({ codeReviewId: z.string().uuid(), reason: z.string().max(2000) }));

export const codeReviewEvents = [
  ReviewPostRequested,
  CodeReviewRequested,
  CodeReviewStarted,
  CodeReviewFileReviewed,
  CodeReviewSummaryGenerating,
  CodeReviewCompleted,
  CodeReviewFailed,
  CodeReviewSkipped,
];

export type CodeReviewEvent =
  | EventOf<typeof ReviewPostRequested>
  | EventOf<typeof CodeReviewRequested>
  | EventOf<typeof CodeReviewStarted>
  | EventOf<typeof CodeReviewFileReviewed>
  | EventOf<typeof CodeReviewSummaryGenerating>
  | EventOf<typeof CodeReviewCompleted>
  | EventOf<typeof CodeReviewFailed>
  | EventOf<typeof CodeReviewSkipped>;
export type CodeReviewDecidedEvent =
  | DecidedEventOf<typeof ReviewPostRequested>
  | DecidedEventOf<typeof CodeReviewRequested>
  | DecidedEventOf<typeof CodeReviewStarted>
  | DecidedEventOf<typeof CodeReviewFileReviewed>
  | DecidedEventOf<typeof CodeReviewSummaryGenerating>
  | DecidedEventOf<typeof CodeReviewCompleted>
  | DecidedEventOf<typeof CodeReviewFailed>
  | DecidedEventOf<typeof CodeReviewSkipped>;
