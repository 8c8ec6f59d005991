import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort, spawnProcess, waitForHttp, type Spawned } from "../support/process.ts";
import { startTestServer, TEST_ADMIN_KEY } from "../support/server.ts";
import { createGitHostFixture, type GitHostFixture } from "../support/git-fixtures.ts";

/**
 * SIGTERM on the real server process (`node --import tsx src/main.ts`, so the signal reaches the
 * service itself): exit 0 within a bound, and a restart on the same data dir serves the earlier data
 * and finishes interrupted indexing with no file recorded twice.
 */
const dirs: string[] = [];
let fixture: GitHostFixture | undefined;
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  fixture?.cleanup();
});

async function startServer(dataDir: string, env: Record<string, string> = {}) {
  const port = await freePort();
  const proc = spawnProcess(process.execPath, ["--import", "tsx", "src/main.ts"], {
    PORT: String(port),
    LOUPE_HOST: "127.0.0.1",
    LOUPE_DATA_DIR: dataDir,
    LOUPE_API_KEY: TEST_ADMIN_KEY,
    LOUPE_LOG_LEVEL: "info",
    ...env,
  });
  const base = `http://127.0.0.1:${port}`;
  await waitForHttp(`${base}/healthz`, 60_000).catch((e) => {
    proc.child.kill("SIGKILL");
    throw new Error(`${e.message}\n${proc.output()}`);
  });
  const api = (path: string, init: { method?: string; json?: unknown } = {}) =>
    fetch(base + path, {
      method: init.method ?? "GET",
      headers: { authorization: `Bearer ${TEST_ADMIN_KEY}`, "content-type": "application/json" },
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
    });
  return { proc, base, api };
}

async function terminate(proc: Spawned, boundMs: number): Promise<{ code: number | null; ms: number }> {
  const started = Date.now();
  proc.child.kill("SIGTERM");
  const code = await Promise.race([proc.exited, new Promise<"timeout">((r) => setTimeout(() => r("timeout"), boundMs))]);
  if (code === "timeout") {
    proc.child.kill("SIGKILL");
    throw new Error(`no exit within ${boundMs} ms after SIGTERM\n${proc.output()}`);
  }
  return { code, ms: Date.now() - started };
}

describe("graceful shutdown", () => {
  it("exits 0 on SIGTERM and a restart serves the earlier data", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "loupe-shutdown-"));
    dirs.push(dataDir);
    const first = await startServer(dataDir);
    const issued = await (await first.api("/v2/keys", { method: "POST", json: { name: "survives restarts" } })).json();
    expect(issued.keyId).toBeTruthy();
    const { code, ms } = await terminate(first.proc, 10_000);
    expect(code, first.proc.output()).toBe(0);
    expect(ms).toBeLessThan(10_000);
    expect(first.proc.output()).toContain('"msg":"shutdown complete"');

    const second = await startServer(dataDir);
    try {
      const { keys } = await (await second.api("/v2/keys")).json();
      expect(keys.map((k: { keyId: string }) => k.keyId)).toContain(issued.keyId);
      const me = await fetch(`${second.base}/v2/me`, { headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` } });
      expect(me.status).toBe(200);
    } finally {
      expect((await terminate(second.proc, 10_000)).code).toBe(0);
    }
  }, 120_000);

  it("SIGTERM during indexing: exit 0, and the restart completes the job with no lost or duplicated file", async () => {
    fixture = createGitHostFixture();
    const FILES = 2500;
    const files: Record<string, string> = {};
    for (let i = 0; i < FILES; i++) {
      files[`lib/part${Math.floor(i / 100)}/unit${i}.ts`] = `/** Unit ${i}. */\nexport function unit${i}(x: number): number {\n  return x + ${i};\n}\n`;
    }
    fixture.createRepo("acme/bulk", files);
    const env = { LOUPE_GITHUB_URL: fixture.baseUrl };
    const dataDir = mkdtempSync(join(tmpdir(), "loupe-shutdown-idx-"));
    dirs.push(dataDir);

    const first = await startServer(dataDir, env);
    const submitted = await first.api("/v2/repositories", { method: "POST", json: { remote: "github", repository: "acme/bulk" } });
    expect(submitted.status).toBe(202);
    const statusPath = new URL((await submitted.json()).statusEndpoint).pathname;
    type Status = { status: string; filesProcessed: number; numFiles: number; failureReason: string | null };
    let status: Status | undefined;
    for (let i = 0; i < 3000; i++) {
      status = await (await first.api(statusPath)).json();
      if (status!.filesProcessed > 0 || status!.status === "completed") break;
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(status!.status).toBe("processing");
    expect(status!.filesProcessed).toBeLessThan(FILES);
    const stopped = await terminate(first.proc, 20_000);
    expect(stopped.code, first.proc.output()).toBe(0);

    const second = await startServer(dataDir, env);
    let done: Status | undefined;
    try {
      for (let i = 0; i < 1200; i++) {
        done = await (await second.api(statusPath)).json();
        if (done!.status === "completed" || done!.status === "failed") break;
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      expect((await terminate(second.proc, 20_000)).code, second.proc.output()).toBe(0);
    }
    expect(done).toMatchObject({ status: "completed", numFiles: FILES, filesProcessed: FILES, failureReason: null });

    // Read the log of the stopped service: every file recorded exactly once, one job.
    const reader = await startTestServer({ dataDir, env });
    try {
      const events = await reader.loupe.services.eventStore.readAll({ maxCount: 100_000 });
      expect(events.filter((e) => e.type === "RepositorySubmitted")).toHaveLength(1);
      const paths = events
        .filter((e) => e.type === "RepositoryFilesIndexed")
        .flatMap((e) => (e.data as { files: { path: string }[] }).files.map((f) => f.path));
      expect(paths).toHaveLength(FILES);
      expect(new Set(paths).size).toBe(FILES);
      expect(events.filter((e) => e.type === "RepositoryIndexingCompleted")).toHaveLength(1);
    } finally {
      await reader.stop();
    }
  }, 240_000);
});
