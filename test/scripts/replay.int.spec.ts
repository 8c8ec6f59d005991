import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLmdbReadStore } from "../../src/readstore/lmdb.ts";
import { allProjections } from "../../src/features/read-models.ts";
import { startTestServer, TEST_ADMIN_KEY, type TestServer } from "../support/server.ts";
import { repoRoot, tsxBin } from "../support/process.ts";
import { gqlData } from "../graphql/support.ts";
import { createGitHostFixture, type GitHostFixture } from "../support/git-fixtures.ts";

const run = promisify(execFile);
const sha256 = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");

/**
 * Runs a script as a child process on the test's data dir: `npx tsx ...` as an operator does, or the
 * same tsx binary directly (`viaNpx: false`, saves npm's start-up).
 */
async function script(file: string, args: string[], dataDir: string, { viaNpx = false } = {}) {
  const [command, prefix] = viaNpx ? ["npx", ["tsx"]] : [tsxBin, []];
  const { stdout, stderr } = await run(command, [...prefix, file, ...args], {
    cwd: repoRoot,
    env: { ...process.env, LOUPE_DATA_DIR: dataDir, LOUPE_API_KEY: "", NO_COLOR: "1" },
    maxBuffer: 64 * 1024 * 1024,
  });
  return { json: JSON.parse(stdout), stderr };
}

describe("operator scripts on a stopped server's data dir", () => {
  let server: TestServer;
  let dataDir: string;
  const live: Record<string, { hash: string; generation: number }> = {};
  let revokedKey: { keyId: string; secret: string; issuedAt: number; revokedAt: number };
  let orgId: string;
  let fixture: GitHostFixture;

  beforeAll(async () => {
    fixture = createGitHostFixture();
    fixture.createRepo("acme/replayed", { "src/a.ts": "export const a = 1;\n", "src/b.py": "def b():\n    return 2\n" });
    server = await startTestServer({ env: { LOUPE_GITHUB_URL: fixture.baseUrl } });
    dataDir = server.dataDir;
    orgId = (await gqlData(server, "{ viewer { orgId } }")).viewer.orgId;
    for (let i = 0; i < 20; i++) await gqlData(server, `mutation { issueApiKey(name: "k${i}") { secret } }`);
    const issued = (await gqlData(server, `mutation { issueApiKey(name: "to revoke") { secret apiKey { keyId } } }`)).issueApiKey;
    await gqlData(server, `mutation($id: ID!) { revokeApiKey(keyId: $id) { keyId } }`, { id: issued.apiKey.keyId });
    await gqlData(server, `mutation { createOrganisation(name: "Second") { organisation { orgId } } }`);
    // Other read models get content too: an indexed repository and custom context with a status change.
    const { repoId } = (await gqlData(server, `mutation { submitRepository(remote: github, repository: "acme/replayed") { repoId } }`)).submitRepository;
    const ctx = (await gqlData(server, `mutation { createCustomContext(body: "No TODOs") { id } }`)).createCustomContext;
    await gqlData(server, `mutation($id: ID!) { setCustomContextStatus(id: $id, status: INACTIVE) { id } }`, { id: ctx.id });
    for (const deadline = Date.now() + 30_000; ; ) {
      const { repository } = await gqlData(server, `query($id: ID!) { repository(repoId: $id) { status } }`, { id: repoId });
      if (repository.status === "completed") break;
      if (Date.now() > deadline) throw new Error(`indexing did not complete: ${repository.status}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const history = (
      await gqlData(server, `query($id: String!) { entityHistory(entityId: $id) { events { position } } }`, { id: issued.apiKey.keyId })
    ).entityHistory.events;
    revokedKey = { keyId: issued.apiKey.keyId, secret: issued.secret, issuedAt: history[0].position, revokedAt: history[1].position };

    const { readStore, runner } = server.loupe.services;
    await runner.waitForPosition(await server.loupe.services.eventStore.headPosition(), 10_000);
    for (const p of allProjections) live[p.name] = { hash: readStore.contentHash(p.name), generation: readStore.meta(p.name)?.generation ?? 0 };
    for (const name of ["api-keys", "organisations", "repositories", "custom-context"]) {
      expect(live[name]?.hash, `${name} has content`).not.toBe(createHash("sha256").digest("hex"));
    }
    await server.stop();
  });
  afterAll(async () => {
    await server.stop({ remove: true }).catch(() => {});
    fixture?.cleanup();
  });

  it("npm run replay --all rebuilds every projection from zero to the same content as the live models", async () => {
    const { json } = await script("scripts/replay.ts", ["--all"], dataDir, { viaNpx: true });
    expect(json.rebuilt.map((r: { projection: string }) => r.projection)).toEqual(allProjections.map((p) => p.name));
    const readStore = createLmdbReadStore({ dir: join(dataDir, "readmodels") });
    try {
      for (const p of allProjections) {
        expect(readStore.contentHash(p.name), p.name).toBe(live[p.name]!.hash);
        expect(readStore.meta(p.name)?.generation, `${p.name} generation`).toBe(live[p.name]!.generation + 1);
        expect(json.rebuilt.find((r: { projection: string }) => r.projection === p.name).contentHash).toBe(live[p.name]!.hash);
      }
    } finally {
      await readStore.close();
    }
  });

  it("npm run replay --projection rebuilds just that one", async () => {
    const { json } = await script("scripts/replay.ts", ["--projection", "organisations"], dataDir);
    expect(json.rebuilt).toEqual([expect.objectContaining({ projection: "organisations", contentHash: live.organisations!.hash })]);
  });

  it("npm run replay --as-of prints a model as of a position or a time, without key hashes", async () => {
    const before = (await script("scripts/replay.ts", ["--as-of", String(revokedKey.revokedAt - 1), "--projection", "api-keys"], dataDir)).json;
    const after = (await script("scripts/replay.ts", ["--as-of", String(revokedKey.revokedAt), "--projection", "api-keys"], dataDir)).json;
    const record = (model: { entries: { key: unknown[]; value: any }[] }) =>
      model.entries.find((e) => e.key[0] === "key" && e.key[2] === revokedKey.keyId)?.value;
    expect(before).toMatchObject({ projection: "api-keys", position: revokedKey.revokedAt - 1, eventsApplied: revokedKey.revokedAt - 1 });
    expect(record(before)).toMatchObject({ revokedAt: null, keyHash: "[redacted]" });
    expect(record(after).revokedAt).toBeTruthy();
    const text = JSON.stringify(after);
    expect(text).not.toContain(sha256(revokedKey.secret));
    expect(text).not.toContain(sha256(TEST_ADMIN_KEY));
    expect(after.entries.some((e: { key: unknown[] }) => e.key[0] === "byHash")).toBe(false);

    const byTime = (await script("scripts/replay.ts", ["--as-of", after.time, "--projection", "api-keys"], dataDir)).json;
    expect(record(byTime)).toEqual(record(after));
    const early = (await script("scripts/replay.ts", ["--as-of", "2001-01-01T00:00:00Z", "--all"], dataDir)).json;
    expect(early.eventsApplied).toBe(0);
    expect(early.models.every((m: { entries: unknown[] }) => m.entries.length === 0)).toBe(true);
    const orgOnly = (await script("scripts/replay.ts", ["--as-of", "999999", "--projection", "organisations", "--org", orgId], dataDir)).json;
    // Its own record, and its record of the organisation it created (never the other's own record).
    expect(orgOnly.entries.map((e: { key: string[]; value: { name: string } }) => [e.key[0], e.value.name])).toEqual([
      ["org", "default"],
      ["provisioned", "Second"],
    ]);
  });

  it("npm run audit --entity prints the entity's history as JSON", async () => {
    const { json } = await script("scripts/audit.ts", ["--entity", revokedKey.keyId, "--data-dir", dataDir], "/nonexistent-ignored");
    expect(json.entityId).toBe(revokedKey.keyId);
    expect(json.events.map((e: { type: string; position: number }) => [e.type, e.position])).toEqual([
      ["ApiKeyIssued", revokedKey.issuedAt],
      ["ApiKeyRevoked", revokedKey.revokedAt],
    ]);
    expect(json.events[0]).toMatchObject({ streamName: `apikey-${revokedKey.keyId}`, orgId, data: { keyHash: "[redacted]" } });
    expect(typeof json.events[0].actor).toBe("string");
    expect(JSON.stringify(json)).not.toContain(sha256(revokedKey.secret));
  });

  it("refuses bad arguments with usage", async () => {
    await expect(script("scripts/replay.ts", ["--projection", "nope"], dataDir)).rejects.toMatchObject({ code: 2 });
    await expect(script("scripts/audit.ts", [], dataDir)).rejects.toMatchObject({ code: 2 });
    await expect(script("scripts/replay.ts", ["--as-of", "not a time", "--all"], dataDir)).rejects.toMatchObject({ code: 2 });
  });
});
