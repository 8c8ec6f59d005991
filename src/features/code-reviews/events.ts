import { z } from "zod";
import { defineEvent } from "../../eventstore/catalogue.ts";
import { repositoryRefSchema } from "../pull-requests/events.ts";

/**
 * Review comments (human ones from webhooks, service ones from code reviews) and code reviews.
 *
 * Comment ids are ours and deterministic: human comments derive from the host's comment id, service
 * inline comments from the dedupe fingerprint (src/review/dedupe.ts), summaries from the review id;
 * a resumed review therefore re-creates nothing. `commentId` is the host's comment id (our id until
 * the review is posted to the host).
 * Human comment events go to the pull request's stream, service comments to the code review's
 * stream (`codereview-<id>`), together with the step that produced them (one atomic append).
 */
const prRef = { repository: repositoryRefSchema, prNumber: z.number().int().nonnegative() };

export const linkedMemorySchema = z
  .object({ id: z.string().max(300), type: z.string().max(50).nullable(), source: z.string().max(1000).nullable() })
  .nullable();

export const reviewCommentSchema = z.object({
  id: z.string().min(1).max(200),
  commentId: z.string().max(200),
  body: z.string().max(200_000),
  authorLogin: z.string().max(300),
  filePath: z.string().max(4096).nullable(),
  lineStart: z.number().int().nullable(),
  lineEnd: z.number().int().nullable(),
  isGreptileComment: z.boolean(),
  hasSuggestion: z.boolean(),
  suggestedCode: z.string().max(200_000).nullable(),
  linkedMemory: linkedMemorySchema,
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Head commit the comment was made against (service comments); null when unknown. */
  commitSha: z.string().max(100).nullable(),
  codeReviewId: z.string().max(100).nullable(),
  fingerprint: z.string().max(100).nullable(),
  kind: z.enum(["inline", "summary", "human"]),
  severity: z.string().max(20).nullable(),
});

const commentEventData = z.object({ ...prRef, comment: reviewCommentSchema, deliveryId: z.string().max(300).nullable() });

export const ReviewCommentCreated = defineEvent("ReviewCommentCreated", 1, commentEventData);
/** The whole comment as of `comment.updatedAt` (an edit may arrive before its creation). */
export const ReviewCommentEdited = defineEvent("ReviewCommentEdited", 1, commentEventData);
export const ReviewCommentDeleted = defineEvent(
  "ReviewCommentDeleted",
  1,
  z.object({ ...prRef, id: z.string().max(200), deliveryId: z.string().max(300).nullable() }),
);
/** The host reported the thread holding these comments resolved (or unresolved). */
export const ReviewCommentResolved = defineEvent(
  "ReviewCommentResolved",
  1,
  z.object({ ...prRef, ids: z.array(z.string().max(200)).max(1000), resolved: z.boolean(), deliveryId: z.string().max(300).nullable() }),
);
/** A later commit changed the commented lines or applied the suggestion (src/review/addressed.ts). */
export const ReviewCommentAddressed = defineEvent(
  "ReviewCommentAddressed",
  1,
  z.object({ ...prRef, id: z.string().max(200), reason: z.string().max(100), commitSha: z.string().max(100) }),
);
/** Service comments were posted to the host: host comment ids by our ids. */
export const ReviewCommentsPosted = defineEvent(
  "ReviewCommentsPosted",
  1,
  z.object({
    ...prRef,
    codeReviewId: z.string().max(100),
    posted: z.array(z.object({ id: z.string().max(200), commentId: z.string().max(200) })).max(5000),
  }),
);

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

export const codeReviewStatus = z.enum(["PENDING", "REVIEWING_FILES", "GENERATING_SUMMARY", "COMPLETED", "FAILED", "SKIPPED"]);

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

export const reviewEvents = [
  ReviewCommentCreated,
  ReviewCommentEdited,
  ReviewCommentDeleted,
  ReviewCommentResolved,
  ReviewCommentAddressed,
  ReviewCommentsPosted,
  ReviewPostRequested,
  CodeReviewRequested,
  CodeReviewStarted,
  CodeReviewFileReviewed,
  CodeReviewSummaryGenerating,
  CodeReviewCompleted,
  CodeReviewFailed,
  CodeReviewSkipped,
];
