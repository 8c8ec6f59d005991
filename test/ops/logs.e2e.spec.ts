import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.ts";
import { createGitHostFixture, type GitHostFixture } from "../support/git-fixtures.ts";

/**
 * Structured logs at trace level: every line of a request carries its request id (also lines written
 * by services, and the correlation id of the events it appended), and no secret ever appears.
 */
let server: TestServer;
let fixture: GitHostFixture;
const BOOTSTRAP = "lp_logs_bootstrap_" + "K3y".repeat(8);
const HOST_TOKENS = ["ghp_hostTokenForLogsTest0123456789", "glpat-otherHostToken987654321", "x-host-token-value-ABCDEFGHIJ"];
const METRICS_TOKEN = "metrics-secret-token-0123456789";
const secrets = [BOOTSTRAP, ...HOST_TOKENS, METRICS_TOKEN];

beforeAll(async () => {
  fixture = createGitHostFixture();
  fixture.createRepo("acme/logged", { "src/a.ts": "export const a = 1;\n", "src/b.ts": "export function b() { return 2; }\n" });
  server = await startTestServer({
    env: { LOUPE_API_KEY: BOOTSTRAP, LOUPE_LOG_LEVEL: "trace", LOUPE_GITHUB_URL: fixture.baseUrl, LOUPE_METRICS_TOKEN: METRICS_TOKEN },
  });
});
afterAll(async () => {
  await server?.stop({ remove: true });
  fixture?.cleanup();
});

type Line = Record<string, unknown> & { msg?: string; requestId?: string };
const lines = (): Line[] =>
  server
    .logs()
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Line);

describe("logs", () => {
  it("carry the request id on every line of a request, and the correlation id of appended events", async () => {
    const requestId = "trace-req-issue-0001";
    const issued = await server.api("/v2/keys", { method: "POST", json: { name: "logged key" }, headers: { "x-request-id": requestId } });
    expect(issued.status).toBe(201);
    expect(issued.headers.get("x-request-id")).toBe(requestId);
    secrets.push((await issued.json()).key);

    const mine = lines().filter((l) => l.requestId === requestId);
    const appended = mine.filter((l) => l.msg === "events appended");
    expect(appended.length).toBeGreaterThan(0);
    for (const line of appended) expect(line.correlationId).toBe(requestId);
    expect(appended.flatMap((l) => l.eventTypes as string[])).toContain("ApiKeyIssued");
    expect(mine.find((l) => l.msg === "request")).toMatchObject({ method: "POST", route: "/v2/keys", status: 201, keyId: expect.any(String) });
    // Fields of one line never leak into the next line of the same request.
    expect(mine.find((l) => l.msg === "request")).not.toHaveProperty("eventTypes");
    expect(mine.find((l) => l.msg === "request")).not.toHaveProperty("correlationId");
    // Every events-appended line caused by an API key names a request id equal to its correlation id.
    for (const line of lines().filter((l) => l.msg === "events appended" && l.requestId)) expect(line.correlationId).toBe(line.requestId);
  });

  it("lines written by services during a request (the indexer's) carry the request id too", async () => {
    const requestId = "trace-req-index-0002";
    const submitted = await server.api("/v2/repositories", {
      method: "POST",
      json: { remote: "github", repository: "acme/logged" },
      headers: { "x-request-id": requestId, "x-github-token": HOST_TOKENS[0]!, "x-host-token": HOST_TOKENS[2]! },
    });
    expect(submitted.status).toBe(202);
    expect(submitted.headers.get("x-request-id")).toBe(requestId);
    // Every response carries it: errors, and responses the route built itself (GraphQL, metrics).
    const missing = await server.api("/v2/repositories/github%3Amain%3Anobody%2Fnothing", { headers: { "x-request-id": "trace-req-404" } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get("x-request-id")).toBe("trace-req-404");
    const graphql = await server.api("/graphql", { method: "POST", json: { query: "{ __typename }" }, headers: { "x-request-id": "trace-req-gql" } });
    expect(graphql.headers.get("x-request-id")).toBe("trace-req-gql");
    const path = new URL((await submitted.json()).statusEndpoint).pathname;
    for (let i = 0; i < 400; i++) {
      const s = await (await server.api(path, { headers: { "x-gitlab-token": HOST_TOKENS[1]! } })).json();
      if (s.status === "completed" || s.status === "failed") break;
      await new Promise((r) => setTimeout(r, 50));
    }
    // The server writes its lines on its own stdout: the indexer's last ones may reach this process a
    // moment after the status says completed, so they are awaited (a few seconds at most).
    const byIndexer = (l: Line) => l.requestId === requestId && l.msg !== "request" && l.msg !== "events appended";
    for (let i = 0; i < 100 && !lines().some(byIndexer); i++) await new Promise((r) => setTimeout(r, 50));
    const mine = lines().filter((l) => l.requestId === requestId);
    expect(mine.some((l) => l.msg === "events appended" && (l.eventTypes as string[]).includes("RepositorySubmitted"))).toBe(true);
    // Written by the indexer service, not by the HTTP layer: it got no logger from the request.
    expect(mine.some(byIndexer)).toBe(true);
  });

  it("never contain keys, host tokens or the metrics token (trace level, every face)", async () => {
    await fetch(`${server.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    await fetch(`${server.baseUrl}/metrics`, { headers: { authorization: `Bearer ${HOST_TOKENS[2]}` } });
    await server.api("/v2/me", { key: "lp_unknown_key_never_logged_0000" });
    secrets.push("lp_unknown_key_never_logged_0000");
    await fetch(`${server.baseUrl}/mcp`, {
      method: "POST",
      headers: { authorization: `Bearer ${BOOTSTRAP}`, "content-type": "application/json", "x-github-token": HOST_TOKENS[0]! },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "list_code_reviews", arguments: {} } }),
    });
    await server.api("/v2/search", {
      method: "POST",
      json: { query: "what is b", repositories: [{ remote: "github", branch: "main", repository: "acme/logged" }] },
      headers: { "x-host-token": HOST_TOKENS[2]! },
    });
    const text = server.logs();
    expect(text.length).toBeGreaterThan(1000);
    for (const secret of secrets) expect(text.includes(secret), `${secret.slice(0, 8)}… in the logs`).toBe(false);
    expect(lines().every((l) => typeof l.level === "number" && typeof l.time === "string")).toBe(true);
  });
});
