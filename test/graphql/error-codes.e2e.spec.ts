/**
 * The admin API's error codes are the ones its schema documents (`AdminErrorCode`), and a wrong
 * argument is BAD_USER_INPUT naming the argument in `details.issues` wherever it is written: a literal in
 * the document, a variable, or a rule the service checks. Each refused request logs one warning without
 * a stack. The other faces name the field of a service's refusal too (HTTP 400 details, JSON-RPC -32602 data).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startTestServer, type TestServer } from "../support/server.ts";
import { gql, gqlData, type GraphQLResponse } from "./support.ts";

type Case = { label: string; query: string; variables?: Record<string, unknown> };

/** Each wrong argument, and the path `details.issues` must give it. */
const ARGUMENT_CASES: (Case & { path: string })[] = [
  { label: "an Int literal out of range", query: "{ codeReviews(limit: 99999999999) { total } }", path: "limit" },
  { label: "the same value as a variable", query: "query($l: Int) { codeReviews(limit: $l) { total } }", variables: { l: 99999999999 }, path: "$l" },
  { label: "a limit over the maximum", query: "{ codeReviews(limit: 1000) { total } }", path: "limit" },
  { label: "an unknown enum literal", query: "{ codeReviews(remote: nowhere) { total } }", path: "remote" },
  { label: "a required argument left out", query: "{ codeReview { id } }", path: "id" },
  { label: "a bad DateTime inside an input object literal", query: '{ events(filter: { since: "yesterday" }) { edges { cursor } } }', path: "filter.since" },
  { label: "a bad DateTime inside a variable", query: "query($f: EventFilter) { events(filter: $f) { edges { cursor } } }", variables: { f: { since: "yesterday" } }, path: "$f.since" },
  { label: "part of the repository group", query: '{ pullRequests(name: "acme/widgets") { total } }', path: "remote" },
  { label: "a scopes expression the service refuses", query: 'mutation { createCustomContext(body: "Prefer early returns", scopes: { AND: 3 }) { id } }', path: "scopes" },
];

/** Requests wrong before any argument is looked at, with the code each answers. */
const REQUEST_CASES: (Case & { code: string; body?: unknown })[] = [
  { label: "a syntax error", query: "{ viewer { ", code: "GRAPHQL_PARSE_FAILED" },
  { label: "an unknown field", query: "{ viewer { nope } }", code: "GRAPHQL_VALIDATION_FAILED" },
  { label: "an unknown argument", query: "{ codeReviews(nope: 1) { total } }", code: "GRAPHQL_VALIDATION_FAILED" },
  { label: "a batch", query: "", body: [{ query: "{ viewer { keyId } }" }, { query: "{ viewer { role } }" }], code: "BAD_REQUEST" },
  { label: "no query", query: "", body: {}, code: "BAD_REQUEST" },
];

describe("admin API error codes", () => {
  let server: TestServer;
  let codes: { name: string; description: string | null }[];
  let documented: Set<string>;

  beforeAll(async () => {
    server = await startTestServer();
    codes = (await gqlData(server, `{ __type(name: "AdminErrorCode") { enumValues { name description } } }`)).__type.enumValues;
    documented = new Set(codes.map((v) => v.name));
  });
  afterAll(() => server.stop({ remove: true }));

  const post = async (c: Case & { body?: unknown }): Promise<GraphQLResponse> => {
    if (c.body === undefined) return gql(server, c.query, c.variables);
    const response = await server.api("/graphql", { method: "POST", json: c.body });
    return { status: response.status, ...((await response.json()) as object) };
  };

  /** The log lines a request wrote. */
  const logged = async <T>(run: () => Promise<T>): Promise<{ result: T; lines: { level: number; msg: string }[] }> => {
    const before = server.logs().split("\n").length;
    const result = await run();
    const lines = server.logs().split("\n").slice(before - 1).filter(Boolean).map((l) => JSON.parse(l) as { level: number; msg: string });
    return { result, lines };
  };

  const expectOneWarning = (lines: { level: number; msg: string }[]) => {
    const warnings = lines.filter((l) => l.msg === "admin API: bad input");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.level).toBe(40);
    expect(lines.some((l) => l.level >= 50)).toBe(false);
    expect(JSON.stringify(lines)).not.toMatch(/stack|node_modules|\/src\//);
  };

  it.each(ARGUMENT_CASES)("$label: BAD_USER_INPUT naming $path in details.issues, one warning", async (c) => {
    const before = await server.loupe.services.eventStore.headPosition();
    const { result, lines } = await logged(() => post(c));
    expect(result.errors).toHaveLength(1);
    const [error] = result.errors!;
    expect(error!.extensions?.code, error!.message).toBe("BAD_USER_INPUT");
    expect(error!.extensions?.details?.issues?.[0]?.path).toBe(c.path);
    expect(typeof error!.extensions?.details?.issues?.[0]?.message).toBe("string");
    expect(error!.message).toContain(c.path.replace(/^\$(\w+).*/, "$$$1").split(".")[0]);
    expect(documented.has("BAD_USER_INPUT")).toBe(true);
    expectOneWarning(lines);
    expect(await server.loupe.services.eventStore.headPosition()).toBe(before);
  });

  it.each(REQUEST_CASES)("$label: $code, documented in AdminErrorCode, one warning", async (c) => {
    const { result, lines } = await logged(() => post(c));
    expect(result.errors?.length).toBeGreaterThan(0);
    for (const error of result.errors!) {
      expect(error.extensions?.code).toBe(c.code);
      expect(documented.has(c.code)).toBe(true);
    }
    expectOneWarning(lines);
  });

  it("describes every code it lists", () => {
    for (const code of codes) expect((code.description ?? "").length, code.name).toBeGreaterThan(20);
  });

  it("lists no code it never answers with: a missing key is HTTP 401 before GraphQL", async () => {
    expect(documented.has("UNAUTHENTICATED")).toBe(false);
    const response = await server.api("/graphql", { method: "POST", key: null, json: { query: "{ viewer { keyId } }" } });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
  });

  it("HTTP and MCP name the field of a service's refusal too", async () => {
    const http = await server.api("/v2/custom-context", { method: "POST", json: { body: "x", scopes: { AND: 3 } } });
    expect(http.status).toBe(400);
    const body = (await http.json()) as { error: { code: string; details: { field: string; message: string }[] } };
    expect(body.error.code).toBe("invalid");
    expect(body.error.details).toEqual([{ field: "scopes", message: expect.stringContaining("scopes") }]);

    const client = new Client({ name: "loupe-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${server.adminKey}` } } }));
    try {
      const error = await client.callTool({ name: "search_custom_context", arguments: { query: "   " } }).then(
        () => null,
        (e: unknown) => e as Error & { code?: number; data?: { field?: string } },
      );
      expect(error?.code).toBe(-32602);
      expect(error?.data?.field).toBe("query");
    } finally {
      await client.close();
    }
  });
});
