/**
 * LOUPE_AUTO_REVIEW=true: signed GitHub pull_request deliveries start reviews. Opened -> a review
 * that completes; a draft opened -> a review SKIPPED with a "draft" reason (docs/pull-requests.md);
 * ready_for_review -> a review that completes. Without the setting nothing is reviewed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.ts";
import { githubExample } from "../support/host-fixtures.ts";
import { deliverGitHub, GITHUB_SECRET, pullRequestPayload } from "../support/pr-webhooks.ts";
import { makeReviewRepo } from "../support/fake-hosts.ts";

const REPO = "acme/auto";
const repoArgs = { name: REPO, remote: "github", defaultBranch: "main" };

let server: TestServer;
let orgId: string;
let repo: ReturnType<typeof makeReviewRepo>;

beforeAll(async () => {
  repo = makeReviewRepo(REPO);
  server = await startTestServer({ env: { LOUPE_WEBHOOK_SECRET_GITHUB: GITHUB_SECRET, LOUPE_GITHUB_URL: repo.host.url, LOUPE_AUTO_REVIEW: "true" } });
  orgId = server.loupe.services.keys.organisations()[0]!.orgId;
});
afterAll(async () => {
  await server?.stop({ remove: true });
  repo?.host.remove();
});

const payload = (action: string, number: number, updatedAt: string, draft = false) =>
  pullRequestPayload(githubExample("pull_request", "opened"), {
    action, repo: REPO, number, head: "feature", headSha: repo.headSha, base: "main", baseSha: repo.baseSha, updatedAt, draft,
  });

const reviewsOf = (prNumber: number) => server.loupe.services.pullRequests.get(orgId, { ...repoArgs, prNumber }).mergeRequest.codeReviews;

describe("auto-review from webhooks", () => {
  it("an opened pull request is reviewed to completion", async () => {
    const res = await deliverGitHub(server, "pull_request", payload("opened", 1, "2024-05-01T10:00:00Z"));
    expect(await res.json()).toMatchObject({ outcome: "recorded", events: ["PullRequestOpened"] });
    await server.loupe.services.reviews.idle();
    const reviews = reviewsOf(1);
    expect(reviews).toHaveLength(1);
    expect(reviews[0]!.status).toBe("COMPLETED");
    const record = server.loupe.services.reviews.record(orgId, reviews[0]!.id)!;
    expect(record.metadata).toMatchObject({ totalFiles: 3, completedFiles: 3 });
    const { events } = await server.loupe.services.eventStore.readStream(`codereview-${reviews[0]!.id}`);
    expect(events[0]!.data).toMatchObject({ trigger: "webhook", includeDrafts: false });
    expect(server.loupe.services.pullRequests.get(orgId, { ...repoArgs, prNumber: 1 }).mergeRequest.comments.greptile.some((c) => c.filePath === "src/app.ts")).toBe(true);
  });

  it("a draft is SKIPPED with reason draft; ready_for_review reviews it", async () => {
    await deliverGitHub(server, "pull_request", payload("opened", 2, "2024-05-01T10:00:00Z", true));
    await server.loupe.services.reviews.idle();
    const first = reviewsOf(2);
    expect(first).toHaveLength(1);
    expect(server.loupe.services.reviews.record(orgId, first[0]!.id)).toMatchObject({ status: "SKIPPED", reason: expect.stringMatching(/draft/) });

    const ready = await deliverGitHub(server, "pull_request", payload("ready_for_review", 2, "2024-05-02T10:00:00Z", false));
    expect(await ready.json()).toMatchObject({ outcome: "recorded", events: ["PullRequestDraftChanged"] });
    await server.loupe.services.reviews.idle();
    const after = reviewsOf(2);
    expect(after).toHaveLength(2);
    const second = after.find((r) => r.id !== first[0]!.id)!;
    expect(second.status).toBe("COMPLETED");
  });

  it("edits, closes and comment deliveries start no review; a redelivered opened starts none either", async () => {
    const deliveryId = "auto-opened-3";
    await deliverGitHub(server, "pull_request", payload("opened", 3, "2024-05-01T10:00:00Z"), { deliveryId });
    await server.loupe.services.reviews.idle();
    expect(reviewsOf(3)).toHaveLength(1);
    expect((await (await deliverGitHub(server, "pull_request", payload("opened", 3, "2024-05-01T10:00:00Z"), { deliveryId })).json()).outcome).toBe("duplicate");
    await deliverGitHub(server, "pull_request", payload("edited", 3, "2024-05-02T10:00:00Z"));
    await server.loupe.services.reviews.idle();
    expect(reviewsOf(3)).toHaveLength(1);
  });
});
