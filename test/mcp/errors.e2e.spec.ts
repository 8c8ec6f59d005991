/**
 * JSON-RPC 2.0 and MCP behaviour of POST /mcp on the wire (raw fetch), table-driven over every
 * parameter of every tool, plus what the official SDK client shows for the same errors.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ulid } from "ulid";
import { createFixture, REPO, REPO_ARGS, type Fixture } from "./fixture.ts";

let fx: Fixture;
let tools: { name: string; inputSchema: { properties: Record<string, Record<string, unknown>>; required?: string[] } }[];

beforeAll(async () => {
  fx = await createFixture();
  tools = (await rpc({ jsonrpc: "2.0", id: 1, method: "tools/list" }, null)).body.result.tools;
});
afterAll(async () => fx?.remove());

type Answer = { status: number; body: any; text: string; headers: Headers };

async function post(body: string, key: string | null = fx.key, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(fx.url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
    body,
  });
  const text = await res.text();
  return { status: res.status, text, body: text ? JSON.parse(text) : null, headers: res.headers };
}
const rpc = (message: unknown, key: string | null = fx.key, headers: Record<string, string> = {}) => post(JSON.stringify(message), key, headers);

/** A tool called both ways (tools/call and the direct method); both must give the same error. */
async function toolError(name: string, args: unknown, key: string | null = fx.key) {
  const viaCall = await rpc({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name, arguments: args } }, key);
  const direct = await rpc({ jsonrpc: "2.0", id: "d", method: name, params: args }, key);
  expect(viaCall.status).toBe(200);
  expect(direct.status).toBe(200);
  expect(viaCall.body.id).toBe(7);
  expect(direct.body.id).toBe("d");
  expect(viaCall.body.result).toBeUndefined();
  expect(direct.body.error).toEqual(viaCall.body.error);
  return viaCall.body.error as { code: number; message: string; data?: { field: string; issues: { field: string; code: string; message: string }[] } };
}

/** Valid arguments of each tool (the repository group given where it is optional, so one wrong field stays alone). */
const VALID: Record<string, Record<string, unknown>> = {
  list_pull_requests: { ...REPO_ARGS, sourceBranch: "feature", authorLogin: "octo", state: "open", limit: 5, offset: 0 },
  list_merge_requests: { ...REPO_ARGS, sourceBranch: "feature", authorLogin: "octo", state: "open", limit: 5, offset: 0 },
  get_merge_request: { ...REPO_ARGS, prNumber: 1 },
  list_merge_request_comments: { ...REPO_ARGS, prNumber: 1, greptileGenerated: false, addressed: false, createdAfter: "2024-01-01", createdBefore: "2030-01-01T00:00:00Z" },
  list_code_reviews: { ...REPO_ARGS, prNumber: 1, status: "COMPLETED", limit: 5, offset: 0 },
  get_code_review: { codeReviewId: "00000000-0000-4000-8000-000000000000" },
  trigger_code_review: { ...REPO_ARGS, prNumber: 1, branch: "feature/logging", strictness: 3 },
  search_greptile_comments: { query: "key", limit: 5, includeAddressed: true, createdAfter: "2024-01-01T00:00:00Z" },
  list_custom_context: { type: "PATTERN", greptileGenerated: false, limit: 5, offset: 0 },
  get_custom_context: { customContextId: "00000000-0000-4000-8000-000000000000" },
  search_custom_context: { query: "logging", limit: 5 },
  create_custom_context: { body: "x", type: "PATTERN", status: "ACTIVE", scopes: {}, metadata: {} },
  index_repository: { remote: "github", repository: "acme/widgets", branch: "main", reload: false },
  get_repository_status: { remote: "github", repository: "acme/widgets", branch: "main" },
  search_code: { query: "retry", repositories: [{ remote: "github", repository: "acme/widgets" }], limit: 5, sessionId: "s-1" },
  query_repositories: { question: "where is the retry?", repositories: [{ remote: "github", repository: "acme/widgets" }], sessionId: "s-1", genius: false },
  get_query_session: { sessionId: "s-1" },
};

/** A value of the wrong JSON type for a property schema. */
function wrongValues(schema: Record<string, unknown>): unknown[] {
  const type = schema.type ?? (schema.anyOf ? "anyOf" : "object");
  switch (type) {
    case "string":
      return [42, true, null, ["a"], { a: 1 }];
    case "integer":
    case "number":
      return ["5", true, null, [1], { n: 1 }];
    case "boolean":
      return ["true", 1, null, [true]];
    case "object":
      return ["{}", 3, null, [{}]];
    default: // anyOf (scopes): conditions or groups, both objects
      return ["{}", 3, null, true];
  }
}

describe("-32602: wrong types for every parameter of every tool", () => {
  it("VALID covers every tool and every parameter, and is valid", async () => {
    expect(Object.keys(VALID).sort()).toEqual(tools.map((t) => t.name).sort());
    for (const tool of tools) {
      expect(Object.keys(VALID[tool.name]!).sort(), tool.name).toEqual(Object.keys(tool.inputSchema.properties).sort());
    }
  });

  it("each wrong type is -32602 naming the field, in message and data, through tools/call and the direct method", async () => {
    let checked = 0;
    for (const tool of tools) {
      for (const [field, schema] of Object.entries(tool.inputSchema.properties)) {
        for (const wrong of wrongValues(schema)) {
          const error = await toolError(tool.name, { ...VALID[tool.name], [field]: wrong });
          const label = `${tool.name}.${field} = ${JSON.stringify(wrong)}`;
          expect(error.code, label).toBe(-32602);
          expect(error.message, label).toMatch(new RegExp(`^Invalid params: ${field}(\\.|:)`));
          expect(error.data?.field, label).toMatch(new RegExp(`^${field}`));
          expect(error.data?.issues.length, label).toBeGreaterThanOrEqual(1);
          expect(error.message, label).not.toMatch(/at .*\.ts|node_modules|Error:/);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(150);
  });
});

describe("-32602: ranges, enums, dates, UUIDs, the repository group, unknown and missing parameters", () => {
  const cases: [string, string, Record<string, unknown>, string, RegExp?][] = [
    // [tool, label, args, field, message pattern]
    ["list_pull_requests", "limit above 100", { limit: 101 }, "limit", /^Invalid params: limit: Too big: expected number to be <=100$/],
    ["list_merge_requests", "limit above 100", { limit: 101 }, "limit", /<=100/],
    ["list_pull_requests", "limit 0", { limit: 0 }, "limit", /Too small/],
    ["list_pull_requests", "negative limit", { limit: -1 }, "limit", /Too small/],
    ["list_pull_requests", "fractional limit", { limit: 2.5 }, "limit", /expected int/],
    ["list_pull_requests", "negative offset", { offset: -1 }, "offset", /Too small/],
    ["list_pull_requests", "fractional offset", { offset: 0.5 }, "offset", /expected int/],
    ["list_code_reviews", "limit above 100 (Loupe's maximum)", { limit: 101 }, "limit", /<=100/],
    ["list_code_reviews", "negative offset", { offset: -5 }, "offset", /Too small/],
    ["search_greptile_comments", "limit above 50", { query: "x", limit: 51 }, "limit", /<=50/],
    ["list_custom_context", "limit above 100", { limit: 101 }, "limit", /<=100/],
    ["list_custom_context", "negative offset", { offset: -1 }, "offset", /Too small/],
    ["search_custom_context", "limit above 50", { query: "x", limit: 51 }, "limit", /<=50/],
    ["get_merge_request", "prNumber 0", { ...REPO_ARGS, prNumber: 0 }, "prNumber", /Too small/],
    ["get_merge_request", "fractional prNumber", { ...REPO_ARGS, prNumber: 1.5 }, "prNumber", /expected int/],
    // enums
    ["list_pull_requests", "remote not in the enum", { ...REPO_ARGS, remote: "sourceforge" }, "remote", /expected one of "github"\|"gitlab"\|"azure"\|"bitbucket"/],
    ["get_merge_request", "remote in the wrong case", { ...REPO_ARGS, remote: "GitHub", prNumber: 1 }, "remote", /expected one of/],
    ["list_pull_requests", "state merged", { state: "merged" }, "state", /expected one of "open"\|"closed"/],
    ["list_code_reviews", "unknown status", { status: "DONE" }, "status", /PENDING/],
    ["list_code_reviews", "lower-case status", { status: "completed" }, "status", /COMPLETED/],
    ["list_custom_context", "unknown type", { type: "RULE" }, "type", /CUSTOM_INSTRUCTION/],
    ["create_custom_context", "unknown type", { type: "RULE" }, "type", /PATTERN/],
    ["create_custom_context", "unknown status", { status: "ENABLED" }, "status", /SUGGESTED/],
    ["create_custom_context", "scope operator not known", { scopes: { AND: [{ field: "filepath", operator: "LIKE", value: "*.ts" }] } }, "scopes", /./],
    ["create_custom_context", "scope group with an unknown key", { scopes: { XOR: [] } }, "scopes", /./],
    ["create_custom_context", "metadata array", { metadata: [1] }, "metadata", /record/],
    ["create_custom_context", "body over 50000 characters", { body: "x".repeat(50_001) }, "body", /Too big/],
    // ISO 8601
    ["list_merge_request_comments", "createdAfter words", { ...REPO_ARGS, prNumber: 1, createdAfter: "yesterday" }, "createdAfter", /ISO 8601/],
    ["list_merge_request_comments", "createdAfter month 13", { ...REPO_ARGS, prNumber: 1, createdAfter: "2024-13-01" }, "createdAfter", /ISO 8601/],
    ["list_merge_request_comments", "createdBefore 30 February", { ...REPO_ARGS, prNumber: 1, createdBefore: "2024-02-30T10:00:00Z" }, "createdBefore", /ISO 8601/],
    ["list_merge_request_comments", "createdBefore US format", { ...REPO_ARGS, prNumber: 1, createdBefore: "05/01/2024" }, "createdBefore", /ISO 8601/],
    ["search_greptile_comments", "createdAfter epoch number", { query: "x", createdAfter: 1714557600000 }, "createdAfter", /expected string, received number/],
    ["search_greptile_comments", "createdAfter hour 25", { query: "x", createdAfter: "2024-05-01T25:00:00Z" }, "createdAfter", /ISO 8601/],
    // UUID
    ["get_custom_context", "not a UUID", { customContextId: "not-a-uuid" }, "customContextId", /Invalid UUID/],
    ["get_custom_context", "a ULID", { customContextId: ulid() }, "customContextId", /Invalid UUID/],
    ["get_custom_context", "a UUID with a bad variant", { customContextId: "00000000-0000-4000-7000-000000000000" }, "customContextId", /Invalid UUID/],
    // repository group: all three or none
    ["list_pull_requests", "name alone", { name: REPO }, "remote", /must be given together/],
    ["list_pull_requests", "name and remote", { name: REPO, remote: "github" }, "defaultBranch", /must be given together/],
    ["list_merge_requests", "remote and defaultBranch", { remote: "github", defaultBranch: "main" }, "name", /must be given together/],
    ["list_code_reviews", "defaultBranch alone", { defaultBranch: "main" }, "name", /must be given together/],
    ["list_code_reviews", "name and defaultBranch with prNumber", { name: REPO, defaultBranch: "main", prNumber: 1 }, "remote", /must be given together/],
    ["list_pull_requests", "name not owner/repo", { ...REPO_ARGS, name: "widgets" }, "name", /owner\/repo/],
    ["get_merge_request", "empty defaultBranch", { ...REPO_ARGS, defaultBranch: "", prNumber: 1 }, "defaultBranch", /Too small/],
    // missing required parameters (other than trigger_code_review's defaultBranch)
    ["get_merge_request", "no prNumber", { ...REPO_ARGS }, "prNumber", /expected number, received undefined/],
    ["get_merge_request", "no defaultBranch", { name: REPO, remote: "github", prNumber: 1 }, "defaultBranch", /expected string, received undefined/],
    ["list_merge_request_comments", "no name", { remote: "github", defaultBranch: "main", prNumber: 1 }, "name", /received undefined/],
    ["trigger_code_review", "no prNumber", { ...REPO_ARGS }, "prNumber", /received undefined/],
    ["trigger_code_review", "defaultBranch null (given, wrong type)", { name: REPO, remote: "github", defaultBranch: null, prNumber: 1 }, "defaultBranch", /received null/],
    ["get_code_review", "no codeReviewId", {}, "codeReviewId", /received undefined/],
    ["search_greptile_comments", "no query", {}, "query", /received undefined/],
    ["search_greptile_comments", "empty query", { query: "" }, "query", /Too small/],
    ["search_custom_context", "no query", {}, "query", /received undefined/],
    // unknown parameters
    ["list_pull_requests", "unknown parameter", { repository: REPO }, "repository", /Unrecognized parameter/],
    ["create_custom_context", "unknown parameter", { body: "x", name: "y" }, "name", /Unrecognized parameter/],
    // a scope condition is named for what it lacks, not as a group's unknown keys
    ["create_custom_context", "scope condition without a value", { body: "x", scopes: { AND: [{ field: "filepath", operator: "MATCHES" }] } }, "scopes", /scopes\.AND\.0: a condition needs field, operator and value: value: required/],
    ["create_custom_context", "scope condition with an unknown operator", { body: "x", scopes: { field: "filepath", operator: "LIKE", value: "*.py" } }, "scopes", /operator: must be one of MATCHES, NOT_MATCHES, EQUALS, NOT_EQUALS/],
  ];

  it.each(cases)("%s: %s", async (tool, _label, args, field, pattern) => {
    const error = await toolError(tool, args);
    expect(error.code).toBe(-32602);
    expect(error.message.startsWith("Invalid params: ")).toBe(true);
    expect(error.message).toMatch(new RegExp(`(: |; )${field}(\\.[\\w.]+)?: `));
    if (pattern) expect(error.message).toMatch(pattern);
    expect(error.data?.issues.some((i) => i.field === field || i.field.startsWith(`${field}.`))).toBe(true);
  });

  it("arguments that are not an object, and positional params", async () => {
    const viaCall = await rpc({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "list_pull_requests", arguments: [1] } });
    expect(viaCall.body.error).toMatchObject({ code: -32602, data: { field: "arguments" } });
    const direct = await rpc({ jsonrpc: "2.0", id: 1, method: "list_pull_requests", params: [20, 0] });
    expect(direct.body.error).toMatchObject({ code: -32602, data: { field: "params" } });
    const noName = await rpc({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { arguments: {} } });
    expect(noName.body.error).toMatchObject({ code: -32602, data: { field: "name" } });
  });

  it("`_meta` from MCP clients is accepted and ignored; absent arguments mean {}", async () => {
    const a = await rpc({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "list_pull_requests", arguments: { limit: 1, _meta: { progressToken: 1 } }, _meta: { x: 1 } } });
    expect(a.body.result.structuredContent.mergeRequests).toHaveLength(1);
    const b = await rpc({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "list_pull_requests" } });
    expect(b.body.result.structuredContent.total).toBeGreaterThan(1);
    const c = await rpc({ jsonrpc: "2.0", id: 3, method: "list_custom_context" });
    expect(c.body.result).toEqual({ customContexts: [], total: 0 });
  });
});

describe("-32000: trigger_code_review without defaultBranch", () => {
  const MESSAGE = "MCP error -32000: invalid_type - defaultBranch Required";

  it("is -32000 with exactly the spec's message on the wire, through tools/call and the direct method", async () => {
    for (const args of [
      { name: REPO, remote: "github", prNumber: 1 },
      { name: REPO, remote: "github", prNumber: 1, branch: "feature/logging" },
      { name: REPO, remote: "bitbucket", prNumber: 99 },
      { prNumber: "one" }, // omitted defaultBranch wins over the other problems
      {},
    ]) {
      const error = await toolError("trigger_code_review", args);
      expect(error.code).toBe(-32000);
      expect(error.message).toBe(MESSAGE);
      expect(error.data?.field).toBe("defaultBranch");
    }
  });

  it("the official SDK client raises McpError(-32000) whose text prefixes the wire message once more", async () => {
    const client = new Client({ name: "loupe-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(fx.url), { requestInit: { headers: { Authorization: `Bearer ${fx.key}` } } }));
    try {
      const error = await client.callTool({ name: "trigger_code_review", arguments: { name: REPO, remote: "github", prNumber: 1 } }).catch((e: unknown) => e);
      expect(error).toMatchObject({ name: "McpError", code: -32000 });
      // McpError's constructor formats `MCP error ${code}: ${message}` around the wire message.
      expect((error as Error).message).toBe(`MCP error -32000: ${MESSAGE}`);
      const tooBig = await client.callTool({ name: "list_pull_requests", arguments: { limit: 101 } }).catch((e: unknown) => e);
      expect(tooBig).toMatchObject({ code: -32602, message: "MCP error -32602: Invalid params: limit: Too big: expected number to be <=100" });
      const unknown = await client.callTool({ name: "no_such_tool", arguments: {} }).catch((e: unknown) => e);
      expect(unknown).toMatchObject({ code: -32601 });
    } finally {
      await client.close();
    }
  });
});

describe("-32000: authentication and not found", () => {
  it("tools need a valid key: none, malformed, unknown, revoked", async () => {
    const { key: revoked, info } = await fx.server.loupe.services.keys.issue(
      { orgId: fx.orgId, name: "to revoke", role: "member" },
      { orgId: fx.orgId, actor: "test", correlationId: ulid(), causationId: null },
    );
    const before = await rpc({ jsonrpc: "2.0", id: 1, method: "list_pull_requests", params: { limit: 1 } }, revoked);
    expect(before.body.result.mergeRequests).toHaveLength(1);
    await fx.server.loupe.services.keys.revoke(fx.orgId, info.keyId, "test", { orgId: fx.orgId, actor: "test", correlationId: ulid(), causationId: null });
    for (const key of [null, "lp_not_a_real_key", revoked]) {
      for (const tool of tools) {
        const error = await toolError(tool.name, VALID[tool.name], key);
        expect(error).toEqual({ code: -32000, message: "Unauthorized: missing or invalid API key" });
      }
    }
    const basic = await post(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "list_pull_requests" }), null, { authorization: "Basic Zm9vOmJhcg==" });
    expect(basic.body.error.code).toBe(-32000);
  });

  it("initialize, ping and tools/list need no key", async () => {
    for (const method of ["ping", "tools/list"]) {
      const res = await rpc({ jsonrpc: "2.0", id: 1, method }, null);
      expect(res.body.result).toBeDefined();
    }
    const init = await rpc({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } }, "lp_wrong");
    expect(init.body.result.serverInfo.name).toBe("loupe");
  });

  it("unknown pull requests, reviews and custom context are -32000 naming what was not found", async () => {
    expect(await toolError("get_merge_request", { ...REPO_ARGS, prNumber: 999 })).toMatchObject({ code: -32000, message: expect.stringMatching(/999.*not found/) });
    expect(await toolError("list_merge_request_comments", { ...REPO_ARGS, prNumber: 999 })).toMatchObject({ code: -32000 });
    expect(await toolError("get_code_review", { codeReviewId: "nope" })).toMatchObject({ code: -32000, message: expect.stringMatching(/not found/) });
    expect(await toolError("get_custom_context", VALID.get_custom_context)).toMatchObject({ code: -32000, message: expect.stringMatching(/not found/) });
    // trigger_code_review of an unknown pull request: -32000, nothing recorded.
    const error = await toolError("trigger_code_review", { ...REPO_ARGS, prNumber: 999 });
    expect(error.code).toBe(-32000);
    expect(error.message).toMatch(/not found/);
  });
});

describe("JSON-RPC 2.0 framing", () => {
  it("-32700 for unparsable JSON, id null", async () => {
    for (const body of ["{", "not json", '{"jsonrpc":"2.0","id":1,"method":"ping"', ""]) {
      const res = await post(body);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32700, message: expect.stringMatching(/^Parse error/) } });
    }
  });

  it("-32600 for invalid request objects and an empty batch", async () => {
    for (const message of [{}, { jsonrpc: "1.0", id: 1, method: "ping" }, { jsonrpc: "2.0", id: 1, method: 5 }, { jsonrpc: "2.0", id: 1, method: "ping", params: "x" }, { jsonrpc: "2.0", id: { a: 1 }, method: "ping" }, 42, "ping", []]) {
      const res = await rpc(message);
      expect(res.status, JSON.stringify(message)).toBe(200);
      expect(res.body, JSON.stringify(message)).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request" } });
    }
  });

  it("-32601 for unknown methods and unknown tool names", async () => {
    expect((await rpc({ jsonrpc: "2.0", id: 1, method: "resources/list" })).body.error).toEqual({ code: -32601, message: "Method not found: resources/list" });
    expect((await rpc({ jsonrpc: "2.0", id: 2, method: "search_comments" })).body.error.code).toBe(-32601);
    expect((await rpc({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "list_prs", arguments: {} } })).body.error).toEqual({
      code: -32601,
      message: "Unknown tool: list_prs",
      data: { name: "list_prs" },
    });
  });

  it("batches: one response per request in any order, none for notifications, -32600 for non-objects", async () => {
    const res = await rpc([
      { jsonrpc: "2.0", id: 1, method: "ping" },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "list_pull_requests", params: { limit: 1 } },
      { jsonrpc: "2.0", id: 3, method: "no_such_method" },
      { jsonrpc: "2.0", method: "no_such_method" },
      { jsonrpc: "2.0", id: 4, method: "list_pull_requests", params: { limit: 1000 } },
      1,
      [{ jsonrpc: "2.0", id: 9, method: "ping" }],
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(6);
    const byId = new Map(res.body.filter((r: { id: unknown }) => r.id !== null).map((r: { id: unknown }) => [r.id, r]));
    expect(byId.get(1)).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    expect((byId.get(2) as any).result.mergeRequests).toHaveLength(1);
    expect((byId.get(3) as any).error.code).toBe(-32601);
    expect((byId.get(4) as any).error.code).toBe(-32602);
    expect(res.body.filter((r: { id: unknown }) => r.id === null).map((r: any) => r.error.code)).toEqual([-32600, -32600]);
  });

  it("a notification, and a batch of only notifications: 202 with no body", async () => {
    for (const message of [
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", method: "list_pull_requests", params: { limit: 1000 } },
      [{ jsonrpc: "2.0", method: "ping" }, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } }],
      { jsonrpc: "2.0", id: 5, result: {} }, // a client's response to nothing we asked: accepted, ignored
    ]) {
      const res = await rpc(message);
      expect(res.status).toBe(202);
      expect(res.text).toBe("");
    }
  });

  it("tool errors carry no stack or internals; -32603 for an internal failure", async () => {
    // Break the read store under the running server: the tool fails inside, the caller sees -32603 only.
    const logsBefore = fx.server.logs().length;
    await fx.server.loupe.services.readStore.close();
    const error = await toolError("list_pull_requests", {});
    expect(error).toEqual({ code: -32603, message: "Internal error" });
    expect(fx.server.logs().slice(logsBefore)).toMatch(/tool interface: unhandled error/);
  });
});
