/**
 * Global and costly operations of the admin API: rebuildProjection needs the bootstrap organisation,
 * is recorded with the caller's key as actor, runs at most once per request; and every request stays
 * within the operation limits (tokens, aliases, depth, cost) while GraphiQL's schema introspection
 * still runs. Over GraphQL and through the console's rebuild button.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getIntrospectionQuery } from "graphql";
import { startTestServer, type TestServer } from "../support/server.ts";
import { signedInConsole } from "../support/console-client.ts";
import { gql, gqlData } from "./support.ts";

let server: TestServer;
let tenant: string;
let operatorKeyId: string;

const generation = async (name: string) => (await gqlData(server, `query($n: String!) { projection(name: $n) { generation } }`, { n: name })).projection.generation as number;
const rebuildEvents = async (key?: string) =>
  (await gqlData(server, `{ events(first: 1000, filter: { types: ["ProjectionRebuildStarted", "ProjectionRebuildCompleted", "ProjectionRebuildFailed"] }) { edges { node { type actor data } } } }`, undefined, key)).events.edges.map(
    (e: { node: { type: string; actor: string; data: Record<string, unknown> } }) => e.node,
  );

beforeAll(async () => {
  server = await startTestServer();
  operatorKeyId = (await gqlData(server, "{ viewer { keyId } }")).viewer.keyId;
  tenant = (await gqlData(server, `mutation { createOrganisation(name: "Tenant") { admin { secret } } }`)).createOrganisation.admin.secret;
});
afterAll(() => server.stop({ remove: true }));

describe("rebuildProjection", () => {
  it("is refused to another organisation's admin (FORBIDDEN), and nothing runs or is recorded", async () => {
    const before = await generation("api-keys");
    const head = await server.loupe.services.eventStore.headPosition();
    const refused = await gql(server, `mutation { rebuildProjection(name: "api-keys") { generation } }`, undefined, tenant);
    expect(refused.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    expect(await generation("api-keys")).toBe(before);
    expect(await server.loupe.services.eventStore.headPosition()).toBe(head);
  });

  it("is recorded in the bootstrap organisation with the caller's key as actor", async () => {
    const before = await generation("api-keys");
    const rebuilt = await gqlData(server, `mutation { rebuildProjection(name: "api-keys") { generation state } }`);
    expect(rebuilt.rebuildProjection).toEqual({ generation: before + 1, state: "live" });
    const events = await rebuildEvents();
    expect(events.map((e: { type: string; actor: string }) => [e.type, e.actor])).toEqual([
      ["ProjectionRebuildStarted", operatorKeyId],
      ["ProjectionRebuildCompleted", operatorKeyId],
    ]);
    expect(events[1].data).toMatchObject({ projection: "api-keys", generation: before + 1 });
    expect(await rebuildEvents(tenant)).toEqual([]);
  });

  it("runs at most once per request: repeated aliases are refused before anything runs", async () => {
    const before = await generation("api-keys");
    const head = await server.loupe.services.eventStore.headPosition();
    for (const count of [2, 30]) {
      const fields = Array.from({ length: count }, (_, i) => `r${i}: rebuildProjection(name: "api-keys") { generation }`).join(" ");
      const result = await gql(server, `mutation { ${fields} }`);
      expect(result.data).toBeUndefined();
      expect(result.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
      expect(result.errors?.[0]?.message).toContain("rebuildProjection may be asked for once per request");
    }
    const viaFragments = await gql(server, `mutation { ...A ...B } fragment A on Mutation { a: rebuildProjection(name: "api-keys") { generation } } fragment B on Mutation { b: rebuildProjection(name: "organisations") { generation } }`);
    expect(viaFragments.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(await generation("api-keys")).toBe(before);
    expect(await server.loupe.services.eventStore.headPosition()).toBe(head);
  });

  it("the console's rebuild button: the bootstrap organisation's only, and recorded", async () => {
    const own = await signedInConsole(server.baseUrl, server.adminKey);
    expect(await (await own.request("/console/audit/projections")).text()).toContain('action="/console/audit/projections/rebuild"');
    const before = (await rebuildEvents()).length;
    expect((await own.request("/console/audit/projections/rebuild", { method: "POST", form: { _csrf: own.csrf, name: "organisations" } })).status).toBe(303);
    expect((await rebuildEvents()).length).toBe(before + 2);

    const other = await signedInConsole(server.baseUrl, tenant);
    const page = await (await other.request("/console/audit/projections")).text();
    expect(page).not.toContain('action="/console/audit/projections/rebuild"');
    expect(page).toContain("bootstrap organisation");
    const generationBefore = await generation("organisations");
    expect((await other.request("/console/audit/projections/rebuild", { method: "POST", form: { _csrf: other.csrf, name: "organisations" } })).status).toBe(403);
    expect(await generation("organisations")).toBe(generationBefore);
  });
});

describe("operation limits", () => {
  it("refuses too many aliases, too large a document, too deep a selection and too costly reads, naming the limit", async () => {
    const aliases = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: viewer { keyId }`).join(" ")} }`;
    expect((await gql(server, aliases(30))).errors).toBeUndefined();
    const tooMany = await gql(server, aliases(31));
    expect(tooMany.errors?.[0]).toMatchObject({ message: expect.stringContaining("31 aliases"), extensions: { code: "BAD_USER_INPUT" } });

    const huge = await gql(server, aliases(20_000));
    expect(huge.data).toBeUndefined();
    expect(huge.errors?.[0]?.message).toMatch(/5000 tokens/); // a syntax error, like any other the parser stops at

    let deep = "name";
    for (let i = 0; i < 25; i++) deep = `ofType { ${deep} }`;
    const tooDeep = await gql(server, `{ __type(name: "Query") { fields { type { ${deep} } } } }`);
    expect(tooDeep.errors?.[0]).toMatchObject({ message: expect.stringContaining("fields deep"), extensions: { code: "BAD_USER_INPUT" } });

    const asOf = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `m${i}: readModelAsOf(projection: "api-keys", asOf: { position: 1 }) { position }`).join(" ")} }`;
    expect((await gql(server, asOf(5))).errors).toBeUndefined();
    const costly = await gql(server, asOf(11));
    expect(costly.errors?.[0]).toMatchObject({ message: expect.stringContaining("costs"), extensions: { code: "BAD_USER_INPUT" } });
  });

  it("lets the GraphiQL console's schema introspection run", async () => {
    const query = getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true });
    const result = await gql(server, query);
    expect(result.errors).toBeUndefined();
    expect(result.data.__schema.queryType.name).toBe("Query");
  });
});
