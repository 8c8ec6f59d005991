/**
 * Creating an organisation is audited where the creator looks: an OrganisationProvisioned event in the
 * creator's organisation (its key as actor, the new organisation's id and name, never its key), found
 * by `events`, by `entityHistory(<new org id>)` and on the console's event log, and the creator lists
 * the organisations it created. The new organisation's own records name the neutral actor `operator`,
 * never the creator's key id. Through GraphQL createOrganisation and POST /v2/organisations.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.ts";
import { signedInConsole } from "../support/console-client.ts";
import { gqlData } from "./support.ts";

type EventNode = { position: number; type: string; actor: string; orgId: string; streamName: string; data: Record<string, unknown> };
const EVENTS = `{ events(first: 1000) { edges { node { position type actor orgId streamName data } } } }`;
const HISTORY = `query($id: String!) { entityHistory(entityId: $id) { events { position type actor orgId streamName data } } }`;
const nodes = (data: { events: { edges: { node: EventNode }[] } }) => data.events.edges.map((e) => e.node);

let server: TestServer;
let creator: { keyId: string; orgId: string };

beforeAll(async () => {
  server = await startTestServer();
  creator = (await gqlData(server, "{ viewer { keyId orgId } }")).viewer;
});
afterAll(() => server.stop({ remove: true }));

describe("creating an organisation", () => {
  it("GraphQL: recorded in the creator's organisation, listed there, and the new organisation's records do not name the creator's key", async () => {
    const created = (
      await gqlData(server, `mutation { createOrganisation(name: "OrgB") { organisation { orgId name } admin { secret apiKey { keyId } } } }`)
    ).createOrganisation;
    const orgB = created.organisation.orgId as string;
    const bKeyId = created.admin.apiKey.keyId as string;

    const mine = nodes(await gqlData(server, EVENTS)).filter((e) => e.type === "OrganisationProvisioned");
    expect(mine).toEqual([
      expect.objectContaining({ actor: creator.keyId, orgId: creator.orgId, streamName: `organisation-${creator.orgId}`, data: { provisionedOrgId: orgB, name: "OrgB" } }),
    ]);
    const history = (await gqlData(server, HISTORY, { id: orgB })).entityHistory.events as EventNode[];
    expect(history.map((e) => [e.type, e.actor])).toEqual([["OrganisationProvisioned", creator.keyId]]);
    expect(JSON.stringify(await gqlData(server, EVENTS))).not.toContain(bKeyId);
    expect((await gqlData(server, "{ provisionedOrganisations { orgId name } }")).provisionedOrganisations).toEqual([{ orgId: orgB, name: "OrgB" }]);

    // OrgB's own view: its creation and its admin key by the neutral actor, nothing naming the creator's key.
    const theirs = nodes(await gqlData(server, EVENTS, undefined, created.admin.secret));
    expect(theirs.map((e) => [e.type, e.actor])).toEqual([
      ["OrganisationCreated", "operator"],
      ["ApiKeyIssued", "operator"],
    ]);
    const theirHistory = await gqlData(server, HISTORY, { id: orgB }, created.admin.secret);
    const theirKeys = await gqlData(server, `{ apiKeys { keyId createdBy } readModel(projection: "organisations") { entries(first: 1000) { key value } } }`, undefined, created.admin.secret);
    expect(theirKeys.apiKeys).toEqual([{ keyId: bKeyId, createdBy: "operator" }]);
    for (const view of [theirs, theirHistory, theirKeys]) expect(JSON.stringify(view)).not.toContain(creator.keyId);
    expect((await gqlData(server, "{ provisionedOrganisations { orgId } }", undefined, created.admin.secret)).provisionedOrganisations).toEqual([]);
  });

  it("POST /v2/organisations: the same, and the console's event log shows the creation", async () => {
    const res = await server.api("/v2/organisations", { method: "POST", json: { name: "OrgC" } });
    expect(res.status).toBe(201);
    const { organisation, adminKey } = await res.json();
    expect(adminKey.createdBy).toBe("operator");
    const history = (await gqlData(server, HISTORY, { id: organisation.orgId })).entityHistory.events as EventNode[];
    expect(history.map((e) => [e.type, e.actor, e.data.name])).toEqual([["OrganisationProvisioned", creator.keyId, "OrgC"]]);
    const listed = (await gqlData(server, "{ provisionedOrganisations { name } }")).provisionedOrganisations.map((o: { name: string }) => o.name);
    expect(listed).toEqual(["OrgB", "OrgC"]);
    const keys = await (await server.api("/v2/keys", { key: adminKey.key })).json();
    expect(JSON.stringify(keys)).not.toContain(creator.keyId);

    const console = await signedInConsole(server.baseUrl, server.adminKey);
    const page = await (await console.request("/console/audit/events")).text();
    expect(page).toContain('data-event-type="OrganisationProvisioned"');
    expect(page).toContain(organisation.orgId);
  });

  it("another organisation's admin still may not create one, and nothing is recorded", async () => {
    const { secret } = (await gqlData(server, `mutation { createOrganisation(name: "OrgD") { admin { secret } } }`)).createOrganisation.admin;
    const head = await server.loupe.services.eventStore.headPosition();
    const refused = await server.api("/v2/organisations", { method: "POST", key: secret, json: { name: "Nested" } });
    expect(refused.status).toBe(403);
    expect(await server.loupe.services.eventStore.headPosition()).toBe(head);
  });
});
