/**
 * Idempotent commands sent concurrently: revoking a key twice is a no-op (the GraphQL schema says so),
 * and so is setting a custom context's status to the one it has. Whichever request wins the write, every
 * answer shows the state after it (never the record as it was before), and none fails with a conflict.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.ts";
import { gql, gqlData } from "../graphql/support.ts";

const PARALLEL = 5;
const ROUNDS = 4;

describe("concurrent idempotent commands", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop({ remove: true }));

  const issueKey = async (name: string): Promise<string> => {
    const response = await server.api("/v2/keys", { method: "POST", json: { name } });
    expect(response.status).toBe(201);
    return ((await response.json()) as { keyId: string }).keyId;
  };

  it("HTTP: every one of five parallel DELETE /v2/keys/:id answers 200 with the key revoked", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const keyId = await issueKey(`http-${round}`);
      const answers = await Promise.all(
        Array.from({ length: PARALLEL }, async () => {
          const response = await server.api(`/v2/keys/${keyId}`, { method: "DELETE" });
          return { status: response.status, body: (await response.json()) as { keyId: string; revokedAt: string | null } };
        }),
      );
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        expect(answer.body.keyId).toBe(keyId);
        expect(answer.body.revokedAt).toBeTruthy();
      }
      // One revocation was recorded, whoever won.
      const { entityHistory } = await gqlData(server, `query($id: String!) { entityHistory(entityId: $id) { events { type } } }`, { id: keyId });
      expect(entityHistory.events.map((e: { type: string }) => e.type)).toEqual(["ApiKeyIssued", "ApiKeyRevoked"]);
    }
  });

  it("GraphQL: every one of five parallel revokeApiKey mutations answers active false with revokedAt", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const keyId = await issueKey(`graphql-${round}`);
      const answers = await Promise.all(
        Array.from({ length: PARALLEL }, () => gql(server, `mutation($id: ID!) { revokeApiKey(keyId: $id) { keyId active revokedAt } }`, { id: keyId })),
      );
      for (const answer of answers) {
        expect(answer.errors).toBeUndefined();
        expect(answer.data.revokeApiKey).toMatchObject({ keyId, active: false });
        expect(answer.data.revokeApiKey.revokedAt).toBeTruthy();
      }
    }
  });

  it("HTTP: every one of five parallel status changes of a custom context answers the new status", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const created = await server.api("/v2/custom-context", { method: "POST", json: { body: `Prefer early returns (${round})` } });
      expect(created.status).toBe(201);
      const { customContext } = (await created.json()) as { customContext: { id: string; status: string } };
      expect(customContext.status).toBe("ACTIVE");
      const answers = await Promise.all(
        Array.from({ length: PARALLEL }, async () => {
          const response = await server.api(`/v2/custom-context/${customContext.id}/status`, { method: "POST", json: { status: "INACTIVE" } });
          return { status: response.status, body: (await response.json()) as { customContext: { status: string } } };
        }),
      );
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        expect(answer.body.customContext.status).toBe("INACTIVE");
      }
    }
  });
});
