/**
 * Transports of the tool interface: MCP streamable HTTP details (version negotiation, sessions,
 * GET/DELETE, the MCP-Protocol-Version header) and the stdio bridge (src/cli/mcp-stdio.ts,
 * bin/loupe-mcp.js) driven by the official SDK client's StdioClientTransport.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { createFixture, PR_COUNT, REPO_ARGS, type Fixture } from "./fixture.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
let fx: Fixture;

beforeAll(async () => {
  fx = await createFixture();
});
afterAll(async () => fx?.remove());

const post = (message: unknown, headers: Record<string, string> = {}) =>
  fetch(fx.url, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${fx.key}`, ...headers }, body: JSON.stringify(message) });
const initialize = (protocolVersion: unknown) =>
  post({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw", version: "0" } } });

describe("streamable HTTP", () => {
  it("initialize answers the client's protocol version when supported, else the newest", async () => {
    for (const version of ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]) {
      const body = await (await initialize(version)).json();
      expect(body.result).toMatchObject({ protocolVersion: version, serverInfo: { name: "loupe" }, capabilities: { tools: {} } });
    }
    expect((await (await initialize("1999-01-01")).json()).result.protocolVersion).toBe("2025-11-25");
    expect((await (await initialize(5)).json()).error).toMatchObject({ code: -32602, data: { field: "protocolVersion" } });
  });

  it("issues an Mcp-Session-Id on initialize; requests with or without one are served; DELETE ends it", async () => {
    const res = await initialize("2025-06-18");
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const sessionId = res.headers.get("mcp-session-id");
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const other = (await initialize("2025-06-18")).headers.get("mcp-session-id");
    expect(other).not.toBe(sessionId);
    const withSession = await post({ jsonrpc: "2.0", id: 2, method: "list_pull_requests", params: { limit: 1 } }, { "mcp-session-id": sessionId!, "mcp-protocol-version": "2025-06-18" });
    expect((await withSession.json()).result.total).toBe(PR_COUNT);
    expect(withSession.headers.get("mcp-session-id")).toBeNull(); // only initialize issues one
    const without = await post({ jsonrpc: "2.0", id: 3, method: "ping" });
    expect(await without.json()).toEqual({ jsonrpc: "2.0", id: 3, result: {} });
    const deleted = await fetch(fx.url, { method: "DELETE", headers: { "mcp-session-id": sessionId! } });
    expect([200, 204]).toContain(deleted.status);
  });

  it("GET /mcp is 405 (no SSE stream offered)", async () => {
    const res = await fetch(fx.url, { headers: { accept: "text/event-stream" } });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toContain("POST");
  });

  it("an unsupported MCP-Protocol-Version header is 400", async () => {
    const res = await post({ jsonrpc: "2.0", id: 1, method: "ping" }, { "mcp-protocol-version": "1999-01-01" });
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe(-32600);
  });

  it("is outside the /v2 API-key middleware and answers plain JSON-RPC clients (no Accept header)", async () => {
    const res = await fetch(fx.url, { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: "x", method: "tools/list" }) });
    expect(res.status).toBe(200);
    expect((await res.json()).result.tools).toHaveLength(17);
  });
});

describe("stdio bridge (official SDK client over StdioClientTransport)", () => {
  async function stdioClient(command: string, args: string[], env: Record<string, string> = {}) {
    const transport = new StdioClientTransport({ command, args, cwd: ROOT, stderr: "pipe", env: { PATH: process.env.PATH ?? "", ...env } });
    let stderr = "";
    transport.stderr?.on("data", (chunk) => (stderr += String(chunk)));
    const client = new Client({ name: "loupe-stdio-test", version: "1.0.0" });
    await client.connect(transport);
    return { client, stderr: () => stderr };
  }

  const direct = async (method: string, params: unknown) => (await (await post({ jsonrpc: "2.0", id: 1, method, params })).json()).result;

  it("lists the tools and calls every tool; answers equal the HTTP face's", async () => {
    const { client, stderr } = await stdioClient(process.execPath, ["--import", "tsx", "src/cli/mcp-stdio.ts", "--url", fx.server.baseUrl, "--key", fx.key]);
    try {
      expect(client.getServerVersion()?.name).toBe("loupe");
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(17);
      const triggered = (await client.callTool({ name: "trigger_code_review", arguments: { ...REPO_ARGS, prNumber: 1 } })).structuredContent as Record<string, string>;
      expect(triggered.status).toBe("PENDING");
      await fx.server.loupe.services.reviews.idle();
      const created = (await client.callTool({ name: "create_custom_context", arguments: { body: "Over stdio", type: "PATTERN" } })).structuredContent as {
        customContext: { id: string };
      };
      const calls: [string, Record<string, unknown>][] = [
        ["list_pull_requests", { limit: 3 }],
        ["list_merge_requests", { state: "open" }],
        ["get_merge_request", { ...REPO_ARGS, prNumber: 1 }],
        ["list_merge_request_comments", { ...REPO_ARGS, prNumber: 1 }],
        ["list_code_reviews", {}],
        ["get_code_review", { codeReviewId: triggered.codeReviewId }],
        ["search_greptile_comments", { query: "AWS access key" }],
        ["list_custom_context", {}],
        ["get_custom_context", { customContextId: created.customContext.id }],
        ["search_custom_context", { query: "stdio" }],
      ];
      for (const [name, args] of calls) {
        const result = await client.callTool({ name, arguments: args });
        expect(result.structuredContent, name).toEqual(await direct(name, args));
      }
      const error = await client.callTool({ name: "trigger_code_review", arguments: { name: "acme/widgets", remote: "github", prNumber: 1 } }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: -32000, message: "MCP error -32000: MCP error -32000: invalid_type - defaultBranch Required" });
      expect(stderr()).toContain("relaying stdio to");
    } finally {
      await client.close();
    }
  });

  it("bin/loupe-mcp.js with LOUPE_URL / LOUPE_API_KEY", async () => {
    const { client } = await stdioClient(process.execPath, ["bin/loupe-mcp.js"], { LOUPE_URL: `${fx.server.baseUrl}/mcp`, LOUPE_API_KEY: fx.key });
    try {
      const result = await client.callTool({ name: "list_pull_requests", arguments: { limit: 1 } });
      expect((result.structuredContent as { total: number }).total).toBe(PR_COUNT);
    } finally {
      await client.close();
    }
  });

  it("raw lines: one answer line per request, nothing for notifications, -32000 when the service is unreachable", async () => {
    const run = (args: string[], input: string) =>
      new Promise<{ stdout: string; stderr: string; code: number | null }>((resolve) => {
        const child = spawn(process.execPath, ["--import", "tsx", "src/cli/mcp-stdio.ts", ...args], { cwd: ROOT });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (c) => (stdout += String(c)));
        child.stderr.on("data", (c) => (stderr += String(c)));
        child.on("close", (code) => resolve({ stdout, stderr, code }));
        child.stdin.end(input);
      });
    const lines = [
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
      JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
      "{not json",
      JSON.stringify([{ jsonrpc: "2.0", id: 2, method: "list_pull_requests", params: { limit: 1 } }, { jsonrpc: "2.0", id: 3, method: "ping" }]),
      "",
    ].join("\n");
    const ok = await run(["--url", fx.server.baseUrl, "--key", fx.key], lines + "\n");
    expect(ok.code).toBe(0);
    const out = ok.stdout.trim().split("\n").map((l) => JSON.parse(l));
    expect(out).toHaveLength(3);
    expect(out).toContainEqual({ jsonrpc: "2.0", id: 1, result: {} });
    expect(out.find((m) => !Array.isArray(m) && m.id === null).error.code).toBe(-32700);
    const batch = out.find((m) => Array.isArray(m));
    expect(batch).toHaveLength(2);

    const down = await run(["--url", "http://127.0.0.1:9", "--key", "k"], JSON.stringify({ jsonrpc: "2.0", id: 7, method: "ping" }) + "\n");
    expect(JSON.parse(down.stdout.trim())).toEqual({ jsonrpc: "2.0", id: 7, error: { code: -32000, message: "Loupe service unreachable at http://127.0.0.1:9/mcp" } });
    expect(down.stderr).toContain("failed");

    const usage = await run([], "");
    expect(usage.code).toBe(2);
    expect(usage.stdout).toBe("");
    expect(usage.stderr).toContain("missing --url");
  });
});
