/**
 * Signed deliveries that are odd on the wire, for every host through POST /webhooks/{host}: a blank
 * delivery id counts as absent (the body's hash is the id), an overlong one is a 400 naming where it
 * came from, and nothing of a refused delivery is recorded or logged as an error.
 */
import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.ts";
import { fixture, githubExample } from "../support/host-fixtures.ts";
import { GITHUB_SECRET, pullRequestPayload, signGitHub } from "../support/pr-webhooks.ts";

const GITLAB_SECRET = "gitlab token for odd deliveries";
const BITBUCKET_SECRET = "bitbucket secret for odd deliveries";
const AZURE_SECRET = "azure password for odd deliveries";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({
    env: {
      LOUPE_WEBHOOK_SECRET_GITHUB: GITHUB_SECRET,
      LOUPE_WEBHOOK_SECRET_GITLAB: GITLAB_SECRET,
      LOUPE_WEBHOOK_SECRET_BITBUCKET: BITBUCKET_SECRET,
      LOUPE_WEBHOOK_SECRET_AZURE: AZURE_SECRET,
    },
  });
});
afterAll(async () => server?.stop({ remove: true }));

const post = (host: string, body: string, headers: Record<string, string>) =>
  fetch(`${server.baseUrl}/webhooks/${host}`, { method: "POST", body, headers: { "content-type": "application/json", ...headers } });

const github = (event: string, payload: unknown, headers: Record<string, string> = {}) => {
  const body = JSON.stringify(payload);
  return post("github", body, { "x-github-event": event, "x-hub-signature-256": signGitHub(body), ...headers });
};
const gitlab = (event: string, payload: unknown, headers: Record<string, string> = {}) =>
  post("gitlab", JSON.stringify(payload), { "x-gitlab-event": event, "x-gitlab-token": GITLAB_SECRET, ...headers });
const bitbucket = (eventKey: string, payload: unknown, headers: Record<string, string> = {}) => {
  const body = JSON.stringify(payload);
  return post("bitbucket", body, { "x-event-key": eventKey, "x-hub-signature": `sha256=${createHmac("sha256", BITBUCKET_SECRET).update(body).digest("hex")}`, ...headers });
};
const azure = (payload: unknown) =>
  post("azure", JSON.stringify(payload), { authorization: `Basic ${Buffer.from(`loupe:${AZURE_SECRET}`).toString("base64")}` });

const head = () => server.loupe.services.eventStore.headPosition();

/** A refused delivery: 400 with a JSON body naming the field, nothing appended, a warning and no error in the log. */
async function expectRefused(response: Response, field: string, before: number) {
  expect(response.status).toBe(400);
  const { error } = await response.json();
  expect(error).toMatchObject({ code: "invalid_request", message: expect.stringContaining(field), details: [{ field, message: expect.any(String) }] });
  expect(await head()).toBe(before);
  expect(server.logs()).toContain(`"field":${JSON.stringify(field)}`);
  expect(server.logs()).not.toMatch(/"level":50/);
}

const githubPr = (action: string, number: number, updatedAt: string) =>
  pullRequestPayload(githubExample("pull_request", "opened"), {
    action, repo: "acme/odd", number, head: "feature", headSha: "c".repeat(40), base: "main", baseSha: "d".repeat(40), updatedAt,
  });

describe("delivery ids", () => {
  it("GitHub: a blank X-GitHub-Delivery counts as absent, so other blank-id deliveries are not duplicates", async () => {
    const opened = await github("pull_request", githubPr("opened", 1, "2024-05-01T10:00:00Z"), { "x-github-delivery": " " });
    expect(await opened.json()).toMatchObject({ outcome: "recorded", deliveryId: expect.stringMatching(/^sha256:/) });
    const edited = await github("pull_request", githubPr("edited", 1, "2024-05-02T10:00:00Z"), { "x-github-delivery": "" });
    expect(await edited.json()).toMatchObject({ outcome: "recorded", events: ["PullRequestUpdated"] });
    // The same body again without an id: its hash is the id, so this one is the duplicate.
    const again = await github("pull_request", githubPr("edited", 1, "2024-05-02T10:00:00Z"), { "x-github-delivery": "   " });
    expect(await again.json()).toMatchObject({ outcome: "duplicate" });
  });

  it("GitHub: an id of 200 characters is kept; a longer one is a 400 naming X-GitHub-Delivery", async () => {
    const longest = "d".repeat(200);
    const kept = await github("pull_request", githubPr("edited", 1, "2024-05-03T10:00:00Z"), { "x-github-delivery": longest });
    expect(await kept.json()).toMatchObject({ outcome: "recorded", deliveryId: longest });
    const before = await head();
    await expectRefused(await github("pull_request", githubPr("edited", 1, "2024-05-04T10:00:00Z"), { "x-github-delivery": "x".repeat(9000) }), "X-GitHub-Delivery", before);
  });

  it("GitLab: a blank Idempotency-Key falls back to X-Gitlab-Event-UUID; an overlong one is a 400 naming it", async () => {
    const hook = fixture("gitlab/merge-request-hook.json");
    const res = await gitlab("Merge Request Hook", hook, { "idempotency-key": " ", "x-gitlab-event-uuid": "gl-odd-1" });
    expect(await res.json()).toMatchObject({ outcome: "recorded", deliveryId: "gl-odd-1" });
    const before = await head();
    await expectRefused(await gitlab("Merge Request Hook", hook, { "x-gitlab-event-uuid": "u".repeat(9000) }), "X-Gitlab-Event-UUID", before);
    await expectRefused(await gitlab("Merge Request Hook", hook, { "idempotency-key": "k".repeat(201) }), "Idempotency-Key", before);
  });

  it("Bitbucket: a blank X-Request-UUID counts as absent; an overlong one is a 400 naming it", async () => {
    const created = fixture("bitbucket/pullrequest-created.json");
    const res = await bitbucket("pullrequest:created", created, { "x-request-uuid": " " });
    expect(await res.json()).toMatchObject({ outcome: "recorded", deliveryId: expect.stringMatching(/^sha256:/) });
    const comment = await bitbucket("pullrequest:comment_created", fixture("bitbucket/pullrequest-comment-created.json"), { "x-request-uuid": " " });
    expect(await comment.json()).toMatchObject({ outcome: "recorded" });
    const before = await head();
    await expectRefused(await bitbucket("pullrequest:created", created, { "x-request-uuid": "b".repeat(9000) }), "X-Request-UUID", before);
  });

  it("Azure: a blank envelope id counts as absent; an overlong one is a 400 naming id", async () => {
    const created = fixture("azure/git-pullrequest-created.json") as Record<string, unknown>;
    const res = await azure({ ...created, id: " " });
    expect(await res.json()).toMatchObject({ outcome: "recorded", deliveryId: expect.stringMatching(/^sha256:/) });
    const merged = fixture("azure/git-pullrequest-merged.json") as Record<string, unknown>;
    expect(await (await azure({ ...merged, id: "" })).json()).toMatchObject({ outcome: "recorded", events: ["PullRequestMerged"] });
    const before = await head();
    await expectRefused(await azure({ ...created, id: "a".repeat(9000) }), "id", before);
  });
});
