import { randomBytes } from "node:crypto";
import { ulid } from "ulid";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newEvent } from "../../src/eventstore/new-event.ts";
import type { StoredEvent } from "../../src/eventstore/port.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { gqlData } from "./support.ts";

const PAGE = `query($filter: EventFilter, $first: Int, $after: String, $last: Int, $before: String) {
  events(filter: $filter, first: $first, after: $after, last: $last, before: $before) {
    edges { cursor node { position type orgId } }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`;

type Page = {
  edges: { cursor: string; node: { position: number; type: string; orgId: string } }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
};

describe("event browser pagination across thousands of events", () => {
  let server: TestServer;
  let orgId: string;
  let otherOrgId: string;
  /** Positions of the admin's organisation's events, from the log itself. */
  let mine: number[];
  let myRevocations: number[];
  const timings: number[] = [];

  const page = async (variables: Record<string, unknown>): Promise<Page> => {
    const started = performance.now();
    const data = await gqlData<{ events: Page }>(server, PAGE, variables);
    timings.push(performance.now() - started);
    return data.events;
  };

  beforeAll(async () => {
    server = await startTestServer();
    const { eventStore, runner } = server.loupe.services;
    orgId = (await gqlData(server, "{ viewer { orgId } }")).viewer.orgId;
    otherOrgId = ulid();
    const context = (org: string) => ({ orgId: org, actor: "test", correlationId: ulid() });
    const issue = (org: string) => {
      const keyId = ulid();
      const data = { keyId, orgId: org, name: "bulk", role: "member", keyHash: randomBytes(32).toString("hex"), bootstrap: false };
      return { keyId, stream: `apikey-${keyId}`, event: newEvent("ApiKeyIssued", data, context(org)) };
    };
    // 3000 events of this organisation (2700 issued, 300 revoked) and 1000 of another, interleaved.
    for (let round = 0; round < 10; round++) {
      const appends: Promise<unknown>[] = [];
      for (let i = 0; i < 270; i++) {
        const mineIssue = issue(orgId);
        appends.push(
          eventStore.appendToStream(mineIssue.stream, [mineIssue.event]).then(async () => {
            if (i % 9 !== 0) return;
            const revoke = newEvent("ApiKeyRevoked", { keyId: mineIssue.keyId, orgId, reason: null }, context(orgId));
            await eventStore.appendToStream(mineIssue.stream, [revoke]);
          }),
        );
        if (i % 27 < 10) {
          const other = issue(otherOrgId);
          appends.push(eventStore.appendToStream(other.stream, [other.event]));
        }
      }
      await Promise.all(appends);
    }
    await runner.waitForPosition(await eventStore.headPosition(), 30_000);
    const all: StoredEvent[] = [];
    for (let from = 0; ; ) {
      const batch = await eventStore.readAll({ fromPosition: from, maxCount: 1000 });
      if (batch.length === 0) break;
      all.push(...batch);
      from = batch[batch.length - 1]!.position;
    }
    mine = all.filter((e) => e.metadata.orgId === orgId).map((e) => e.position);
    myRevocations = all.filter((e) => e.metadata.orgId === orgId && e.type === "ApiKeyRevoked").map((e) => e.position);
    expect(mine.length).toBeGreaterThan(3000);
    expect(all.length - mine.length).toBe(1000);
  });
  afterAll(async () => {
    const sorted = [...timings].sort((a, b) => a - b);
    const p = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(1);
    console.log(`event browser: ${timings.length} pages, median ${p(0.5)} ms, p95 ${p(0.95)} ms, max ${p(1)} ms`);
    await server.stop({ remove: true });
  });

  it("pages forward with first/after: every event once, in order, no other organisation", async () => {
    const seen: number[] = [];
    let after: string | null = null;
    let pages = 0;
    for (;;) {
      const result: Page = await page({ first: 200, after });
      pages++;
      for (const edge of result.edges) {
        expect(edge.node.orgId).toBe(orgId);
        expect(edge.cursor).toBe(String(edge.node.position));
        seen.push(edge.node.position);
      }
      expect(result.pageInfo.endCursor).toBe(result.edges.at(-1)?.cursor ?? null);
      if (!result.pageInfo.hasNextPage) break;
      after = result.pageInfo.endCursor;
    }
    expect(seen).toEqual(mine);
    expect(pages).toBe(Math.ceil(mine.length / 200));
  });

  it("pages backward with last/before: the same events, no gaps or duplicates", async () => {
    const pagesFromEnd: number[][] = [];
    let before: string | null = null;
    for (;;) {
      const result: Page = await page({ last: 150, before });
      const positions = result.edges.map((e) => e.node.position);
      expect(positions).toEqual([...positions].sort((a, b) => a - b));
      pagesFromEnd.push(positions);
      if (!result.pageInfo.hasPreviousPage) break;
      before = result.pageInfo.startCursor;
    }
    const seen = pagesFromEnd.reverse().flat();
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(mine);
  });

  it("turns around mid-log: back from a forward cursor gives exactly the events before it", async () => {
    const forward = await page({ first: 1700 - 700 });
    const middle = forward.pageInfo.endCursor!;
    const back = await page({ last: 400, before: middle });
    const index = mine.indexOf(Number(middle));
    expect(back.edges.map((e) => e.node.position)).toEqual(mine.slice(index - 400, index));
    expect(back.pageInfo.hasPreviousPage).toBe(true);
    const window = await page({ first: 1000, after: back.pageInfo.startCursor, before: middle });
    expect(window.edges.map((e) => e.node.position)).toEqual(mine.slice(index - 399, index));
    expect(window.pageInfo.hasNextPage).toBe(false);
  });

  it("pages a sparse filter (types) across the whole log", async () => {
    const seen: number[] = [];
    let after: string | null = null;
    for (;;) {
      const result: Page = await page({ filter: { types: ["ApiKeyRevoked"] }, first: 64, after });
      seen.push(...result.edges.map((e) => e.node.position));
      expect(result.edges.every((e) => e.node.type === "ApiKeyRevoked")).toBe(true);
      if (!result.pageInfo.hasNextPage) break;
      after = result.pageInfo.endCursor;
    }
    expect(seen).toEqual(myRevocations);
    const lastFew = await page({ filter: { types: ["ApiKeyRevoked"] }, last: 5 });
    expect(lastFew.edges.map((e) => e.node.position)).toEqual(myRevocations.slice(-5));
  });

  it("shows another organisation's admin none of these events", async () => {
    const created = await gqlData(server, `mutation { createOrganisation(name: "Other") { admin { secret } } }`);
    const theirs = await gqlData<{ events: Page }>(server, PAGE, { first: 1000 }, created.createOrganisation.admin.secret);
    expect(theirs.events.edges.map((e) => e.node.type)).toEqual(["OrganisationCreated", "ApiKeyIssued"]);
  });
});
