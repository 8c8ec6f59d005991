/**
 * LOUPE_LOCAL_ROOTS is the operator's setting: only the bootstrap organisation indexes (and reads)
 * repositories on the server's disk. Another organisation's admin is refused on every way in: the
 * local route, the ordinary submission by the stored name `local/<name>-<hash>` (HTTP, the tool
 * interface, GraphQL), and a search of it; nothing is registered or recorded for it.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.ts";
import { gql } from "../graphql/support.ts";
import { newEvent } from "../../src/eventstore/new-event.ts";
import { repositoryStream } from "../../src/features/repositories/decider.ts";

let server: TestServer;
let root: string;
let bAdmin: string;
let bOrgId: string;
let localRepository: string;

const makeRepo = (dir: string) => {
  mkdirSync(dir, { recursive: true });
  execFileSync("git", ["init", "--quiet", "--initial-branch=main"], { cwd: dir });
  execFileSync("git", ["-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "--quiet", "--allow-empty", "-m", "empty"], { cwd: dir });
};

async function waitFor(statusEndpoint: string, key: string) {
  for (let i = 0; i < 300; i++) {
    const status = await (await fetch(statusEndpoint, { headers: { authorization: `Bearer ${key}` } })).json();
    if (status.status === "completed" || status.status === "failed") return status;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("indexing did not finish");
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "loupe-local-roots-"));
  makeRepo(join(root, "shared"));
  makeRepo(join(root, "unregistered"));
  server = await startTestServer({ env: { LOUPE_LOCAL_ROOTS: root } });
  const created = await server.api("/v2/organisations", { method: "POST", json: { name: "Org B" } });
  const { adminKey } = await created.json();
  bAdmin = adminKey.key;
  bOrgId = adminKey.orgId;
}, 60_000);

afterAll(async () => {
  await server?.stop({ remove: true });
  if (root) rmSync(root, { recursive: true, force: true });
});

describe("local paths are for the bootstrap organisation only", () => {
  it("the bootstrap organisation indexes a local path; another organisation's admin is refused with 403 and nothing is registered", async () => {
    const own = await server.api("/v2/repositories/local", { method: "POST", json: { path: join(root, "shared") } });
    expect(own.status).toBe(202);
    const { statusEndpoint, repository } = await own.json();
    localRepository = repository;
    expect((await waitFor(statusEndpoint, server.adminKey)).status).toBe("completed");

    for (const path of [join(root, "shared"), join(root, "unregistered")]) {
      const res = await server.api("/v2/repositories/local", { method: "POST", key: bAdmin, json: { path } });
      expect(res.status).toBe(403);
      const body = await res.json();
      expect(body.error.code).toBe("forbidden");
      expect(body.error.message).toContain("bootstrap organisation");
    }
    const table = join(server.dataDir, "local-repositories.json");
    expect(existsSync(table) ? readFileSync(table, "utf8") : "").not.toContain("unregistered");
    expect((await (await server.api("/v2/repositories", { key: bAdmin })).json()).repositories).toEqual([]);

    // The ordinary submission by the stored name reaches the same file:// clone: refused the same way.
    const stored = `local/${repository}`;
    const submit = await server.api("/v2/repositories", { method: "POST", key: bAdmin, json: { remote: "github", repository: stored } });
    expect(submit.status).toBe(403);
    const mcp = await server.api("/mcp", {
      method: "POST",
      key: bAdmin,
      json: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "index_repository", arguments: { remote: "github", repository: stored } } },
    });
    const rpc = await mcp.json();
    expect(rpc.error?.message ?? JSON.stringify(rpc.result)).toContain("bootstrap organisation");
    expect(rpc.result?.structuredContent).toBeUndefined();
    const graphql = await gql(server, `mutation($r: String!) { submitRepository(remote: github, repository: $r) { repoId } }`, { r: stored }, bAdmin);
    expect(graphql.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    expect((await (await server.api("/v2/repositories", { key: bAdmin })).json()).repositories).toEqual([]);

    // And it cannot search it.
    const search = await server.api("/v2/search", { method: "POST", key: bAdmin, json: { query: "anything", repositories: [{ remote: "local", repository }] } });
    expect(search.status).toBe(404);
  });

  it("a local repository another organisation indexed before this rule (its events in the log) is not searchable by it", async () => {
    // The log as an earlier version left it: org B's copy of the bootstrap organisation's indexing job.
    const { eventStore, runner } = server.loupe.services;
    const repoId = `github:main:local/${localRepository}`;
    const ownOrgId = (await (await server.api("/v2/me")).json()).orgId;
    const { events } = await eventStore.readStream(repositoryStream(ownOrgId, repoId));
    expect(events.length).toBeGreaterThan(0);
    const copies = events.map((e) => newEvent(e.type, { ...(e.data as Record<string, unknown>), orgId: bOrgId }, { orgId: bOrgId, actor: "earlier-version", correlationId: "copy", causationId: null }));
    const { lastPosition } = await eventStore.appendToStream(repositoryStream(bOrgId, repoId), copies);
    await runner.waitForPosition(lastPosition, 10_000);
    expect((await (await server.api("/v2/repositories", { key: bAdmin })).json()).repositories).toHaveLength(1);

    const own = await server.api("/v2/search", { method: "POST", json: { query: "anything", repositories: [{ remote: "local", repository: localRepository }] } });
    expect(own.status).toBe(200);
    const search = await server.api("/v2/search", { method: "POST", key: bAdmin, json: { query: "anything", repositories: [{ remote: "local", repository: localRepository }] } });
    expect(search.status).toBe(404);
  });
});
