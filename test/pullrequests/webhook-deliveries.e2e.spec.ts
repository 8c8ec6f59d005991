/**
 * Signed deliveries that are odd on the wire, for every host through POST /webhooks/{host}: a blank
 * delivery id counts as absent (the body's hash is the id), an overlong one is a 400 naming where it
 * came from; a payload missing a field its event needs, or holding a malformed one, is a 400 naming
 * the field; an event that does not apply is ignored with a reason. Nothing of a refused delivery is
 * recorded, and it is logged as a warning, not an error.
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
  expect(error).toMatchObject({ code: "invalid_request", message: expect.stringContaining(field) });
  expect(error.details).toContainEqual({ field, message: expect.any(String) });
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

const listed = (remote: string) =>
  server.loupe.services.pullRequests.list(server.loupe.services.keys.organisations()[0]!.orgId, { limit: 100 }).mergeRequests.filter((m) => m.repository.remote === remote);

describe("malformed payloads", () => {
  it("GitHub pull_request: a missing repository or pull request, a negative or non-numeric number: 400 naming the field", async () => {
    const before = await head();
    const count = listed("github").length;
    await expectRefused(await github("pull_request", { action: "opened" }, { "x-github-delivery": "gh-bad-1" }), "repository", before);
    const negative = githubPr("opened", 7, "2024-05-01T10:00:00Z");
    negative.pull_request.number = -5;
    await expectRefused(await github("pull_request", negative, { "x-github-delivery": "gh-bad-2" }), "pull_request.number", before);
    const notANumber = githubPr("opened", 7, "2024-05-01T10:00:00Z");
    notANumber.pull_request.number = "abc";
    await expectRefused(await github("pull_request", notANumber, { "x-github-delivery": "gh-bad-3" }), "pull_request.number", before);
    const noHead = githubPr("opened", 7, "2024-05-01T10:00:00Z");
    delete noHead.pull_request.head.sha;
    await expectRefused(await github("pull_request", noHead, { "x-github-delivery": "gh-bad-4" }), "pull_request.head.sha", before);
    expect(listed("github")).toHaveLength(count);
    // The same delivery ids are free for the well-formed deliveries that come after.
    const fixed = await github("pull_request", githubPr("opened", 7, "2024-05-01T10:00:00Z"), { "x-github-delivery": "gh-bad-3" });
    expect(await fixed.json()).toMatchObject({ outcome: "recorded" });
  });

  it("GitHub issue_comment with an empty comment: 400; on an issue, or an action not handled: ignored with a reason", async () => {
    const onPr = githubExample("issue_comment", "created");
    onPr.repository = { ...(onPr.repository as object), full_name: "acme/odd" };
    (onPr.issue as Record<string, unknown>).number = 1;
    (onPr.issue as Record<string, unknown>).pull_request = { url: "https://api.github.com/repos/acme/odd/pulls/1" };
    const before = await head();
    await expectRefused(await github("issue_comment", { ...onPr, comment: {} }), "comment.id", before);
    await expectRefused(await github("issue_comment", { ...onPr, comment: {} }), "comment.body", before);
    expect(server.loupe.services.pullRequests.listComments(server.loupe.services.keys.organisations()[0]!.orgId, { remote: "github", name: "acme/odd", defaultBranch: "main", prNumber: 1 }).total).toBe(0);

    const onIssue = githubExample("issue_comment", "created");
    expect(await (await github("issue_comment", onIssue)).json()).toMatchObject({ outcome: "ignored", reason: "issue_comment on an issue, not a pull request" });
    expect(await (await github("pull_request", { action: "assigned" })).json()).toMatchObject({ outcome: "ignored", reason: "pull_request action assigned not handled" });
    expect(await head()).toBe(before);
  });

  it("a value over what an event records (a 20,000-character title) is a 400 naming it, not a 500", async () => {
    const long = githubPr("opened", 8, "2024-05-01T10:00:00Z");
    long.pull_request.title = "t".repeat(20_000);
    await expectRefused(await github("pull_request", long), "PullRequestOpened.pullRequest.title", await head());
  });

  it("GitLab, Bitbucket and Azure: 400 naming the missing field, and no pull request #0", async () => {
    const before = await head();
    const counts = ["gitlab", "bitbucket", "azure"].map((r) => listed(r).length);
    await expectRefused(await gitlab("Merge Request Hook", { object_kind: "merge_request", object_attributes: { action: "open" } }), "project", before);
    const noIid = fixture("gitlab/merge-request-hook.json") as Record<string, any>;
    delete noIid.object_attributes.iid;
    await expectRefused(await gitlab("Merge Request Hook", noIid, { "x-gitlab-event-uuid": "gl-bad-iid" }), "object_attributes.iid", before);
    const note = fixture("gitlab/note-hook-merge-request.json") as Record<string, any>;
    note.object_attributes.note = 42;
    await expectRefused(await gitlab("Note Hook", note), "object_attributes.note", before);

    await expectRefused(await bitbucket("pullrequest:created", {}, { "x-request-uuid": "bb-bad-1" }), "repository", before);
    const created = fixture("bitbucket/pullrequest-created.json") as Record<string, any>;
    created.pullrequest.id = "abc";
    await expectRefused(await bitbucket("pullrequest:created", created, { "x-request-uuid": "bb-bad-2" }), "pullrequest.id", before);

    await expectRefused(await azure({ id: "az1", eventType: "git.pullrequest.created" }), "resource", before);
    const noOrg = fixture("azure/git-pullrequest-created.json") as Record<string, any>;
    for (const key of ["url", "remoteUrl", "webUrl"]) delete noOrg.resource.repository[key];
    await expectRefused(await azure({ ...noOrg, id: "az-no-org" }), "resource.repository.remoteUrl", before);

    expect(["gitlab", "bitbucket", "azure"].map((r) => listed(r).length)).toEqual(counts);
    expect(["gitlab", "bitbucket", "azure"].flatMap((r) => listed(r)).some((m) => m.number === 0)).toBe(false);
  });
});
