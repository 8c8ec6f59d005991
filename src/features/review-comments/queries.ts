/** Queries over the review comments read model, and the comment shape of the faces (interface.md 2.4). */
import type { ReadStore } from "../../readstore/port.ts";
import type { CommentRecord } from "./projection.ts";

/** A comment as the faces show it (interface.md 2.4): the record without what is ours alone. */
export type ReviewComment = Pick<
  CommentRecord,
  "id" | "commentId" | "body" | "authorLogin" | "filePath" | "lineStart" | "lineEnd" | "isGreptileComment" | "addressed" | "createdAt" | "hasSuggestion" | "suggestedCode" | "linkedMemory"
>;

export function toReviewComment(c: CommentRecord): ReviewComment {
  return {
    id: c.id,
    commentId: c.commentId,
    body: c.body,
    authorLogin: c.authorLogin,
    filePath: c.filePath,
    lineStart: c.lineStart,
    lineEnd: c.lineEnd,
    isGreptileComment: c.isGreptileComment,
    addressed: c.addressed,
    createdAt: c.createdAt,
    hasSuggestion: c.hasSuggestion,
    suggestedCode: c.suggestedCode,
    linkedMemory: c.linkedMemory,
  };
}

export function createReviewCommentQueries(readStore: ReadStore) {
  const comments = () => readStore.view("review-comments");
  return {
    /** The comments of one pull request (`prKey`), in key order. */
    commentsOf: (orgId: string, key: string): CommentRecord[] => comments().range<CommentRecord>(["comment", orgId, key]).map((e) => e.value),
    countOf: (orgId: string, key: string): number => comments().count(["comment", orgId, key]),
    /** Every comment of the organisation. */
    ofOrganisation: (orgId: string): CommentRecord[] => comments().range<CommentRecord>(["comment", orgId]).map((e) => e.value),
  };
}

export type ReviewCommentQueries = ReturnType<typeof createReviewCommentQueries>;
