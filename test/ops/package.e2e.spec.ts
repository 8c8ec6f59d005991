/**
 * The package as a new user installs it: `npm pack` gives a tarball (with the lockfile as
 * npm-shrinkwrap.json, so the install gets the tested versions), `npm i -g --prefix <tmp>` installs it
 * outside the checkout, and its `loupe` and `loupe-mcp` work from another directory: `loupe serve`
 * starts the service, `loupe status` reads it, `loupe-mcp` bridges a tools/list over stdio.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, repoRoot } from "../support/process.ts";

const run = promisify(execFile);
const KEY = "lp_package_test_key_0123456789abcdef";

describe("npm pack -> npm i -g -> loupe, loupe-mcp", () => {
  let work: string;
  let prefix: string;
  let tarball: string;
  let files: string[];
  let server: ChildProcess | undefined;
  let serverOutput = "";
  let url: string;
  const env = () => ({ ...process.env, NO_COLOR: "1", LOUPE_URL: url, LOUPE_API_KEY: KEY });

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "loupe-package-"));
    prefix = join(work, "prefix");
    const packed = await run("npm", ["pack", "--json", "--pack-destination", work], { cwd: repoRoot, maxBuffer: 64 * 1024 * 1024 });
    const info = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
    tarball = join(work, info[0]!.filename);
    files = info[0]!.files.map((f) => f.path);
    await run("npm", ["install", "--global", "--prefix", prefix, tarball, "--prefer-offline", "--no-audit", "--no-fund"], { cwd: work, maxBuffer: 64 * 1024 * 1024, timeout: 600_000 });
  }, 660_000);

  afterAll(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((r) => server!.on("exit", r));
      server.kill("SIGTERM");
      await exited;
    }
    rmSync(work, { recursive: true, force: true });
  });

  it("the tarball holds the service and the lockfile, not the tests or local state", () => {
    expect(files).toEqual(expect.arrayContaining(["bin/loupe.js", "bin/loupe-mcp.js", "src/main.ts", "src/cli/main.ts", "projections/runner.ts", "npm-shrinkwrap.json", "package.json"]));
    expect(files.filter((f) => /^(test|node_modules|data|test-results)\//.test(f))).toEqual([]);
    // The lockfile copy is made for packing only.
    expect(readdirSync(repoRoot)).not.toContain("npm-shrinkwrap.json");
  });

  it("the installed loupe serves and answers from a directory outside the checkout", async () => {
    const bin = join(prefix, "bin");
    const help = await run(join(bin, "loupe"), ["--help"], { cwd: work, env: env() }).catch((e: { stdout: string; code: number }) => e);
    expect(help.stdout).toContain("Usage: loupe <command>");

    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    server = spawn(join(bin, "loupe"), ["serve", "--port", String(port), "--host", "127.0.0.1", "--data-dir", join(work, "data")], { cwd: work, env: { ...env(), LOUPE_LOG_FORMAT: "json" } });
    server.stdout!.on("data", (d) => (serverOutput += String(d)));
    server.stderr!.on("data", (d) => (serverOutput += String(d)));
    const deadline = Date.now() + 90_000;
    while (!(await fetch(`${url}/readyz`).then((r) => r.ok, () => false))) {
      if (Date.now() > deadline || server.exitCode !== null) throw new Error(`the installed loupe did not start:\n${serverOutput}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const status = await run(join(bin, "loupe"), ["status"], { cwd: work, env: env() });
    expect(status.stdout).toMatch(/Service\s+http:\/\/127\.0\.0\.1:\d+ \(ready\)/);
    expect(status.stdout).toMatch(/Caller\s+key \S+ \(admin\)/);
  }, 120_000);

  it("the installed loupe-mcp bridges JSON-RPC over stdio to the service", async () => {
    const bridge = spawn(join(prefix, "bin", "loupe-mcp"), ["--url", url, "--key", KEY], { cwd: work, env: env() });
    let out = "";
    bridge.stdout.on("data", (d) => (out += String(d)));
    bridge.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) + "\n");
    const deadline = Date.now() + 60_000;
    while (!out.includes("\n") && Date.now() < deadline && bridge.exitCode === null) await new Promise((r) => setTimeout(r, 100));
    bridge.stdin.end();
    bridge.kill("SIGTERM");
    const answer = JSON.parse(out.split("\n")[0]!) as { id: number; result: { tools: { name: string }[] } };
    expect(answer.id).toBe(1);
    expect(answer.result.tools.map((t) => t.name)).toEqual(expect.arrayContaining(["search_code", "list_pull_requests", "trigger_code_review"]));
  }, 90_000);
});
