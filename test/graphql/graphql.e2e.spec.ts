import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.ts";
import { gql, gqlData } from "./support.ts";

const sha256 = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");

const ISSUE = `mutation Issue($name: String!, $role: ApiKeyRole) {
  issueApiKey(name: $name, role: $role) { secret apiKey { keyId orgId name role active revokedAt createdBy bootstrap createdAt } }
}`;

describe("admin GraphQL API over HTTP", () => {
  let server: TestServer;
  let member: { secret: string; keyId: string };
  let adminKeyId: string;
  let orgId: string;

  beforeAll(async () => {
    server = await startTestServer();
    const me = await gqlData(server, `{ viewer { keyId orgId role organisation { orgId name createdAt } } }`);
    adminKeyId = me.viewer.keyId;
    orgId = me.viewer.orgId;
    const issued = await gqlData(server, ISSUE, { name: "member bot", role: "member" });
    member = { secret: issued.issueApiKey.secret, keyId: issued.issueApiKey.apiKey.keyId };
  });
  afterAll(() => server.stop({ remove: true }));

  describe("who may use it", () => {
    it("answers 401 JSON like /v2 without a key or with an unknown key", async () => {
      for (const headers of [{}, { authorization: "Bearer lp_unknown_key_0000000000" }, { authorization: "Basic x" }] as Record<string, string>[]) {
        const response = await server.api("/graphql", { method: "POST", key: null, headers, json: { query: "{ viewer { keyId } }" } });
        expect(response.status).toBe(401);
        expect(response.headers.get("content-type")).toMatch(/application\/json/);
        expect((await response.json()).error.code).toBe("unauthorized");
      }
      const get = await server.api("/graphql?query=%7Bviewer%7BkeyId%7D%7D", { key: null });
      expect(get.status).toBe(401);
    });

    it("gives a member key a FORBIDDEN GraphQL error and no data, for queries, mutations and introspection", async () => {
      for (const query of [
        "{ viewer { keyId } apiKeys { keyId } }",
        `mutation { issueApiKey(name: "escalate", role: admin) { secret } }`,
        "{ __schema { queryType { name } } }",
      ]) {
        const result = await gql(server, query, undefined, member.secret);
        expect(result.status).toBe(200);
        expect(result.data ?? null).toBeNull();
        expect(result.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
      }
      const keys = await gqlData(server, "{ apiKeys { name } }");
      expect(keys.apiKeys.map((k: { name: string }) => k.name)).not.toContain("escalate");
    });

    it("serves the GraphiQL console to a browser without a key, and nothing else", async () => {
      const page = await server.api("/graphql", { key: null, headers: { accept: "text/html,application/xhtml+xml" } });
      expect(page.status).toBe(200);
      expect(page.headers.get("content-type")).toMatch(/text\/html/);
      const html = await page.text();
      expect(html).toContain("Loupe admin console");
      expect(html.toLowerCase()).toContain("graphiql");
      // A query smuggled into the console URL is not executed.
      const smuggled = await server.api("/graphql?query=%7BapiKeys%7BkeyId%7D%7D", { key: null, headers: { accept: "text/html" } });
      expect(await smuggled.text()).not.toContain(adminKeyId);
    });

    it("refuses a revoked key with 401", async () => {
      const temp = await gqlData(server, ISSUE, { name: "temp admin", role: "admin" });
      expect((await gql(server, "{ viewer { role } }", undefined, temp.issueApiKey.secret)).data.viewer.role).toBe("admin");
      await gqlData(server, `mutation($id: ID!) { revokeApiKey(keyId: $id) { keyId } }`, { id: temp.issueApiKey.apiKey.keyId });
      expect((await gql(server, "{ viewer { role } }", undefined, temp.issueApiKey.secret)).status).toBe(401);
    });
  });

  describe("organisations and keys", () => {
    it("lists the caller's organisation and keys, never a secret or a hash", async () => {
      const data = await gqlData(
        server,
        `{ organisations { orgId name createdAt }
           apiKeys { keyId orgId name role bootstrap createdAt createdBy revokedAt active }
           apiKey(keyId: "${member.keyId}") { keyId name role active } }`,
      );
      expect(data.organisations).toEqual([expect.objectContaining({ orgId, name: "default" })]);
      expect(data.apiKeys.find((k: { keyId: string }) => k.keyId === adminKeyId)).toMatchObject({ bootstrap: true, role: "admin" });
      expect(data.apiKey).toEqual({ keyId: member.keyId, name: "member bot", role: "member", active: true });
      const text = JSON.stringify(data);
      expect(text).not.toContain(member.secret);
      expect(text).not.toContain(sha256(member.secret));
      expect(text).not.toContain(sha256(server.adminKey));
    });

    it("issues a key whose secret is shown once and authenticates, and revokes it", async () => {
      const issued = (await gqlData(server, ISSUE, { name: "ci" })).issueApiKey;
      expect(issued.secret).toMatch(/^lp_/);
      expect(issued.apiKey).toMatchObject({ name: "ci", role: "member", active: true, revokedAt: null, createdBy: adminKeyId, orgId });
      expect((await server.api("/v2/me", { key: issued.secret })).status).toBe(200);

      const revoked = await gqlData(
        server,
        `mutation($id: ID!, $reason: String) { revokeApiKey(keyId: $id, reason: $reason) { keyId active revokedAt } }`,
        { id: issued.apiKey.keyId, reason: "rotated" },
      );
      expect(revoked.revokeApiKey.active).toBe(false);
      expect(revoked.revokeApiKey.revokedAt).toBeTruthy();
      expect((await server.api("/v2/me", { key: issued.secret })).status).toBe(401);
    });

    it("answers typed errors: validation (BAD_USER_INPUT) and refused commands (NOT_FOUND)", async () => {
      const empty = await gql(server, ISSUE, { name: "   " });
      expect(empty.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
      expect(empty.errors?.[0]?.extensions?.details?.issues?.[0]?.path).toBe("name");
      const long = await gql(server, `mutation { revokeApiKey(keyId: "x", reason: "${"r".repeat(501)}") { keyId } }`);
      expect(long.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
      const missing = await gql(server, `mutation { revokeApiKey(keyId: "01NOSUCHKEY") { keyId } }`);
      expect(missing.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
      const badRole = await gql(server, `mutation { issueApiKey(name: "x", role: owner) { secret } }`);
      expect(badRole.errors?.length).toBeGreaterThan(0);
    });

    it("creates an organisation whose admin sees only its own organisation", async () => {
      const created = (
        await gqlData(
          server,
          `mutation { createOrganisation(name: "Acme") {
             organisation { orgId name }
             admin { secret apiKey { keyId orgId role name } } } }`,
        )
      ).createOrganisation;
      expect(created.organisation.name).toBe("Acme");
      expect(created.admin.apiKey).toMatchObject({ orgId: created.organisation.orgId, role: "admin", name: "Acme admin" });
      const acme = created.admin.secret;

      const theirs = await gqlData(
        server,
        `{ viewer { orgId } organisations { name } apiKeys { keyId }
           events(first: 1000) { edges { node { orgId type } } } }`,
        undefined,
        acme,
      );
      expect(theirs.viewer.orgId).toBe(created.organisation.orgId);
      expect(theirs.organisations.map((o: { name: string }) => o.name)).toEqual(["Acme"]);
      expect(theirs.apiKeys.map((k: { keyId: string }) => k.keyId)).toEqual([created.admin.apiKey.keyId]);
      const types = theirs.events.edges.map((e: { node: { orgId: string; type: string } }) => e.node);
      expect(types.every((n: { orgId: string }) => n.orgId === created.organisation.orgId)).toBe(true);
      expect(types.map((n: { type: string }) => n.type)).toEqual(["OrganisationCreated", "ApiKeyIssued"]);

      // Cross-org: not visible, not revocable, not readable by position.
      const mine = await gqlData(server, `{ apiKeys { keyId } organisations { orgId } }`);
      expect(mine.apiKeys.map((k: { keyId: string }) => k.keyId)).not.toContain(created.admin.apiKey.keyId);
      expect(mine.organisations.map((o: { orgId: string }) => o.orgId)).toEqual([orgId]);
      const cross = await gql(server, `mutation($id: ID!) { revokeApiKey(keyId: $id) { keyId } }`, { id: created.admin.apiKey.keyId });
      expect(cross.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
      const head = await server.loupe.services.eventStore.headPosition();
      expect((await gqlData(server, `query($p: Position!) { event(position: $p) { type } }`, { p: head })).event).toBeNull();
      expect((await gqlData(server, `query($p: Position!) { event(position: $p) { type orgId } }`, { p: head }, acme)).event).toMatchObject({
        type: "ApiKeyIssued",
        orgId: created.organisation.orgId,
      });
    });
  });

  describe("projections", () => {
    it("reports every projection's status", async () => {
      const { projections, projection } = await gqlData(
        server,
        `{ projections { name version generation checkpoint head lag state error }
           projection(name: "api-keys") { name state } }`,
      );
      const names = projections.map((p: { name: string }) => p.name);
      expect(names).toEqual(server.loupe.services.runner.projections().map((p) => p.name));
      for (const p of projections) {
        expect(p.lag).toBe(p.head - p.checkpoint);
        expect(["live", "catching_up"]).toContain(p.state);
        expect(p.error).toBeNull();
      }
      expect(projection).toEqual({ name: "api-keys", state: expect.any(String) });
    });

    it("rebuilds a projection into a new generation with the same content", async () => {
      const before = await gqlData(server, `{ projection(name: "organisations") { generation } }`);
      const hash = server.loupe.services.readStore.contentHash("organisations");
      const rebuilt = await gqlData(server, `mutation { rebuildProjection(name: "organisations") { name generation lag state } }`);
      expect(rebuilt.rebuildProjection.generation).toBe(before.projection.generation + 1);
      expect(server.loupe.services.readStore.contentHash("organisations")).toBe(hash);
      const unknown = await gql(server, `mutation { rebuildProjection(name: "nope") { name } }`);
      expect(unknown.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    });
  });

  describe("event browser", () => {
    const EVENTS = `query($filter: EventFilter, $first: Int, $after: String, $last: Int, $before: String) {
      events(filter: $filter, first: $first, after: $after, last: $last, before: $before) {
        edges { cursor node { id type schemaVersion time streamName streamVersion position orgId actor correlationId causationId data } }
        pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`;

    it("shows every field, with key hashes redacted", async () => {
      const { events } = await gqlData(server, EVENTS, { first: 3 });
      const [created, bootstrap] = events.edges.map((e: { node: any }) => e.node);
      expect(created).toMatchObject({ type: "OrganisationCreated", schemaVersion: 1, position: 1, streamVersion: 0, actor: "system", orgId });
      expect(created.streamName).toBe(`organisation-${orgId}`);
      expect(created.data).toEqual({ orgId, name: "default" });
      expect(bootstrap.type).toBe("ApiKeyIssued");
      expect(bootstrap.data.keyHash).toBe("[redacted]");
      expect(JSON.stringify(events)).not.toContain(sha256(server.adminKey));
      expect(events.edges[0].cursor).toBe(String(created.position));
      expect(events.pageInfo).toMatchObject({ hasNextPage: true, startCursor: "1" });
    });

    it("filters by stream, type, actor, correlation id and time", async () => {
      const issued = (await gqlData(server, ISSUE, { name: "filter me" })).issueApiKey.apiKey;
      await gqlData(server, `mutation($id: ID!) { revokeApiKey(keyId: $id) { keyId } }`, { id: issued.keyId });
      const stream = `apikey-${issued.keyId}`;
      const byStream = (await gqlData(server, EVENTS, { filter: { stream } })).events.edges.map((e: any) => e.node);
      expect(byStream.map((n: any) => n.type)).toEqual(["ApiKeyIssued", "ApiKeyRevoked"]);
      expect(byStream.map((n: any) => n.streamVersion)).toEqual([0, 1]);
      expect(byStream.every((n: any) => n.actor === adminKeyId)).toBe(true);
      // Backward over one stream, one at a time.
      const lastOne = (await gqlData(server, EVENTS, { filter: { stream }, last: 1 })).events;
      expect(lastOne.edges.map((e: any) => e.node.type)).toEqual(["ApiKeyRevoked"]);
      expect(lastOne.pageInfo.hasPreviousPage).toBe(true);
      const firstOne = (await gqlData(server, EVENTS, { filter: { stream }, last: 1, before: lastOne.pageInfo.startCursor })).events;
      expect(firstOne.edges.map((e: any) => e.node.type)).toEqual(["ApiKeyIssued"]);
      expect(firstOne.pageInfo.hasPreviousPage).toBe(false);

      const correlationId = byStream[1].correlationId;
      const byCorrelation = (await gqlData(server, EVENTS, { filter: { correlationId } })).events.edges;
      expect(byCorrelation.map((e: any) => e.node.position)).toEqual([byStream[1].position]);

      const revocations = (await gqlData(server, EVENTS, { filter: { types: ["ApiKeyRevoked"], actor: adminKeyId }, first: 1000 })).events.edges;
      expect(revocations.length).toBeGreaterThanOrEqual(2);
      expect(revocations.every((e: any) => e.node.type === "ApiKeyRevoked" && e.node.actor === adminKeyId)).toBe(true);
      expect((await gqlData(server, EVENTS, { filter: { actor: "nobody" } })).events.edges).toEqual([]);

      const t = byStream[1].time;
      const since = (await gqlData(server, EVENTS, { filter: { since: t, stream } })).events.edges;
      expect(since.map((e: any) => e.node.type)).toContain("ApiKeyRevoked");
      expect(since.every((e: any) => e.node.time >= t)).toBe(true);
      const until = (await gqlData(server, EVENTS, { filter: { until: "2000-01-01T00:00:00Z" } })).events.edges;
      expect(until).toEqual([]);
    });

    it("validates paging arguments", async () => {
      for (const variables of [{ first: 2, last: 2 }, { first: -1 }, { first: 100_000 }, { after: "abc" }]) {
        const result = await gql(server, EVENTS, variables);
        expect(result.errors?.[0]?.extensions?.code, JSON.stringify(variables)).toBe("BAD_USER_INPUT");
      }
      const badTime = await gql(server, EVENTS, { filter: { since: "yesterday" } });
      expect(badTime.errors?.length).toBeGreaterThan(0);
    });
  });

  describe("audit", () => {
    it("reads an entity's history and a read model now and as of a position", async () => {
      const issued = (await gqlData(server, ISSUE, { name: "audited" })).issueApiKey.apiKey;
      const { entityHistory } = await gqlData(
        server,
        `query($id: String!) { entityHistory(entityId: $id) { entityId streams truncated events { type actor time position data } } }`,
        { id: issued.keyId },
      );
      expect(entityHistory).toMatchObject({ entityId: issued.keyId, streams: [`apikey-${issued.keyId}`], truncated: false });
      expect(entityHistory.events.map((e: any) => [e.type, e.actor])).toEqual([["ApiKeyIssued", adminKeyId]]);
      const position = entityHistory.events[0].position;

      const SNAPSHOT = `{ projection version live position time eventsApplied entryCount
        entries(first: 1000) { key value } apiKeys { keyId name active } organisations { name } }`;
      const { now, before, at } = await gqlData(
        server,
        `query($before: Position!, $at: Position!) {
           now: readModel(projection: "api-keys") ${SNAPSHOT}
           before: readModelAsOf(projection: "api-keys", asOf: { position: $before }) ${SNAPSHOT}
           at: readModelAsOf(projection: "api-keys", asOf: { position: $at }) ${SNAPSHOT} }`,
        { before: position - 1, at: position },
      );
      expect(now.live).toBe(true);
      expect(now.organisations).toBeNull();
      expect(now.apiKeys.map((k: any) => k.keyId)).toContain(issued.keyId);
      expect(before).toMatchObject({ live: false, position: position - 1, eventsApplied: position - 1 });
      expect(before.apiKeys.map((k: any) => k.keyId)).not.toContain(issued.keyId);
      expect(at.apiKeys.map((k: any) => k.keyId)).toContain(issued.keyId);
      expect(at.entryCount).toBe(at.entries.length);
      for (const snapshot of [now, before, at]) {
        const text = JSON.stringify(snapshot);
        expect(text).not.toContain(sha256(server.adminKey));
        expect(snapshot.entries.some((e: any) => e.key[0] === "byHash")).toBe(false);
        expect(snapshot.entries.every((e: any) => e.value.orgId === orgId && e.value.keyHash === "[redacted]")).toBe(true);
      }
      const both = await gql(server, `{ readModelAsOf(projection: "api-keys", asOf: { position: 1, time: "2020-01-01T00:00:00Z" }) { position } }`);
      expect(both.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
      const unknown = await gql(server, `{ readModelAsOf(projection: "nope", asOf: { position: 1 }) { position } }`);
      expect(unknown.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    });
  });
});

describe("admin GraphQL API with LOUPE_GRAPHIQL=false", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { LOUPE_GRAPHIQL: "false" } });
  });
  afterAll(() => server.stop({ remove: true }));

  it("does not serve the console, and still answers admin queries", async () => {
    const page = await server.api("/graphql", { key: null, headers: { accept: "text/html" } });
    expect(page.status).toBe(401);
    expect((await gqlData(server, "{ viewer { role } }")).viewer.role).toBe("admin");
  });
});
