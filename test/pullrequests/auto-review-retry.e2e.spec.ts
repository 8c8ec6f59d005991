/**
 * LOUPE_AUTO_REVIEW=true: an automatic review that FAILED (the host refused its fetch) is tried again
 * by a redelivery of its event: GitHub's "Redeliver" (the same delivery id) or a copy under another
 * delivery id. The failed review stays recorded; a review pending, running, COMPLETED or SKIPPED is
 * not started again, and copies arriving together start one attempt. The host is git's own smart HTTP
 * server, which refuses every request while it is "down".
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.ts";
import { githubExample } from "../support/host-fixtures.ts";
import { deliverGitHub, GITHUB_SECRET, pullRequestPayload } from "../support/pr-webhooks.ts";
import { makeReviewRepo } from "../support/fake-hosts.ts";
import { startGitHttpHost, type GitHttpHost } from "../support/git-http-host.ts";

const REPO = "acme/retry";
const repoArgs = { name: REPO, remote: "github", defaultBranch: "main" };

let server: TestServer;
let orgId: string;
let repo: ReturnType<typeof makeReviewRepo>;
let gitHost: GitHttpHost;
/** While false, the host answers every git request with 401. */
let hostUp = true;

beforeAll(async () => {
  repo = makeReviewRepo(REPO);
  gitHost = await startGitHttpHost(repo.host.root, () => hostUp);
  server = await startTestServer({ env: { LOUPE_WEBHOOK_SECRET_GITHUB: GITHUB_SECRET, LOUPE_GITHUB_URL: gitHost.base, LOUPE_AUTO_REVIEW: "true" } });
  orgId = server.loupe.services.keys.organisations()[0]!.orgId;
}, 60_000);
afterAll(async () => {
  await server?.stop({ remove: true });
  await gitHost?.close();
  repo?.host.remove();
});

const opened = (number: number) =>
  pullRequestPayload(githubExample("pull_request", "opened"), {
    action: "opened", repo: REPO, number, head: "feature", headSha: repo.headSha, base: "main", baseSha: repo.baseSha, updatedAt: "2024-05-01T10:00:00Z",
  });

const reviewsOf = (prNumber: number) => server.loupe.services.pullRequests.get(orgId, { ...repoArgs, prNumber }).mergeRequest.codeReviews;
const outcomeOf = async (res: Response) => ((await res.json()) as { outcome: string }).outcome;

/** Delivers `opened` for `number` while the host refuses git requests: its review ends FAILED. */
async function failedFirstAttempt(number: number, deliveryId: string) {
  hostUp = false;
  try {
    expect(await outcomeOf(await deliverGitHub(server, "pull_request", opened(number), { deliveryId }))).toBe("recorded");
    await server.loupe.services.reviews.idle();
  } finally {
    hostUp = true;
  }
  const [first] = reviewsOf(number);
  expect(reviewsOf(number)).toHaveLength(1);
  expect(server.loupe.services.reviews.record(orgId, first!.id)).toMatchObject({ status: "FAILED", reason: expect.stringMatching(/401|Authentication|could not read|terminal prompts/i) });
  return first!.id;
}

describe("a failed auto-review is tried again by a redelivery of its event", () => {
  it("GitHub's Redeliver (the same delivery id) starts a new attempt that completes; the failed one stays recorded", async () => {
    const failedId = await failedFirstAttempt(1, "opened-1");

    const again = await deliverGitHub(server, "pull_request", opened(1), { deliveryId: "opened-1" });
    expect(await outcomeOf(again)).toBe("duplicate"); // the pull request records nothing new
    await server.loupe.services.reviews.idle();
    const reviews = reviewsOf(1);
    expect(reviews).toHaveLength(2);
    expect(reviews.find((r) => r.id === failedId)!.status).toBe("FAILED");
    const retry = reviews.find((r) => r.id !== failedId)!;
    expect(retry.status).toBe("COMPLETED");
    const { events } = await server.loupe.services.eventStore.readStream(`codereview-${retry.id}`);
    expect(events[0]!.data).toMatchObject({ trigger: "webhook", includeDrafts: false });

    // Completed now: further redeliveries, under the same or another delivery id, start nothing.
    expect(await outcomeOf(await deliverGitHub(server, "pull_request", opened(1), { deliveryId: "opened-1" }))).toBe("duplicate");
    expect(await outcomeOf(await deliverGitHub(server, "pull_request", opened(1), { deliveryId: "opened-1-repo-hook" }))).toBe("recorded");
    await server.loupe.services.reviews.idle();
    expect(reviewsOf(1)).toHaveLength(2);
  });

  it("a copy under another delivery id retries too; copies arriving together start one attempt", async () => {
    const failedId = await failedFirstAttempt(2, "org-hook-2");

    const [a, b] = await Promise.all([
      deliverGitHub(server, "pull_request", opened(2), { deliveryId: "repo-hook-2" }),
      deliverGitHub(server, "pull_request", opened(2), { deliveryId: "org-hook-2" }),
    ]);
    expect([await outcomeOf(a), await outcomeOf(b)].sort()).toEqual(["duplicate", "recorded"]);
    await server.loupe.services.reviews.idle();
    const reviews = reviewsOf(2);
    expect(reviews.map((r) => r.status).sort()).toEqual(["COMPLETED", "FAILED"]);
    expect(reviews.find((r) => r.id === failedId)!.status).toBe("FAILED");
    expect(server.logs()).not.toContain("webhook follow-up failed");
  });

  it("a second failure is tried again by the next redelivery: one new attempt per redelivery", async () => {
    const failedId = await failedFirstAttempt(3, "opened-3");
    hostUp = false;
    try {
      expect(await outcomeOf(await deliverGitHub(server, "pull_request", opened(3), { deliveryId: "opened-3" }))).toBe("duplicate");
      await server.loupe.services.reviews.idle();
    } finally {
      hostUp = true;
    }
    expect(reviewsOf(3).map((r) => r.status)).toEqual(["FAILED", "FAILED"]);
    expect(await outcomeOf(await deliverGitHub(server, "pull_request", opened(3), { deliveryId: "opened-3" }))).toBe("duplicate");
    await server.loupe.services.reviews.idle();
    const reviews = reviewsOf(3);
    expect(reviews.map((r) => r.status).sort()).toEqual(["COMPLETED", "FAILED", "FAILED"]);
    expect(reviews.some((r) => r.id === failedId)).toBe(true);
  });

  it("a redelivery while the review is still pending starts none", async () => {
    // The worker is stopped, so the first review stays PENDING (it resumes when the worker starts).
    await server.loupe.services.reviews.stop();
    try {
      expect(await outcomeOf(await deliverGitHub(server, "pull_request", opened(4), { deliveryId: "opened-4" }))).toBe("recorded");
      expect(reviewsOf(4).map((r) => r.status)).toEqual(["PENDING"]);
      expect(await outcomeOf(await deliverGitHub(server, "pull_request", opened(4), { deliveryId: "opened-4" }))).toBe("duplicate");
      expect(await outcomeOf(await deliverGitHub(server, "pull_request", opened(4), { deliveryId: "opened-4-again" }))).toBe("recorded");
      expect(reviewsOf(4)).toHaveLength(1);
    } finally {
      server.loupe.services.reviews.start();
    }
    await server.loupe.services.reviews.idle();
    expect(reviewsOf(4).map((r) => r.status)).toEqual(["COMPLETED"]);
  });
});
