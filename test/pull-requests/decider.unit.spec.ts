import { describe, expect, it } from "vitest";
import { pullRequestDecider, pullRequestStateOf, pullRequestStream, type PullRequestStreamEvent } from "../../src/features/pull-requests/decider.ts";
import { deciderSpec } from "../support/decider.ts";

const { given } = deciderSpec(pullRequestDecider);
const repository = { remote: "github" as const, name: "acme/api", defaultBranch: "main" };
const snapshot = (updatedAt: string) => ({
  number: 7, title: "Fix retries", description: "", state: "open" as const, merged: false, isDraft: false, authorLogin: "ada", sourceBranch: "fix", targetBranch: "main",
  headSha: "h".repeat(40), baseSha: null, labels: [], createdAt: "2026-01-01T00:00:00Z", updatedAt, stats: null, url: "https://github.com/acme/api/pull/7",
});
const webhook = (updatedAt: string, action = "opened") => ({ repository, pullRequest: snapshot(updatedAt), source: "webhook" as const, deliveryId: "d1", action });
const backfill = (updatedAt: string) => ({ repository, pullRequest: snapshot(updatedAt), source: "backfill" as const, deliveryId: null, action: "backfill" });
const opened: PullRequestStreamEvent = { type: "PullRequestOpened", data: webhook("2026-01-02T00:00:00Z") };

describe("pull request decider", () => {
  it("names its stream by organisation and pull request key", () => expect(pullRequestStream("org1", "github:acme/api#7")).toBe("pullrequest-org1-github:acme/api#7"));

  it("records a host change as the event of its action", () => {
    given([]).when({ type: "RecordHostChange", change: { kind: "pull_request", action: "opened", data: webhook("2026-01-02T00:00:00Z") } }).then([opened]);
    given([opened])
      .when({ type: "RecordHostChange", change: { kind: "pull_request", action: "synchronized", data: webhook("2026-01-03T00:00:00Z", "synchronized") } })
      .then([{ type: "PullRequestSynchronized", data: webhook("2026-01-03T00:00:00Z", "synchronized") }]);
    given([opened])
      .when({ type: "RecordHostChange", change: { kind: "pull_request", action: "ready_for_review", data: webhook("2026-01-03T00:00:00Z", "ready_for_review") } })
      .then([{ type: "PullRequestDraftChanged", data: webhook("2026-01-03T00:00:00Z", "ready_for_review") }]);
    const resolved = { repository, prNumber: 7, ids: ["hc_1"], resolved: true, deliveryId: "d2" };
    given([opened]).when({ type: "RecordHostChange", change: { kind: "thread", data: resolved } }).then([{ type: "ReviewCommentResolved", data: resolved }]);
  });

  it("records a backfilled pull request when it is new or newer than the one held", () => {
    given([]).when({ type: "RecordBackfill", data: backfill("2026-01-02T00:00:00Z") }).then([{ type: "PullRequestOpened", data: backfill("2026-01-02T00:00:00Z") }]);
    given([opened]).when({ type: "RecordBackfill", data: backfill("2026-01-05T00:00:00Z") }).then([{ type: "PullRequestUpdated", data: backfill("2026-01-05T00:00:00Z") }]);
    given([opened]).when({ type: "RecordBackfill", data: backfill("2026-01-02T00:00:00Z") }).then([]);
    given([opened]).when({ type: "RecordBackfill", data: backfill("2026-01-01T00:00:00Z") }).then([]);
  });

  it("records commits and addressed comments only for a recorded pull request", () => {
    const commits = { repository, prNumber: 7, baseSha: "b".repeat(40), headSha: "h".repeat(40), commits: [] };
    given([opened]).when({ type: "RecordCommits", data: commits }).then([{ type: "PullRequestCommitsRecorded", data: commits }]);
    given([]).when({ type: "RecordCommits", data: commits }).thenFails("not_found");
    const addressed = { repository, prNumber: 7, id: "lc_1", reason: "lines-changed", commitSha: "h".repeat(40) };
    given([opened]).when({ type: "MarkCommentAddressed", data: addressed }).then([{ type: "ReviewCommentAddressed", data: addressed }]);
    given([]).when({ type: "MarkCommentAddressed", data: addressed }).thenFails("not_found");
  });

  it("takes its state from the read model's record", () => {
    expect(pullRequestStateOf(undefined)).toEqual({ known: false });
    expect(pullRequestStateOf({ updatedAt: "2026-01-02T00:00:00Z" })).toEqual({ known: true, updatedAt: "2026-01-02T00:00:00Z" });
  });
});
