import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.ts";
import { gqlData } from "./support.ts";

const HISTORY = `query($id: String!) { entityHistory(entityId: $id) {
  entityId streams truncated events { position time type actor streamName correlationId data } } }`;
const AS_OF = `query($asOf: AsOfInput!) {
  keys: readModelAsOf(projection: "api-keys", asOf: $asOf) {
    position time eventsApplied apiKeys { keyId name role active revokedAt } entries(first: 1000) { key value } }
  orgs: readModelAsOf(projection: "organisations", asOf: $asOf) { position organisations { orgId name } } }`;

type HistoryEvent = { position: number; time: string; type: string; actor: string; streamName: string; data: Record<string, unknown> };

describe("audit: an entity changed several times, its history, and the models as of each change", () => {
  let server: TestServer;
  let creatorKeyId: string;
  let org: { orgId: string; adminSecret: string; adminKeyId: string };
  let memberKeyId: string;

  beforeAll(async () => {
    server = await startTestServer();
    creatorKeyId = (await gqlData(server, "{ viewer { keyId } }")).viewer.keyId;
    // Change 1 + 2: the organisation is created, with its admin key (by the default organisation's admin).
    const created = (
      await gqlData(server, `mutation { createOrganisation(name: "Audited") { organisation { orgId } admin { secret apiKey { keyId } } } }`)
    ).createOrganisation;
    org = { orgId: created.organisation.orgId, adminSecret: created.admin.secret, adminKeyId: created.admin.apiKey.keyId };
    // Change 3: its admin issues a member key. Change 4: and revokes it.
    memberKeyId = (
      await gqlData(server, `mutation { issueApiKey(name: "member", role: member) { apiKey { keyId } } }`, undefined, org.adminSecret)
    ).issueApiKey.apiKey.keyId;
    // Some noise in another organisation between the changes.
    await gqlData(server, `mutation { issueApiKey(name: "noise") { secret } }`);
    await new Promise((r) => setTimeout(r, 5)); // distinct times for the time-based reads
    await gqlData(server, `mutation($id: ID!) { revokeApiKey(keyId: $id, reason: "left") { keyId } }`, { id: memberKeyId }, org.adminSecret);
  });
  afterAll(() => server.stop({ remove: true }));

  it("lists every event that touched the organisation, who and when, in order", async () => {
    const { entityHistory } = await gqlData(server, HISTORY, { id: org.orgId }, org.adminSecret);
    const events: HistoryEvent[] = entityHistory.events;
    // Created by the default organisation's admin: its own records name the neutral actor, not that key.
    expect(events.map((e) => [e.type, e.actor])).toEqual([
      ["OrganisationCreated", "operator"],
      ["ApiKeyIssued", "operator"],
      ["ApiKeyIssued", org.adminKeyId],
      ["ApiKeyRevoked", org.adminKeyId],
    ]);
    expect(events.map((e) => e.position)).toEqual([...events.map((e) => e.position)].sort((a, b) => a - b));
    expect(events.map((e) => e.time)).toEqual([...events.map((e) => e.time)].sort());
    expect(entityHistory.streams).toEqual([`organisation-${org.orgId}`, `apikey-${org.adminKeyId}`, `apikey-${memberKeyId}`]);
    expect(events[2]!.data.keyHash).toBe("[redacted]");
    // The default organisation's admin sees only its own record of the creation, none of the other's history.
    const creators = (await gqlData(server, HISTORY, { id: org.orgId })).entityHistory.events as HistoryEvent[];
    expect(creators.map((e) => [e.type, e.actor, e.data])).toEqual([["OrganisationProvisioned", creatorKeyId, { provisionedOrgId: org.orgId, name: "Audited" }]]);
  });

  it("lists a key's history by its id", async () => {
    const { entityHistory } = await gqlData(server, HISTORY, { id: memberKeyId }, org.adminSecret);
    expect(entityHistory.events.map((e: HistoryEvent) => [e.type, e.actor, e.streamName])).toEqual([
      ["ApiKeyIssued", org.adminKeyId, `apikey-${memberKeyId}`],
      ["ApiKeyRevoked", org.adminKeyId, `apikey-${memberKeyId}`],
    ]);
    expect(entityHistory.events[1].data).toEqual({ keyId: memberKeyId, orgId: org.orgId, reason: "left" });
  });

  it("reads the read models as of each change, by position and by time", async () => {
    const events: HistoryEvent[] = (await gqlData(server, HISTORY, { id: org.orgId }, org.adminSecret)).entityHistory.events;
    const expected = [
      { orgs: ["Audited"], keys: [] as [string, boolean][] },
      { orgs: ["Audited"], keys: [[org.adminKeyId, true]] },
      { orgs: ["Audited"], keys: [[org.adminKeyId, true], [memberKeyId, true]] },
      { orgs: ["Audited"], keys: [[org.adminKeyId, true], [memberKeyId, false]] },
    ];
    const shape = (data: any) => ({
      orgs: data.orgs.organisations.map((o: { name: string }) => o.name),
      keys: data.keys.apiKeys.map((k: { keyId: string; active: boolean }) => [k.keyId, k.active]),
    });
    // Before the first change, nothing of the organisation exists.
    const before = await gqlData(server, AS_OF, { asOf: { position: events[0]!.position - 1 } }, org.adminSecret);
    expect(shape(before)).toEqual({ orgs: [], keys: [] });

    for (const [i, event] of events.entries()) {
      const byPosition = await gqlData(server, AS_OF, { asOf: { position: event.position } }, org.adminSecret);
      expect(shape(byPosition), `as of change ${i + 1} (position)`).toEqual(expected[i]);
      expect(byPosition.keys.position).toBe(event.position);
      expect(byPosition.keys.eventsApplied).toBe(event.position);
      expect(byPosition.keys.time).toBe(event.time);
      for (const entry of byPosition.keys.entries) {
        expect(entry.key[0]).toBe("key");
        expect(entry.value.keyHash).toBe("[redacted]");
      }
    }
    // By time: the last change's time includes it; the revocation time is unique (see the pause above).
    const last = events[3]!;
    const byTime = await gqlData(server, AS_OF, { asOf: { time: last.time } }, org.adminSecret);
    expect(shape(byTime)).toEqual(expected[3]);
    const justBefore = new Date(Date.parse(last.time) - 1).toISOString();
    const beforeRevocation = await gqlData(server, AS_OF, { asOf: { time: justBefore } }, org.adminSecret);
    expect(shape(beforeRevocation)).toEqual(expected[2]);

    // The replay at the head equals the served model (for this organisation's entries).
    const head = await server.loupe.services.eventStore.headPosition();
    const { now, then } = await gqlData(
      server,
      `query($p: Position!) { now: readModel(projection: "api-keys") { entries(first: 1000) { key value } }
         then: readModelAsOf(projection: "api-keys", asOf: { position: $p }) { entries(first: 1000) { key value } } }`,
      { p: head },
      org.adminSecret,
    );
    expect(then.entries).toEqual(now.entries);
  });
});
