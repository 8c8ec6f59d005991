/**
 * The service host tokens (LOUPE_REVIEW_TOKEN_<HOST>) serve only the operator's organisations: another
 * organisation's backfill and reviews use only the token it sends. The host's API is a local server in
 * GitHub's shape; its git endpoint is git's own smart HTTP server, which lets a request read the
 * private repository only with a token the host accepts (the service token, or org B's own).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startTestServer, type TestServer } from "../support/server.ts";
import { startFakeGitHub, type FakeGitHub } from "../support/fake-hosts.ts";
import { createHostRepo } from "../support/pr-webhooks.ts";
import { startGitHttpHost, type GitHttpHost } from "../support/git-http-host.ts";
import { gql } from "../graphql/support.ts";

const REPO = "acme/private";
const SERVICE_TOKEN = "ghs_operator_service_token_0123456789";
const B_TOKEN = "ghp_org_b_own_token_0123456789abcdef";
const REFUSED_TOKEN = "ghp_token_the_host_refuses_0123456789";

/** The token in a git request's Authorization header (GitHub's git endpoint: Basic x-access-token:<token>). */
const tokenOf = (authorization: string | undefined) => {
  const basic = /^Basic (.+)$/.exec(authorization ?? "");
  return basic ? Buffer.from(basic[1]!, "base64").toString("utf8").replace(/^x-access-token:/, "") : undefined;
};

let server: TestServer;
let gh: FakeGitHub;
let gitHost: GitHttpHost;
let host: ReturnType<typeof createHostRepo>;
let bAdmin: string;
let bMember: string;

beforeAll(async () => {
  host = createHostRepo(REPO);
  host.write("src/app.ts", "export function add(a: number, b: number) {\n  return a + b;\n}\n");
  const baseSha = host.commit("base");
  host.push("main");
  host.checkout("feature/secret", true);
  host.write("src/roadmap.ts", "export const plan = \"acquire Foo Corp\";\n");
  const headSha = host.commit("secret plan");
  host.push("feature/secret");
  gitHost = await startGitHttpHost(host.root, (authorization) => [SERVICE_TOKEN, B_TOKEN].includes(tokenOf(authorization) ?? ""));

  gh = await startFakeGitHub();
  gh.repositories[REPO] = { private: true };
  gh.pulls.push({
    id: 4242, number: 42, state: "open", title: "SECRET roadmap", body: "confidential", draft: false,
    user: { login: "ceo" }, labels: [],
    head: { ref: "feature/secret", sha: headSha }, base: { ref: "main", sha: baseSha },
    created_at: "2024-01-01T00:00:00Z", updated_at: "2024-01-02T00:00:00Z", closed_at: null, merged_at: null,
    html_url: `https://github.com/${REPO}/pull/42`,
  });
  server = await startTestServer({
    env: {
      LOUPE_GITHUB_API_URL: gh.base,
      LOUPE_GITHUB_URL: gitHost.base,
      LOUPE_REVIEW_TOKEN_GITHUB: SERVICE_TOKEN,
      LOUPE_POST_REVIEWS: "true",
    },
  });
  const created = await server.api("/v2/organisations", { method: "POST", json: { name: "Org B" } });
  expect(created.status).toBe(201);
  bAdmin = (await created.json()).adminKey.key;
  const member = await server.api("/v2/keys", { method: "POST", key: bAdmin, json: { name: "b member", role: "member" } });
  bMember = (await member.json()).key;
}, 60_000);

afterAll(async () => {
  await server?.stop({ remove: true });
  await gh?.close();
  await gitHost?.close();
  host?.remove();
});

const backfill = (key: string, headers: Record<string, string> = {}) =>
  server.api("/v2/repositories/pull-requests/backfill", { method: "POST", key, headers, json: { remote: "github", repository: REPO, defaultBranch: "main" } });

async function mcpClient(key: string, headers: Record<string, string> = {}) {
  const client = new Client({ name: "tenant-host-tokens", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}`, ...headers } } }));
  return client;
}

const triggerArgs = { name: REPO, remote: "github", defaultBranch: "main", prNumber: 42 };

describe("another organisation never works with the operator's host token", () => {
  it("backfill: org B without X-Host-Token is refused (400 naming the header): the host is asked only, anonymously, whether the repository is public", async () => {
    const before = gh.requests.length;
    const res = await backfill(bAdmin);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error.code).toBe("host_token_required");
    expect(body.error.message).toContain("X-Host-Token");
    expect(gh.requests.slice(before).map((r) => [r.method, r.url, r.headers.authorization])).toEqual([["GET", `/repos/${REPO}`, undefined]]);
    expect(server.loupe.services.pullRequests.list((await (await server.api("/v2/me", { key: bAdmin })).json()).orgId, {}).total).toBe(0);
  });

  it("backfill: org B with its own token lists with that token only", async () => {
    const res = await backfill(bAdmin, { "x-host-token": B_TOKEN });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ listed: 1, recorded: 1 });
    const auth = gh.requests.filter((r) => r.url.startsWith(`/repos/${REPO}/pulls`)).map((r) => r.headers.authorization);
    expect(auth).toEqual([`Bearer ${B_TOKEN}`]);
  });

  it("the operator's organisation still uses the service token when it sends none", async () => {
    const res = await backfill(server.adminKey);
    expect(res.status).toBe(200);
    expect(gh.requests.filter((r) => r.url.startsWith(`/repos/${REPO}/pulls`)).at(-1)!.headers.authorization).toBe(`Bearer ${SERVICE_TOKEN}`);
  });

  it("trigger_code_review: org B's member without a host token gets -32602 naming X-Host-Token, and nothing is recorded", async () => {
    const client = await mcpClient(bMember);
    try {
      const error = await client.callTool({ name: "trigger_code_review", arguments: triggerArgs }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: -32602 });
      expect((error as Error).message).toContain("X-Host-Token");
      const list = await client.callTool({ name: "list_code_reviews", arguments: {} });
      expect((list.structuredContent as { total: number }).total).toBe(0);
    } finally {
      await client.close();
    }
    const http = await server.api("/v2/code-reviews", { method: "POST", key: bMember, json: triggerArgs });
    expect(http.status).toBe(400);
    expect((await http.json()).error.code).toBe("host_token_required");
    const graphql = await gql(server, `mutation { triggerCodeReview(name: "${REPO}", remote: github, defaultBranch: "main", prNumber: 42) { codeReviewId } }`, undefined, bAdmin);
    expect(graphql.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(graphql.errors?.[0]?.message).toContain("X-Host-Token");
    expect(server.loupe.services.reviews.list((await (await server.api("/v2/me", { key: bAdmin })).json()).orgId, {}).total).toBe(0);
  });

  it("trigger_code_review with org B's token: the review fetches with that token only and is not posted by the operator's bot", async () => {
    const gitBefore = gitHost.requests.length;
    const client = await mcpClient(bMember, { "X-Host-Token": B_TOKEN });
    let codeReviewId: string;
    try {
      const result = await client.callTool({ name: "trigger_code_review", arguments: triggerArgs });
      codeReviewId = (result.structuredContent as { codeReviewId: string }).codeReviewId;
    } finally {
      await client.close();
    }
    await server.loupe.services.reviews.idle();
    const review = (await (await server.api(`/v2/code-reviews/${codeReviewId}`, { key: bMember })).json()).codeReview;
    expect(review.status, review.reason).toBe("COMPLETED");
    const used = gitHost.requests.slice(gitBefore).map((r) => tokenOf(r.authorization));
    expect(used.length).toBeGreaterThan(0);
    expect(used).not.toContain(SERVICE_TOKEN);
    expect(used).toContain(B_TOKEN);
    expect(gh.posts()).toEqual([]);
    expect(server.logs()).not.toContain(B_TOKEN);
    expect(JSON.stringify(await server.loupe.services.eventStore.readAll({ maxCount: 100_000 }))).not.toContain(B_TOKEN);
  });

  it("a token the host refuses fails the review: the mirror fetched before for org B is not read without it", async () => {
    const client = await mcpClient(bMember, { "X-Host-Token": REFUSED_TOKEN });
    let codeReviewId: string;
    try {
      codeReviewId = ((await client.callTool({ name: "trigger_code_review", arguments: triggerArgs })).structuredContent as { codeReviewId: string }).codeReviewId;
    } finally {
      await client.close();
    }
    await server.loupe.services.reviews.idle();
    const review = (await (await server.api(`/v2/code-reviews/${codeReviewId}`, { key: bMember })).json()).codeReview;
    expect(review.status).toBe("FAILED");
    expect(review.reason).not.toContain(REFUSED_TOKEN);
  });
});
