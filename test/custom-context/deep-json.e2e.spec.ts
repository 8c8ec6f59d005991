/**
 * Free-form JSON at the boundary is bounded: custom context `metadata` nesting thousands of levels deep
 * (which overflowed the stack in the event log's encoder: an internal error on every face) is refused
 * up front, naming the field and the limit (HTTP 400, MCP -32602, GraphQL BAD_USER_INPUT), and nothing
 * is appended; so are `scopes` nested that deep (the scope schema recursed per level) and metadata over
 * its size. The limits are declared once (CUSTOM_CONTEXT_LIMITS) and shared by the faces and the service.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startTestServer, type TestServer } from "../support/server.ts";
import { gql } from "../graphql/support.ts";
import { CUSTOM_CONTEXT_LIMITS } from "../../src/features/custom-context/events.ts";

const DEPTH = CUSTOM_CONTEXT_LIMITS.metadataDepth;

/** JSON text of an object nesting `levels` levels (`{"a":{"a":...{"leaf":1}}}`), built without recursion. */
const nestedJson = (levels: number) => `${'{"a":'.repeat(levels - 1)}{"leaf":1}${"}".repeat(levels - 1)}`;
/** JSON text of a scope whose AND groups nest `groups` deep around one condition. */
const nestedScopeJson = (groups: number) =>
  `${'{"AND":['.repeat(groups)}{"field":"filepath","operator":"MATCHES","value":"**/*.ts"}${"]}".repeat(groups)}`;

let server: TestServer;
let client: Client;
const head = () => server.loupe.services.eventStore.headPosition();
const errorLines = () => server.logs().split("\n").filter((l) => /"level":(50|60)/.test(l));

beforeAll(async () => {
  server = await startTestServer();
  client = new Client({ name: "loupe-deep-json-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${server.adminKey}` } } }));
}, 60_000);
afterAll(async () => {
  await client?.close();
  await server?.stop({ remove: true });
});

/** Each face creating a custom context from raw JSON text for `field`; the answer as status, code and text. */
const faces: Record<string, (field: "metadata" | "scopes", json: string) => Promise<{ refused: boolean; code: string | number; text: string; path?: string }>> = {
  async http(field, json) {
    const response = await server.api("/v2/custom-context", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: `{"body":"Prefer early returns","${field}":${json}}`,
    });
    const text = await response.text();
    return { refused: response.status === 400, code: response.status, text, path: (JSON.parse(text) as { error?: { details?: { field: string }[] } }).error?.details?.[0]?.field };
  },
  async mcp(field, json) {
    // The SDK client serialises with JSON.stringify, which recurses: post the JSON-RPC request as text.
    const response = await fetch(`${server.baseUrl}/mcp`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.adminKey}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"create_custom_context","arguments":{"body":"Prefer early returns","${field}":${json}}}}`,
    });
    const answer = (await response.json()) as { error?: { code: number; message: string; data?: { field?: string } } };
    return { refused: answer.error?.code === -32602, code: answer.error?.code ?? "none", text: JSON.stringify(answer), path: answer.error?.data?.field };
  },
  async graphqlVariable(field, json) {
    const response = await server.api("/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: `{"query":"mutation($v: JSON) { createCustomContext(body: \\"Prefer early returns\\", ${field}: $v) { id } }","variables":{"v":${json}}}`,
    });
    const answer = (await response.json()) as { errors?: { message: string; extensions?: { code?: string; details?: { issues?: { path: string }[] } } }[] };
    const error = answer.errors?.[0];
    return { refused: error?.extensions?.code === "BAD_USER_INPUT", code: error?.extensions?.code ?? "none", text: JSON.stringify(answer), path: error?.extensions?.details?.issues?.[0]?.path };
  },
};

describe("deeply nested metadata", () => {
  it.each(Object.keys(faces))("%s: 2,000 and 50,000 levels are refused naming metadata and the limit; nothing is appended", async (face) => {
    for (const levels of [2_000, 50_000]) {
      const before = await head();
      const errorsBefore = errorLines().length;
      const answer = await faces[face]!("metadata", nestedJson(levels));
      expect(answer.refused, answer.text.slice(0, 500)).toBe(true);
      expect(answer.path).toBe("metadata");
      expect(answer.text).toContain(`deeper than ${DEPTH} levels`);
      expect(await head()).toBe(before);
      expect(errorLines().length).toBe(errorsBefore);
    }
  });

  it.each(Object.keys(faces))("%s: metadata nesting exactly the limit is accepted, one level more refused", async (face) => {
    const accepted = await faces[face]!("metadata", nestedJson(DEPTH));
    expect(accepted.refused, accepted.text.slice(0, 500)).toBe(false);
    expect(accepted.text).not.toMatch(/"code":"(INTERNAL|internal)"|-32603/);
    const before = await head();
    const refused = await faces[face]!("metadata", nestedJson(DEPTH + 1));
    expect(refused.refused).toBe(true);
    expect(refused.path).toBe("metadata");
    expect(await head()).toBe(before);
  });

  it.each(Object.keys(faces))("%s: metadata over the size limit is refused naming the limit", async (face) => {
    const before = await head();
    const big = JSON.stringify({ notes: "n".repeat(CUSTOM_CONTEXT_LIMITS.metadataCharacters) });
    const answer = await faces[face]!("metadata", big);
    expect(answer.refused).toBe(true);
    expect(answer.path).toBe("metadata");
    expect(answer.text).toContain(String(CUSTOM_CONTEXT_LIMITS.metadataCharacters));
    expect(await head()).toBe(before);
  });

  it("GraphQL: a literal nested past the limit is BAD_USER_INPUT naming metadata; one the parser cannot take is refused before parsing", async () => {
    const literal = (levels: number) => `${"{a: ".repeat(levels - 1)}{leaf: 1}${"}".repeat(levels - 1)}`;
    const before = await head();
    const past = await gql(server, `mutation { createCustomContext(body: "x", metadata: ${literal(DEPTH + 5)}) { id } }`);
    expect(past.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(past.errors?.[0]?.extensions?.details?.issues?.[0]?.path).toBe("metadata");
    const huge = await gql(server, `mutation { createCustomContext(body: "x", metadata: ${literal(2_000)}) { id } }`);
    expect(huge.errors?.[0]?.extensions?.code).toBe("GRAPHQL_PARSE_FAILED");
    expect(huge.errors?.[0]?.message).toContain("deeper than 128 levels");
    expect(await head()).toBe(before);
    expect(errorLines()).toEqual([]);
  });

  it("the service refuses an update with metadata past the limit (the console's path), nothing appended", async () => {
    const orgId = server.loupe.services.keys.organisations()[0]!.orgId;
    const ctx = { orgId, actor: "test", correlationId: "deep-json", causationId: null };
    const { customContext } = await server.loupe.services.customContext.create(orgId, { body: "short" }, ctx);
    const before = await head();
    await expect(
      server.loupe.services.customContext.update(orgId, customContext.id, { metadata: JSON.parse(nestedJson(5_000)) as Record<string, unknown> }, ctx),
    ).rejects.toMatchObject({ code: "invalid", field: "metadata", message: expect.stringContaining(`deeper than ${DEPTH} levels`) });
    expect(await head()).toBe(before);
  });
});

describe("deeply nested scopes", () => {
  it.each(Object.keys(faces))("%s: scopes nested 2,000 groups deep are refused naming scopes; nothing is appended", async (face) => {
    const before = await head();
    const errorsBefore = errorLines().length;
    const answer = await faces[face]!("scopes", nestedScopeJson(2_000));
    expect(answer.refused, answer.text.slice(0, 500)).toBe(true);
    expect(answer.path).toBe("scopes");
    expect(answer.text).toMatch(/deeper than (8|32)/);
    expect(await head()).toBe(before);
    expect(errorLines().length).toBe(errorsBefore);
  });

  it("the limit of scope nesting itself still holds: 8 groups accepted, 9 refused as scope nesting deeper than 8", async () => {
    const ok = await faces.http!("scopes", nestedScopeJson(8));
    expect(ok.code, ok.text).toBe(201);
    const nine = await faces.http!("scopes", nestedScopeJson(9));
    expect(nine.code).toBe(400);
    expect(nine.text).toContain("scope nesting deeper than 8");
  });
});
