import { describe, expect, it } from "vitest";
import { codeReviewDecider, codeReviewStream, type ReviewStreamEvent } from "../../src/features/code-reviews/decider.ts";
import { deciderSpec } from "../support/decider.ts";

const { given } = deciderSpec(codeReviewDecider);
const codeReviewId = "0b6c7e9a-1f2d-4c3b-8a9e-5d6f7a8b9c0d";
const repository = { remote: "github" as const, name: "acme/api", defaultBranch: "main" };
const request = { codeReviewId, repository, prNumber: 7, strictness: 3, correlationId: "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f", branch: null, trigger: "manual" as const, includeDrafts: true };
const requested: ReviewStreamEvent = { type: "CodeReviewRequested", data: request };
const started = { headSha: "h".repeat(40), diffBase: "b".repeat(40), incremental: false, totalFiles: 2, files: ["a.py", "b.py"], skippedFiles: [] };
const startedEvent: ReviewStreamEvent = { type: "CodeReviewStarted", data: { codeReviewId, ...started } };
const finding = { ruleId: "debug/print", severity: "low" as const, path: "a.py", lineStart: 3, lineEnd: 3, message: "Leftover print" };
const comment = {
  repository,
  prNumber: 7,
  deliveryId: null,
  comment: {
    id: "lc_1", commentId: "lc_1", body: "Leftover print", authorLogin: "loupe", filePath: "a.py", lineStart: 3, lineEnd: 3, isGreptileComment: true, hasSuggestion: false, suggestedCode: null,
    linkedMemory: null, createdAt: "2026-01-01T00:00:00.000Z", updatedAt: "2026-01-01T00:00:00.000Z", commitSha: "h".repeat(40), codeReviewId, fingerprint: "fp1", kind: "inline" as const, severity: "low",
  },
};
const fileA: ReviewStreamEvent = { type: "CodeReviewFileReviewed", data: { codeReviewId, path: "a.py", completedFiles: 1, commentIds: ["lc_1"], findings: [finding] } };
const fileB: ReviewStreamEvent = { type: "CodeReviewFileReviewed", data: { codeReviewId, path: "b.py", completedFiles: 2, commentIds: [], findings: [] } };
const generating: ReviewStreamEvent = { type: "CodeReviewSummaryGenerating", data: { codeReviewId } };

describe("code review decider", () => {
  it("names its stream by review", () => expect(codeReviewStream(codeReviewId)).toBe(`codereview-${codeReviewId}`));

  it("is requested once, then started", () => {
    given([]).when({ type: "RequestReview", request }).then([requested]);
    given([requested]).when({ type: "RequestReview", request }).thenFails("conflict");
    given([requested]).when({ type: "StartReview", started }).then([startedEvent]);
  });

  it("records each file once, with its comments in the same step, counting completed files", () => {
    given([requested, startedEvent]).when({ type: "RecordFileReviewed", path: "a.py", comments: [comment], findings: [finding] }).then([{ type: "ReviewCommentCreated", data: comment }, fileA]);
    given([requested, startedEvent, fileA]).when({ type: "RecordFileReviewed", path: "b.py", comments: [], findings: [] }).then([fileB]);
    given([requested, startedEvent, fileA]).when({ type: "RecordFileReviewed", path: "a.py", comments: [], findings: [] }).thenFails("conflict", /already reviewed/);
    given([requested, startedEvent]).when({ type: "RecordFileReviewed", path: "c.py", comments: [], findings: [] }).thenFails("invalid");
  });

  it("writes the summary only when every file is reviewed", () => {
    given([requested, startedEvent, fileA]).when({ type: "GenerateSummary" }).thenFails("conflict", /files left/);
    given([requested, startedEvent, fileA, fileB]).when({ type: "GenerateSummary" }).then([generating]);
  });

  it("announces a post once, then completes with the summary and what was posted", () => {
    const history = [requested, startedEvent, fileA, fileB, generating];
    const post = { idempotencyKey: `loupe-review:${codeReviewId}`, commitSha: "h".repeat(40), inlineCount: 1 };
    const postRequested: ReviewStreamEvent = { type: "ReviewPostRequested", data: { repository, prNumber: 7, codeReviewId, ...post } };
    given(history).when({ type: "RequestPost", post }).then([postRequested]);
    given([...history, postRequested]).when({ type: "RequestPost", post }).then([]);
    const completed = { body: "summary", summaryCommentId: null, headSha: "h".repeat(40) };
    given(history).when({ type: "CompleteReview", summary: null, posted: [{ id: "lc_1", commentId: "99" }], completed }).then([
      { type: "ReviewCommentsPosted", data: { repository, prNumber: 7, codeReviewId, posted: [{ id: "lc_1", commentId: "99" }] } },
      { type: "CodeReviewCompleted", data: { codeReviewId, ...completed } },
    ]);
  });

  it("ends with a reason, and nothing follows a terminal status", () => {
    given([requested]).when({ type: "EndReview", outcome: "CodeReviewSkipped", reason: "draft pull request" }).then([{ type: "CodeReviewSkipped", data: { codeReviewId, reason: "draft pull request" } }]);
    const failed: ReviewStreamEvent = { type: "CodeReviewFailed", data: { codeReviewId, reason: "boom" } };
    given([requested, failed]).when({ type: "StartReview", started }).thenFails("conflict", /already FAILED/);
    given([]).when({ type: "StartReview", started }).thenFails("not_found");
  });
});
