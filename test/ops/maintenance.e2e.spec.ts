/**
 * Maintenance cannot hurt a live server: replay, the code index rebuild and audit take the data
 * directory's lock, so while a server runs on it they refuse (exit 3, naming the server and the admin
 * API to use instead) and nothing is lost: after `npm run replay -- --all`, twice, the live server
 * still lists its repositories and still accepts its admin key, its read models unchanged. Deleting
 * loupe.lock by hand does not change that: the stores' own lock tables name the live server.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allProjections } from "../../src/features/read-models.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { freePort, repoRoot, spawnProcess, tsxBin } from "../support/process.ts";
import { createGitHostFixture, type GitHostFixture } from "../support/git-fixtures.ts";
import { indexRepository } from "../search/support.ts";
import { gqlData } from "../graphql/support.ts";

const run = promisify(execFile);

async function script(command: string, args: string[], dataDir: string): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(command, args, { cwd: repoRoot, env: { ...process.env, LOUPE_DATA_DIR: dataDir, LOUPE_API_KEY: "", NO_COLOR: "1" } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe("maintenance scripts against a live server (e2e)", () => {
  let server: TestServer;
  let fixture: GitHostFixture;
  let snapshot: () => Record<string, { hash: string; generation: number }>;
  let before: Record<string, { hash: string; generation: number }>;

  beforeAll(async () => {
    fixture = createGitHostFixture();
    fixture.createRepo("acme/live", { "src/a.ts": "export function alpha() { return 1; }\n" });
    server = await startTestServer({ env: { LOUPE_GITHUB_URL: fixture.baseUrl } });
    await indexRepository(server, { remote: "github", repository: "acme/live" });
    await gqlData(server, `mutation { issueApiKey(name: "kept") { secret } }`);
    const { readStore, runner, eventStore } = server.loupe.services;
    await runner.waitForPosition(await eventStore.headPosition(), 10_000);
    snapshot = () => Object.fromEntries(allProjections.map((p) => [p.name, { hash: readStore.contentHash(p.name), generation: readStore.meta(p.name)?.generation ?? 0 }]));
    before = snapshot();
  });
  afterAll(async () => {
    await server?.stop({ remove: true });
    fixture?.cleanup();
  });

  it("npm run replay -- --all is refused twice, naming the server and the admin API; the server loses nothing", async () => {
    for (let i = 0; i < 2; i++) {
      const result = await script("npm", ["run", "--silent", "replay", "--", "--all"], server.dataDir);
      expect(result.code, result.stderr).toBe(3);
      expect(result.stdout).toBe("");
      expect(result.stderr).toContain(`The data directory ${server.dataDir} is in use by a Loupe server (pid ${process.pid}`);
      expect(result.stderr).toContain(server.baseUrl);
      expect(result.stderr).toContain("rebuildProjection");
      expect(result.stderr).toContain("Nothing was changed.");
    }
    expect(snapshot()).toEqual(before);
    const repositories = (await (await server.api("/v2/repositories")).json()) as { repositories: { repository: string; status: string }[] };
    expect(repositories.repositories).toEqual([expect.objectContaining({ repository: "acme/live", status: "completed" })]);
    expect((await server.api("/v2/me")).status).toBe(200);
    const search = await server.api("/v2/search", { method: "POST", json: { query: "alpha", repositories: [{ remote: "github", repository: "acme/live" }] } });
    expect(search.status).toBe(200);
    expect(((await search.json()) as unknown[]).length).toBeGreaterThan(0);
  }, 120_000);

  it("replay --as-of, audit and the code index rebuild are refused the same way", async () => {
    const { runner, eventStore } = server.loupe.services;
    await runner.waitForPosition(await eventStore.headPosition(), 10_000); // the search above recorded a session
    before = snapshot();
    for (const [file, args, instead] of [
      ["scripts/replay.ts", ["--as-of", "1", "--projection", "api-keys"], "readModelAsOf"],
      ["scripts/audit.ts", ["--entity", "anything"], "entityHistory"],
      ["scripts/rebuild-code-index.ts", ["--truncate"], "stop the server"],
    ] as const) {
      const result = await script(tsxBin, [file, ...args], server.dataDir);
      expect(result.code, `${file}: ${result.stderr}`).toBe(3);
      expect(result.stderr).toContain("is in use by a Loupe server");
      expect(result.stderr).toContain(instead);
    }
    expect(snapshot()).toEqual(before);
    const search = await server.api("/v2/search", { method: "POST", json: { query: "alpha", repositories: [{ remote: "github", repository: "acme/live" }] } });
    expect(((await search.json()) as unknown[]).length).toBeGreaterThan(0);
  }, 120_000);

  it("with loupe.lock deleted by hand, replay and a second server are still refused; the key still works", async () => {
    const { runner, eventStore } = server.loupe.services;
    await runner.waitForPosition(await eventStore.headPosition(), 10_000);
    before = snapshot();
    rmSync(join(server.dataDir, "loupe.lock"), { force: true });
    const result = await script("npm", ["run", "--silent", "replay", "--", "--all"], server.dataDir);
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toContain(`The data directory ${server.dataDir} is in use by another process (pid ${process.pid})`);
    expect(result.stderr).toContain("Nothing was changed.");
    expect(snapshot()).toEqual(before);
    expect((await server.api("/v2/me")).status).toBe(200);

    const port = await freePort();
    const second = spawnProcess("node", ["--import", "tsx", "src/main.ts"], { PORT: String(port), LOUPE_HOST: "127.0.0.1", LOUPE_DATA_DIR: server.dataDir, LOUPE_API_KEY: "" });
    expect(await second.exited, second.output()).toBe(1);
    expect(second.output()).toContain(`is in use by another process (pid ${process.pid})`);
    expect(existsSync(join(server.dataDir, "loupe.lock"))).toBe(false); // the refused ones leave no lock behind
    expect((await server.api("/v2/me")).status).toBe(200);
  }, 120_000);

  it("once the server has stopped, replay runs", async () => {
    await server.stop();
    const result = await script(tsxBin, ["scripts/replay.ts", "--projection", "api-keys"], server.dataDir);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).rebuilt[0].projection).toBe("api-keys");
  }, 120_000);
});
