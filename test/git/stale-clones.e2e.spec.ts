/**
 * A crash during a clone (kill -9 while `git clone --mirror` writes `<name>.git.tmp-<id>`) used to leave
 * that directory forever. The server removes such temporary clones when it starts (it holds the data
 * directory's lock, so no other process is cloning there), and keeps the mirrors.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.ts";

let server: TestServer | undefined;
afterAll(async () => {
  await server?.stop({ remove: true });
});

describe("temporary clones left by a crash", () => {
  it("are removed at start-up; mirrors stay", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "loupe-stale-clones-"));
    const owner = join(dataDir, "mirrors", "github", "acme");
    mkdirSync(owner, { recursive: true });
    // A real (interrupted) clone: a bare repository under the temporary name, and a finished mirror.
    execFileSync("git", ["init", "--quiet", "--bare", join(owner, "widgets.git.tmp-1a2b3c4d")]);
    writeFileSync(join(owner, "widgets.git.tmp-1a2b3c4d", "objects", "pack-partial"), Buffer.alloc(1024));
    execFileSync("git", ["init", "--quiet", "--bare", join(owner, "gadgets.git")]);
    mkdirSync(join(dataDir, "mirrors", "gitlab", "group", "sub"), { recursive: true });
    execFileSync("git", ["init", "--quiet", "--bare", join(dataDir, "mirrors", "gitlab", "group", "sub", "tool.git.tmp-9f8e7d6c")]);

    server = await startTestServer({ dataDir });
    expect(existsSync(join(owner, "widgets.git.tmp-1a2b3c4d"))).toBe(false);
    expect(existsSync(join(dataDir, "mirrors", "gitlab", "group", "sub", "tool.git.tmp-9f8e7d6c"))).toBe(false);
    expect(existsSync(join(owner, "gadgets.git", "HEAD"))).toBe(true);
    expect(server.logs()).toContain("removed temporary clones an earlier run left behind");
  });
});
