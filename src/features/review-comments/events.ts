import { z } from "zod";
import { defineEvent, type DecidedEventOf, type EventOf } from "../../eventstore/catalogue.ts";
import { repositoryRefSchema } from "../../hosts/pull-request-key.ts";

/**
 * Review comments: human ones from webhooks, service ones from code reviews.
 *
 * Comment ids are ours and deterministic (./ids.ts): human comments derive from the host's comment id,
 * service inline comments from the dedupe fingerprint (src/review/dedupe.ts), summaries from the review
 * id; a resumed review therefore re-creates nothing. `commentId` is the host's comment id (our id until
 * the review is posted to the host).
 * Human comment events go to the pull request's stream, service comments to the code review's stream
 * (`codereview-<id>`), together with the step that produced them (one atomic append).
 */
export const prRef = { repository: repositoryRefSchema, prNumber: z.number().int().nonnegative() };

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
  /** Service inline comments: the rule that made it (addressed detection re-runs it). Absent on older comments. */
  ruleId: z.string().max(200).optional(),
  /** Service inline comments: fingerprint of the flagged code without its comments (src/review/dedupe.ts codeFingerprint). */
  codeFingerprint: z.string().max(100).nullable().optional(),
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

export const reviewCommentEvents = [ReviewCommentCreated, ReviewCommentEdited, ReviewCommentDeleted, ReviewCommentResolved, ReviewCommentAddressed, ReviewCommentsPosted];

export type ReviewCommentEvent =
  | EventOf<typeof ReviewCommentCreated>
  | EventOf<typeof ReviewCommentEdited>
  | EventOf<typeof ReviewCommentDeleted>
  | EventOf<typeof ReviewCommentResolved>
  | EventOf<typeof ReviewCommentAddressed>
  | EventOf<typeof ReviewCommentsPosted>;
export type ReviewCommentDecidedEvent =
  | DecidedEventOf<typeof ReviewCommentCreated>
  | DecidedEventOf<typeof ReviewCommentEdited>
  | DecidedEventOf<typeof ReviewCommentDeleted>
  | DecidedEventOf<typeof ReviewCommentResolved>
  | DecidedEventOf<typeof ReviewCommentAddressed>
  | DecidedEventOf<typeof ReviewCommentsPosted>;
