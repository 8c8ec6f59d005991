/**
 * LOUPE_AUTO_REVIEW=true: signed GitHub pull_request deliveries start reviews. Opened -> a review
 * that completes; a draft opened -> a review SKIPPED with a "draft" reason (docs/pull-requests.md);
 * ready_for_review -> a review that completes. The same event delivered again under another delivery id
 * starts no second review; one asked for explicitly does. Without the setting nothing is reviewed.
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

  it("the same opened delivered again under other delivery ids (org and repository hooks) starts no second review", async () => {
    const body = payload("opened", 4, "2024-05-01T10:00:00Z");
    expect((await (await deliverGitHub(server, "pull_request", body, { deliveryId: "org-hook-4" })).json()).outcome).toBe("recorded");
    await server.loupe.services.reviews.idle();
    expect(reviewsOf(4).map((r) => r.status)).toEqual(["COMPLETED"]);
    // The delivery id is not signed: a new one is a new delivery, recorded, but the head was reviewed.
    expect((await (await deliverGitHub(server, "pull_request", body, { deliveryId: "repo-hook-4" })).json()).outcome).toBe("recorded");
    await server.loupe.services.reviews.idle();
    expect(reviewsOf(4)).toHaveLength(1);

    // Two copies at once, while nothing is reviewed yet: one review.
    const [a, b] = await Promise.all([
      deliverGitHub(server, "pull_request", payload("opened", 5, "2024-05-01T10:00:00Z"), { deliveryId: "org-hook-5" }),
      deliverGitHub(server, "pull_request", payload("opened", 5, "2024-05-01T10:00:00Z"), { deliveryId: "repo-hook-5" }),
    ]);
    expect([(await a.json()).outcome, (await b.json()).outcome]).toEqual(["recorded", "recorded"]);
    await server.loupe.services.reviews.idle();
    expect(reviewsOf(5).map((r) => r.status)).toEqual(["COMPLETED"]);
    expect(server.logs()).not.toContain("webhook follow-up failed");
  });

  it("a review asked for explicitly still runs for a head the webhook reviewed", async () => {
    const res = await server.api("/v2/code-reviews", { method: "POST", json: { ...repoArgs, prNumber: 4 } });
    expect(res.status).toBe(202);
    const { codeReviewId, status } = await res.json();
    expect(status).toBe("PENDING");
    await server.loupe.services.reviews.idle();
    const reviews = reviewsOf(4);
    expect(reviews).toHaveLength(2);
    expect(reviews.find((r) => r.id === codeReviewId)!.status).toBe("COMPLETED");
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
