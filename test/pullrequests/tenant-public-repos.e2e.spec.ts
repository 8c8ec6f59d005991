/**
 * Another organisation than the operator's works on a PUBLIC repository without a host token of its
 * own, with anonymous requests as anyone could (never with the operator's LOUPE_REVIEW_TOKEN_GITHUB):
 * it backfills the pull requests and reviews one. A private repository still needs its token
 * (host_token_required), and the host's rate limit for anonymous callers is said as such on every face,
 * never taken for "private". The host's API is a local server in GitHub's shape (anonymous callers read
 * a public repository, get 404 for a private one, or the rate limit answer); its git endpoint is git's
 * own smart HTTP server.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startTestServer, type TestServer } from "../support/server.ts";
import { startFakeGitHub, type FakeGitHub } from "../support/fake-hosts.ts";
import { createHostRepo } from "../support/pr-webhooks.ts";
import { startGitHttpHost, type GitHttpHost } from "../support/git-http-host.ts";
import { gql } from "../graphql/support.ts";

const PUBLIC = "acme/open";
const PRIVATE = "acme/closed";
const SERVICE_TOKEN = "ghs_operator_service_token_0123456789";

let server: TestServer;
let gh: FakeGitHub;
let gitHost: GitHttpHost;
let host: ReturnType<typeof createHostRepo>;
let bAdmin: string;
let bMember: string;
let bOrg: string;

beforeAll(async () => {
  host = createHostRepo(PUBLIC);
  host.write("src/app.ts", "export function add(a: number, b: number) {\n  return a + b;\n}\n");
  const baseSha = host.commit("base");
  host.push("main");
  host.checkout("feature", true);
  host.write("src/app.ts", "export function add(a: number, b: number) {\n  debugger;\n  return a + b;\n}\n");
  const headSha = host.commit("debug");
  host.push("feature");
  // Public: git serves it to anyone.
  gitHost = await startGitHttpHost(host.root, () => true);

  gh = await startFakeGitHub();
  gh.repositories[PUBLIC] = { private: false };
  gh.repositories[PRIVATE] = { private: true };
  gh.pulls.push({
    id: 707, number: 7, state: "open", title: "Debug add", body: "", draft: false,
    user: { login: "contributor" }, labels: [],
    head: { ref: "feature", sha: headSha }, base: { ref: "main", sha: baseSha },
    created_at: "2024-01-01T00:00:00Z", updated_at: "2024-01-02T00:00:00Z", closed_at: null, merged_at: null,
    html_url: `https://github.com/${PUBLIC}/pull/7`,
  });
  server = await startTestServer({
    env: { LOUPE_GITHUB_API_URL: gh.base, LOUPE_GITHUB_URL: gitHost.base, LOUPE_REVIEW_TOKEN_GITHUB: SERVICE_TOKEN, LOUPE_POST_REVIEWS: "true" },
  });
  const created = await server.api("/v2/organisations", { method: "POST", json: { name: "Org B" } });
  expect(created.status).toBe(201);
  bAdmin = (await created.json()).adminKey.key;
  bMember = (await (await server.api("/v2/keys", { method: "POST", key: bAdmin, json: { name: "b member", role: "member" } })).json()).key;
  bOrg = (await (await server.api("/v2/me", { key: bAdmin })).json()).orgId;
}, 60_000);

afterAll(async () => {
  await server?.stop({ remove: true });
  await gh?.close();
  await gitHost?.close();
  host?.remove();
});

const backfill = (key: string, repository: string) =>
  server.api("/v2/repositories/pull-requests/backfill", { method: "POST", key, json: { remote: "github", repository, defaultBranch: "main" } });

async function mcpClient(key: string) {
  const client = new Client({ name: "tenant-public-repos", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
  return client;
}

const triggerArgs = { name: PUBLIC, remote: "github", defaultBranch: "main", prNumber: 7 };

describe("another organisation on a public repository, without a host token", () => {
  it("backfills its pull requests with anonymous requests only", async () => {
    const before = gh.requests.length;
    const res = await backfill(bAdmin, PUBLIC);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ listed: 1, recorded: 1 });
    const asked = gh.requests.slice(before);
    expect(asked.map((r) => r.url.split("?")[0])).toEqual([`/repos/${PUBLIC}`, `/repos/${PUBLIC}/pulls`]);
    expect(asked.map((r) => r.headers.authorization)).toEqual([undefined, undefined]);
    expect(server.loupe.services.pullRequests.list(bOrg, {}).total).toBe(1);
  });

  it("reviews a pull request: the review fetches anonymously, completes, and is not posted with the operator's token", async () => {
    const gitBefore = gitHost.requests.length;
    const client = await mcpClient(bMember);
    let codeReviewId: string;
    try {
      codeReviewId = ((await client.callTool({ name: "trigger_code_review", arguments: triggerArgs })).structuredContent as { codeReviewId: string }).codeReviewId;
    } finally {
      await client.close();
    }
    await server.loupe.services.reviews.idle();
    const review = (await (await server.api(`/v2/code-reviews/${codeReviewId}`, { key: bMember })).json()).codeReview;
    expect(review.status, review.reason).toBe("COMPLETED");
    const fetched = gitHost.requests.slice(gitBefore);
    expect(fetched.length).toBeGreaterThan(0);
    expect(fetched.map((r) => r.authorization)).toEqual(fetched.map(() => undefined));
    expect(gh.posts()).toEqual([]);
    expect(gh.requests.every((r) => r.headers.authorization !== `Bearer ${SERVICE_TOKEN}`)).toBe(true);

    // The HTTP face and the admin API take the same way.
    const http = await server.api("/v2/code-reviews", { method: "POST", key: bMember, json: triggerArgs });
    expect(http.status).toBe(202);
    const graphql = await gql(server, `mutation { triggerCodeReview(name: "${PUBLIC}", remote: github, defaultBranch: "main", prNumber: 7) { codeReviewId } }`, undefined, bAdmin);
    expect(graphql.errors).toBeUndefined();
    await server.loupe.services.reviews.idle();
    expect(server.loupe.services.reviews.list(bOrg, {}).codeReviews.map((r: { status: string }) => r.status)).toEqual(["COMPLETED", "COMPLETED", "COMPLETED"]);
  });

  it("a private repository still needs its token: host_token_required, and its pull requests are not asked for", async () => {
    const before = gh.requests.length;
    const res = await backfill(bAdmin, PRIVATE);
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe("host_token_required");
    expect(gh.requests.slice(before).map((r) => [r.url, r.headers.authorization])).toEqual([[`/repos/${PRIVATE}`, undefined]]);
  });

  it("the host's rate limit for anonymous callers is said as such on every face, not as a private repository", async () => {
    gh.anonymousRateLimited = true;
    try {
      const res = await backfill(bAdmin, PUBLIC);
      expect(res.status).toBe(429);
      const body = await res.json();
      expect(body.error.code).toBe("host_rate_limited");
      expect(body.error.message).toMatch(/rate limit/);

      const client = await mcpClient(bMember);
      try {
        const error = await client.callTool({ name: "trigger_code_review", arguments: triggerArgs }).catch((e: unknown) => e);
        expect(error).toMatchObject({ code: -32000 });
        expect((error as Error).message).toMatch(/rate limit/);
      } finally {
        await client.close();
      }

      const graphql = await gql(server, `mutation { triggerCodeReview(name: "${PUBLIC}", remote: github, defaultBranch: "main", prNumber: 7) { codeReviewId } }`, undefined, bAdmin);
      expect(graphql.errors?.[0]?.extensions).toMatchObject({ code: "HOST_UNAVAILABLE", details: { reason: "host_rate_limited" } });
      expect(server.loupe.services.reviews.list(bOrg, {}).total).toBe(3); // nothing recorded
    } finally {
      gh.anonymousRateLimited = false;
    }
    // The operator's organisation is not limited: it uses its own token.
    const operator = await backfill(server.adminKey, PUBLIC);
    expect(operator.status).toBe(200);
    expect(gh.requests.at(-1)!.headers.authorization).toBe(`Bearer ${SERVICE_TOKEN}`);
  });

  it("asks the host once per review whether the repository is public (an anonymous call of a small quota)", async () => {
    const before = gh.requests.length;
    const res = await server.api("/v2/code-reviews", { method: "POST", key: bMember, json: triggerArgs });
    expect(res.status).toBe(202);
    const { codeReviewId } = (await res.json()) as { codeReviewId: string };
    await server.loupe.services.reviews.idle();
    const review = (await (await server.api(`/v2/code-reviews/${codeReviewId}`, { key: bMember })).json()).codeReview;
    expect(review.status, review.reason).toBe("COMPLETED");
    const asked = gh.requests.slice(before).filter((r) => r.url === `/repos/${PUBLIC}`);
    expect(asked.map((r) => r.headers.authorization)).toEqual([undefined]);
  });
});
