/**
 * GitLab (X-Gitlab-Token), Bitbucket Cloud (X-Hub-Signature, HMAC-SHA256) and Azure DevOps (Basic
 * auth) deliveries through POST /webhooks/{host} into the pull request and comment read models,
 * using the documented sample payloads in test/hosts/fixtures/. A bad credential is 401 for each.
 */
import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.ts";
import { fixture } from "../support/host-fixtures.ts";

const GITLAB_SECRET = "gitlab shared token for hooks";
const BITBUCKET_SECRET = "bitbucket hmac secret";
const AZURE_SECRET = "azure basic password";

let server: TestServer;
let orgId: string;

beforeAll(async () => {
  server = await startTestServer({
    env: { LOUPE_WEBHOOK_SECRET_GITLAB: GITLAB_SECRET, LOUPE_WEBHOOK_SECRET_BITBUCKET: BITBUCKET_SECRET, LOUPE_WEBHOOK_SECRET_AZURE: AZURE_SECRET },
  });
  orgId = server.loupe.services.keys.organisations()[0]!.orgId;
});
afterAll(async () => server?.stop({ remove: true }));

const post = (host: string, body: string, headers: Record<string, string>) =>
  fetch(`${server.baseUrl}/webhooks/${host}`, { method: "POST", body, headers: { "content-type": "application/json", ...headers } });

const gitlab = (payload: unknown, event: string, token = GITLAB_SECRET, uuid?: string) =>
  post("gitlab", JSON.stringify(payload), { "x-gitlab-event": event, "x-gitlab-token": token, ...(uuid ? { "x-gitlab-event-uuid": uuid } : {}) });

const bitbucket = (payload: unknown, eventKey: string, uuid: string, secret: string | null = BITBUCKET_SECRET) => {
  const body = JSON.stringify(payload);
  const headers: Record<string, string> = { "x-event-key": eventKey, "x-request-uuid": uuid };
  if (secret !== null) headers["x-hub-signature"] = `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
  return post("bitbucket", body, headers);
};

const azure = (payload: unknown, password: string | null = AZURE_SECRET) =>
  post("azure", JSON.stringify(payload), password === null ? {} : { authorization: `Basic ${Buffer.from(`loupe:${password}`).toString("base64")}` });

const listOf = (remote: string, name: string) => server.loupe.services.pullRequests.list(orgId, { remote, name, defaultBranch: "main" });

describe("POST /webhooks/gitlab", () => {
  it("a wrong X-Gitlab-Token is 401 and records nothing", async () => {
    const head = await server.loupe.services.eventStore.headPosition();
    expect((await gitlab(fixture("gitlab/merge-request-hook.json"), "Merge Request Hook", "wrong token")).status).toBe(401);
    expect((await post("gitlab", JSON.stringify(fixture("gitlab/merge-request-hook.json")), { "x-gitlab-event": "Merge Request Hook" })).status).toBe(401);
    expect(await server.loupe.services.eventStore.headPosition()).toBe(head);
  });

  it("records the merge request with every list field, then a note on it; a redelivery is a duplicate", async () => {
    const res = await gitlab(fixture("gitlab/merge-request-hook.json"), "Merge Request Hook", GITLAB_SECRET, "gl-uuid-1");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ outcome: "recorded", deliveryId: "gl-uuid-1", events: ["PullRequestOpened"] });
    expect((await (await gitlab(fixture("gitlab/merge-request-hook.json"), "Merge Request Hook", GITLAB_SECRET, "gl-uuid-1")).json()).outcome).toBe("duplicate");
    const { mergeRequests, total } = listOf("gitlab", "gitlabhq/gitlab-test");
    expect(total).toBe(1);
    expect(mergeRequests[0]).toEqual({
      id: "gitlab:gitlabhq/gitlab-test#1",
      number: 1,
      title: "MS-Viewport",
      state: "open",
      isDraft: false,
      authorLogin: "root",
      branches: { source: "ms-viewport", target: "master" },
      repository: { name: "gitlabhq/gitlab-test", remote: "gitlab" },
      stats: { changedFiles: 0, additions: 0, deletions: 0 },
      commentsCount: 0,
      reviewsCount: 0,
      createdAt: "2013-12-03T17:23:34.000Z",
    });
    const note = fixture("gitlab/note-hook-merge-request.json") as Record<string, any>;
    note.project.path_with_namespace = "gitlabhq/gitlab-test";
    note.merge_request.iid = 1;
    expect((await (await gitlab(note, "Note Hook", GITLAB_SECRET, "gl-uuid-2")).json()).outcome).toBe("recorded");
    const comments = server.loupe.services.pullRequests.listComments(orgId, { remote: "gitlab", name: "gitlabhq/gitlab-test", defaultBranch: "master", prNumber: 1 });
    expect(comments.comments).toHaveLength(1);
    expect(comments.comments[0]).toMatchObject({ commentId: String(note.object_attributes.id), body: note.object_attributes.note, isGreptileComment: false, filePath: null });
    expect(listOf("gitlab", "gitlabhq/gitlab-test").mergeRequests[0]!.commentsCount).toBe(1);
  });
});

describe("POST /webhooks/bitbucket", () => {
  it("an unsigned or wrongly signed delivery is 401", async () => {
    expect((await bitbucket(fixture("bitbucket/pullrequest-created.json"), "pullrequest:created", "bb-x", null)).status).toBe(401);
    expect((await bitbucket(fixture("bitbucket/pullrequest-created.json"), "pullrequest:created", "bb-x", "not the secret")).status).toBe(401);
  });

  it("records created, then fulfilled (merged -> closed), and an inline comment", async () => {
    const created = await bitbucket(fixture("bitbucket/pullrequest-created.json"), "pullrequest:created", "bb-1");
    expect(created.status).toBe(200);
    expect(await created.json()).toMatchObject({ outcome: "recorded", events: ["PullRequestOpened"] });
    expect(listOf("bitbucket", "team-awesome/loupe-demo").mergeRequests[0]).toEqual({
      id: "bitbucket:team-awesome/loupe-demo#7",
      number: 7,
      title: "Add retry to the indexer",
      state: "open",
      isDraft: false,
      authorLogin: "emma",
      branches: { source: "feature/retry", target: "main" },
      repository: { name: "team-awesome/loupe-demo", remote: "bitbucket" },
      stats: { changedFiles: 0, additions: 0, deletions: 0 },
      commentsCount: 0,
      reviewsCount: 0,
      createdAt: "2024-05-02T09:14:03.118Z",
    });
    expect((await (await bitbucket(fixture("bitbucket/pullrequest-comment-created.json"), "pullrequest:comment_created", "bb-2")).json()).outcome).toBe("recorded");
    expect((await (await bitbucket(fixture("bitbucket/pullrequest-fulfilled.json"), "pullrequest:fulfilled", "bb-3")).json()).events).toEqual(["PullRequestMerged"]);
    expect((await (await bitbucket(fixture("bitbucket/pullrequest-fulfilled.json"), "pullrequest:fulfilled", "bb-3")).json()).outcome).toBe("duplicate");
    const mr = listOf("bitbucket", "team-awesome/loupe-demo").mergeRequests[0]!;
    expect(mr).toMatchObject({ state: "closed", commentsCount: 1 });
    expect(server.loupe.services.pullRequests.get(orgId, { remote: "bitbucket", name: "team-awesome/loupe-demo", defaultBranch: "main", prNumber: 7 }).mergeRequest).toMatchObject({ merged: true });
    const [comment] = server.loupe.services.pullRequests.listComments(orgId, { remote: "bitbucket", name: "team-awesome/loupe-demo", defaultBranch: "main", prNumber: 7 }).comments;
    const inline = (fixture("bitbucket/pullrequest-comment-created.json") as Record<string, any>).comment;
    expect(comment).toMatchObject({ commentId: String(inline.id), filePath: inline.inline.path, isGreptileComment: false });
  });
});

describe("POST /webhooks/azure", () => {
  it("no or wrong Basic credentials is 401", async () => {
    expect((await azure(fixture("azure/git-pullrequest-created.json"), null)).status).toBe(401);
    expect((await azure(fixture("azure/git-pullrequest-created.json"), "wrong password")).status).toBe(401);
  });

  it("records created and merged service hooks (merged -> closed) and a comment", async () => {
    const created = await azure(fixture("azure/git-pullrequest-created.json"));
    expect(created.status).toBe(200);
    expect(await created.json()).toMatchObject({ outcome: "recorded", events: ["PullRequestOpened"] });
    expect(listOf("azure", "fabrikam/Fabrikam/Fabrikam").mergeRequests[0]).toEqual({
      id: "azure:fabrikam/fabrikam/fabrikam#1",
      number: 1,
      title: "my first pull request",
      state: "open",
      isDraft: false,
      authorLogin: "fabrikamfiber4@hotmail.com",
      branches: { source: "mytopic", target: "master" },
      repository: { name: "fabrikam/Fabrikam/Fabrikam", remote: "azure" },
      stats: { changedFiles: 0, additions: 0, deletions: 0 },
      commentsCount: 0,
      reviewsCount: 0,
      createdAt: "2014-06-17T16:55:46.589Z",
    });
    expect((await (await azure(fixture("azure/git-pullrequest-created.json"))).json()).outcome).toBe("duplicate");
    expect((await (await azure(fixture("azure/git-pullrequest-comment-event.json"))).json()).outcome).toBe("recorded");
    expect((await (await azure(fixture("azure/git-pullrequest-merged.json"))).json()).events).toEqual(["PullRequestMerged"]);
    const mr = listOf("azure", "fabrikam/Fabrikam/Fabrikam").mergeRequests[0]!;
    expect(mr).toMatchObject({ state: "closed", commentsCount: 1 });
    expect(server.loupe.services.pullRequests.get(orgId, { remote: "azure", name: "fabrikam/Fabrikam/Fabrikam", defaultBranch: "master", prNumber: 1 }).mergeRequest).toMatchObject({ merged: true });
  });
});

describe("secrets", () => {
  it("none of the webhook secrets reach the events or the logs", async () => {
    const events = JSON.stringify(await server.loupe.services.eventStore.readAll({ maxCount: 10_000 }));
    for (const secret of [GITLAB_SECRET, BITBUCKET_SECRET, AZURE_SECRET, Buffer.from(`loupe:${AZURE_SECRET}`).toString("base64")]) {
      expect(events).not.toContain(secret);
      expect(server.logs()).not.toContain(secret);
    }
  });
});
