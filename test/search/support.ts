import { afterAll, beforeAll, expect } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startTestServer, type TestServer } from "../support/server.ts";
import { createGitHostFixture, type GitHostFixture } from "../support/git-fixtures.ts";

/** Submits a repository through the API and polls its status until completed (throws on failure). */
export async function indexRepository(server: TestServer, ref: { remote: string; repository: string; branch?: string }, key?: string): Promise<void> {
  const res = await server.api("/v2/repositories", { method: "POST", json: ref, ...(key ? { key } : {}) });
  if (res.status >= 300) throw new Error(`submit ${ref.repository}: ${res.status} ${await res.text()}`);
  const { statusEndpoint } = (await res.json()) as { statusEndpoint: string };
  const path = new URL(statusEndpoint).pathname;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const status = (await (await server.api(path, key ? { key } : {})).json()) as { status: string; failureReason?: string };
    if (status.status === "completed") return;
    if (status.status === "failed") throw new Error(`indexing ${ref.repository} failed: ${status.failureReason}`);
    if (Date.now() > deadline) throw new Error(`indexing ${ref.repository} timed out (${status.status})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export type StreamLine = { type: string; message: unknown };

/** Parses an NDJSON or SSE body into its lines. */
export function parseStream(text: string, sse: boolean): StreamLine[] {
  if (sse) {
    return text
      .split("\n\n")
      .map((block) => block.trim())
      .filter(Boolean)
      .map((block) => {
        if (!block.startsWith("data: ")) throw new Error(`not an SSE data line: ${block}`);
        return JSON.parse(block.slice(6)) as StreamLine;
      });
  }
  return text
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as StreamLine);
}

/** A reference as the MCP tool `search_code` returns it (the fields these tests read). */
export type CodeReference = { filepath: string; linestart: number; lineend: number; code: string };

/** A reference as POST /v2/search returns it (the fields these tests read). */
export type SearchSource = { filepath: string; linestart: number | null; lineend: number | null };

/**
 * For the enclosing describe: a real server and one repository of `files` on a git host fixture,
 * indexed through the API before the tests and removed after; `search` asks POST /v2/search about it.
 */
export function withIndexedRepository(
  repository: string,
  files: Record<string, string>,
): {
  search(query: string): Promise<SearchSource[]>;
  searchCode(query: string): Promise<CodeReference[]>;
  ask(question: string): Promise<string>;
  converse(messages: { role: "user" | "assistant"; content: string }[]): Promise<{ message: string; sources: SearchSource[] }>;
} {
  let server: TestServer;
  let host: GitHostFixture;
  const ref = { remote: "github", repository, branch: "main" };
  beforeAll(async () => {
    host = createGitHostFixture();
    host.createRepo(repository, files);
    server = await startTestServer({ env: { LOUPE_GITHUB_URL: host.baseUrl } });
    await indexRepository(server, ref);
  }, 120_000);
  afterAll(async () => {
    await server?.stop({ remove: true });
    host?.cleanup();
  });
  return {
    async search(query) {
      const res = await server.api("/v2/search", { method: "POST", json: { query, repositories: [ref] } });
      expect(res.status).toBe(200);
      return (await res.json()) as SearchSource[];
    },
    /** The MCP tool `search_code` through the official SDK client over streamable HTTP: references with their code. */
    async searchCode(query) {
      const client = new Client({ name: "loupe-search-test", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${server.adminKey}` } } }));
      try {
        const result = (await client.callTool({ name: "search_code", arguments: { query, repositories: [ref] } })) as unknown as { structuredContent: { references: CodeReference[] }; isError?: boolean };
        expect(result.isError ?? false).toBe(false);
        return result.structuredContent.references;
      } finally {
        await client.close();
      }
    },
    /** POST /v2/query with no chat model: the answer's text. */
    async ask(question) {
      const res = await server.api("/v2/query", { method: "POST", json: { messages: [{ id: "1", role: "user", content: question }], repositories: [ref] } });
      expect(res.status).toBe(200);
      return ((await res.json()) as { message: string }).message;
    },
    /** POST /v2/query with a conversation (earlier turns first, the question last): answer and sources. */
    async converse(messages) {
      const res = await server.api("/v2/query", { method: "POST", json: { messages: messages.map((m, i) => ({ id: String(i + 1), ...m })), repositories: [ref] } });
      expect(res.status).toBe(200);
      return (await res.json()) as { message: string; sources: SearchSource[] };
    },
  };
}
