import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Validator } from "@seriousme/openapi-schema-validator";
import { startTestServer, type TestServer } from "../support/server.ts";
import { servedRoutes } from "../../src/faces/http/openapi.ts";

/** The OpenAPI document is valid OpenAPI 3.1 and lists exactly the routes the app serves. */
let server: TestServer;
let doc: any;
beforeAll(async () => {
  server = await startTestServer();
  const response = await fetch(`${server.baseUrl}/v2/openapi.json`); // no key
  expect(response.status).toBe(200);
  doc = await response.json();
});
afterAll(() => server?.stop({ remove: true }));

const methods = ["get", "post", "put", "patch", "delete"];
const operations = () =>
  Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, ops]) =>
    Object.entries(ops)
      .filter(([m]) => methods.includes(m))
      .map(([method, op]) => ({ path, method, op })),
  );

describe("OpenAPI document", () => {
  it("validates as OpenAPI 3.1", async () => {
    expect(doc.openapi).toBe("3.1.0");
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("does not drift from the routes Hono serves (both directions)", () => {
    const served = servedRoutes(server.loupe.app);
    expect(served.length).toBeGreaterThan(10);
    const documented = new Set(operations().map(({ path, method }) => `${method.toUpperCase()} ${path}`));
    const undocumented = served.filter((route) => {
      if (!route.startsWith("ALL ")) return !documented.has(route);
      const path = route.slice(4);
      return !methods.some((m) => documented.has(`${m.toUpperCase()} ${path}`));
    });
    expect(undocumented, "served but missing from the OpenAPI document (declare them with describeRoute)").toEqual([]);
    const servedSet = new Set(served);
    const phantom = [...documented].filter((route) => !servedSet.has(route) && !servedSet.has(`ALL ${route.split(" ")[1]}`));
    expect(phantom, "documented but not served").toEqual([]);
  });

  it("gives every operation a summary, a 2xx response and its schemas", () => {
    for (const { path, method, op } of operations()) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(op.summary, where).toBeTruthy();
      const ok = Object.keys(op.responses).filter((s) => s.startsWith("2"));
      // GET /mcp only answers 405 (MCP's optional SSE stream is not offered).
      expect(ok.length || (op.responses["405"] ? 1 : 0), where).toBeGreaterThan(0);
      if (method === "post" && path.startsWith("/v2/")) {
        expect(op.requestBody?.content?.["application/json"]?.schema, `${where} request body schema`).toBeTruthy();
        const json = ok.map((s) => op.responses[s].content?.["application/json"]?.schema).filter(Boolean);
        expect(json.length, `${where} response schema`).toBeGreaterThan(0);
      }
      for (const param of (path.match(/\{[^}]+\}/g) ?? []).map((p) => p.slice(1, -1))) {
        expect(op.parameters?.some((p: any) => p.in === "path" && p.name === param), `${where} path parameter ${param}`).toBe(true);
      }
    }
  });

  it("derives the schemas from the routes' zod schemas", () => {
    const issue = doc.paths["/v2/keys"].post;
    const body = issue.requestBody.content["application/json"].schema;
    expect(body.required).toEqual(["name"]);
    expect(body.properties.role.enum).toEqual(["admin", "member"]);
    expect(issue.responses["201"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/IssuedApiKey" });
    expect(doc.components.schemas.IssuedApiKey.required).toContain("key");
    expect(issue.responses["401"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Error" });
    expect(issue.responses["403"]).toBeTruthy();
    expect(doc.paths["/v2/keys/{keyId}"].delete.parameters[0]).toMatchObject({ name: "keyId", in: "path", required: true });
    const local = doc.paths["/v2/repositories/local"].post.requestBody.content["application/json"].schema;
    expect(local.required).toEqual(["path"]);
    expect(doc.paths["/v2/openapi.json"].get.security).toEqual([]);
  });

  it("serves a self-contained HTML reference at /v2/docs without a key", async () => {
    const response = await fetch(`${server.baseUrl}/v2/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/html");
    const html = await response.text();
    for (const path of Object.keys(doc.paths)) expect(html).toContain(path.replace(/&/g, "&amp;"));
    expect(html).toContain("IssuedApiKey");
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=["']?https?:|@import/i);
    expect(html).not.toMatch(/(src|href)=["']https?:\/\//i);
  });
});
