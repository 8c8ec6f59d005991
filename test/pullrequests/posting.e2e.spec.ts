/**
 * Posting reviews to the host (LOUPE_POST_REVIEWS=true + LOUPE_REVIEW_TOKEN_<HOST>): the review of a
 * pull request on a real git repository (file:// clone base) goes to a local server speaking
 * GitHub's (and GitLab's) REST shapes; the recorded comments get the platform ids. A review stopped
 * between posting and recording finds its review on the host by the hidden marker and posts nothing twice.
 */
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.ts";
import { fixture, githubExample } from "../support/host-fixtures.ts";
import { deliverGitHub, GITHUB_SECRET, pullRequestPayload } from "../support/pr-webhooks.ts";
import { makeReviewRepo, startFakeGitHub, startFakeGitLab, waitFor, type FakeGitHub } from "../support/fake-hosts.ts";

const REPO = "acme/widgets";
const TOKEN = "ghs_review_service_token_0123456789";
const repoArgs = { name: REPO, remote: "github", defaultBranch: "main" };

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(env: Record<string, string> = {}) {
  const repo = makeReviewRepo(REPO);
  const gh = await startFakeGitHub();
  const serverEnv = {
    LOUPE_WEBHOOK_SECRET_GITHUB: GITHUB_SECRET,
    LOUPE_GITHUB_URL: repo.host.url,
    LOUPE_GITHUB_API_URL: gh.base,
    LOUPE_POST_REVIEWS: "true",
    LOUPE_REVIEW_TOKEN_GITHUB: TOKEN,
    ...env,
  };
  const holder: { server: TestServer } = { server: await startTestServer({ env: serverEnv }) };
  cleanups.push(() => repo.host.remove(), () => gh.close(), () => holder.server.stop({ remove: true }));
  const orgId = holder.server.loupe.services.keys.organisations()[0]!.orgId;
  await holder.server.loupe.services.customContext.create(
    orgId,
    { type: "PATTERN", body: "Never call `legacyFetch`.", scopes: { AND: [{ field: "filepath", operator: "MATCHES", value: "src/**" }] } },
    { orgId, actor: "t", correlationId: "c" },
  );
  const opened = pullRequestPayload(githubExample("pull_request", "opened"), {
    action: "opened", repo: REPO, number: 7, head: "feature", headSha: repo.headSha, base: "main", baseSha: repo.baseSha, updatedAt: "2024-05-01T10:00:00Z",
  });
  expect((await (await deliverGitHub(holder.server, "pull_request", opened)).json()).outcome).toBe("recorded");
  return { repo, gh, holder, orgId, serverEnv };
}

function assertPostedReview(gh: FakeGitHub, codeReviewId: string, headSha: string) {
  const posts = gh.posts();
  expect(posts).toHaveLength(1);
  const post = posts[0]!;
  expect(post.url).toBe("/repos/acme/widgets/pulls/7/reviews");
  expect(post.headers.authorization).toBe(`Bearer ${TOKEN}`);
  const body = post.body as { commit_id: string; body: string; event: string; comments: { path: string; line: number; side: string; body: string }[] };
  expect(body.commit_id).toBe(headSha);
  expect(body.event).toBe("COMMENT");
  expect(body.body).toContain(`<!-- loupe-review:${codeReviewId} -->`);
  const byPath = new Map(body.comments.map((c) => [c.path, c]));
  expect([...byPath.keys()].sort()).toEqual(["src/app.ts", "src/net.ts"]);
  expect(byPath.get("src/app.ts")).toMatchObject({ line: 4, side: "RIGHT" });
  expect(byPath.get("src/app.ts")!.body).toContain("```suggestion");
  expect(byPath.get("src/net.ts")).toMatchObject({ line: 4, side: "RIGHT" });
  return body;
}

describe("posting a review to GitHub", () => {
  it("POSTs one review with the summary, inline comments with suggestion blocks, commit_id and the token; comments get the platform ids", async () => {
    const { repo, gh, holder, orgId } = await setup();
    const { server } = holder;
    const res = await server.api("/v2/code-reviews", { method: "POST", json: { ...repoArgs, prNumber: 7 } });
    const { codeReviewId } = await res.json();
    await server.loupe.services.reviews.idle();
    expect(server.loupe.services.reviews.record(orgId, codeReviewId)!.status).toBe("COMPLETED");

    const body = assertPostedReview(gh, codeReviewId, repo.headSha);
    const { codeReview } = server.loupe.services.reviews.get(orgId, codeReviewId);
    expect(body.body.startsWith(codeReview.body)).toBe(true);

    const posted = gh.reviews[0]!;
    const { mergeRequest } = server.loupe.services.pullRequests.get(orgId, { ...repoArgs, prNumber: 7 });
    const service = mergeRequest.comments.greptile;
    expect(service).toHaveLength(3);
    expect(service.find((c) => c.filePath === null)!.commentId).toBe(String(posted.id));
    for (const path of ["src/app.ts", "src/net.ts"]) {
      const hostComment = posted.comments.find((c) => c.path === path)!;
      expect(service.find((c) => c.filePath === path)!.commentId).toBe(String(hostComment.id));
    }
    // The intent was recorded before the post, the ids after it.
    const { events } = await server.loupe.services.eventStore.readStream(`codereview-${codeReviewId}`);
    const types = events.map((e) => e.type);
    expect(types.indexOf("ReviewPostRequested")).toBeGreaterThan(types.indexOf("CodeReviewSummaryGenerating"));
    expect(types.slice(-2)).toEqual(["ReviewCommentsPosted", "CodeReviewCompleted"]);
    expect(events.find((e) => e.type === "ReviewPostRequested")!.data).toMatchObject({ idempotencyKey: `loupe-review:${codeReviewId}`, commitSha: repo.headSha, inlineCount: 2 });
    // The token never reaches the log of events or the service's logs.
    const all = await server.loupe.services.eventStore.readAll({ maxCount: 10_000 });
    expect(JSON.stringify(all)).not.toContain(TOKEN);
    expect(server.logs()).not.toContain(TOKEN);
  });

  it("a review stopped after the host got the POST but before the ids were recorded finds its review by the marker and does not post again", async () => {
    const { repo, gh, holder, orgId, serverEnv } = await setup();
    gh.holdNextPost = true;
    const { codeReviewId } = await (await holder.server.api("/v2/code-reviews", { method: "POST", json: { ...repoArgs, prNumber: 7 } })).json();
    await gh.heldPost; // GitHub created the review; its answer is still on the way
    const stopping = holder.server.loupe.services.reviews.stop();
    gh.release(502); // the answer is lost
    await stopping;
    const dataDir = holder.server.dataDir;
    await holder.server.stop();
    expect(gh.reviews).toHaveLength(1);

    holder.server = await startTestServer({ env: serverEnv, dataDir });
    const server = holder.server;
    await waitFor(() => (server.loupe.services.reviews.record(orgId, codeReviewId)?.status === "COMPLETED" ? true : undefined), 20_000, "the resumed review");
    await server.loupe.services.reviews.idle();
    // Exactly one POST ever; the resumed review listed the reviews and read the comments back.
    assertPostedReview(gh, codeReviewId, repo.headSha);
    expect(gh.requests.some((r) => r.method === "GET" && r.url.startsWith("/repos/acme/widgets/pulls/7/reviews?"))).toBe(true);
    const posted = gh.reviews[0]!;
    const service = server.loupe.services.pullRequests.get(orgId, { ...repoArgs, prNumber: 7 }).mergeRequest.comments.greptile;
    expect(service.find((c) => c.filePath === null)!.commentId).toBe(String(posted.id));
    expect(service.filter((c) => c.filePath !== null).map((c) => c.commentId).sort()).toEqual(posted.comments.map((c) => String(c.id)).sort());
    const { events } = await server.loupe.services.eventStore.readStream(`codereview-${codeReviewId}`);
    expect(events.filter((e) => e.type === "ReviewPostRequested")).toHaveLength(1);
    expect(events.filter((e) => e.type === "ReviewCommentsPosted")).toHaveLength(1);
  });
});

describe("posting a review to GitLab", () => {
  it("posts positioned discussions for inline comments and the summary note last, with the token", async () => {
    const PROJECT = "acme/gadgets";
    const GITLAB_TOKEN = "glpat-review-token-0123456789";
    const GITLAB_SECRET = "gitlab webhook token";
    const repo = makeReviewRepo(PROJECT);
    const gl = await startFakeGitLab({ base_sha: repo.baseSha, start_sha: repo.baseSha, head_sha: repo.headSha });
    const server = await startTestServer({
      env: {
        LOUPE_WEBHOOK_SECRET_GITLAB: GITLAB_SECRET,
        LOUPE_GITLAB_URL: repo.host.url,
        LOUPE_GITLAB_API_URL: gl.base,
        LOUPE_POST_REVIEWS: "true",
        LOUPE_REVIEW_TOKEN_GITLAB: GITLAB_TOKEN,
      },
    });
    cleanups.push(() => repo.host.remove(), () => gl.close(), () => server.stop({ remove: true }));
    const orgId = server.loupe.services.keys.organisations()[0]!.orgId;
    await server.loupe.services.customContext.create(orgId, { type: "PATTERN", body: "Never call `legacyFetch`.", scopes: { AND: [{ field: "filepath", operator: "MATCHES", value: "src/**" }] } }, { orgId, actor: "t", correlationId: "c" });
    const hook = fixture("gitlab/merge-request-hook.json") as Record<string, any>;
    hook.project.path_with_namespace = PROJECT;
    hook.project.default_branch = "main";
    Object.assign(hook.object_attributes, { iid: 5, action: "open", state: "opened", source_branch: "feature", target_branch: "main", draft: false, work_in_progress: false, last_commit: { ...hook.object_attributes.last_commit, id: repo.headSha } });
    const delivered = await fetch(`${server.baseUrl}/webhooks/gitlab`, {
      method: "POST",
      body: JSON.stringify(hook),
      headers: { "content-type": "application/json", "x-gitlab-event": "Merge Request Hook", "x-gitlab-token": GITLAB_SECRET },
    });
    expect((await delivered.json()).outcome).toBe("recorded");
    const { codeReviewId } = await server.loupe.services.reviews.trigger(orgId, { name: PROJECT, remote: "gitlab", defaultBranch: "main", prNumber: 5 }, { orgId, actor: "t", correlationId: "c" });
    await server.loupe.services.reviews.idle();
    expect(server.loupe.services.reviews.record(orgId, codeReviewId)).toMatchObject({ status: "COMPLETED" });

    const posts = gl.requests.filter((r) => r.method === "POST");
    expect(posts.map((p) => p.url)).toEqual([
      "/projects/acme%2Fgadgets/merge_requests/5/discussions",
      "/projects/acme%2Fgadgets/merge_requests/5/discussions",
      "/projects/acme%2Fgadgets/merge_requests/5/notes",
    ]);
    for (const p of posts) expect(p.headers.authorization).toBe(`Bearer ${GITLAB_TOKEN}`);
    const app = posts.find((p) => (p.body as { position?: { new_path: string } }).position?.new_path === "src/app.ts")!.body as Record<string, any>;
    expect(app.commit_id).toBe(repo.headSha);
    expect(app.position).toMatchObject({ position_type: "text", base_sha: repo.baseSha, head_sha: repo.headSha, new_path: "src/app.ts", new_line: 4 });
    expect(app.body).toContain("```suggestion");
    expect((posts[2]!.body as { body: string }).body).toContain(`<!-- loupe-review:${codeReviewId} -->`);
    const service = server.loupe.services.pullRequests.get(orgId, { name: PROJECT, remote: "gitlab", defaultBranch: "main", prNumber: 5 }).mergeRequest.comments.greptile;
    expect(service.find((c) => c.filePath === null)!.commentId).toBe(String(gl.notes[0]!.id));
    const appNote = gl.discussions.find((d) => d.notes[0]!.position.new_path === "src/app.ts")!.notes[0]!;
    expect(service.find((c) => c.filePath === "src/app.ts")!.commentId).toBe(String(appNote.id));
  });
});
