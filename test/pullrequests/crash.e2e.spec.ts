/**
 * A HARD kill mid-review: the service runs as a child process (`node --import tsx src/main.ts`, so
 * SIGKILL reaches the server itself) on a temp data dir with LOUPE_REVIEW_THROTTLE_MS making the
 * review slow; it is SIGKILLed once REVIEWING_FILES has completedFiles >= 1, restarted on the same
 * data dir, and the review completes with no duplicated comment.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort, spawnProcess, waitForHttp, type Spawned } from "../support/process.ts";
import { startTestServer, TEST_ADMIN_KEY, type TestServer } from "../support/server.ts";
import { githubExample } from "../support/host-fixtures.ts";
import { deliverGitHub, GITHUB_SECRET, pullRequestPayload } from "../support/pr-webhooks.ts";
import { makeReviewRepo, startFakeGitHub, waitFor } from "../support/fake-hosts.ts";

const REPO = "acme/widgets";
const repoArgs = { name: REPO, remote: "github", defaultBranch: "main" };
const cleanups: (() => unknown)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function startChild(dataDir: string, env: Record<string, string>) {
  const port = await freePort();
  const proc: Spawned = spawnProcess(process.execPath, ["--import", "tsx", "src/main.ts"], {
    PORT: String(port),
    LOUPE_HOST: "127.0.0.1",
    LOUPE_DATA_DIR: dataDir,
    LOUPE_API_KEY: TEST_ADMIN_KEY,
    LOUPE_LOG_LEVEL: "info",
    ...env,
  });
  cleanups.push(() => proc.child.kill("SIGKILL"));
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForHttp(`${baseUrl}/healthz`, 60_000).catch((e: Error) => {
    proc.child.kill("SIGKILL");
    throw new Error(`${e.message}\n${proc.output()}`);
  });
  const api = (path: string, init: { method?: string; json?: unknown } = {}) =>
    fetch(baseUrl + path, {
      method: init.method ?? "GET",
      headers: { authorization: `Bearer ${TEST_ADMIN_KEY}`, "content-type": "application/json" },
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
    });
  return { proc, baseUrl, api };
}

type Child = Awaited<ReturnType<typeof startChild>>;

const reviewOf = async (child: Child, id: string) => (await (await child.api(`/v2/code-reviews/${id}`)).json()).codeReview as { status: string; metadata: { completedFiles: number; totalFiles: number } };

async function openPullRequest(child: Child, repo: ReturnType<typeof makeReviewRepo>, number: number) {
  const created = await child.api("/v2/custom-context", { method: "POST", json: { type: "PATTERN", body: "Never call `legacyFetch`." } });
  expect(created.status).toBe(201);
  const opened = pullRequestPayload(githubExample("pull_request", "opened"), {
    action: "opened", repo: REPO, number, head: "feature", headSha: repo.headSha, base: "main", baseSha: repo.baseSha, updatedAt: "2024-05-01T10:00:00Z",
  });
  const delivered = await deliverGitHub({ baseUrl: child.baseUrl } as TestServer, "pull_request", opened);
  expect((await delivered.json()).outcome).toBe("recorded");
}

async function sigkill(child: Child) {
  child.proc.child.kill("SIGKILL");
  await child.proc.exited;
}

/** Every service comment once: one per id, per fingerprint and per (path, line). */
async function assertNoDuplicates(server: TestServer, codeReviewId: string, prNumber: number) {
  const orgId = server.loupe.services.keys.organisations()[0]!.orgId;
  const record = server.loupe.services.reviews.record(orgId, codeReviewId)!;
  expect(record.status).toBe("COMPLETED");
  expect(record.metadata).toMatchObject({ totalFiles: 3, completedFiles: 3 });
  const { mergeRequest } = server.loupe.services.pullRequests.get(orgId, { ...repoArgs, prNumber });
  const service = mergeRequest.comments.greptile;
  const inline = service.filter((c) => c.filePath !== null);
  expect(inline.map((c) => c.filePath).sort()).toEqual(["docs/notes.ts", "src/app.ts", "src/net.ts"]);
  const perLine = new Map<string, number>();
  for (const c of inline) perLine.set(`${c.filePath}:${c.lineStart}`, (perLine.get(`${c.filePath}:${c.lineStart}`) ?? 0) + 1);
  expect([...perLine.values()].every((n) => n === 1)).toBe(true);
  const records = server.loupe.services.pullRequests.queries.commentsOf(orgId, mergeRequest.id ?? `github:${REPO}#${prNumber}`).filter((c) => c.isGreptileComment);
  const fingerprints = records.filter((c) => c.fingerprint).map((c) => c.fingerprint);
  expect(new Set(fingerprints).size).toBe(fingerprints.length);
  expect(service.filter((c) => c.filePath === null)).toHaveLength(1);
  const { events } = await server.loupe.services.eventStore.readStream(`codereview-${codeReviewId}`);
  const created = events.filter((e) => e.type === "ReviewCommentCreated").map((e) => (e.data as { comment: { id: string } }).comment.id);
  expect(created).toHaveLength(4);
  expect(new Set(created).size).toBe(4);
  expect(events.filter((e) => e.type === "CodeReviewFileReviewed").map((e) => (e.data as { path: string }).path).sort()).toEqual(["docs/notes.ts", "src/app.ts", "src/net.ts"]);
  expect(events.filter((e) => e.type === "CodeReviewCompleted")).toHaveLength(1);
  return { orgId, service };
}

describe("SIGKILL mid-review", () => {
  it("the restarted service completes the review with no duplicate comments", async () => {
    const repo = makeReviewRepo(REPO);
    const dataDir = mkdtempSync(join(tmpdir(), "loupe-review-crash-"));
    cleanups.push(() => repo.host.remove(), () => rmSync(dataDir, { recursive: true, force: true }));
    const env = { LOUPE_WEBHOOK_SECRET_GITHUB: GITHUB_SECRET, LOUPE_GITHUB_URL: repo.host.url };

    const first = await startChild(dataDir, { ...env, LOUPE_REVIEW_THROTTLE_MS: "2000" });
    await openPullRequest(first, repo, 3);
    const triggered = await first.api("/v2/code-reviews", { method: "POST", json: { ...repoArgs, prNumber: 3 } });
    expect(triggered.status).toBe(202);
    const { codeReviewId } = await triggered.json();
    const atKill = await waitFor(async () => {
      const r = await reviewOf(first, codeReviewId);
      return r.status === "REVIEWING_FILES" && r.metadata.completedFiles >= 1 ? r : undefined;
    }, 30_000, "the first reviewed file");
    await sigkill(first);
    expect(atKill.metadata.completedFiles).toBeLessThan(3);

    const second = await startChild(dataDir, { ...env, LOUPE_REVIEW_THROTTLE_MS: "0" });
    const done = await waitFor(async () => {
      const r = await reviewOf(second, codeReviewId);
      return r.status === "COMPLETED" || r.status === "FAILED" ? r : undefined;
    }, 30_000, "the resumed review");
    expect(done.status, second.proc.output()).toBe("COMPLETED");
    expect(done.metadata).toMatchObject({ totalFiles: 3, completedFiles: 3 });
    await sigkill(second);

    // Inspect the data dir with the service in-process (nothing left to resume).
    const server = await startTestServer({ env, dataDir });
    try {
      await assertNoDuplicates(server, codeReviewId, 3);
    } finally {
      await server.stop();
    }
  }, 120_000);

  it("SIGKILL after the host received the review POST: the restart finds the posted review by its marker and posts nothing twice", async () => {
    const repo = makeReviewRepo(REPO);
    const gh = await startFakeGitHub();
    const dataDir = mkdtempSync(join(tmpdir(), "loupe-review-crash-"));
    cleanups.push(() => repo.host.remove(), () => gh.close(), () => rmSync(dataDir, { recursive: true, force: true }));
    const env = {
      LOUPE_WEBHOOK_SECRET_GITHUB: GITHUB_SECRET,
      LOUPE_GITHUB_URL: repo.host.url,
      LOUPE_GITHUB_API_URL: gh.base,
      LOUPE_POST_REVIEWS: "true",
      LOUPE_REVIEW_TOKEN_GITHUB: "ghs_crash_test_token_0123456789",
    };
    const first = await startChild(dataDir, env);
    await openPullRequest(first, repo, 9);
    gh.holdNextPost = true;
    const { codeReviewId } = await (await first.api("/v2/code-reviews", { method: "POST", json: { ...repoArgs, prNumber: 9 } })).json();
    await gh.heldPost; // GitHub created the review; the service dies before hearing back
    await sigkill(first);
    gh.release(502);
    expect(gh.reviews).toHaveLength(1);

    const second = await startChild(dataDir, env);
    const done = await waitFor(async () => {
      const r = await reviewOf(second, codeReviewId);
      return r.status === "COMPLETED" || r.status === "FAILED" ? r : undefined;
    }, 30_000, "the resumed review");
    expect(done.status, second.proc.output()).toBe("COMPLETED");
    await sigkill(second);
    expect(gh.posts()).toHaveLength(1);
    expect(gh.requests.some((r) => r.method === "GET" && r.url.startsWith(`/repos/${REPO}/pulls/9/reviews?`))).toBe(true);

    const server = await startTestServer({ env, dataDir });
    try {
      const { service } = await assertNoDuplicates(server, codeReviewId, 9);
      const posted = gh.reviews[0]!;
      expect(service.find((c) => c.filePath === null)!.commentId).toBe(String(posted.id));
      expect(service.filter((c) => c.filePath !== null).map((c) => c.commentId).sort()).toEqual(posted.comments.map((c) => String(c.id)).sort());
    } finally {
      await server.stop();
    }
  }, 120_000);
});
