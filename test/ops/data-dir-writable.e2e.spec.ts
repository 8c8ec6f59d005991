/**
 * A data directory Loupe cannot write: one line on stderr naming the path and what to do, exit 1
 * (docs/operations.md "Start-up errors"), no stack trace. Before: "listen EROFS ... loupe.lock" with a
 * stack for a read-only mount, "Permission denied: Attempting to setup locks" naming no path for store
 * files owned by another user. Needs root (to mount a read-only tmpfs and to run as nobody).
 */
import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { spawnProcess, freePort } from "../support/process.ts";
import { startTestServer, TEST_ADMIN_KEY } from "../support/server.ts";

const isRoot = process.getuid?.() === 0;
const dirs: string[] = [];
const mounts: string[] = [];
afterAll(() => {
  for (const m of mounts) execFileSync("umount", ["-l", m]);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function startServer(dataDir: string, uid?: number) {
  const env = { PORT: String(await freePort()), LOUPE_HOST: "127.0.0.1", LOUPE_DATA_DIR: dataDir, LOUPE_API_KEY: TEST_ADMIN_KEY };
  const spawned = uid === undefined ? spawnProcess("node", ["--import", "tsx", "src/main.ts"], env) : spawnProcess("runuser", ["-u", "nobody", "--", "env", ...Object.entries(env).map(([k, v]) => `${k}=${v}`), "node", "--import", "tsx", "src/main.ts"]);
  const code = await spawned.exited;
  return { code, output: spawned.output() };
}

describe.skipIf(!isRoot)("a data directory Loupe cannot write", () => {
  it("on a read-only mount: one line naming it, exit 1", async () => {
    const mount = mkdtempSync(join(tmpdir(), "loupe-ro-"));
    dirs.push(mount);
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=4m,ro", "tmpfs", mount]);
    mounts.push(mount);
    for (const dataDir of [mount, join(mount, "data")]) {
      const { code, output } = await startServer(dataDir);
      expect(code, output).toBe(1);
      expect(output.trim().split("\n"), output).toEqual([
        `Loupe cannot write to ${mount} (it is on a read-only file system): mount it read-write, or set LOUPE_DATA_DIR to a writable directory.`,
      ]);
    }
  }, 60_000);

  it("with store files another user owns: one line naming the store, exit 1", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "loupe-rw-"));
    dirs.push(dataDir);
    const server = await startTestServer({ dataDir });
    await server.stop();
    chmodSync(dataDir, 0o777);
    execFileSync("chmod", ["-R", "a-w", join(dataDir, "events"), join(dataDir, "readmodels"), join(dataDir, "codeindex")]);
    const { code, output } = await startServer(dataDir, 65534);
    expect(code, output).toBe(1);
    const lines = output.trim().split("\n");
    expect(lines, output).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^Loupe cannot write to ${dataDir}/(events|readmodels|codeindex)\\S* \\(permission denied for uid 65534\\): make the data directory and everything in it writable`));
    execFileSync("chmod", ["-R", "u+w", dataDir]);
  }, 60_000);
});
