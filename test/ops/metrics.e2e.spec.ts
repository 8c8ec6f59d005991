import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.ts";
import { createGitHostFixture, type GitHostFixture } from "../support/git-fixtures.ts";

/** GET /metrics (Prometheus text) exposes the named metrics after some requests and an indexing job. */
let server: TestServer;
let fixture: GitHostFixture;
const METRICS_TOKEN = "metrics-token-0123456789abcdef";

beforeAll(async () => {
  fixture = createGitHostFixture();
  const files: Record<string, string> = {};
  for (let i = 0; i < 30; i++) files[`src/f${i}.ts`] = `export const value${i} = ${i};\nexport function f${i}() { return value${i} * 2; }\n`;
  fixture.createRepo("acme/metered", files);
  server = await startTestServer({ env: { LOUPE_GITHUB_URL: fixture.baseUrl, LOUPE_METRICS_TOKEN: METRICS_TOKEN } });
});
afterAll(async () => {
  await server?.stop({ remove: true });
  fixture?.cleanup();
});

const scrape = async () => {
  const response = await fetch(`${server.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("text/plain");
  return response.text();
};
const value = (text: string, series: string) => {
  const line = text.split("\n").find((l) => l.startsWith(series + " "));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe("/metrics", () => {
  it("needs the bearer token when LOUPE_METRICS_TOKEN is set", async () => {
    expect((await fetch(`${server.baseUrl}/metrics`)).status).toBe(401);
    expect((await fetch(`${server.baseUrl}/metrics`, { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
    // An API key is not the metrics token.
    expect((await fetch(`${server.baseUrl}/metrics`, { headers: { authorization: `Bearer ${server.adminKey}` } })).status).toBe(401);
  });

  it("counts requests per route pattern, times appends, reports projection lag and indexing throughput", async () => {
    const issued = await (await server.api("/v2/keys", { method: "POST", json: { name: "metered" } })).json();
    await server.api(`/v2/keys/${issued.keyId}`, { method: "DELETE" });
    await server.api("/v2/me", { key: "lp_wrong_key_0000000000000000" });
    const submitted = await server.api("/v2/repositories", { method: "POST", json: { remote: "github", repository: "acme/metered" } });
    expect(submitted.status).toBe(202);
    const statusPath = new URL((await submitted.json()).statusEndpoint).pathname;
    for (let i = 0; i < 600; i++) {
      const s = await (await server.api(statusPath)).json();
      if (s.status === "completed" || s.status === "failed") break;
      await new Promise((r) => setTimeout(r, 50));
    }
    // The job leaves the running count just after its completion is recorded: the gauge is read once it has.
    let text = await scrape();
    for (let i = 0; i < 100 && value(text, 'loupe_queue_in_flight{source="indexer"}') !== 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
      text = await scrape();
    }

    expect(value(text, 'loupe_http_requests_total{method="POST",route="/v2/keys",status="201"}')).toBe(1);
    // The route pattern, never the raw path (no key ids, no repository ids in label values).
    expect(value(text, 'loupe_http_requests_total{method="DELETE",route="/v2/keys/:keyId",status="200"}')).toBe(1);
    expect(text).not.toContain(issued.keyId);
    expect(text).not.toContain("acme");
    expect(text).toMatch(/loupe_http_requests_total\{method="GET",route="\/v2\/repositories\/:repositoryId\{\.\+\}",status="200"\} \d+/);
    expect(value(text, 'loupe_http_requests_total{method="GET",route="/v2/*",status="401"}')).toBe(1);
    expect(value(text, 'loupe_http_request_duration_seconds_count{method="POST",route="/v2/keys"}')).toBe(1);

    expect(value(text, 'loupe_eventstore_append_duration_seconds_count{outcome="ok"}')).toBeGreaterThan(3);
    expect(value(text, 'loupe_events_appended_total{type="ApiKeyRevoked"}')).toBe(1);
    expect(value(text, 'loupe_projection_lag_events{projection="api-keys"}')).toBe(0);
    expect(text).toMatch(/loupe_projection_checkpoint\{projection="repositories"\} \d+/);
    expect(value(text, "loupe_indexing_files_total")).toBe(30);
    expect(value(text, "loupe_indexing_bytes_total")).toBeGreaterThan(30 * 40);
    expect(value(text, 'loupe_queue_depth{source="indexer"}')).toBe(0);
    expect(value(text, 'loupe_queue_in_flight{source="indexer"}')).toBe(0);
    expect(text).toContain("# TYPE loupe_worker_pool_utilisation gauge");
    expect(text).toContain("loupe_process_cpu_user_seconds_total");
  });
});
