/**
 * Secrets out of logs, and logs for people: the real server process (`node --import tsx src/main.ts`)
 * started without LOUPE_API_KEY on a fresh data directory.
 *
 * - stdout a pipe (a log shipper, a container): JSON lines only; the generated admin key is in
 *   `<dataDir>/admin-key` (mode 0600), the log says where, and the key is nowhere in the output.
 * - stdout a terminal (a pseudo-terminal from `script`): pretty coloured lines and the key printed
 *   there once, no key file.
 * - LOUPE_LOG_FORMAT overrides either way.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort, repoRoot } from "../support/process.ts";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

type Run = { output: string; dataDir: string; base: string };

/**
 * Starts the server (through a pseudo-terminal when `tty`), waits until it answers /readyz, runs
 * `during`, then SIGTERMs its process group and returns everything it wrote.
 */
async function runServer(options: { tty: boolean; env?: Record<string, string>; during?: (run: Run) => Promise<void> }): Promise<Run> {
  const dataDir = mkdtempSync(join(tmpdir(), "loupe-adminkey-"));
  dirs.push(dataDir);
  const port = await freePort();
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of ["LOUPE_API_KEY", "LOUPE_LOG_FORMAT", "NO_COLOR", "FORCE_COLOR"]) delete env[name];
  Object.assign(env, { PORT: String(port), LOUPE_HOST: "127.0.0.1", LOUPE_DATA_DIR: dataDir, LOUPE_LOG_LEVEL: "info" }, options.env);
  const command = [process.execPath, "--import", "tsx", "src/main.ts"];
  const child = options.tty
    ? spawn("script", ["-qfec", command.map((a) => `'${a}'`).join(" "), "/dev/null"], { cwd: repoRoot, env: { ...env, TERM: "xterm-256color" }, detached: true, stdio: ["pipe", "pipe", "pipe"] })
    : spawn(command[0]!, command.slice(1), { cwd: repoRoot, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (d) => (output += String(d)));
  child.stderr!.on("data", (d) => (output += String(d)));
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  const base = `http://127.0.0.1:${port}`;
  const run = { get output() { return output; }, dataDir, base };
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const ok = await fetch(`${base}/readyz`).then((r) => r.ok, () => false);
      if (ok) break;
      if (Date.now() > deadline) throw new Error(`no answer from ${base}/readyz:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    await options.during?.(run);
  } finally {
    process.kill(-child.pid!, "SIGTERM");
    await exited;
  }
  return { output, dataDir, base };
}

const ANSI = /\x1b\[[0-9;]*m/;

describe("the generated admin key and the log format", () => {
  it("stdout not a terminal: JSON lines only, the key in <dataDir>/admin-key (0600), the log says where, the key appears in no output", async () => {
    let key = "";
    const run = await runServer({
      tty: false,
      during: async ({ dataDir, base }) => {
        const file = join(dataDir, "admin-key");
        expect(existsSync(file)).toBe(true);
        expect(statSync(file).mode & 0o777).toBe(0o600);
        key = readFileSync(file, "utf8").trim();
        expect(key).toMatch(/^lp_/);
        const me = await fetch(`${base}/v2/me`, { headers: { authorization: `Bearer ${key}` } });
        expect(me.status).toBe(200);
        expect(((await me.json()) as { role: string }).role).toBe("admin");
      },
    });
    expect(key.length).toBeGreaterThan(20);
    expect(run.output.includes(key)).toBe(false);
    expect(run.output.includes(key.slice(3))).toBe(false);
    const lines = run.output.split("\n").filter(Boolean);
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
    const parsed = lines.map((l) => JSON.parse(l) as { msg: string; file?: string; url?: string });
    const where = parsed.find((l) => l.file !== undefined);
    expect(where?.file).toBe(join(run.dataDir, "admin-key"));
    expect(where?.msg).toContain(join(run.dataDir, "admin-key"));
    expect(parsed.some((l) => l.url === run.base)).toBe(true);
    expect(ANSI.test(run.output)).toBe(false);
  }, 120_000);

  it("stdout a terminal: pretty coloured lines and the key printed there once, no key file", async () => {
    let key = "";
    const run = await runServer({
      tty: true,
      during: async ({ dataDir, base, output }) => {
        expect(existsSync(join(dataDir, "admin-key"))).toBe(false);
        key = /Admin API key \(shown once, store it now\): (\S+)/.exec(output)?.[1] ?? "";
        expect((await fetch(`${base}/v2/me`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
      },
    });
    expect(key).toMatch(/^lp_/);
    expect(run.output.split(key).length - 1).toBe(1);
    expect(ANSI.test(run.output)).toBe(true);
    expect(run.output).toMatch(/INFO.*Loupe is listening on http:\/\/127\.0\.0\.1:\d+/);
    expect(run.output).not.toMatch(/^\{"level"/m);
  }, 120_000);

  it("LOUPE_LOG_FORMAT=json on a terminal gives JSON lines; LOUPE_LOG_FORMAT=pretty on a pipe gives plain pretty lines", async () => {
    const json = await runServer({ tty: true, env: { LOUPE_LOG_FORMAT: "json", LOUPE_API_KEY: "lp_format_test_key_0123456789" } });
    // (`script` itself says "Session terminated" when it is signalled.)
    const jsonLines = json.output.split(/\r?\n/).filter((l) => l.trim() && !l.startsWith("Session terminated"));
    expect(jsonLines.length).toBeGreaterThan(2);
    for (const line of jsonLines) expect(() => JSON.parse(line), line).not.toThrow();

    const pretty = await runServer({ tty: false, env: { LOUPE_LOG_FORMAT: "pretty", LOUPE_API_KEY: "lp_format_test_key_0123456789" } });
    expect(pretty.output).toMatch(/INFO.*Loupe is listening on http:\/\/127\.0\.0\.1:\d+/);
    expect(pretty.output).not.toMatch(/^\{"level"/m);
    expect(ANSI.test(pretty.output)).toBe(false);
    expect(pretty.output).not.toContain("lp_format_test_key_0123456789");
  }, 120_000);
});
