/**
 * Loupe's core for assistants over MCP: the official SDK client, over streamable HTTP and over the stdio
 * bridge, indexes a real git repository, waits for it, searches, asks (with progress notifications) and
 * reopens the session; another organisation's key cannot reach the repository; bad arguments are
 * -32602 naming the field.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { startTestServer, type TestServer } from "../support/server.ts";
import { createGitHostFixture, type GitHostFixture } from "../support/git-fixtures.ts";
import { repoRoot } from "../support/process.ts";

const FILES = {
  "billing/retry.py": [
    '"""Retrying calls to the payment provider."""',
    "import time",
    "",
    "",
    "class RetryPolicy:",
    '    """How often and how long to retry a failed payment call."""',
    "",
    "    def __init__(self, attempts=3, backoff=0.5):",
    "        self.attempts = attempts",
    "        self.backoff = backoff",
    "",
    "    def delay_for(self, attempt):",
    '        """Seconds to wait before the given attempt: exponential backoff."""',
    "        return self.backoff * (2 ** attempt)",
    "",
    "",
    "def charge_with_retry(client, amount, policy=None):",
    '    """Charges the card, retrying transient provider errors with the policy\'s backoff."""',
    "    policy = policy or RetryPolicy()",
    "    for attempt in range(policy.attempts):",
    "        try:",
    "            return client.charge(amount)",
    "        except TimeoutError:",
    "            time.sleep(policy.delay_for(attempt))",
    '    raise RuntimeError("payment provider unavailable")',
    "",
  ].join("\n"),
  "billing/invoice.py": [
    '"""Invoices."""',
    "",
    "",
    "def render_invoice(order):",
    '    """Renders an order as a plain-text invoice."""',
    '    return "\\n".join(f"{sku} x{qty}" for sku, qty in order.items)',
    "",
  ].join("\n"),
};

type Structured = Record<string, any>;

describe("MCP tools for the core: index, status, search, ask, sessions", () => {
  let server: TestServer;
  let host: GitHostFixture;
  let otherKey: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    host = createGitHostFixture();
    host.createRepo("acme/payments", FILES);
    server = await startTestServer({ env: { LOUPE_GITHUB_URL: host.baseUrl } });
    const created = await server.api("/v2/organisations", { method: "POST", json: { name: "other org" } });
    otherKey = (await created.json()).adminKey.key;
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await server?.stop({ remove: true });
    host?.cleanup();
  });

  async function httpClient(key: string): Promise<Client> {
    const client = new Client({ name: "loupe-code-tools-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
    clients.push(client);
    return client;
  }

  async function stdioClient(key: string): Promise<Client> {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["--import", "tsx", "src/cli/mcp-stdio.ts", "--url", server.baseUrl, "--key", key],
      cwd: repoRoot,
      stderr: "pipe",
      env: { PATH: process.env.PATH ?? "" },
    });
    const client = new Client({ name: "loupe-code-tools-stdio", version: "1.0.0" });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  async function call(client: Client, name: string, args: Record<string, unknown>, options: Parameters<Client["callTool"]>[2] = undefined): Promise<Structured> {
    const result = (await client.callTool({ name, arguments: args }, undefined, options)) as { structuredContent: Structured; isError?: boolean; content: { text: string }[] };
    expect(result.isError ?? false).toBe(false);
    expect(JSON.parse(result.content[0]!.text)).toEqual(result.structuredContent);
    return result.structuredContent;
  }

  async function callError(client: Client, name: string, args: Record<string, unknown>): Promise<{ code: number; message: string; data?: any }> {
    try {
      await client.callTool({ name, arguments: args });
    } catch (error) {
      return error as { code: number; message: string; data?: any };
    }
    throw new Error(`${name} succeeded`);
  }

  const repositories = [{ remote: "github", repository: "acme/payments" }];

  for (const transport of ["streamable HTTP", "stdio"] as const) {
    it(`indexes, waits, searches, asks with progress and reopens the session (${transport})`, async () => {
      const client = transport === "stdio" ? await stdioClient(server.adminKey) : await httpClient(server.adminKey);
      const tools = (await client.listTools()).tools.map((t) => t.name);
      expect(tools).toEqual(expect.arrayContaining(["index_repository", "get_repository_status", "search_code", "query_repositories", "get_query_session"]));

      const submitted = await call(client, "index_repository", { remote: "github", repository: "acme/payments", branch: "main" });
      expect(submitted.repositoryId).toBe("github:main:acme/payments");
      expect(submitted.statusEndpoint).toBe(`${server.baseUrl}/v2/repositories/${encodeURIComponent("github:main:acme/payments")}`);
      const deadline = Date.now() + 60_000;
      let status: Structured;
      for (;;) {
        status = (await call(client, "get_repository_status", { remote: "github", repository: "acme/payments" })).repository;
        if (status.status === "completed" || Date.now() > deadline) break;
        expect(status.status).not.toBe("failed");
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(status).toMatchObject({ status: "completed", repository: "acme/payments", branch: "main", filesProcessed: 2, numFiles: 2 });

      const found = await call(client, "search_code", { query: "where are failed payment calls retried with backoff?", repositories });
      expect(found.sessionId).toMatch(/^[0-9A-Z]{26}$/);
      const first = found.references[0];
      expect(first).toMatchObject({ repository: "acme/payments", remote: "github", branch: "main", filepath: "billing/retry.py" });
      expect(first.code).toContain("def ");
      expect(first.code.split("\n")).toHaveLength(first.lineend - first.linestart + 1);
      expect(first.reason.length).toBeGreaterThan(5);
      expect(found.references.some((r: Structured) => r.code.includes("def charge_with_retry"))).toBe(true);

      const progress: string[] = [];
      const asked = await call(
        client,
        "query_repositories",
        { question: "How does charge_with_retry wait between attempts?", repositories, sessionId: found.sessionId },
        { onprogress: (p) => progress.push(String(p.message)) },
      );
      expect(asked.sessionId).toBe(found.sessionId);
      expect(asked.answer).toContain("charge_with_retry");
      expect(asked.sources[0]).toMatchObject({ filepath: "billing/retry.py" });
      expect(progress.length).toBeGreaterThanOrEqual(2);
      expect(progress.join(" | ")).toMatch(/Searching 1 repository/);

      const session = (await call(client, "get_query_session", { sessionId: found.sessionId })).session;
      expect(session.sessionId).toBe(found.sessionId);
      expect(session.turns.map((t: Structured) => t.kind)).toEqual(["search", "query"]);
      expect(session.turns[1].answer.message).toBe(asked.answer);
    });
  }

  it("keeps another organisation out: not indexed for it, and its sessions are not found", async () => {
    const mine = await httpClient(server.adminKey);
    const found = await call(mine, "search_code", { query: "render invoice", repositories });
    const other = await httpClient(otherKey);
    const search = await callError(other, "search_code", { query: "render invoice", repositories });
    expect(search.code).toBe(-32000);
    expect(search.message).toMatch(/Repository not found: github:\(default branch\):acme\/payments/);
    const status = await callError(other, "get_repository_status", { remote: "github", repository: "acme/payments" });
    expect(status.code).toBe(-32000);
    expect(status.message).toMatch(/not indexed for this organisation/);
    const session = await callError(other, "get_query_session", { sessionId: found.sessionId });
    expect(session.message).toMatch(/not found/);
  });

  it("answers bad arguments with -32602 naming the field", async () => {
    const client = await httpClient(server.adminKey);
    const cases: [string, Record<string, unknown>, string][] = [
      ["search_code", { query: "x", repositories: [] }, "repositories"],
      ["search_code", { query: "x", repositories, limit: 0 }, "limit"],
      ["search_code", { query: "", repositories }, "query"],
      ["search_code", { query: "x", repositories: [{ remote: "svn", repository: "acme/payments" }] }, "repositories.0.remote"],
      ["query_repositories", { repositories }, "question"],
      ["index_repository", { remote: "github", repository: "acme/payments", branch: "--upload-pack=x" }, "branch"],
      ["index_repository", { remote: "github", repository: "../../etc" }, "repository"],
      ["get_query_session", { sessionId: "a b" }, "sessionId"],
    ];
    for (const [tool, args, field] of cases) {
      const error = await callError(client, tool, args);
      expect(error.code, `${tool} ${JSON.stringify(args)}`).toBe(-32602);
      expect(error.message, `${tool} ${JSON.stringify(args)}`).toContain(`${field}:`);
    }
  });
});
