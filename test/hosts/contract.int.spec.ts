/**
 * The host contract (./host.contract.ts) for each adapter, with its recorded deliveries: GitHub's from
 * @octokit/webhooks-examples, the others' documented samples in ./fixtures; the REST answers follow each
 * host's API reference (served by a local stand-in, not a live host).
 */
import { createHmac } from "node:crypto";
import { createAzureHost, createBitbucketHost, createGitHubHost, createGitLabHost } from "../../src/hosts/index.ts";
import { fixture, githubExample } from "../support/host-fixtures.ts";
import { json } from "../support/host-server.ts";
import { hostContract } from "./host.contract.ts";

const hmac = (secret: string, body: string) => `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
const listedTwo = [
  { number: 2, headSha: "head2" },
  { number: 1, headSha: "head1" },
];

hostContract({
  remote: "github",
  create: createGitHubHost,
  signed: (body, secret) => ({ "X-Hub-Signature-256": hmac(secret, body) }),
  deliveries: [
    {
      name: "pull_request.opened",
      headers: { "X-GitHub-Event": "pull_request", "X-GitHub-Delivery": "d-1" },
      body: githubExample("pull_request", "opened"),
      deliveryId: "d-1",
      expected: { kind: "pull_request", action: "opened", repository: "Codertocat/Hello-World", number: 2, headSha: "ec26c3e57ca3a959ca5aad62de7213c562f8c821", title: "Update the README with new information." },
    },
    {
      name: "pull_request_review_comment.created",
      headers: { "X-GitHub-Event": "pull_request_review_comment", "X-GitHub-Delivery": "d-2" },
      body: githubExample("pull_request_review_comment", "created"),
      deliveryId: "d-2",
      expected: { kind: "review_comment", action: "created", repository: "Codertocat/Hello-World", number: 2, commentId: "284312630", body: "Maybe you should use more emoji on this line.", path: "README.md", line: null },
    },
    {
      name: "pull_request_review_thread.resolved",
      headers: { "X-GitHub-Event": "pull_request_review_thread", "X-GitHub-Delivery": "d-3" },
      body: githubExample("pull_request_review_thread", "resolved"),
      deliveryId: "d-3",
      expected: { kind: "review_thread", action: "resolved", repository: "octo-org/octo-repo", number: 118, commentIds: ["820867280"] },
    },
  ],
  unhandled: { headers: { "X-GitHub-Event": "star", "X-GitHub-Delivery": "d-9" }, body: {} },
  rest: {
    repository: "o/r",
    authorization: (token) => `Bearer ${token}`,
    listed: listedTwo,
    route: (readable) => (req, res) => {
      if (req.url.startsWith("/repos/o/r/pulls")) {
        const pr = (n: number) => ({ number: n, title: `PR ${n}`, body: null, state: "open", draft: false, merged_at: null, user: { login: "octocat" }, head: { ref: `f${n}`, sha: `head${n}` }, base: { ref: "main", sha: `base${n}` }, labels: [], created_at: "2024-01-01T00:00:00Z", updated_at: "2024-01-02T00:00:00Z", html_url: `https://github.com/o/r/pull/${n}` });
        return json(res, 200, [pr(2), pr(1)]);
      }
      if (req.url === "/repos/o/r") return json(res, 200, { private: true, permissions: { pull: readable } });
      json(res, 404, { message: "Not Found" });
    },
  },
});

hostContract({
  remote: "gitlab",
  create: createGitLabHost,
  signed: (_body, secret) => ({ "X-Gitlab-Token": secret }),
  deliveries: [
    {
      name: "Merge Request Hook",
      headers: { "X-Gitlab-Event": "Merge Request Hook", "X-Gitlab-Event-UUID": "g-1" },
      body: fixture("gitlab/merge-request-hook.json"),
      deliveryId: "g-1",
      expected: { kind: "pull_request", action: "opened", repository: "gitlabhq/gitlab-test", number: 1, headSha: "da1560886d4f094c3e6c9ef40349f7d38b5d27d7", title: "MS-Viewport" },
    },
    {
      name: "Note Hook on a diff line",
      headers: { "X-Gitlab-Event": "Note Hook", "X-Gitlab-Event-UUID": "g-2" },
      body: fixture("gitlab/note-hook-diff-note.json"),
      deliveryId: "g-2",
      expected: { kind: "review_comment", action: "edited", repository: "gitlab-org/gitlab-test", number: 1, commentId: "1245", body: "Off by one here?\n```suggestion\nfor (let i = 0; i < n; i++) {\n```", path: "src/loop.ts", line: 12 },
    },
  ],
  unhandled: { headers: { "X-Gitlab-Event": "Pipeline Hook", "X-Gitlab-Event-UUID": "g-9" }, body: { object_kind: "pipeline" } },
  rest: {
    repository: "g/p",
    authorization: (token) => `Bearer ${token}`,
    listed: listedTwo,
    route: (readable) => (req, res) => {
      if (req.url.startsWith("/projects/g%2Fp/merge_requests")) {
        const mr = (iid: number) => ({ iid, title: `MR ${iid}`, description: "", state: "opened", draft: false, author: { username: "jdoe" }, source_branch: `f${iid}`, target_branch: "main", sha: `head${iid}`, diff_refs: { base_sha: `base${iid}`, head_sha: `head${iid}` }, labels: [], created_at: "2024-02-01T10:00:00.000Z", updated_at: "2024-02-02T10:00:00.000Z", web_url: `https://gitlab.example.com/g/p/-/merge_requests/${iid}` });
        return json(res, 200, [mr(2), mr(1)], { "x-next-page": "" });
      }
      if (req.url === "/projects/g%2Fp") return json(res, readable ? 200 : 404, { id: 1 });
      json(res, 404, {});
    },
  },
});

hostContract({
  remote: "bitbucket",
  create: createBitbucketHost,
  signed: (body, secret) => ({ "X-Hub-Signature": hmac(secret, body) }),
  deliveries: [
    {
      name: "pullrequest:created",
      headers: { "X-Event-Key": "pullrequest:created", "X-Request-UUID": "b-1" },
      body: fixture("bitbucket/pullrequest-created.json"),
      deliveryId: "b-1",
      expected: { kind: "pull_request", action: "opened", repository: "team-awesome/loupe-demo", number: 7, headSha: "1a2b3c4d5e6f", title: "Add retry to the indexer" },
    },
    {
      name: "pullrequest:comment_created",
      headers: { "X-Event-Key": "pullrequest:comment_created", "X-Request-UUID": "b-2" },
      body: fixture("bitbucket/pullrequest-comment-created.json"),
      deliveryId: "b-2",
      expected: { kind: "review_comment", action: "created", repository: "team-awesome/loupe-demo", number: 7, commentId: "501234567", body: "This retry loop never backs off.", path: "src/indexing/clone.ts", line: 42 },
    },
  ],
  unhandled: { headers: { "X-Event-Key": "repo:push", "X-Request-UUID": "b-9" }, body: {} },
  rest: {
    repository: "w/r",
    authorization: (token) => `Bearer ${token}`,
    listed: listedTwo,
    route: (readable) => (req, res) => {
      if (req.url.startsWith("/repositories/w/r/pullrequests")) {
        const pr = (id: number) => ({ id, title: `PR ${id}`, description: "", state: "OPEN", draft: false, author: { nickname: "emma" }, source: { branch: { name: `f${id}` }, commit: { hash: `head${id}` } }, destination: { branch: { name: "main" }, commit: { hash: `base${id}` } }, created_on: "2024-03-01T00:00:00+00:00", updated_on: "2024-03-02T00:00:00+00:00", links: { html: { href: `https://bitbucket.org/w/r/pull-requests/${id}` } } });
        return json(res, 200, { values: [pr(2), pr(1)], page: 1, pagelen: 50 });
      }
      if (req.url === "/repositories/w/r") return json(res, readable ? 200 : 403, {});
      json(res, 404, {});
    },
  },
});

hostContract({
  remote: "azure",
  create: createAzureHost,
  signed: (_body, secret) => ({ Authorization: basic("loupe", secret) }),
  deliveries: [
    {
      name: "git.pullrequest.created",
      headers: {},
      body: fixture("azure/git-pullrequest-created.json"),
      deliveryId: "2ab4e3d3-b7a6-425e-92b1-5a9982c1269e",
      expected: { kind: "pull_request", action: "opened", repository: "fabrikam/Fabrikam/Fabrikam", number: 1, headSha: "53d54ac915144006c2c9e90d2c7d3880920db49c", title: "my first pull request" },
    },
    {
      name: "ms.vss-code.git-pullrequest-comment-event",
      headers: {},
      body: fixture("azure/git-pullrequest-comment-event.json"),
      deliveryId: "af07be1b-f3ad-44c8-a7f1-c4835f2df06c",
      expected: { kind: "review_comment", action: "edited", repository: "fabrikam/Fabrikam/Fabrikam", number: 1, commentId: "5/2", body: "This is my comment.", path: null, line: null },
    },
  ],
  unhandled: { headers: {}, body: { eventType: "build.complete", id: "a-9" } },
  rest: {
    repository: "org/Proj/repo",
    authorization: (token) => `Basic ${Buffer.from(`:${token}`).toString("base64")}`,
    listed: listedTwo,
    route: (readable) => (req, res) => {
      if (req.url.startsWith("/org/Proj/_apis/git/repositories/repo/pullrequests")) {
        const pr = (id: number) => ({ pullRequestId: id, title: `PR ${id}`, description: "", status: "active", isDraft: false, createdBy: { uniqueName: "jamal@example.com" }, creationDate: "2024-04-01T00:00:00Z", sourceRefName: `refs/heads/f${id}`, targetRefName: "refs/heads/main", lastMergeSourceCommit: { commitId: `head${id}` }, lastMergeTargetCommit: { commitId: `base${id}` }, labels: [] });
        return json(res, 200, { value: [pr(2), pr(1)], count: 2 });
      }
      if (req.url.startsWith("/org/Proj/_apis/git/repositories/repo?")) return readable ? json(res, 200, { id: "r", name: "repo" }) : json(res, 404, { message: "TF401019" });
      json(res, 404, {});
    },
  },
});
