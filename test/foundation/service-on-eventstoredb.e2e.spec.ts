import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEsdbStandIn, type EsdbStandIn } from "../support/esdb-standin.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

/**
 * The whole service configured with LOUPE_EVENTSTORE_URL, talking gRPC to the in-process PROTOCOL
 * STAND-IN for EventStoreDB (it exercises the adapter's wire path; it is not EventStoreDB). With
 * LOUPE_TEST_ESDB_URL set, the same test runs against a real server.
 */
describe(`service on the EventStoreDB adapter (${process.env.LOUPE_TEST_ESDB_URL ? "real server" : "protocol stand-in"})`, () => {
  let standIn: EsdbStandIn | null = null;
  let server: TestServer;
  let url: string;

  beforeAll(async () => {
    if (process.env.LOUPE_TEST_ESDB_URL) url = process.env.LOUPE_TEST_ESDB_URL;
    else {
      standIn = await startEsdbStandIn();
      url = standIn.connectionString;
    }
    server = await startTestServer({ env: { LOUPE_EVENTSTORE_URL: url } });
  });
  afterAll(async () => {
    await server?.stop({ remove: true });
    await standIn?.stop();
  });

  it("records writes in EventStoreDB and reads them back through the projections, across a restart", async () => {
    const issued = await server.api("/v2/keys", { method: "POST", json: { name: "esdb key" } });
    expect(issued.status).toBe(201);
    const { key, keyId } = await issued.json();
    expect((await server.api("/v2/me", { key })).status).toBe(200);
    if (standIn) expect(standIn.recordCount()).toBeGreaterThanOrEqual(3);

    // A fresh data dir: read models must be rebuilt from the log held by EventStoreDB.
    await server.stop({ remove: true });
    server = await startTestServer({ env: { LOUPE_EVENTSTORE_URL: url } });
    expect((await server.api("/v2/me", { key })).status).toBe(200);
    const keys = (await (await server.api("/v2/keys")).json()).keys.map((k: { keyId: string }) => k.keyId);
    expect(keys).toContain(keyId);
  });
});
