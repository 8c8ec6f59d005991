/**
 * The data directory lock (src/data-dir-lock.ts): one holder at a time, the holder named to whoever is
 * refused, free again after release, and free again when its holder dies without releasing (kill -9):
 * the lock is the holder's listening socket, which the kernel closes with the process.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DataDirLockedError, lockDataDir } from "../../src/data-dir-lock.ts";
import { repoRoot } from "../support/process.ts";

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), "loupe-lock-"));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A child process that takes the lock, says so, and waits. */
function holdInChild(dir: string) {
  const code = `import("./src/data-dir-lock.ts").then(async (m) => { const l = await m.lockDataDir(${JSON.stringify(dir)}, "child-script"); l.setUrl("http://127.0.0.1:1"); process.stdout.write("held\\n"); setInterval(() => {}, 1000); })`;
  const child = spawn(process.execPath, ["--import", "tsx", "-e", code], { cwd: repoRoot, stdio: ["ignore", "pipe", "inherit"] });
  const held = new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (d) => String(d).includes("held") && resolve());
    child.on("exit", (c) => reject(new Error(`child exited ${c}`)));
  });
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  return { child, held, exited };
}

describe("data directory lock", () => {
  it("refuses a second holder, naming the first, until it is released", async () => {
    const dir = tempDir();
    const first = await lockDataDir(dir, "server");
    first.setUrl("http://127.0.0.1:9999");
    const refused = await lockDataDir(dir, "replay").catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DataDirLockedError);
    expect((refused as DataDirLockedError).holder).toMatchObject({ role: "server", pid: process.pid, url: "http://127.0.0.1:9999" });
    expect((refused as Error).message).toContain("a Loupe server");
    await first.release();
    expect(existsSync(first.path)).toBe(false);
    const second = await lockDataDir(dir, "replay");
    await second.release();
  });

  it("another process's lock refuses this one; when that process is killed (-9), the lock is free", async () => {
    const dir = tempDir();
    const holder = holdInChild(dir);
    await holder.held;
    const refused = await lockDataDir(dir, "replay").catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DataDirLockedError);
    expect((refused as DataDirLockedError).holder).toMatchObject({ role: "child-script", pid: holder.child.pid });
    holder.child.kill("SIGKILL");
    await holder.exited;
    expect(existsSync(join(dir, "loupe.lock"))).toBe(true); // left behind, but nobody listens
    const taken = await lockDataDir(dir, "replay");
    await taken.release();
  }, 60_000);

  it("of several starters racing for a stale lock, exactly one wins", async () => {
    const dir = tempDir();
    const holder = holdInChild(dir);
    await holder.held;
    holder.child.kill("SIGKILL");
    await holder.exited;
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => lockDataDir(dir, "racer")));
    const won = results.filter((r) => r.status === "fulfilled");
    expect(won.length).toBe(1);
    for (const r of results) if (r.status === "rejected") expect(r.reason).toBeInstanceOf(DataDirLockedError);
    await (won[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof lockDataDir>>>).value.release();
  }, 60_000);
});
