/**
 * The query faces agree: the MCP code tools (official SDK client) and HTTP /v2 (fetch) take the same
 * input with the same limits and worded messages naming the field, over a repository indexed by path.
 *
 * - A blank question or query is refused naming the field and nothing is recorded; the query session
 *   service refuses it too, whichever face calls it.
 * - A local repository comes back as `remote: "local"` with its bare name, and that form is accepted
 *   back by every code tool, as by HTTP.
 * - Query length (100,000 characters) and `limit` (max 100) are the same on both faces.
 * - An unknown repository is named as the client wrote it; the HTTP remote message lists `local`.
 * - A /v2 route asked with a method it does not serve is 405 with `Allow`.
 * - The answer quotes code holding a backtick fence as it is, inside a longer fence.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startTestServer, type TestServer } from "../support/server.ts";
import { DomainError } from "../../src/eventstore/decider.ts";

/** Shaped after serde_json's src/macros.rs: a doc comment holding a code fence. */
const MACROS = [
  "/// Construct a `serde_json::Value` from a JSON literal.",
  "///",
  "/// ```",
  "/// # use serde_json::json;",
  '/// let value = json!({ "code": 200, "success": true });',
  "/// ```",
  "#[macro_export]",
  "macro_rules! json {",
  "    ($($json:tt)+) => {",
  "        json_internal!($($json)+)",
  "    };",
  "}",
  "",
].join("\n");

const RETRY = [
  "/// Retries a flaky payment call with exponential backoff.",
  "pub fn charge_with_retry(attempts: u32) -> u32 {",
  "    let mut delay = 1;",
  "    for _ in 0..attempts {",
  "        delay *= 2;",
  "    }",
  "    delay",
  "}",
  "",
].join("\n");

type Structured = Record<string, any>;

let server: TestServer;
let root: string;
let client: Client;
let orgId: string;
/** The local repository as results show it. */
let local: { remote: string; repository: string };

async function call(name: string, args: Record<string, unknown>): Promise<Structured> {
  const result = (await client.callTool({ name, arguments: args })) as { structuredContent: Structured; isError?: boolean };
  expect(result.isError ?? false, `${name} ${JSON.stringify(args).slice(0, 200)}`).toBe(false);
  return result.structuredContent;
}

async function callError(name: string, args: Record<string, unknown>): Promise<{ code: number; message: string; data?: any }> {
  try {
    await client.callTool({ name, arguments: args });
  } catch (error) {
    return error as { code: number; message: string; data?: any };
  }
  throw new Error(`${name} succeeded`);
}

const post = (path: string, json: unknown) => server.api(path, { method: "POST", json });

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "loupe-query-faces-"));
  const repo = join(root, "jsonish");
  for (const [path, text] of Object.entries({ "src/macros.rs": MACROS, "src/retry.rs": RETRY })) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), text);
  }
  execFileSync("git", ["init", "--quiet", "--initial-branch=main"], { cwd: repo });
  execFileSync("git", ["add", "."], { cwd: repo });
  execFileSync("git", ["-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "--quiet", "-m", "init"], { cwd: repo });

  server = await startTestServer({ env: { LOUPE_LOCAL_ROOTS: root } });
  orgId = (await (await server.api("/v2/me")).json()).orgId;
  const submitted = await post("/v2/repositories/local", { path: repo });
  expect(submitted.status).toBe(202);
  const { statusEndpoint } = await submitted.json();
  for (let i = 0; ; i++) {
    const status = await (await server.api(new URL(statusEndpoint).pathname)).json();
    if (status.status === "completed") break;
    if (status.status === "failed" || i > 600) throw new Error(`indexing: ${JSON.stringify(status)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  client = new Client({ name: "loupe-query-faces-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${server.adminKey}` } } }));
}, 120_000);

afterAll(async () => {
  await client?.close().catch(() => undefined);
  await server?.stop({ remove: true });
  if (root) rmSync(root, { recursive: true, force: true });
});

describe("a local repository is passed back as returned", () => {
  it("search_code, query_repositories and get_repository_status accept remote local with the bare name they return", async () => {
    const listed = (await (await server.api("/v2/repositories")).json()).repositories;
    expect(listed).toHaveLength(1);
    expect(listed[0].remote).toBe("local");
    local = { remote: listed[0].remote, repository: listed[0].repository };
    expect(local.repository).toMatch(/^jsonish-[0-9a-f]+$/);

    const found = await call("search_code", { query: "retry a payment call with backoff", repositories: [local] });
    const first = found.references[0];
    expect(first).toMatchObject({ remote: "local", repository: local.repository, filepath: "src/retry.rs" });
    const returned = { remote: first.remote, repository: first.repository, branch: first.branch };

    const again = await call("search_code", { query: "retry a payment call with backoff", repositories: [returned] });
    expect(again.references[0]).toMatchObject({ remote: "local", repository: local.repository, filepath: "src/retry.rs" });
    const asked = await call("query_repositories", { question: "How does charge_with_retry back off?", repositories: [returned] });
    expect(asked.sources[0]).toMatchObject({ remote: "local", repository: local.repository, filepath: "src/retry.rs" });
    const status = (await call("get_repository_status", returned)).repository;
    expect(status).toMatchObject({ remote: "local", repository: local.repository, branch: "main", status: "completed" });
    expect((await call("get_repository_status", local)).repository.id).toBe(status.id);

    // HTTP takes the same form.
    const http = await post("/v2/search", { query: "retry a payment call with backoff", repositories: [returned] });
    expect(http.status).toBe(200);
    expect((await http.json())[0]).toMatchObject({ remote: "local", repository: local.repository });
  });

  it("the tool schemas say so", async () => {
    const tools = (await client.listTools()).tools;
    for (const name of ["search_code", "query_repositories"]) {
      const repositories = tools.find((t) => t.name === name)!.inputSchema.properties!.repositories as Structured;
      expect(repositories.items.properties.remote.enum).toContain("local");
      expect(repositories.description).toMatch(/local/);
    }
    const status = tools.find((t) => t.name === "get_repository_status")!.inputSchema.properties as Structured;
    expect(status.remote.enum).toContain("local");
  });

  it("an unknown repository is named as the client wrote it, on both faces", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ remote: "local", repository: "nope-12345678" }, "local:(default branch):nope-12345678"],
      [{ remote: "local", repository: "nope-12345678", branch: "master" }, "local:master:nope-12345678"],
      [{ remote: "github", repository: "local/nope-12345678", branch: "master" }, "github:master:local/nope-12345678"],
    ];
    for (const [ref, shown] of cases) {
      const http = await post("/v2/search", { query: "anything", repositories: [ref] });
      expect(http.status).toBe(404);
      const message = (await http.json()).error.message as string;
      expect(message).toContain(`Repository not found: ${shown}.`);
      const mcp = await callError("search_code", { query: "anything", repositories: [ref] });
      expect(mcp.code).toBe(-32000);
      expect(mcp.message).toContain(`Repository not found: ${shown}.`);
    }
  });
});

describe("blank questions and queries", () => {
  it("are -32602 naming the field over MCP, 400 over HTTP, and record nothing", async () => {
    const before = server.loupe.services.querySessions.recent(orgId, 100).length;
    for (const blank of ["", "   ", " \n\t "]) {
      const question = await callError("query_repositories", { question: blank, repositories: [local], sessionId: "blank-question" });
      expect(question.code).toBe(-32602);
      expect(question.message).toContain("question: must not be empty");
      expect(question.data.field).toBe("question");
      const query = await callError("search_code", { query: blank, repositories: [local], sessionId: "blank-query" });
      expect(query.code).toBe(-32602);
      expect(query.message).toContain("query: must not be empty");
      const http = await post("/v2/search", { query: blank, repositories: [local], sessionId: "blank-http" });
      expect(http.status).toBe(400);
      expect((await http.json()).error.message).toContain("query: must not be empty");
    }
    for (const sessionId of ["blank-question", "blank-query", "blank-http"]) {
      expect((await callError("get_query_session", { sessionId })).message).toMatch(/not found/);
    }
    expect(server.loupe.services.querySessions.recent(orgId, 100)).toHaveLength(before);
  });

  it("are refused by the query session service itself, before anything is recorded", async () => {
    const { codeSearch, querySessions } = server.loupe.services;
    const resolution = await codeSearch.resolve(orgId, [{ remote: "local", repository: local.repository }], () => undefined);
    const ctx = { orgId, actor: "test", correlationId: "blank", causationId: null };
    const before = querySessions.recent(orgId, 100).length;
    const asked = querySessions.ask(ctx, resolution, { messages: [{ role: "user", content: "   " }], sessionId: "service-blank-ask" });
    await expect(asked).rejects.toBeInstanceOf(DomainError);
    await expect(asked).rejects.toMatchObject({ code: "invalid", field: "messages" });
    const searched = querySessions.search(ctx, resolution, { query: " \n ", sessionId: "service-blank-search" });
    await expect(searched).rejects.toMatchObject({ code: "invalid", field: "query" });
    expect(await querySessions.get(orgId, "service-blank-ask")).toBeUndefined();
    expect(await querySessions.get(orgId, "service-blank-search")).toBeUndefined();
    expect(querySessions.recent(orgId, 100)).toHaveLength(before);
  });
});

describe("the same limits and messages on both faces", () => {
  it("a 50,000-character bug report is answered over MCP and HTTP; 100,001 characters are refused by both naming the field", async () => {
    const report = `charge_with_retry panics after the backoff: ${"thread 'main' panicked at src/retry.rs:4:9 ".repeat(1200)}`.slice(0, 50_000);
    expect(report).toHaveLength(50_000);
    expect((await call("search_code", { query: report, repositories: [local] })).references.length).toBeGreaterThan(0);
    expect((await call("query_repositories", { question: report, repositories: [local] })).answer.length).toBeGreaterThan(0);
    expect((await post("/v2/search", { query: report, repositories: [local] })).status).toBe(200);

    const tooLong = "x".repeat(100_001);
    const message = "must be at most 100000 characters";
    expect((await callError("search_code", { query: tooLong, repositories: [local] })).message).toContain(`query: ${message}`);
    expect((await callError("query_repositories", { question: tooLong, repositories: [local] })).message).toContain(`question: ${message}`);
    const http = await post("/v2/search", { query: tooLong, repositories: [local] });
    expect(http.status).toBe(400);
    expect((await http.json()).error.message).toContain(`query: ${message}`);
  });

  it("limit goes up to 100 on both, with worded messages naming it", async () => {
    expect((await call("search_code", { query: "json macro", repositories: [local], limit: 100 })).references.length).toBeGreaterThan(0);
    expect((await post("/v2/search", { query: "json macro", repositories: [local], limit: 100 })).status).toBe(200);
    for (const [limit, message] of [
      [101, "limit: must be at most 100"],
      [0, "limit: must be at least 1"],
      [1.5, "limit: must be an integer"],
    ] as const) {
      const mcp = await callError("search_code", { query: "json macro", repositories: [local], limit });
      expect(mcp.code).toBe(-32602);
      expect(mcp.message).toContain(message);
      const http = await post("/v2/search", { query: "json macro", repositories: [local], limit });
      expect(http.status).toBe(400);
      expect((await http.json()).error.message).toContain(message);
    }
  });

  it("a wrong remote lists every remote accepted, local included, on both faces", async () => {
    const expected = "repositories.0.remote: must be one of github, gitlab, bitbucket, azure, local";
    const http = await post("/v2/search", { query: "x", repositories: [{ remote: "svn", repository: "acme/x" }] });
    expect(http.status).toBe(400);
    expect((await http.json()).error.message).toContain(expected);
    expect((await callError("search_code", { query: "x", repositories: [{ remote: "svn", repository: "acme/x" }] })).message).toContain(expected);
    // A local name holds no '/'.
    const slash = await post("/v2/search", { query: "x", repositories: [{ remote: "local", repository: "a/b" }] });
    expect(slash.status).toBe(400);
    expect((await slash.json()).error.message).toContain("repositories.0.repository: on remote local");
  });
});

describe("methods a /v2 route does not serve", () => {
  it("are 405 with Allow and a JSON body; a path no route serves stays 404", async () => {
    const search = await server.api("/v2/search");
    expect(search.status).toBe(405);
    expect(search.headers.get("allow")).toBe("POST");
    expect(await search.json()).toMatchObject({ error: { code: "method_not_allowed", details: { allow: ["POST"] } } });
    const session = await server.api("/v2/query/some-session", { method: "POST", json: {} });
    expect(session.status).toBe(405);
    expect(session.headers.get("allow")).toBe("GET, HEAD");
    expect((await session.json()).error.message).toContain("POST is not allowed on /v2/query/some-session");
    const repositories = await server.api("/v2/repositories", { method: "DELETE" });
    expect(repositories.status).toBe(405);
    expect(repositories.headers.get("allow")).toBe("GET, HEAD, POST");
    const missing = await server.api("/v2/nothing-here");
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.code).toBe("not_found");
    // Authentication still comes first.
    expect((await server.api("/v2/search", { key: null })).status).toBe(401);
  });
});

describe("code quoted in an answer", () => {
  it("keeps a backtick fence inside the code as it is, in a longer fence, on both faces", async () => {
    const question = "How does the json macro construct a serde_json Value from a JSON literal?";
    const mcp = (await call("query_repositories", { question, repositories: [local] })).answer as string;
    const http = (await (await post("/v2/query", { messages: [{ role: "user", content: question }], repositories: [local] })).json()).message as string;
    for (const answer of [mcp, http]) {
      expect(answer).toContain("src/macros.rs");
      expect(answer).not.toContain("\u200b");
      expect(answer).toContain("\n/// ```\n/// # use serde_json::json;\n");
      expect(answer).toMatch(/\n````rust\n[\s\S]*\/\/\/ ```[\s\S]*\n````/);
    }
  });
});
