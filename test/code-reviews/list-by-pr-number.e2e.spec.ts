/**
 * list_code_reviews takes every parameter as optional (interface.md 4.2): prNumber without a repository
 * lists the reviews of pull requests with that number in every repository. The admin GraphQL API's
 * `codeReviews` and the tool interface answer the same, through the same service.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startTestServer, type TestServer } from "../support/server.ts";
import { githubExample } from "../support/host-fixtures.ts";
import { deliverGitHub, GITHUB_SECRET, pullRequestPayload } from "../support/pr-webhooks.ts";
import { gql, gqlData } from "../graphql/support.ts";

type Listed = { total: number; ids: string[] };

describe("code reviews filtered by pull request number alone", () => {
  let server: TestServer;
  let client: Client;
  let hostRoot: string;
  /** The review ids by `repository#number`. */
  const reviews = new Map<string, string>();

  beforeAll(async () => {
    // An empty "host": the reviews are recorded (PENDING) and may then fail to fetch; the list shows them either way.
    hostRoot = mkdtempSync(join(tmpdir(), "loupe-empty-host-"));
    server = await startTestServer({ env: { LOUPE_WEBHOOK_SECRET_GITHUB: GITHUB_SECRET, LOUPE_GITHUB_URL: `file://${hostRoot}` } });
    const opened = githubExample("pull_request", "opened");
    for (const [repo, number] of [["acme/widgets", 1], ["acme/gadgets", 1], ["acme/gadgets", 2]] as const) {
      const payload = pullRequestPayload(opened, {
        action: "opened", repo, number, head: `feature/${number}`, headSha: String(number).repeat(40), base: "main", baseSha: "0".repeat(40), updatedAt: "2024-05-01T12:00:00Z",
      });
      const delivered = await deliverGitHub(server, "pull_request", payload);
      expect(delivered.status).toBe(200);
      const { triggerCodeReview } = await gqlData(
        server,
        `mutation($name: String!, $n: Int!) { triggerCodeReview(name: $name, remote: github, defaultBranch: "main", prNumber: $n) { codeReviewId } }`,
        { name: repo, n: number },
      );
      reviews.set(`${repo}#${number}`, triggerCodeReview.codeReviewId);
    }
    client = new Client({ name: "loupe-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${server.adminKey}` } } }));
  });
  afterAll(async () => {
    await client?.close();
    await server?.stop({ remove: true });
    rmSync(hostRoot, { recursive: true, force: true });
  });

  const viaGraphql = async (args: Record<string, unknown>): Promise<Listed> => {
    const result = await gql(
      server,
      `query($name: String, $remote: Remote, $defaultBranch: String, $prNumber: Int, $limit: Int, $offset: Int) {
         codeReviews(name: $name, remote: $remote, defaultBranch: $defaultBranch, prNumber: $prNumber, limit: $limit, offset: $offset) { total items { id } } }`,
      args,
    );
    expect(result.errors).toBeUndefined();
    return { total: result.data.codeReviews.total, ids: result.data.codeReviews.items.map((i: { id: string }) => i.id) };
  };
  const viaMcp = async (args: Record<string, unknown>): Promise<Listed> => {
    const result = (await client.callTool({ name: "list_code_reviews", arguments: args })) as unknown as {
      isError?: boolean;
      structuredContent: { total: number; codeReviews: { id: string }[] };
    };
    expect(result.isError ?? false).toBe(false);
    return { total: result.structuredContent.total, ids: result.structuredContent.codeReviews.map((r) => r.id) };
  };

  it("lists the reviews of pull request 1 of both repositories, on GraphQL and MCP alike", async () => {
    const expected = [reviews.get("acme/widgets#1"), reviews.get("acme/gadgets#1")].sort();
    for (const list of [viaGraphql, viaMcp]) {
      const byNumber = await list({ prNumber: 1 });
      expect(byNumber.total).toBe(2);
      expect([...byNumber.ids].sort()).toEqual(expected);
      expect(await list({ prNumber: 2 })).toEqual({ total: 1, ids: [reviews.get("acme/gadgets#2")] });
      expect(await list({ prNumber: 9 })).toEqual({ total: 0, ids: [] });
      expect(await list({ name: "acme/gadgets", remote: "github", defaultBranch: "main", prNumber: 1 })).toEqual({ total: 1, ids: [reviews.get("acme/gadgets#1")] });
      // Paging applies to the filtered list.
      const [first, second] = [await list({ prNumber: 1, limit: 1 }), await list({ prNumber: 1, limit: 1, offset: 1 })];
      expect([first.total, second.total]).toEqual([2, 2]);
      expect([...first.ids, ...second.ids]).toEqual(byNumber.ids);
    }
    expect(await viaGraphql({ prNumber: 1 })).toEqual(await viaMcp({ prNumber: 1 }));
  });

  it("still refuses part of the repository group, naming it", async () => {
    const partial = await gql(server, `{ codeReviews(name: "acme/gadgets", prNumber: 1) { total } }`);
    expect(partial.errors?.[0]?.message).toContain("name, remote and defaultBranch");
  });
});
