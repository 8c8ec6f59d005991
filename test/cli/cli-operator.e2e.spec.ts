/**
 * The CLI as a new user meets it: `loupe serve` started in a directory with LOUPE_LOCAL_ROOTS=. (a
 * relative root, resolved against that directory), `loupe index ./repo` registering it as the `local`
 * remote, search and status naming it `local:main:<name>`; a repository that is not indexed is a "not
 * found" that says to run `loupe index` (never a 502 about the host, which is unreachable here);
 * numbers are validated.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { git } from "../support/git-fixtures.ts";
import { freePort, repoRoot } from "../support/process.ts";
import { TEST_ADMIN_KEY } from "../support/server.ts";

let work: string;
let dataDir: string;
let server: ChildProcess;
let serverOutput = "";
let url: string;

/** `node bin/loupe.js ...` run in `cwd`. */
function loupe(args: string[], cwd: string, env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(repoRoot, "bin/loupe.js"), ...args], {
      cwd,
      env: { ...process.env, NO_COLOR: "1", LOUPE_URL: url, LOUPE_API_KEY: TEST_ADMIN_KEY, LOUPE_HOST_TOKEN: "", ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += String(d)));
    child.stderr.on("data", (d) => (stderr += String(d)));
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "loupe-operator-"));
  dataDir = join(work, ".loupe-data");
  const repo = join(work, "Gear Box");
  mkdirSync(join(repo, "src"), { recursive: true });
  writeFileSync(join(repo, "src", "gears.py"), 'def mesh_gears(left, right):\n    """Meshes two gears and returns the ratio."""\n    return left / right\n');
  git(repo, "init", "--quiet", "--initial-branch=main");
  git(repo, "add", "-A");
  git(repo, "commit", "--quiet", "-m", "initial");
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  const closed = await freePort();
  server = spawn(process.execPath, [join(repoRoot, "bin/loupe.js"), "serve", "--port", String(port), "--host", "127.0.0.1", "--data-dir", dataDir], {
    cwd: work,
    env: { ...process.env, LOUPE_LOCAL_ROOTS: ".", LOUPE_API_KEY: TEST_ADMIN_KEY, LOUPE_GITHUB_API_URL: `http://127.0.0.1:${closed}`, LOUPE_LOG_FORMAT: "json" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  server.stdout!.on("data", (d) => (serverOutput += String(d)));
  server.stderr!.on("data", (d) => (serverOutput += String(d)));
  const deadline = Date.now() + 60_000;
  while (!(await fetch(`${url}/readyz`).then((r) => r.ok, () => false))) {
    if (Date.now() > deadline || server.exitCode !== null) throw new Error(`loupe serve did not start:\n${serverOutput}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}, 90_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server.on("exit", r));
    server.kill("SIGTERM");
    await exited;
  }
  rmSync(work, { recursive: true, force: true });
});

describe("loupe as an operator runs it", () => {
  it("LOUPE_LOCAL_ROOTS=. is the directory loupe serve runs in; ./repo is indexed as the local remote and found by that name", async () => {
    const indexed = await loupe(["index", "./Gear Box", "--interval", "100"], work);
    expect(indexed.code, indexed.stderr + serverOutput).toBe(0);
    const id = /Indexed (local:main:gear-box-[0-9a-f]{8}): 1\/1 files/.exec(indexed.stdout)?.[1];
    expect(id, indexed.stdout).toBeTruthy();

    const status = await loupe(["status"], work);
    expect(status.stdout).toContain(id);
    expect(status.stdout).not.toContain("github:main:local/");
    const one = await loupe(["status", id!, "--json"], work);
    expect(JSON.parse(one.stdout)).toMatchObject({ remote: "local", repository: id!.split(":")[2], id });

    const search = await loupe(["search", "mesh two gears", "--repo", id!], work);
    expect(search.code, search.stderr).toBe(0);
    expect(search.stdout).toMatch(/src\/gears\.py/);
  }, 120_000);

  it("a repository that is not indexed: not found, with the command that indexes it (no host is asked)", async () => {
    const search = await loupe(["search", "anything", "--repo", "github:main:acme/unindexed"], work);
    expect(search.code).toBe(1);
    expect(search.stderr.trim().split("\n")).toHaveLength(1);
    expect(search.stderr).toContain("loupe search: not found: Repository not found: github:main:acme/unindexed");
    expect(search.stderr).toContain("run `loupe index acme/unindexed --branch main`");
    expect(search.stderr).not.toMatch(/502|read access/);

    const query = await loupe(["query", "what?", "--repo", "gitlab:dev:acme/unindexed"], work);
    expect(query.code).toBe(1);
    expect(query.stderr).toContain("run `loupe index acme/unindexed --remote gitlab --branch dev`");
  });

  it("numbers are validated: --limit, --interval and --port name the range and what was given", async () => {
    for (const [args, message] of [
      [["search", "x", "--repo", "github:main:a/b", "--limit", "abc"], '--limit must be a whole number from 1 to 100 (got "abc")'],
      [["search", "x", "--repo", "github:main:a/b", "--limit", "0"], '--limit must be a whole number from 1 to 100 (got "0")'],
      [["index", "acme/x", "--interval", "soon"], '--interval must be a whole number from 100 to 60000 (got "soon")'],
      [["serve", "--port", "80a"], '--port must be a whole number from 0 to 65535 (got "80a")'],
    ] as const) {
      const result = await loupe([...args], work);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(message);
    }
  });

  it("--limit is applied", async () => {
    const id = /(local:main:\S+)/.exec((await loupe(["status"], work)).stdout)![1]!;
    const limited = await loupe(["search", "gears", "--repo", id, "--limit", "1", "--json"], work);
    expect(limited.code, limited.stderr).toBe(0);
    expect((JSON.parse(limited.stdout) as unknown[]).length).toBe(1);
  });
});
