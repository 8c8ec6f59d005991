/**
 * The pull request aggregate: the host's snapshots of one pull request (newest `updatedAt` wins in the
 * read model), the commits since its last review, and its human comments as the host reports them.
 * Stream: `pullrequest-<orgId>-<prKey>` (also the home of ReviewCommentAddressed for its comments).
 *
 * Services decide from the read model's record of the pull request (the projection is the fold of
 * this stream): a webhook delivery is recorded with deterministic event ids and must not wait for a
 * read of the stream.
 */
import { DomainError, type Decider } from "../../eventstore/decider.ts";
import type { PullRequestAction } from "../../hosts/types.ts";
import type { ReviewCommentDecidedEvent } from "../review-comments/events.ts";
import type { PullRequestDecidedEvent, PullRequestSnapshotData } from "./events.ts";

export { pullRequestStream } from "./identity.ts";

type Data<T extends PullRequestStreamEvent["type"]> = Extract<PullRequestStreamEvent, { type: T }>["data"];
type HostComment = Exclude<ReviewCommentDecidedEvent, { type: "ReviewCommentsPosted" }>;
export type PullRequestStreamEvent = PullRequestDecidedEvent | HostComment;

const EVENT_FOR_ACTION: Record<PullRequestAction, Exclude<PullRequestDecidedEvent["type"], "PullRequestCommitsRecorded">> = {
  opened: "PullRequestOpened",
  edited: "PullRequestUpdated",
  synchronized: "PullRequestSynchronized",
  closed: "PullRequestClosed",
  merged: "PullRequestMerged",
  reopened: "PullRequestReopened",
  ready_for_review: "PullRequestDraftChanged",
  converted_to_draft: "PullRequestDraftChanged",
  labeled: "PullRequestLabelsChanged",
  unlabeled: "PullRequestLabelsChanged",
};

/** What a webhook delivery reported. */
export type HostChange =
  | { kind: "pull_request"; action: PullRequestAction; data: PullRequestSnapshotData }
  | { kind: "comment"; action: "created" | "edited"; data: Data<"ReviewCommentCreated"> }
  | { kind: "comment_deleted"; data: Data<"ReviewCommentDeleted"> }
  | { kind: "thread"; data: Data<"ReviewCommentResolved"> };

export type PullRequestCommand =
  | { type: "RecordHostChange"; change: HostChange }
  /** A pull request listed by the host's REST API: recorded when new or newer than the one held. */
  | { type: "RecordBackfill"; data: PullRequestSnapshotData }
  | { type: "RecordCommits"; data: Data<"PullRequestCommitsRecorded"> }
  | { type: "MarkCommentAddressed"; data: Data<"ReviewCommentAddressed"> };

export type PullRequestState = { known: false } | { known: true; updatedAt: string };

/** A host change as the event that records it (the host's action word maps to a snapshot event). */
function eventOfChange(change: HostChange): PullRequestStreamEvent {
  switch (change.kind) {
    case "pull_request":
      return { type: EVENT_FOR_ACTION[change.action], data: change.data };
    case "comment":
      return { type: change.action === "created" ? "ReviewCommentCreated" : "ReviewCommentEdited", data: change.data };
    case "comment_deleted":
      return { type: "ReviewCommentDeleted", data: change.data };
    case "thread":
      return { type: "ReviewCommentResolved", data: change.data };
  }
}

export const pullRequestDecider: Decider<PullRequestCommand, PullRequestState, PullRequestStreamEvent> = {
  initialState: () => ({ known: false }),
  evolve(state, event) {
    if (!("pullRequest" in event.data)) return state;
    const updatedAt = event.data.pullRequest.updatedAt;
    return state.known && state.updatedAt >= updatedAt ? state : { known: true, updatedAt };
  },
  decide(command, state) {
    switch (command.type) {
      case "RecordHostChange":
        return [eventOfChange(command.change)];
      case "RecordBackfill":
        if (state.known && state.updatedAt >= command.data.pullRequest.updatedAt) return [];
        return [{ type: state.known ? "PullRequestUpdated" : "PullRequestOpened", data: command.data }];
      case "RecordCommits":
        if (!state.known) throw new DomainError("not_found", `Pull request #${command.data.prNumber} is not recorded`);
        return [{ type: "PullRequestCommitsRecorded", data: command.data }];
      case "MarkCommentAddressed":
        if (!state.known) throw new DomainError("not_found", `Pull request #${command.data.prNumber} is not recorded`);
        return [{ type: "ReviewCommentAddressed", data: command.data }];
    }
  },
};

/** The state of a pull request as its read model record shows it. */
export const pullRequestStateOf = (record: { updatedAt: string } | undefined): PullRequestState => (record ? { known: true, updatedAt: record.updatedAt } : { known: false });
