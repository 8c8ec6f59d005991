/**
 * An indexing job that fails while the read models' file system is full (small tmpfs mounts of their own
 * under the data directory, so root only; the space reserve, on the data directory's file system, cannot
 * help there): the job reads failed with its reason although the repositories read model still shows it
 * unfinished; a restart on that full file system starts, keeps the job failed and does not resume it;
 * once there is room the read model catches up with the failure. (Before: the job read "submitted" until
 * there was room again.)
 */
import { execFileSync } from "node:child_process";
import { closeSync, cpSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { freePort, repoRoot, spawnProcess, waitForHttp, type Spawned } from "../support/process.ts";
import { TEST_ADMIN_KEY } from "../support/server.ts";

const canMount = process.getuid?.() === 0;
const repo = mkdtempSync(join(tmpdir(), "loupe-own-mounts-repo-"));
const bases: string[] = [];
const mounted: string[] = [];

/** A data directory with the given stores' directories on tmpfs mounts of their own (sizes in MB). */
function dataDirWith(mounts: Record<string, number>): string {
  const base = mkdtempSync(join(tmpdir(), "loupe-own-mounts-"));
  bases.push(base);
  const dataDir = join(base, "data");
  for (const [store, megabytes] of Object.entries(mounts)) {
    const dir = join(dataDir, store);
    mkdirSync(dir, { recursive: true });
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${megabytes}m`, "tmpfs", dir]);
    mounted.push(dir);
  }
  return dataDir;
}

/** Writes zeros into `dir` until its file system refuses (ENOSPC); returns the filler's path. */
function fill(dir: string): string {
  const path = join(dir, "filler");
  const fd = openSync(path, "w");
  try {
    for (;;) writeSync(fd, Buffer.alloc(64 * 1024));
  } catch (error) {
    expect((error as NodeJS.ErrnoException).code).toBe("ENOSPC");
  } finally {
    closeSync(fd);
  }
  return path;
}

let server: Spawned | null = null;
let url = "";
async function start(dataDir: string) {
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  server = spawnProcess("node", ["--import", "tsx", "src/main.ts"], {
    PORT: String(port), LOUPE_HOST: "127.0.0.1", LOUPE_DATA_DIR: dataDir, LOUPE_API_KEY: TEST_ADMIN_KEY,
    LOUPE_LOG_FORMAT: "json", LOUPE_LOCAL_ROOTS: repo, LOUPE_SEARCH_THREADS: "0",
  });
  await waitForHttp(`${url}/healthz`, 90_000); // not /readyz: a read model that lags makes it 503
}
async function stop() {
  server!.child.kill("SIGTERM");
  expect(await server!.exited, server!.output()).toBe(0);
}
const api = (path: string, json?: unknown) =>
  fetch(url + path, {
    method: json === undefined ? "GET" : "POST",
    headers: { authorization: `Bearer ${TEST_ADMIN_KEY}`, "content-type": "application/json" },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
/** The server's output without its request lines (what a failure should show). */
const notable = () => server!.output().split("\n").filter((line) => !line.includes('"msg":"request"')).join("\n").slice(-3000);
type Readiness = { status: string; projections: { name: string; lag: number; state: string }[] };
const readiness = async (): Promise<Readiness> => (await fetch(`${url}/readyz`)).json();
const repositoriesLag = async () => (await readiness()).projections.find((p) => p.name === "repositories")!.lag;
const until = async (done: () => Promise<boolean>) => {
  for (let i = 0; i < 600 && !(await done()); i++) await new Promise((r) => setTimeout(r, 200));
};

type Record_ = { status: string; failureReason?: string };
/** Submits the repository, then (the submission being in the log and the read model) fills `full`. */
async function submitThenFill(full: string): Promise<{ recordOf: () => Promise<Record_>; filler: string }> {
  const submitted = await api("/v2/repositories/local", { path: repo });
  expect(submitted.status).toBe(202);
  const { repositoryId } = await submitted.json();
  const filler = fill(full);
  return { recordOf: async () => (await api(`/v2/repositories/${encodeURIComponent(repositoryId)}`)).json(), filler };
}
/** Polls until the job has ended (as readers see it). */
async function ended(recordOf: () => Promise<Record_>): Promise<Record_> {
  let record = await recordOf();
  await until(async () => ["failed", "completed"].includes((record = await recordOf()).status));
  return record;
}

beforeAll(() => {
  if (!canMount) return;
  for (const dir of ["hono/dist", "zod/v4", "graphql"]) cpSync(join(repoRoot, "node_modules", dir), join(repo, dir.replace("/", "-")), { recursive: true });
  const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: repo });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-qm", "sources");
});
afterEach(() => {
  if (server && server.child.exitCode === null && server.child.signalCode === null) server.child.kill("SIGKILL");
  server = null;
});
afterAll(() => {
  for (const dir of mounted) execFileSync("umount", ["-l", dir]);
  for (const base of bases) rmSync(base, { recursive: true, force: true });
  rmSync(repo, { recursive: true, force: true });
});

describe.skipIf(!canMount)("a full file system under the read models", () => {
  it("a failed job reads failed, and a restart neither resumes it nor loses the failure", async () => {
    // The code index has room for its files, not for the repository's chunks: the job fails at its first write.
    const dataDir = dataDirWith({ readmodels: 4, codeindex: 1 });
    await start(dataDir);
    const { recordOf, filler } = await submitThenFill(join(dataDir, "readmodels"));

    const record = await ended(recordOf);
    expect(record.status, notable()).toBe("failed");
    expect(record.failureReason).toMatch(/No space left on device/);
    // The read model has not applied the failure: what readers see comes from the ended job itself.
    expect(await repositoriesLag()).toBeGreaterThan(0);

    // A restart with the read models' file system still full: the job stays failed and is not resumed.
    await stop();
    await start(dataDir);
    const afterRestart = await recordOf();
    expect(afterRestart.status, notable()).toBe("failed");
    expect(afterRestart.failureReason).toMatch(/No space left on device/);
    expect(await repositoriesLag()).toBeGreaterThan(0);

    // Room again: the read model catches up (ready), and the job, failed in it too, is not resumed.
    rmSync(filler);
    await until(async () => (await readiness()).status === "ready");
    expect((await readiness()).status, notable()).toBe("ready");
    const caughtUp = await recordOf();
    expect(caughtUp.status).toBe("failed");
    expect(caughtUp.failureReason).toMatch(/No space left on device/);
    expect(server!.output()).not.toContain("resuming indexing job");
    await stop();
  }, 300_000);
});
