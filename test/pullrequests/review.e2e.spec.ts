/**
 * End-to-end code review on a real git repository made here, served as the "GitHub" host through
 * LOUPE_GITHUB_URL=file://..., the pull request recorded by a signed webhook.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.ts";
import { githubExample } from "../support/host-fixtures.ts";
import { createHostRepo, deliverGitHub, GITHUB_SECRET, pullRequestPayload } from "../support/pr-webhooks.ts";

const REPO = "acme/widgets";
const repoArgs = { name: REPO, remote: "github", defaultBranch: "main" };

function makeRepo() {
  const host = createHostRepo(REPO);
  host.write("src/app.ts", "export const version = 1;\n");
  host.write("src/net.ts", "export const base = '/api';\n");
  host.write("README.md", "# widgets\n");
  const baseSha = host.commit("initial");
  host.push("main");
  host.checkout("feature", true);
  host.write("src/app.ts", "export const version = 1;\n\nexport function add(a: number, b: number) {\n  debugger;\n  return a + b;\n}\n");
  host.write("src/net.ts", "export const base = '/api';\n\nexport async function load(path: string) {\n  return legacyFetch(base + path);\n}\n");
  host.write("docs/notes.ts", "export const note = legacyFetch;\n");
  const headSha = host.commit("add helpers");
  host.push("feature");
  return { host, baseSha, headSha };
}

async function waitFor<T>(fn: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = fn();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("code review of a real repository", () => {
  let server: TestServer;
  let orgId: string;
  let repo: ReturnType<typeof makeRepo>;
  let patternId: string;

  beforeAll(async () => {
    repo = makeRepo();
    server = await startTestServer({ env: { LOUPE_WEBHOOK_SECRET_GITHUB: GITHUB_SECRET, LOUPE_GITHUB_URL: repo.host.url } });
    orgId = server.loupe.services.keys.organisations()[0]!.orgId;
  });
  afterAll(async () => {
    await server?.stop({ remove: true });
    repo?.host.remove();
  });

  it("custom context with AND/OR/MATCHES scopes and a pathological glob", async () => {
    const cc = server.loupe.services.customContext;
    const ctx = { orgId, actor: "test", correlationId: "t1" };
    // Applies to src/**/*.ts in this repository only.
    const created = await cc.create(
      orgId,
      {
        type: "PATTERN",
        body: "Never call `legacyFetch`; use `httpClient` instead.",
        scopes: { AND: [{ field: "filepath", operator: "MATCHES", value: "src/**/*.ts" }, { OR: [{ field: "repository", operator: "MATCHES", value: "acme/*" }, { field: "repository", operator: "MATCHES", value: "other/*" }] }] },
      },
      ctx,
    );
    patternId = created.customContext.id;
    expect(created.customContext).toMatchObject({ type: "PATTERN", status: "ACTIVE" });
    // Same needle, but scoped to another repository: must never fire here.
    await cc.create(orgId, { type: "PATTERN", body: "Do not use `legacyFetch` (other team).", scopes: { OR: [{ field: "repository", operator: "MATCHES", value: "someone-else/**" }] } }, ctx);
    // Defaults.
    const plain = await cc.create(orgId, { body: "Prefer small functions." }, ctx);
    expect(plain.customContext).toMatchObject({ type: "CUSTOM_INSTRUCTION", status: "ACTIVE", scopes: {} });
    // A pathological glob: refused at the edge, or evaluated quickly; never a hang.
    const evil = `${"*".repeat(10)}${"{a,b}".repeat(12)}${"**/".repeat(40)}x`;
    const started = Date.now();
    await cc.create(orgId, { type: "PATTERN", body: "Avoid `legacyFetch`.", scopes: { AND: [{ field: "filepath", operator: "MATCHES", value: evil }] } }, ctx).then(
      () => undefined,
      (error: Error) => expect(error.message).toMatch(/scopes/i),
    );
    const backtrack = `${"*a".repeat(30)}b`;
    await cc.create(orgId, { type: "PATTERN", body: "Avoid `legacyFetch` in a*b files.", scopes: { AND: [{ field: "filepath", operator: "MATCHES", value: backtrack }] } }, ctx).catch(() => undefined);
    expect(Date.now() - started).toBeLessThan(2000);
    // The HTTP face refuses an invalid scope with 400.
    const bad = await server.api("/v2/custom-context", { method: "POST", json: { type: "PATTERN", body: "x", scopes: { AND: [{ field: "filepath", operator: "WHATEVER", value: "*" }] } } });
    expect(bad.status).toBe(400);
    const listed = cc.list(orgId, { type: "PATTERN" });
    expect(listed.customContexts[0]).toHaveProperty("evidenceCount");
    expect(listed.customContexts[0]).toHaveProperty("commentsCount");
  });

  it("reviews: status sequence, comments on the right lines, a suggestion, addressed after a fix", async () => {
    const opened = pullRequestPayload(githubExample("pull_request", "opened"), {
      action: "opened", repo: REPO, number: 7, head: "feature", headSha: repo.headSha, base: "main", baseSha: repo.baseSha, updatedAt: "2024-05-01T10:00:00Z",
    });
    expect((await (await deliverGitHub(server, "pull_request", opened)).json()).outcome).toBe("recorded");

    const res = await server.api("/v2/code-reviews", { method: "POST", json: { ...repoArgs, prNumber: 7 } });
    expect(res.status).toBe(202);
    const triggered = await res.json();
    expect(triggered).toMatchObject({ status: "PENDING" });
    expect(triggered.codeReviewId).toMatch(/^[0-9a-f-]{36}$/);

    await server.loupe.services.reviews.idle();
    const record = server.loupe.services.reviews.record(orgId, triggered.codeReviewId)!;
    // The sequence as recorded (read model history and the review's own events).
    const statuses = record.history.map((h) => h.status).filter((s, i, a) => i === 0 || a[i - 1] !== s);
    expect(statuses).toEqual(["PENDING", "REVIEWING_FILES", "GENERATING_SUMMARY", "COMPLETED"]);
    expect(record.history.filter((h) => h.status === "REVIEWING_FILES").map((h) => h.completedFiles)).toEqual([0, 1, 2, 3]);
    const { events } = await server.loupe.services.eventStore.readStream(`codereview-${triggered.codeReviewId}`);
    expect(events.map((e) => e.type).filter((t) => t.startsWith("CodeReview"))).toEqual([
      "CodeReviewRequested", "CodeReviewStarted", "CodeReviewFileReviewed", "CodeReviewFileReviewed", "CodeReviewFileReviewed", "CodeReviewSummaryGenerating", "CodeReviewCompleted",
    ]);

    const { codeReview } = server.loupe.services.reviews.get(orgId, triggered.codeReviewId);
    expect(codeReview).toMatchObject({
      status: "COMPLETED",
      metadata: { strictness: 3, totalFiles: 3, completedFiles: 3 },
      mergeRequest: { id: "github:acme/widgets#7", prNumber: 7, title: "Add widgets", repository: { id: "github:acme/widgets", name: REPO, remote: "github" } },
    });
    expect(codeReview.metadata.correlationId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(codeReview.body).toContain("Review");
    expect(codeReview.completedAt).not.toBeNull();

    const { mergeRequest } = server.loupe.services.pullRequests.get(orgId, { ...repoArgs, prNumber: 7 });
    const service = mergeRequest.comments.greptile;
    const debuggerComment = service.find((c) => c.filePath === "src/app.ts")!;
    expect(debuggerComment).toMatchObject({ lineStart: 4, lineEnd: 4, authorLogin: "loupe", isGreptileComment: true, hasSuggestion: true, suggestedCode: "", addressed: false });
    expect(debuggerComment.body).toContain("```suggestion");
    const patternComment = service.find((c) => c.filePath === "src/net.ts")!;
    expect(patternComment).toMatchObject({ lineStart: 4, lineEnd: 4, authorLogin: "loupe", linkedMemory: { id: patternId } });
    // docs/notes.ts is outside the pattern's scope: no comment there.
    expect(service.some((c) => c.filePath === "docs/notes.ts")).toBe(false);
    const summary = service.find((c) => c.filePath === null)!;
    expect(summary.authorLogin).toBe("loupe[bot]");
    expect(service).toHaveLength(3);
    expect(mergeRequest.reviewAnalysis).toMatchObject({ totalGreptileComments: 3, reviewCompleteness: "0/2 service comments addressed", hasNewCommitsSinceReview: false });
    expect(mergeRequest.codeReviews).toEqual([{ id: triggered.codeReviewId, status: "COMPLETED", createdAt: codeReview.createdAt, completedAt: codeReview.completedAt }]);
    // The pattern shows the comment it caused.
    const linked = server.loupe.services.customContext.get(orgId, patternId).customContext;
    expect(linked.commentsCount).toBe(1);
    expect(linked.linkedComments[0]).toMatchObject({ id: patternComment.id, relation: "review" });

    // A later commit removes the debugger line (applies the suggestion), then a synchronize webhook.
    repo.host.write("src/app.ts", "export const version = 1;\n\nexport function add(a: number, b: number) {\n  return a + b;\n}\n");
    const fixSha = repo.host.commit("remove debugger");
    repo.host.push("feature");
    const sync = pullRequestPayload(githubExample("pull_request", "synchronize"), {
      action: "synchronize", repo: REPO, number: 7, head: "feature", headSha: fixSha, base: "main", baseSha: repo.baseSha, updatedAt: "2024-05-02T10:00:00Z",
    });
    expect((await (await deliverGitHub(server, "pull_request", sync)).json()).events).toEqual(["PullRequestSynchronized"]);
    await server.loupe.services.reviews.idle();
    const after = server.loupe.services.pullRequests.get(orgId, { ...repoArgs, prNumber: 7 }).mergeRequest;
    expect(after.reviewAnalysis.reviewCompleteness).toBe("1/2 service comments addressed");
    expect(after.reviewAnalysis.hasNewCommitsSinceReview).toBe(true);
    expect(after.reviewAnalysis.addressedComments.map((c) => c.id)).toEqual([debuggerComment.id]);
    expect(after.reviewAnalysis.commitsSinceLastReview).toEqual([expect.objectContaining({ sha: fixSha, message: "remove debugger" })]);
    const addressedOnly = server.loupe.services.pullRequests.listComments(orgId, { ...repoArgs, prNumber: 7, greptileGenerated: true, addressed: true });
    expect(addressedOnly.comments.map((c) => c.id)).toEqual([debuggerComment.id]);

    // Comment search: addressed ones hidden by default.
    const search = server.loupe.services.pullRequests.searchComments(orgId, { query: "debugger statement" });
    expect(search.summary.addressed).toBe(1);
    expect(search.comments.some((c) => c.id === debuggerComment.id)).toBe(false);
    const withAddressed = server.loupe.services.pullRequests.searchComments(orgId, { query: "debugger", includeAddressed: true });
    expect(withAddressed.comments.find((c) => c.id === debuggerComment.id)).toMatchObject({ sourceType: "inline", addressed: true, mergeRequest: { prNumber: 7, repository: { name: REPO } } });

    // Re-review after the new commit: only the change is reviewed, nothing is repeated.
    const again = await server.loupe.services.reviews.trigger(orgId, { ...repoArgs, prNumber: 7 }, { orgId, actor: "test", correlationId: "t2" });
    await server.loupe.services.reviews.idle();
    const second = server.loupe.services.reviews.record(orgId, again.codeReviewId)!;
    expect(second.status).toBe("COMPLETED");
    expect(second.incremental).toBe(true);
    // The fix only removed a line: nothing new to review, no second summary, no repeated comment.
    expect(second.metadata.totalFiles).toBe(0);
    expect(second.skippedFiles).toEqual([{ path: "src/app.ts", reason: "no added lines" }]);
    const final = server.loupe.services.pullRequests.get(orgId, { ...repoArgs, prNumber: 7 }).mergeRequest;
    expect(final.comments.greptile).toHaveLength(3);
    expect(final.reviewAnalysis.hasNewCommitsSinceReview).toBe(false);
    expect(final.codeReviews).toHaveLength(2);
    const list = server.loupe.services.reviews.list(orgId, { ...repoArgs, prNumber: 7 });
    expect(list.total).toBe(2);
    expect(list.codeReviews[0]!.mergeRequest).toEqual({ id: "github:acme/widgets#7", prNumber: 7, title: "Add widgets", sourceRepoUrl: `${repo.host.url}/${REPO}`, repository: { name: REPO } });
  });

  it("skips drafts unless asked, and reviews them when asked", async () => {
    const draft = pullRequestPayload(githubExample("pull_request", "opened"), {
      action: "opened", repo: REPO, number: 8, head: "feature", headSha: repo.host.sha("feature"), base: "main", baseSha: repo.baseSha, updatedAt: "2024-05-01T10:00:00Z", draft: true,
    });
    await deliverGitHub(server, "pull_request", draft);
    const ctx = { orgId, actor: "test", correlationId: "t3" };
    const skipped = await server.loupe.services.reviews.trigger(orgId, { ...repoArgs, prNumber: 8, includeDrafts: false }, ctx);
    await server.loupe.services.reviews.idle();
    expect(server.loupe.services.reviews.record(orgId, skipped.codeReviewId)).toMatchObject({ status: "SKIPPED", reason: expect.stringMatching(/draft/) });
    const asked = await server.loupe.services.reviews.trigger(orgId, { ...repoArgs, prNumber: 8 }, ctx);
    await server.loupe.services.reviews.idle();
    expect(server.loupe.services.reviews.record(orgId, asked.codeReviewId)!.status).toBe("COMPLETED");
    await expect(server.loupe.services.reviews.trigger(orgId, { ...repoArgs, prNumber: 999 }, ctx)).rejects.toThrow(/not found/);
    await expect(server.loupe.services.reviews.trigger(orgId, { ...repoArgs, defaultBranch: "", prNumber: 8 }, ctx)).rejects.toThrow("invalid_type - defaultBranch Required");
  });
});

describe("a review stopped midway", () => {
  it("resumes after a restart on the same data dir and never duplicates comments", async () => {
    const repo = makeRepo();
    const env = { LOUPE_WEBHOOK_SECRET_GITHUB: GITHUB_SECRET, LOUPE_GITHUB_URL: repo.host.url, LOUPE_REVIEW_THROTTLE_MS: "1500", LOUPE_REVIEW_BOT_NAME: "reviewer" };
    let server = await startTestServer({ env });
    const orgId = server.loupe.services.keys.organisations()[0]!.orgId;
    try {
      await server.loupe.services.customContext.create(orgId, { type: "PATTERN", body: "Never call `legacyFetch`." }, { orgId, actor: "t", correlationId: "c" });
      const opened = pullRequestPayload(githubExample("pull_request", "opened"), {
        action: "opened", repo: REPO, number: 3, head: "feature", headSha: repo.headSha, base: "main", baseSha: repo.baseSha, updatedAt: "2024-05-01T10:00:00Z",
      });
      await deliverGitHub(server, "pull_request", opened);
      const { codeReviewId } = await server.loupe.services.reviews.trigger(orgId, { ...repoArgs, prNumber: 3 }, { orgId, actor: "t", correlationId: "c" });
      await waitFor(() => {
        const r = server.loupe.services.reviews.record(orgId, codeReviewId);
        return r && r.metadata.completedFiles >= 1 ? r : undefined;
      });
      const dataDir = server.dataDir;
      await server.stop();
      server = await startTestServer({ env: { ...env, LOUPE_REVIEW_THROTTLE_MS: "0" }, dataDir });
      const stopped = server.loupe.services.reviews.record(orgId, codeReviewId)!;
      expect(stopped.metadata.completedFiles).toBeLessThan(3);
      await waitFor(() => (server.loupe.services.reviews.record(orgId, codeReviewId)!.status === "COMPLETED" ? true : undefined));
      await server.loupe.services.reviews.idle();
      const record = server.loupe.services.reviews.record(orgId, codeReviewId)!;
      expect(record.metadata).toMatchObject({ totalFiles: 3, completedFiles: 3 });
      const { mergeRequest } = server.loupe.services.pullRequests.get(orgId, { ...repoArgs, prNumber: 3 });
      const ids = mergeRequest.comments.greptile.map((c) => c.id);
      expect(new Set(ids).size).toBe(ids.length);
      // debugger (app.ts), legacyFetch in net.ts and docs/notes.ts (universal scope), and the summary.
      expect(mergeRequest.comments.greptile.filter((c) => c.filePath !== null).map((c) => c.filePath).sort()).toEqual(["docs/notes.ts", "src/app.ts", "src/net.ts"]);
      expect(mergeRequest.comments.greptile.filter((c) => c.filePath === null).map((c) => c.authorLogin)).toEqual(["reviewer[bot]"]);
      const { events } = await server.loupe.services.eventStore.readStream(`codereview-${codeReviewId}`);
      expect(events.filter((e) => e.type === "CodeReviewFileReviewed").map((e) => e.data.path)).toHaveLength(3);
      expect(events.filter((e) => e.type === "ReviewCommentCreated")).toHaveLength(4);
    } finally {
      await server.stop({ remove: true });
      repo.host.remove();
    }
  });
});
