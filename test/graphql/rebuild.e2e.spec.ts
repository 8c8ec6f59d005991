import { randomBytes } from "node:crypto";
import { ulid } from "ulid";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newEvent } from "../../src/eventstore/new-event.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { gql, gqlData } from "./support.ts";

describe("rebuilding a projection while readers query it", () => {
  let server: TestServer;
  let keyCount: number;

  beforeAll(async () => {
    server = await startTestServer();
    const { eventStore, runner } = server.loupe.services;
    const orgId = (await gqlData(server, "{ viewer { orgId } }")).viewer.orgId;
    // Enough events that a rebuild takes a while (several batches of the runner).
    for (let round = 0; round < 6; round++) {
      await Promise.all(
        Array.from({ length: 500 }, () => {
          const keyId = ulid();
          const data = { keyId, orgId, name: "bulk", role: "member", keyHash: randomBytes(32).toString("hex"), bootstrap: false };
          return eventStore.appendToStream(`apikey-${keyId}`, [newEvent("ApiKeyIssued", data, { orgId, actor: "test", correlationId: ulid() })]);
        }),
      );
    }
    await runner.waitForPosition(await eventStore.headPosition(), 30_000);
    keyCount = (await gqlData(server, "{ apiKeys { keyId } }")).apiKeys.length;
    expect(keyCount).toBe(3001);
  });
  afterAll(() => server.stop({ remove: true }));

  it("never shows a reader an error or an empty model, and switches to the new generation", async () => {
    const hash = server.loupe.services.readStore.contentHash("api-keys");
    const { projection: before } = await gqlData(server, `{ projection(name: "api-keys") { generation } }`);

    let rebuilding = true;
    const reads = { total: 0, duringRebuild: 0, problems: [] as string[] };
    const adminKeyId = (await gqlData(server, "{ viewer { keyId } }")).viewer.keyId;
    const check = async (query: string, ok: (data: any) => string | null) => {
      // The admin key itself is authenticated against the api-keys model on every request.
      const result = await gql(server, query);
      reads.total++;
      if (rebuilding) reads.duringRebuild++;
      if (result.status !== 200 || result.errors) reads.problems.push(`${result.status} ${JSON.stringify(result.errors)}`);
      else {
        const problem = ok(result.data);
        if (problem) reads.problems.push(problem);
      }
    };
    const fullReader = async () => {
      while (rebuilding) {
        await check(`{ readModel(projection: "api-keys") { entryCount(prefix: ["key"]) } }`, (d) =>
          d.readModel.entryCount === keyCount ? null : `saw ${d.readModel.entryCount} entries`,
        );
      }
    };
    const pointReader = async () => {
      while (rebuilding) {
        await check(`{ apiKey(keyId: "${adminKeyId}") { keyId active } }`, (d) => (d.apiKey?.active ? null : "admin key missing"));
      }
    };
    const readers = [fullReader(), pointReader(), pointReader()];
    // Two rebuild requests at once: one rebuilds; the other is told a rebuild is running and starts nothing.
    const started = performance.now();
    const [first, second] = await Promise.all([
      gql(server, `mutation { rebuildProjection(name: "api-keys") { name generation lag state error } }`),
      gql(server, `mutation { rebuildProjection(name: "api-keys") { name generation lag state error } }`),
    ]);
    const ms = performance.now() - started;
    rebuilding = false;
    await Promise.all(readers);
    console.log(`a rebuild of api-keys (${keyCount} keys, ${await server.loupe.services.eventStore.headPosition()} events): ${ms.toFixed(0)} ms; ${reads.duringRebuild} reads during it`);

    const [done, refused] = first.errors ? [second, first] : [first, second];
    expect(done.errors).toBeUndefined();
    expect(done.data.rebuildProjection).toMatchObject({ generation: before.generation + 1, error: null });
    expect(refused.errors?.[0]?.extensions?.code).toBe("CONFLICT");
    expect(refused.errors?.[0]?.message).toContain("A rebuild of api-keys is already running");
    expect(reads.problems).toEqual([]);
    expect(reads.duringRebuild).toBeGreaterThan(0);
    expect(server.loupe.services.readStore.contentHash("api-keys")).toBe(hash);
    const { projection } = await gqlData(server, `{ projection(name: "api-keys") { generation state } }`);
    expect(projection.generation).toBe(before.generation + 1);

    const alone = performance.now();
    await gqlData(server, `mutation { rebuildProjection(name: "api-keys") { generation } }`);
    console.log(`one rebuild of api-keys with no readers: ${(performance.now() - alone).toFixed(0)} ms`);
  });
});
