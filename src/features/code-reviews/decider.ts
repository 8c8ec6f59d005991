/**
 * The code review aggregate: PENDING -> REVIEWING_FILES (one step per file, with the service comments
 * the file got) -> GENERATING_SUMMARY -> COMPLETED, or FAILED / SKIPPED with a reason. Posting to the
 * host is announced before it happens (ReviewPostRequested), so a review resumed after a crash looks
 * for its review on the host before posting again. Stream: `codereview-<id>`.
 */
import { DomainError, type Decider } from "../../eventstore/decider.ts";
import type { CodeReviewStatus } from "../../review/status.ts";
import type { ReviewCommentDecidedEvent } from "../review-comments/events.ts";
import type { CodeReviewDecidedEvent } from "./events.ts";

/** `codereview-<id>`: one code review's steps and the service comments each step made. */
export const codeReviewStream = (codeReviewId: string) => `codereview-${codeReviewId}`;

type Data<T extends CodeReviewDecidedEvent["type"]> = Extract<CodeReviewDecidedEvent, { type: T }>["data"];
type CommentCreated = Extract<ReviewCommentDecidedEvent, { type: "ReviewCommentCreated" }>;
type CommentsPosted = Extract<ReviewCommentDecidedEvent, { type: "ReviewCommentsPosted" }>;
export type ReviewStreamEvent = CodeReviewDecidedEvent | CommentCreated | CommentsPosted;
export type FindingSummary = Data<"CodeReviewFileReviewed">["findings"][number];

export type CodeReviewCommand =
  | { type: "RequestReview"; request: Data<"CodeReviewRequested"> }
  | { type: "StartReview"; started: Omit<Data<"CodeReviewStarted">, "codeReviewId"> }
  /** A file reviewed, with the service comments it got (appended with the step). */
  | { type: "RecordFileReviewed"; path: string; comments: CommentCreated["data"][]; findings: FindingSummary[]; model?: "reviewed" | "failed" | "none" }
  | { type: "GenerateSummary" }
  | { type: "RequestPost"; post: Omit<Data<"ReviewPostRequested">, "codeReviewId" | "repository" | "prNumber"> }
  /** The summary comment (none for a quiet re-review), the host's ids of what was posted (if it was), the outcome. */
  | { type: "CompleteReview"; summary: CommentCreated["data"] | null; posted: CommentsPosted["data"]["posted"] | null; completed: Omit<Data<"CodeReviewCompleted">, "codeReviewId"> }
  | { type: "EndReview"; outcome: "CodeReviewFailed" | "CodeReviewSkipped"; reason: string };

export type CodeReviewState = {
  status: "NONE" | CodeReviewStatus;
  requested: Data<"CodeReviewRequested"> | null;
  started: Omit<Data<"CodeReviewStarted">, "codeReviewId" | "totalFiles"> | null;
  reviewed: ReadonlySet<string>;
  findings: FindingSummary[];
  commentIds: string[];
  /** Files the chat model reviewed, and files it was asked about but failed on. */
  modelReviewed: number;
  modelFailed: number;
  /** ReviewPostRequested seen: posting may have reached the host before a crash. */
  postRequested: boolean;
};

const TERMINAL = new Set(["COMPLETED", "FAILED", "SKIPPED"]);

export const codeReviewDecider: Decider<CodeReviewCommand, CodeReviewState, ReviewStreamEvent> = {
  initialState: () => ({ status: "NONE", requested: null, started: null, reviewed: new Set(), findings: [], commentIds: [], modelReviewed: 0, modelFailed: 0, postRequested: false }),
  evolve(state, event) {
    switch (event.type) {
      case "CodeReviewRequested":
        return { ...state, status: "PENDING", requested: event.data };
      case "CodeReviewStarted": {
        const { codeReviewId: _id, totalFiles: _total, ...started } = event.data;
        return { ...state, status: "REVIEWING_FILES", started };
      }
      case "CodeReviewFileReviewed":
        return {
          ...state,
          reviewed: new Set([...state.reviewed, event.data.path]),
          findings: [...state.findings, ...event.data.findings],
          commentIds: [...state.commentIds, ...event.data.commentIds],
          modelReviewed: state.modelReviewed + (event.data.model === "reviewed" ? 1 : 0),
          modelFailed: state.modelFailed + (event.data.model === "failed" ? 1 : 0),
        };
      case "CodeReviewSummaryGenerating":
        return { ...state, status: "GENERATING_SUMMARY" };
      case "ReviewPostRequested":
        return { ...state, postRequested: true };
      case "CodeReviewCompleted":
        return { ...state, status: "COMPLETED" };
      case "CodeReviewFailed":
        return { ...state, status: "FAILED" };
      case "CodeReviewSkipped":
        return { ...state, status: "SKIPPED" };
      default:
        return state; // the step's comments
    }
  },
  decide(command, state) {
    if (command.type === "RequestReview") {
      if (state.status !== "NONE") throw new DomainError("conflict", `Code review ${command.request.codeReviewId} already exists`);
      return [{ type: "CodeReviewRequested", data: command.request }];
    }
    const req = state.requested;
    if (!req) throw new DomainError("not_found", "No such code review");
    if (TERMINAL.has(state.status)) throw new DomainError("conflict", `Code review ${req.codeReviewId} is already ${state.status}`);
    const codeReviewId = req.codeReviewId;
    const expect = (status: CodeReviewStatus, what: string) => {
      if (state.status !== status) throw new DomainError("conflict", `Code review ${codeReviewId} is ${state.status}: cannot ${what}`);
    };
    switch (command.type) {
      case "StartReview":
        expect("PENDING", "start");
        return [{ type: "CodeReviewStarted", data: { codeReviewId, ...command.started } }];
      case "RecordFileReviewed": {
        expect("REVIEWING_FILES", "record a file");
        if (!state.started!.files.includes(command.path)) throw new DomainError("invalid", `${command.path} is not a file of code review ${codeReviewId}`, "path");
        if (state.reviewed.has(command.path)) throw new DomainError("conflict", `${command.path} is already reviewed`);
        return [
          ...command.comments.map((comment): ReviewStreamEvent => ({ type: "ReviewCommentCreated", data: comment })),
          {
            type: "CodeReviewFileReviewed",
            data: {
              codeReviewId,
              path: command.path,
              completedFiles: state.reviewed.size + 1,
              commentIds: command.comments.map((c) => c.comment.id),
              findings: command.findings,
              ...(command.model ? { model: command.model } : {}),
            },
          },
        ];
      }
      case "GenerateSummary":
        expect("REVIEWING_FILES", "write the summary");
        if (state.started!.files.some((f) => !state.reviewed.has(f))) throw new DomainError("conflict", `Code review ${codeReviewId} has files left to review`);
        return [{ type: "CodeReviewSummaryGenerating", data: { codeReviewId } }];
      case "RequestPost":
        expect("GENERATING_SUMMARY", "post");
        if (state.postRequested) return [];
        return [{ type: "ReviewPostRequested", data: { repository: req.repository, prNumber: req.prNumber, codeReviewId, ...command.post } }];
      case "CompleteReview": {
        expect("GENERATING_SUMMARY", "complete");
        const events: ReviewStreamEvent[] = [];
        if (command.summary) events.push({ type: "ReviewCommentCreated", data: command.summary });
        if (command.posted) events.push({ type: "ReviewCommentsPosted", data: { repository: req.repository, prNumber: req.prNumber, codeReviewId, posted: command.posted } });
        events.push({ type: "CodeReviewCompleted", data: { codeReviewId, ...command.completed } });
        return events;
      }
      case "EndReview":
        return [{ type: command.outcome, data: { codeReviewId, reason: command.reason.slice(0, 2000) } }];
    }
  },
};
