/**
 * Webhook verification and parsing for the four hosts. GitHub payloads are the real examples of
 * @octokit/webhooks-examples (read from node_modules); the others are the documented samples in
 * test/hosts/fixtures (see its README). Variants that no sample covers are derived from a real one
 * by changing only the fields the variant is about, and say so.
 */
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createHosts } from "../../src/hosts/index.ts";
import type { HostWebhookEvent } from "../../src/hosts/index.ts";
import { fixture, githubExample } from "../support/host-fixtures.ts";

const hosts = createHosts();
const github = hosts.get("github");
const gitlab = hosts.get("gitlab");
const bitbucket = hosts.get("bitbucket");
const azure = hosts.get("azure");

const SECRET = "It's a Secret to Everybody";
const BODY = "Hello, World!";
const VECTOR = "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17";

const sign = (secret: string, body: string) => `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;

function expectKind<K extends HostWebhookEvent["kind"]>(
  event: HostWebhookEvent,
  kind: K,
): Extract<HostWebhookEvent, { kind: K }> {
  expect(event.kind).toBe(kind);
  return event as Extract<HostWebhookEvent, { kind: K }>;
}

describe("verifyWebhook", () => {
  it("GitHub: accepts the documented test vector, rejects wrong/missing/tampered", () => {
    const bytes = new TextEncoder().encode(BODY);
    expect(github.verifyWebhook(new Headers({ "X-Hub-Signature-256": VECTOR }), BODY, SECRET)).toBe(true);
    expect(github.verifyWebhook(new Headers({ "X-Hub-Signature-256": VECTOR }), bytes, SECRET)).toBe(true);
    expect(github.verifyWebhook(new Headers({ "X-Hub-Signature-256": VECTOR }), BODY, "other secret")).toBe(false);
    expect(github.verifyWebhook(new Headers({ "X-Hub-Signature-256": VECTOR }), "Hello, World?", SECRET)).toBe(false);
    expect(github.verifyWebhook(new Headers({ "X-Hub-Signature-256": VECTOR.slice(0, -1) + "0" }), BODY, SECRET)).toBe(false);
    expect(github.verifyWebhook(new Headers({ "X-Hub-Signature-256": VECTOR.slice(7) }), BODY, SECRET)).toBe(false);
    expect(github.verifyWebhook(new Headers(), BODY, SECRET)).toBe(false);
    // The SHA-1 header alone is not accepted.
    expect(github.verifyWebhook(new Headers({ "X-Hub-Signature": VECTOR }), BODY, SECRET)).toBe(false);
    // An empty secret never verifies, even against a signature made with it.
    expect(github.verifyWebhook(new Headers({ "X-Hub-Signature-256": sign("", BODY) }), BODY, "")).toBe(false);
  });

  it("GitLab: compares X-Gitlab-Token with the secret", () => {
    expect(gitlab.verifyWebhook(new Headers({ "X-Gitlab-Token": SECRET }), BODY, SECRET)).toBe(true);
    expect(gitlab.verifyWebhook(new Headers({ "X-Gitlab-Token": SECRET + "x" }), BODY, SECRET)).toBe(false);
    expect(gitlab.verifyWebhook(new Headers({ "X-Gitlab-Token": "wrong" }), BODY, SECRET)).toBe(false);
    expect(gitlab.verifyWebhook(new Headers(), BODY, SECRET)).toBe(false);
    expect(gitlab.verifyWebhook(new Headers({ "X-Gitlab-Token": "" }), BODY, "")).toBe(false);
  });

  it("Bitbucket: X-Hub-Signature sha256 HMAC (same test vector)", () => {
    expect(bitbucket.verifyWebhook(new Headers({ "X-Hub-Signature": VECTOR }), BODY, SECRET)).toBe(true);
    expect(bitbucket.verifyWebhook(new Headers({ "X-Hub-Signature": sign("wrong", BODY) }), BODY, SECRET)).toBe(false);
    expect(bitbucket.verifyWebhook(new Headers({ "X-Hub-Signature": VECTOR }), BODY + " ", SECRET)).toBe(false);
    expect(bitbucket.verifyWebhook(new Headers(), BODY, SECRET)).toBe(false);
  });

  it("Azure: Basic auth password (or user:password) compared with the secret", () => {
    expect(azure.verifyWebhook(new Headers({ Authorization: basic("loupe", SECRET) }), BODY, SECRET)).toBe(true);
    expect(azure.verifyWebhook(new Headers({ Authorization: basic("anyone", SECRET) }), BODY, SECRET)).toBe(true);
    expect(azure.verifyWebhook(new Headers({ Authorization: basic("loupe", "wrong") }), BODY, SECRET)).toBe(false);
    expect(azure.verifyWebhook(new Headers({ Authorization: `Bearer ${SECRET}` }), BODY, SECRET)).toBe(false);
    expect(azure.verifyWebhook(new Headers(), BODY, SECRET)).toBe(false);
    // A secret with a colon pins the user name too.
    expect(azure.verifyWebhook(new Headers({ Authorization: basic("hook", "pw") }), BODY, "hook:pw")).toBe(true);
    expect(azure.verifyWebhook(new Headers({ Authorization: basic("other", "pw") }), BODY, "hook:pw")).toBe(false);
  });
});

describe("deliveryId", () => {
  it("uses each host's delivery header or envelope id", () => {
    expect(github.deliveryId(new Headers({ "X-GitHub-Delivery": "72d3162e-cc78-11e3-81ab-4c9367dc0958" }), "{}")).toBe(
      "72d3162e-cc78-11e3-81ab-4c9367dc0958",
    );
    expect(bitbucket.deliveryId(new Headers({ "X-Request-UUID": "req-1" }), "{}")).toBe("req-1");
    expect(gitlab.deliveryId(new Headers({ "X-Gitlab-Event-UUID": "ev-1" }), "{}")).toBe("ev-1");
    expect(gitlab.deliveryId(new Headers({ "Idempotency-Key": "idem-1", "X-Gitlab-Event-UUID": "ev-1" }), "{}")).toBe(
      "idem-1",
    );
    const created = fixture("azure/git-pullrequest-created.json");
    expect(azure.deliveryId(new Headers(), JSON.stringify(created))).toBe("2ab4e3d3-b7a6-425e-92b1-5a9982c1269e");
    expect(azure.deliveryId(new Headers(), created)).toBe("2ab4e3d3-b7a6-425e-92b1-5a9982c1269e");
  });

  it("falls back to a body hash that is the same for the raw and the parsed body", () => {
    const payload = fixture("gitlab/merge-request-hook.json");
    const raw = JSON.stringify(payload);
    const fromRaw = gitlab.deliveryId(new Headers(), raw);
    expect(fromRaw).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(gitlab.deliveryId(new Headers(), payload)).toBe(fromRaw);
    expect(gitlab.deliveryId(new Headers(), new TextEncoder().encode(raw))).toBe(fromRaw);
    expect(gitlab.deliveryId(new Headers(), { ...payload, object_kind: "other" })).not.toBe(fromRaw);
  });
});

describe("GitHub parseWebhook (@octokit/webhooks-examples)", () => {
  const headers = (event: string) => new Headers({ "X-GitHub-Event": event, "X-GitHub-Delivery": "d-1" });
  const pr = (action: string, mutate?: (p: Record<string, unknown>) => void) => {
    const payload = githubExample("pull_request", action);
    mutate?.(payload);
    return expectKind(github.parseWebhook(headers("pull_request"), payload), "pull_request");
  };

  it("maps pull_request.opened to a neutral pull request", () => {
    const event = pr("opened");
    expect(event).toMatchObject({ remote: "github", deliveryId: "d-1", action: "opened", repository: "Codertocat/Hello-World" });
    expect(event.pullRequest).toEqual({
      number: 2,
      title: "Update the README with new information.",
      description: "This is a pretty simple change that we need to pull into master.",
      state: "open",
      merged: false,
      isDraft: false,
      authorLogin: "Codertocat",
      sourceBranch: "changes",
      targetBranch: "master",
      headSha: "ec26c3e57ca3a959ca5aad62de7213c562f8c821",
      baseSha: "f95f852bd8fca8fcc58a9a2d6c842781e32a215e",
      labels: [],
      createdAt: "2019-05-15T15:20:33.000Z",
      updatedAt: "2019-05-15T15:20:33.000Z",
      stats: { changedFiles: 1, additions: 1, deletions: 1 },
      url: "https://github.com/Codertocat/Hello-World/pull/2",
    });
  });

  it("maps the other pull_request actions", () => {
    expect(pr("synchronize").action).toBe("synchronized");
    expect(pr("reopened").action).toBe("reopened");
    const labeled = pr("labeled");
    expect(labeled.action).toBe("labeled");
    expect(labeled.pullRequest.labels).toEqual(["bug"]);
    expect(pr("unlabeled").action).toBe("unlabeled");
    const draft = pr("converted_to_draft");
    expect(draft.action).toBe("converted_to_draft");
    expect(draft.pullRequest.isDraft).toBe(true);
    const ready = pr("ready_for_review");
    expect(ready.action).toBe("ready_for_review");
    expect(ready.pullRequest.isDraft).toBe(false);
  });

  it("distinguishes closed from merged", () => {
    const closed = pr("closed");
    expect(closed.action).toBe("closed");
    expect(closed.pullRequest).toMatchObject({ state: "closed", merged: false });
    // No merged example ships with the package: the closed example with GitHub's merged fields set.
    const merged = pr("closed", (p) => {
      const pull = p["pull_request"] as Record<string, unknown>;
      pull["merged"] = true;
      pull["merged_at"] = "2019-05-15T16:00:00Z";
    });
    expect(merged.action).toBe("merged");
    expect(merged.pullRequest).toMatchObject({ state: "closed", merged: true });
  });

  it("maps edited (derived: the opened example with action edited and a changes object)", () => {
    const event = pr("opened", (p) => {
      p["action"] = "edited";
      p["changes"] = { title: { from: "Old title" } };
    });
    expect(event.action).toBe("edited");
    expect(event.pullRequest.title).toBe("Update the README with new information.");
  });

  it("ignores pull_request actions and events it does not handle", () => {
    for (const action of ["assigned", "locked", "review_requested"]) {
      const event = github.parseWebhook(headers("pull_request"), githubExample("pull_request", action));
      expect(event).toMatchObject({ kind: "ignored", deliveryId: "d-1" });
    }
    expect(github.parseWebhook(headers("ping"), { zen: "Design for failure." }).kind).toBe("ignored");
    expect(github.parseWebhook(new Headers(), githubExample("pull_request", "opened")).kind).toBe("ignored");
  });

  it("maps pull_request_review_comment created / edited / deleted", () => {
    for (const action of ["created", "edited", "deleted"] as const) {
      const payload = githubExample("pull_request_review_comment", action, (e) => (e["comment"] as { line?: unknown }).line === 265);
      const event = expectKind(github.parseWebhook(headers("pull_request_review_comment"), payload), "review_comment");
      expect(event).toMatchObject({ action, repository: "Codertocat/Hello-World", prNumber: 2 });
      expect(event.comment).toEqual({
        id: "284312630",
        body: "Maybe you should use more emoji on this line.",
        authorLogin: "Codertocat",
        path: "README.md",
        line: 265,
        startLine: null,
        createdAt: "2019-05-15T15:20:37.000Z",
        updatedAt: "2019-05-15T15:20:38.000Z",
      });
    }
  });

  it("maps pull_request_review_thread resolved / unresolved to the thread's comment ids", () => {
    const resolved = expectKind(
      github.parseWebhook(headers("pull_request_review_thread"), githubExample("pull_request_review_thread", "resolved")),
      "review_thread",
    );
    expect(resolved).toMatchObject({ action: "resolved", repository: "octo-org/octo-repo", prNumber: 118, commentIds: ["820867280"] });
    const unresolved = expectKind(
      github.parseWebhook(headers("pull_request_review_thread"), githubExample("pull_request_review_thread", "unresolved")),
      "review_thread",
    );
    expect(unresolved).toMatchObject({ action: "unresolved", prNumber: 2, commentIds: ["284312630"] });
  });

  it("maps issue_comment on a pull request as an overview comment, ignores it on issues", () => {
    const onIssue = githubExample("issue_comment", "created");
    expect(github.parseWebhook(headers("issue_comment"), onIssue).kind).toBe("ignored");
    // Derived: the same example on a pull request (GitHub then sets issue.pull_request).
    const onPr = githubExample("issue_comment", "created");
    (onPr["issue"] as Record<string, unknown>)["pull_request"] = { url: "https://api.github.com/repos/Codertocat/Hello-World/pulls/1" };
    const event = expectKind(github.parseWebhook(headers("issue_comment"), onPr), "review_comment");
    expect(event).toMatchObject({ action: "created", prNumber: 1 });
    expect(event.comment).toMatchObject({ id: "492700400", path: null, line: null, authorLogin: "Codertocat" });
  });

  it("accepts the raw body as well as parsed JSON", () => {
    const raw = JSON.stringify(githubExample("pull_request", "synchronize"));
    expect(expectKind(github.parseWebhook(headers("pull_request"), raw), "pull_request").action).toBe("synchronized");
  });
});

describe("GitLab parseWebhook (documented samples)", () => {
  const mrHeaders = new Headers({ "X-Gitlab-Event": "Merge Request Hook", "X-Gitlab-Event-UUID": "uuid-1" });
  const noteHeaders = new Headers({ "X-Gitlab-Event": "Note Hook" });
  const mr = (mutate?: (p: Record<string, unknown>, a: Record<string, unknown>) => void) => {
    const payload = fixture("gitlab/merge-request-hook.json");
    mutate?.(payload, payload["object_attributes"] as Record<string, unknown>);
    return expectKind(gitlab.parseWebhook(mrHeaders, payload), "pull_request");
  };

  it("maps the Merge Request Hook sample (action open)", () => {
    const event = mr();
    expect(event).toMatchObject({ remote: "gitlab", deliveryId: "uuid-1", action: "opened", repository: "gitlabhq/gitlab-test" });
    expect(event.pullRequest).toEqual({
      number: 1,
      title: "MS-Viewport",
      description: "",
      state: "open",
      merged: false,
      isDraft: false,
      authorLogin: "root",
      sourceBranch: "ms-viewport",
      targetBranch: "master",
      headSha: "da1560886d4f094c3e6c9ef40349f7d38b5d27d7",
      labels: ["API"],
      createdAt: "2013-12-03T17:23:34.000Z",
      updatedAt: "2013-12-03T17:23:34.000Z",
      url: "http://example.com/diaspora/merge_requests/1",
    });
  });

  it("maps update by what changed (variants of the sample)", () => {
    // oldrev is present only when commits were pushed.
    const pushed = mr((p, a) => {
      a["action"] = "update";
      a["oldrev"] = "0000000000000000000000000000000000000001";
    });
    expect(pushed.action).toBe("synchronized");
    expect(pushed.pullRequest.authorLogin).toBeNull();
    // The sample's own changes say draft true -> false.
    expect(mr((_p, a) => (a["action"] = "update")).action).toBe("ready_for_review");
    expect(
      mr((p, a) => {
        a["action"] = "update";
        (p["changes"] as Record<string, unknown>)["draft"] = { previous: false, current: true };
      }).action,
    ).toBe("converted_to_draft");
    const changes = (p: Record<string, unknown>) => p["changes"] as Record<string, unknown>;
    // Labels API -> Platform: one added.
    expect(
      mr((p, a) => {
        a["action"] = "update";
        delete changes(p)["draft"];
      }).action,
    ).toBe("labeled");
    expect(
      mr((p, a) => {
        a["action"] = "update";
        delete changes(p)["draft"];
        changes(p)["labels"] = { previous: [{ title: "API" }, { title: "Platform" }], current: [{ title: "API" }] };
      }).action,
    ).toBe("unlabeled");
    expect(
      mr((p, a) => {
        a["action"] = "update";
        p["changes"] = { title: { previous: "MS-View", current: "MS-Viewport" } };
      }).action,
    ).toBe("edited");
  });

  it("maps close, merge and reopen", () => {
    const merged = mr((_p, a) => {
      a["action"] = "merge";
      a["state"] = "merged";
    });
    expect(merged.action).toBe("merged");
    expect(merged.pullRequest).toMatchObject({ state: "closed", merged: true });
    const closed = mr((_p, a) => {
      a["action"] = "close";
      a["state"] = "closed";
    });
    expect(closed.action).toBe("closed");
    expect(closed.pullRequest).toMatchObject({ state: "closed", merged: false });
    expect(mr((_p, a) => (a["action"] = "reopen")).action).toBe("reopened");
  });

  it("ignores approvals and other hooks", () => {
    const approved = fixture("gitlab/merge-request-hook.json");
    (approved["object_attributes"] as Record<string, unknown>)["action"] = "approved";
    expect(gitlab.parseWebhook(mrHeaders, approved).kind).toBe("ignored");
    expect(gitlab.parseWebhook(new Headers({ "X-Gitlab-Event": "Push Hook" }), { object_kind: "push" }).kind).toBe("ignored");
  });

  it("maps the Note Hook sample for a merge request (overview comment)", () => {
    const event = expectKind(gitlab.parseWebhook(noteHeaders, fixture("gitlab/note-hook-merge-request.json")), "review_comment");
    expect(event).toMatchObject({ action: "created", repository: "gitlab-org/gitlab-test", prNumber: 1 });
    expect(event.comment).toEqual({
      id: "1244",
      body: "This MR needs work.",
      authorLogin: "root",
      path: null,
      line: null,
      startLine: null,
      createdAt: "2015-05-17T18:21:36.000Z",
      updatedAt: "2015-05-17T18:21:36.000Z",
    });
  });

  it("maps an edited diff note with a line range", () => {
    const event = expectKind(gitlab.parseWebhook(noteHeaders, fixture("gitlab/note-hook-diff-note.json")), "review_comment");
    expect(event.action).toBe("edited");
    expect(event.comment).toMatchObject({ id: "1245", path: "src/loop.ts", line: 12, startLine: 10, updatedAt: "2015-05-17T18:30:00.000Z" });
  });

  it("ignores notes on issues", () => {
    const note = fixture("gitlab/note-hook-merge-request.json");
    (note["object_attributes"] as Record<string, unknown>)["noteable_type"] = "Issue";
    expect(gitlab.parseWebhook(noteHeaders, note)).toMatchObject({ kind: "ignored", reason: "note on Issue not handled" });
  });
});

describe("Bitbucket parseWebhook", () => {
  const h = (key: string) => new Headers({ "X-Event-Key": key, "X-Request-UUID": "bb-req-1" });

  it("maps pullrequest:created", () => {
    const event = expectKind(bitbucket.parseWebhook(h("pullrequest:created"), fixture("bitbucket/pullrequest-created.json")), "pull_request");
    expect(event).toMatchObject({ deliveryId: "bb-req-1", action: "opened", repository: "team-awesome/loupe-demo" });
    expect(event.pullRequest).toEqual({
      number: 7,
      title: "Add retry to the indexer",
      description: "Retries transient clone failures.",
      state: "open",
      merged: false,
      isDraft: false,
      authorLogin: "emma",
      sourceBranch: "feature/retry",
      targetBranch: "main",
      headSha: "1a2b3c4d5e6f",
      baseSha: "9f1e2d3c4b5a",
      labels: [],
      createdAt: "2024-05-02T09:14:03.118Z",
      updatedAt: "2024-05-02T09:14:04.902Z",
      url: "https://bitbucket.org/team-awesome/loupe-demo/pull-requests/7",
    });
  });

  it("maps fulfilled to merged, rejected to closed, updated to synchronized", () => {
    const fulfilled = expectKind(
      bitbucket.parseWebhook(h("pullrequest:fulfilled"), fixture("bitbucket/pullrequest-fulfilled.json")),
      "pull_request",
    );
    expect(fulfilled.action).toBe("merged");
    expect(fulfilled.pullRequest).toMatchObject({ state: "closed", merged: true });
    const declined = fixture("bitbucket/pullrequest-created.json");
    (declined["pullrequest"] as Record<string, unknown>)["state"] = "DECLINED";
    const rejected = expectKind(bitbucket.parseWebhook(h("pullrequest:rejected"), declined), "pull_request");
    expect(rejected.action).toBe("closed");
    expect(rejected.pullRequest).toMatchObject({ state: "closed", merged: false });
    expect(bitbucket.parseWebhook(h("pullrequest:updated"), fixture("bitbucket/pullrequest-created.json"))).toMatchObject({
      action: "synchronized",
    });
  });

  it("maps comment_created with its inline position", () => {
    const event = expectKind(
      bitbucket.parseWebhook(h("pullrequest:comment_created"), fixture("bitbucket/pullrequest-comment-created.json")),
      "review_comment",
    );
    expect(event).toMatchObject({ action: "created", prNumber: 7, repository: "team-awesome/loupe-demo" });
    expect(event.comment).toEqual({
      id: "501234567",
      body: "This retry loop never backs off.",
      authorLogin: "omar",
      path: "src/indexing/clone.ts",
      line: 42,
      startLine: 40,
      createdAt: "2024-05-02T10:00:00.000Z",
      updatedAt: "2024-05-02T10:00:00.000Z",
    });
    const deleted = bitbucket.parseWebhook(h("pullrequest:comment_deleted"), fixture("bitbucket/pullrequest-comment-created.json"));
    expect(deleted).toMatchObject({ kind: "review_comment", action: "deleted" });
    const resolved = bitbucket.parseWebhook(h("pullrequest:comment_resolved"), fixture("bitbucket/pullrequest-comment-created.json"));
    expect(resolved).toMatchObject({ kind: "review_thread", action: "resolved", prNumber: 7, commentIds: ["501234567"] });
  });

  it("ignores approvals and unknown keys", () => {
    expect(bitbucket.parseWebhook(h("pullrequest:approved"), fixture("bitbucket/pullrequest-created.json")).kind).toBe("ignored");
    expect(bitbucket.parseWebhook(new Headers(), {}).kind).toBe("ignored");
  });
});

describe("Azure DevOps parseWebhook (service hook samples)", () => {
  const none = new Headers();

  it("maps git.pullrequest.created", () => {
    const event = expectKind(azure.parseWebhook(none, fixture("azure/git-pullrequest-created.json")), "pull_request");
    expect(event).toMatchObject({
      remote: "azure",
      deliveryId: "2ab4e3d3-b7a6-425e-92b1-5a9982c1269e",
      action: "opened",
      repository: "fabrikam/Fabrikam/Fabrikam",
    });
    expect(event.pullRequest).toEqual({
      number: 1,
      title: "my first pull request",
      description: " - test2\r\n",
      state: "open",
      merged: false,
      isDraft: false,
      authorLogin: "fabrikamfiber4@hotmail.com",
      sourceBranch: "mytopic",
      targetBranch: "master",
      headSha: "53d54ac915144006c2c9e90d2c7d3880920db49c",
      baseSha: "a511f535b1ea495ee0c903badb68fbc83772c882",
      labels: [],
      createdAt: "2014-06-17T16:55:46.589Z",
      updatedAt: "2016-09-19T13:03:27.281Z",
      url: "https://dev.azure.com/fabrikam/Fabrikam/_git/Fabrikam/pullrequest/1",
    });
  });

  it("maps git.pullrequest.updated (completed) and git.pullrequest.merged to merged", () => {
    for (const file of ["azure/git-pullrequest-updated.json", "azure/git-pullrequest-merged.json"]) {
      const event = expectKind(azure.parseWebhook(none, fixture(file)), "pull_request");
      expect(event.action).toBe("merged");
      expect(event.pullRequest).toMatchObject({ state: "closed", merged: true });
    }
  });

  it("maps updated variants by status and message", () => {
    const variant = (status: string, text: string) => {
      const p = fixture("azure/git-pullrequest-updated.json");
      (p["resource"] as Record<string, unknown>)["status"] = status;
      (p["message"] as Record<string, unknown>)["text"] = text;
      return expectKind(azure.parseWebhook(none, p), "pull_request").action;
    };
    expect(variant("active", "Jamal Hartnett updated the source branch of pull request 1 (my first pull request)")).toBe(
      "synchronized",
    );
    expect(variant("abandoned", "Jamal Hartnett abandoned pull request 1")).toBe("closed");
    expect(variant("active", "Jamal Hartnett reactivated pull request 1")).toBe("reopened");
    expect(variant("active", "Jamal Hartnett updated the title of pull request 1")).toBe("edited");
  });

  it("ignores a merge attempt that did not complete", () => {
    const p = fixture("azure/git-pullrequest-merged.json");
    Object.assign(p["resource"] as Record<string, unknown>, { status: "active", mergeStatus: "conflicts" });
    expect(azure.parseWebhook(none, p).kind).toBe("ignored");
  });

  it("maps the pull request comment event", () => {
    const event = expectKind(azure.parseWebhook(none, fixture("azure/git-pullrequest-comment-event.json")), "review_comment");
    expect(event).toMatchObject({ action: "edited", prNumber: 1, repository: "fabrikam/Fabrikam/Fabrikam" });
    expect(event.comment).toMatchObject({ id: "5/2", body: "This is my comment.", authorLogin: "fabrikamfiber4@hotmail.com", path: null });
  });

  it("ignores other event types", () => {
    expect(azure.parseWebhook(none, { id: "x", eventType: "git.push", resource: {} })).toMatchObject({ kind: "ignored", deliveryId: "x" });
  });
});
