import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.ts";

describe("API keys and organisations over HTTP", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop({ remove: true }));

  it("answers /healthz and /readyz without a key", async () => {
    expect((await server.api("/healthz", { key: null })).status).toBe(200);
    const ready = await server.api("/readyz", { key: null });
    expect(ready.status).toBe(200);
    expect((await ready.json()).status).toBe("ready");
  });

  it.each([
    ["no header", {}],
    ["not a bearer", { authorization: "Basic abc" }],
    ["unknown key", { authorization: "Bearer lp_not_a_real_key_at_all" }],
  ])("refuses %s with 401 and a JSON error body", async (_label, headers) => {
    const response = await server.api("/v2/keys", { key: null, headers });
    expect(response.status).toBe(401);
    expect(response.headers.get("content-type")).toMatch(/application\/json/);
    const body = await response.json();
    expect(body.error.code).toBe("unauthorized");
    expect(typeof body.error.message).toBe("string");
  });

  it("issues a key whose secret is shown once and which then authenticates", async () => {
    const issued = await server.api("/v2/keys", { method: "POST", json: { name: "ci bot", role: "member" } });
    expect(issued.status).toBe(201);
    const body = await issued.json();
    expect(body.key).toMatch(/^lp_/);
    expect(body).not.toHaveProperty("keyHash");
    const me = await server.api("/v2/me", { key: body.key });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ keyId: body.keyId, role: "member" });

    const listed = await (await server.api("/v2/keys")).json();
    const entry = listed.keys.find((k: { keyId: string }) => k.keyId === body.keyId);
    expect(entry).toMatchObject({ name: "ci bot", role: "member", revokedAt: null });
    expect(JSON.stringify(listed)).not.toContain(body.key);
  });

  it("lets only admins manage keys", async () => {
    const { key } = await (await server.api("/v2/keys", { method: "POST", json: { name: "member" } })).json();
    const attempt = await server.api("/v2/keys", { method: "POST", key, json: { name: "escalate", role: "admin" } });
    expect(attempt.status).toBe(403);
    expect((await attempt.json()).error.code).toBe("forbidden");
  });

  it("makes revocation take effect at once", async () => {
    const { key, keyId } = await (await server.api("/v2/keys", { method: "POST", json: { name: "temp" } })).json();
    expect((await server.api("/v2/me", { key })).status).toBe(200);
    const revoked = await server.api(`/v2/keys/${keyId}`, { method: "DELETE" });
    expect(revoked.status).toBe(200);
    expect((await revoked.json()).revokedAt).toBeTruthy();
    const after = await server.api("/v2/me", { key });
    expect(after.status).toBe(401);
    expect((await after.json()).error.code).toBe("unauthorized");
    expect((await server.api(`/v2/keys/01UNKNOWNKEY`, { method: "DELETE" })).status).toBe(404);
  });

  it("keeps one organisation from reading another's data", async () => {
    const created = await server.api("/v2/organisations", { method: "POST", json: { name: "other org" } });
    expect(created.status).toBe(201);
    const { organisation, adminKey } = await created.json();
    const otherKeys = await (await server.api("/v2/keys", { key: adminKey.key })).json();
    expect(otherKeys.keys.map((k: { keyId: string }) => k.keyId)).toEqual([adminKey.keyId]);
    expect(otherKeys.keys.every((k: { orgId: string }) => k.orgId === organisation.orgId)).toBe(true);

    const mine = await (await server.api("/v2/keys")).json();
    expect(mine.keys.some((k: { keyId: string }) => k.keyId === adminKey.keyId)).toBe(false);
    // Revoking another organisation's key is "not found", not a cross-org write.
    expect((await server.api(`/v2/keys/${adminKey.keyId}`, { method: "DELETE" })).status).toBe(404);
    expect((await server.api("/v2/me", { key: adminKey.key })).status).toBe(200);
  });

  it("rejects malformed JSON, invalid fields and oversized bodies with 4xx JSON", async () => {
    const malformed = await server.api("/v2/keys", { method: "POST", body: "{nope", headers: { "content-type": "application/json" } });
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).error.code).toBe("invalid_json");
    const invalid = await server.api("/v2/keys", { method: "POST", json: { name: "", role: "owner" } });
    expect(invalid.status).toBe(400);
    const body = await invalid.json();
    expect(body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(["name", "role"]);
    const huge = await server.api("/v2/keys", { method: "POST", json: { name: "x".repeat(2 * 1024 * 1024) } });
    expect(huge.status).toBe(413);
    expect((await huge.json()).error.code).toBe("payload_too_large");
    const before = (await (await server.api("/v2/keys")).json()).keys.length;
    expect(before).toBeGreaterThan(0);
    const unknownRoute = await server.api("/v2/nope");
    expect(unknownRoute.status).toBe(404);
    expect((await unknownRoute.json()).error.code).toBe("not_found");
  });

  it("keeps keys across a restart", async () => {
    const { key } = await (await server.api("/v2/keys", { method: "POST", json: { name: "durable" } })).json();
    await server.stop();
    server = await startTestServer({ dataDir: server.dataDir });
    expect((await server.api("/v2/me", { key })).status).toBe(200);
  });
});
