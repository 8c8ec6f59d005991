/**
 * Real webhook payloads (@octokit/webhooks-examples, documented GitLab samples) through
 * POST /webhooks/<host> into the read models: signatures, redelivery, out-of-order deliveries.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.ts";
import { fixture, githubExample } from "../support/host-fixtures.ts";
import { deliverGitHub, GITHUB_SECRET, pullRequestPayload, signGitHub } from "../support/pr-webhooks.ts";

const GITLAB_SECRET = "gitlab shared token";
let server: TestServer;
let orgId: string;

beforeAll(async () => {
  server = await startTestServer({ env: { LOUPE_WEBHOOK_SECRET_GITHUB: GITHUB_SECRET, LOUPE_WEBHOOK_SECRET_GITLAB: GITLAB_SECRET } });
  orgId = server.loupe.services.keys.organisations()[0]!.orgId;
});
afterAll(async () => server?.stop({ remove: true }));

const opened = () => githubExample("pull_request", "opened");
const base = { repo: "acme/hooks", head: "feature/x", headSha: "a".repeat(40), base: "main", baseSha: "b".repeat(40) };

describe("POST /webhooks/github", () => {
  it("refuses unsigned and wrongly signed deliveries with 401 JSON, and records nothing", async () => {
    const head = await server.loupe.services.eventStore.headPosition();
    const payload = pullRequestPayload(opened(), { ...base, action: "opened", number: 1, updatedAt: "2024-05-01T10:00:00Z" });
    const unsigned = await deliverGitHub(server, "pull_request", payload, { secret: null });
    expect(unsigned.status).toBe(401);
    expect((await unsigned.json()).error.code).toBe("unauthorized");
    const wrong = await deliverGitHub(server, "pull_request", payload, { secret: "not the secret" });
    expect(wrong.status).toBe(401);
    // The webhook route needs no API key, and an API key does not replace the signature.
    const withKey = await server.api("/webhooks/github", { method: "POST", json: payload, headers: { "x-github-event": "pull_request" } });
    expect(withKey.status).toBe(401);
    expect(await server.loupe.services.eventStore.headPosition()).toBe(head);
    // A host without a configured secret refuses everything.
    const bb = await fetch(`${server.baseUrl}/webhooks/bitbucket`, { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
    expect(bb.status).toBe(401);
  });

  it("records an opened pull request into the read model with every list field", async () => {
    const payload = pullRequestPayload(opened(), { ...base, action: "opened", number: 2, title: "First", updatedAt: "2024-05-01T10:00:00Z", login: "octo-dev" });
    const res = await deliverGitHub(server, "pull_request", payload, { deliveryId: "delivery-2-open" });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ outcome: "recorded", events: ["PullRequestOpened"] });
    const { mergeRequests, total } = server.loupe.services.pullRequests.list(orgId, { name: "acme/hooks", remote: "github", defaultBranch: "main" });
    expect(total).toBe(1);
    expect(mergeRequests[0]).toEqual({
      id: "github:acme/hooks#2",
      number: 2,
      title: "First",
      state: "open",
      isDraft: false,
      authorLogin: "octo-dev",
      branches: { source: "feature/x", target: "main" },
      repository: { name: "acme/hooks", remote: "github" },
      stats: { changedFiles: payload.pull_request.changed_files, additions: payload.pull_request.additions, deletions: payload.pull_request.deletions },
      commentsCount: 0,
      reviewsCount: 0,
      createdAt: "2024-05-01T10:00:00.000Z",
    });
  });

  it("a redelivered delivery id records nothing new", async () => {
    const payload = pullRequestPayload(opened(), { ...base, action: "opened", number: 2, title: "First", updatedAt: "2024-05-01T10:00:00Z" });
    const head = await server.loupe.services.eventStore.headPosition();
    const again = await deliverGitHub(server, "pull_request", payload, { deliveryId: "delivery-2-open" });
    expect(await again.json()).toMatchObject({ outcome: "duplicate", deliveryId: "delivery-2-open" });
    // Two copies at once: still one record.
    const [a, b] = await Promise.all([
      deliverGitHub(server, "pull_request", { ...payload, action: "edited" }, { deliveryId: "delivery-2-race" }),
      deliverGitHub(server, "pull_request", { ...payload, action: "edited" }, { deliveryId: "delivery-2-race" }),
    ]);
    const outcomes = [(await a.json()).outcome, (await b.json()).outcome].sort();
    expect(outcomes).toEqual(["duplicate", "recorded"]);
    expect(await server.loupe.services.eventStore.headPosition()).toBe(head + 1);
  });

  it("accepts GitHub's form content type (payload=<urlencoded JSON>), signed over the raw body", async () => {
    const payload = pullRequestPayload(opened(), { ...base, action: "opened", number: 4, title: "Sent as a form: 100% + more & less", updatedAt: "2024-05-01T10:00:00Z" });
    const post = (body: string, signature: string | null) =>
      fetch(`${server.baseUrl}/webhooks/github`, {
        method: "POST",
        body,
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "x-github-event": "pull_request",
          "x-github-delivery": `form-${body.length}-${signature === null ? "unsigned" : "signed"}`,
          ...(signature === null ? {} : { "x-hub-signature-256": signature }),
        },
      });
    const form = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
    const head = await server.loupe.services.eventStore.headPosition();
    // The signature covers the form as sent, not the JSON inside it.
    expect((await post(form, signGitHub(JSON.stringify(payload)))).status).toBe(401);
    expect((await post(form, null)).status).toBe(401);
    expect(await server.loupe.services.eventStore.headPosition()).toBe(head);

    const res = await post(form, signGitHub(form));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ outcome: "recorded", events: ["PullRequestOpened"] });
    const { mergeRequest } = server.loupe.services.pullRequests.get(orgId, { name: "acme/hooks", remote: "github", defaultBranch: "main", prNumber: 4 });
    expect(mergeRequest).toMatchObject({ number: 4, title: "Sent as a form: 100% + more & less", state: "open" });

    // A form without the payload field, or with one that is not JSON: 400 naming it, nothing recorded.
    const after = await server.loupe.services.eventStore.headPosition();
    const missing = "other=1";
    const noPayload = await post(missing, signGitHub(missing));
    expect(noPayload.status).toBe(400);
    expect((await noPayload.json()).error).toMatchObject({ code: "invalid_request", message: expect.stringContaining("payload") });
    const notJson = "payload=%7Bnot+json";
    const bad = await post(notJson, signGitHub(notJson));
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatchObject({ code: "invalid_json", message: expect.stringContaining("payload") });
    expect(await server.loupe.services.eventStore.headPosition()).toBe(after);
  });

  it("out-of-order deliveries converge to the host's latest state", async () => {
    const n = 3;
    const closed = pullRequestPayload(githubExample("pull_request", "closed"), { ...base, action: "closed", number: n, title: "Final title", state: "closed", merged: true, updatedAt: "2024-05-03T10:00:00Z" });
    const edited = pullRequestPayload(opened(), { ...base, action: "edited", number: n, title: "Edited title", updatedAt: "2024-05-02T10:00:00Z" });
    const open = pullRequestPayload(opened(), { ...base, action: "opened", number: n, title: "Original", updatedAt: "2024-05-01T10:00:00Z", draft: true });
    for (const [event, id] of [[closed, "c"], [edited, "e"], [open, "o"]] as const) {
      const res = await deliverGitHub(server, "pull_request", event, { deliveryId: `ooo-${id}` });
      expect((await res.json()).outcome).toBe("recorded");
    }
    const { mergeRequest } = server.loupe.services.pullRequests.get(orgId, { name: "acme/hooks", remote: "github", defaultBranch: "main", prNumber: n });
    expect(mergeRequest).toMatchObject({ title: "Final title", state: "closed", merged: true, isDraft: false });
    const closedOnly = server.loupe.services.pullRequests.list(orgId, { state: "closed" });
    expect(closedOnly.mergeRequests.map((m) => m.number)).toContain(n);
  });

  it("comments: created, edited before created, resolved thread, deleted", async () => {
    const created = githubExample("pull_request_review_comment", "created");
    created.repository = { ...(created.repository as object), full_name: "acme/hooks" };
    (created.pull_request as Record<string, unknown>).number = 2;
    const comment = created.comment as Record<string, unknown>;
    comment.body = "Please rename this variable to something clearer";
    comment.updated_at = "2024-05-02T10:00:00Z";
    const edited = structuredClone(created);
    edited.action = "edited";
    (edited.comment as Record<string, unknown>).body = "Please rename this variable, and add a test";
    (edited.comment as Record<string, unknown>).updated_at = "2024-05-02T11:00:00Z";
    // The edit arrives first.
    expect((await (await deliverGitHub(server, "pull_request_review_comment", edited)).json()).outcome).toBe("recorded");
    expect((await (await deliverGitHub(server, "pull_request_review_comment", created)).json()).outcome).toBe("recorded");
    const list = server.loupe.services.pullRequests.listComments(orgId, { name: "acme/hooks", remote: "github", defaultBranch: "main", prNumber: 2 });
    expect(list.total).toBe(1);
    expect(list.comments[0]).toMatchObject({
      commentId: String(comment.id),
      body: "Please rename this variable, and add a test",
      isGreptileComment: false,
      addressed: false,
      filePath: comment.path,
      hasSuggestion: false,
      suggestedCode: null,
      linkedMemory: null,
    });
    expect(Object.keys(list.comments[0]!).sort()).toEqual(
      ["id", "commentId", "body", "authorLogin", "filePath", "lineStart", "lineEnd", "isGreptileComment", "addressed", "createdAt", "hasSuggestion", "suggestedCode", "linkedMemory"].sort(),
    );
    const deleted = structuredClone(created);
    deleted.action = "deleted";
    await deliverGitHub(server, "pull_request_review_comment", deleted);
    expect(server.loupe.services.pullRequests.listComments(orgId, { name: "acme/hooks", remote: "github", defaultBranch: "main", prNumber: 2 }).total).toBe(0);
  });
});

describe("learned patterns", () => {
  it("human comments repeating a point on two pull requests yield a SUGGESTED pattern", async () => {
    const bodies = [
      [10, "Please wrap this database call in a transaction so partial writes cannot happen"],
      [11, "This database call should be wrapped in a transaction to avoid partial writes"],
    ] as const;
    let n = 0;
    for (const [number, body] of bodies) {
      const created = githubExample("pull_request_review_comment", "created");
      created.repository = { ...(created.repository as object), full_name: "acme/learn" };
      (created.pull_request as Record<string, unknown>).number = number;
      const comment = created.comment as Record<string, unknown>;
      comment.id = 900 + n++;
      comment.body = body;
      expect((await (await deliverGitHub(server, "pull_request_review_comment", created)).json()).outcome).toBe("recorded");
    }
    const { customContexts } = server.loupe.services.customContext.list(orgId, { greptileGenerated: true });
    expect(customContexts).toHaveLength(1);
    // Prose with no code in it: suggested as an instruction, since no review could match it as a pattern.
    expect(customContexts[0]).toMatchObject({ type: "CUSTOM_INSTRUCTION", status: "SUGGESTED", evidenceCount: 2, commentsCount: 2, greptileGenerated: true });
    const { customContext } = server.loupe.services.customContext.get(orgId, customContexts[0]!.id);
    expect(customContext.linkedComments.map((l) => l.prNumber).sort()).toEqual([10, 11]);
    expect(server.loupe.services.customContext.search(orgId, { query: "transaction" }).total).toBe(1);
    // Accepting it: a status change (there is no delete).
    const accepted = await server.loupe.services.customContext.setStatus(orgId, customContext.id, "ACTIVE", { orgId, actor: "t", correlationId: "c" });
    expect(accepted.customContext.status).toBe("ACTIVE");
  });
});

describe("secrets", () => {
  it("webhook secrets never reach the event log, the read models or the logs", async () => {
    const events = await server.loupe.services.eventStore.readAll({ maxCount: 10_000 });
    const log = JSON.stringify(events);
    for (const secret of [GITHUB_SECRET, GITLAB_SECRET]) {
      expect(log).not.toContain(secret);
      expect(server.logs()).not.toContain(secret);
    }
  });
});

describe("POST /webhooks/gitlab", () => {
  it("checks X-Gitlab-Token and records the merge request", async () => {
    const body = JSON.stringify(fixture("gitlab/merge-request-hook.json"));
    const bad = await fetch(`${server.baseUrl}/webhooks/gitlab`, { method: "POST", body, headers: { "x-gitlab-event": "Merge Request Hook", "x-gitlab-token": "nope" } });
    expect(bad.status).toBe(401);
    const ok = await fetch(`${server.baseUrl}/webhooks/gitlab`, {
      method: "POST",
      body,
      headers: { "x-gitlab-event": "Merge Request Hook", "x-gitlab-token": GITLAB_SECRET, "content-type": "application/json" },
    });
    expect(ok.status).toBe(200);
    expect((await ok.json()).outcome).toBe("recorded");
    const { mergeRequests } = server.loupe.services.pullRequests.list(orgId, {});
    expect(mergeRequests.some((m) => m.repository.remote === "gitlab")).toBe(true);
  });
});
