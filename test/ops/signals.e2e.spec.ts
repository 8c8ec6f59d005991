/**
 * `npm start` runs node itself (`exec node --import tsx src/main.ts`), and `npm run start:deno` deno
 * itself (`exec deno run ...`), so a SIGTERM or SIGINT sent to the npm process reaches the process that
 * serves: after the signal, npm exits and no process it started is left running (no orphan still
 * serving on the port and holding the data directory).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort, repoRoot } from "../support/process.ts";
import { TEST_ADMIN_KEY } from "../support/server.ts";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Every process whose parent chain leads to `root` (from /proc), with its command line. */
function descendants(root: number): { pid: number; cmd: string }[] {
  const parents = new Map<number, number>();
  const cmds = new Map<number, string>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parents.set(Number(name), ppid);
      cmds.set(Number(name), readFileSync(`/proc/${name}/cmdline`, "utf8").replace(/\0/g, " ").trim());
    } catch {
      // gone meanwhile
    }
  }
  const out: { pid: number; cmd: string }[] = [];
  for (const pid of parents.keys()) {
    for (let p = parents.get(pid); p !== undefined && p > 1; p = parents.get(p)) {
      if (p === root) {
        out.push({ pid, cmd: cmds.get(pid) ?? "" });
        break;
      }
    }
  }
  return out;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("npm start (and npm run start:deno) and signals", () => {
  const cases = [
    { script: ["start"], signal: "SIGTERM" },
    { script: ["start"], signal: "SIGINT" },
    // Deno: `exec deno run ...` too; without the exec, sh and npm exited and deno kept serving.
    { script: ["run", "start:deno"], signal: "SIGTERM" },
  ] as const;
  for (const { script, signal } of cases) {
    it(`${signal} to the process of \`npm ${script.join(" ")}\` stops the server: npm exits and no child remains`, async () => {
      const dataDir = mkdtempSync(join(tmpdir(), "loupe-signals-"));
      dirs.push(dataDir);
      const port = await freePort();
      const env = { ...process.env, PORT: String(port), LOUPE_HOST: "127.0.0.1", LOUPE_DATA_DIR: dataDir, LOUPE_API_KEY: TEST_ADMIN_KEY, LOUPE_LOG_FORMAT: "json" };
      const npm = spawn("npm", [...script, "--silent"], { cwd: repoRoot, env, stdio: ["ignore", "pipe", "pipe"] });
      let output = "";
      npm.stdout!.on("data", (d) => (output += String(d)));
      npm.stderr!.on("data", (d) => (output += String(d)));
      const exited = new Promise<number | null>((resolve) => npm.on("exit", (code) => resolve(code)));
      const base = `http://127.0.0.1:${port}`;
      const deadline = Date.now() + 60_000;
      while (!(await fetch(`${base}/readyz`).then((r) => r.ok, () => false))) {
        if (Date.now() > deadline) throw new Error(`npm start did not get ready:\n${output}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      const tree = descendants(npm.pid!);
      const server = tree.find((p) => p.cmd.includes("src/main.ts"));
      expect(server, JSON.stringify(tree)).toBeDefined();
      // node itself serves: no tsx wrapper process between npm and the service.
      expect(tree.some((p) => /node_modules\/\.bin\/tsx|tsx\/dist\/cli/.test(p.cmd)), JSON.stringify(tree)).toBe(false);

      npm.kill(signal);
      // npm forwards the signal to its child, which is node itself (`exec node ...`), and waits for it.
      const code = await Promise.race([exited, new Promise<"timeout">((r) => setTimeout(() => r("timeout"), 30_000))]);
      // A helper of node's (tsx's esbuild service) ends when its pipe to node closes: give it a moment.
      for (let i = 0; i < 50 && tree.some((p) => alive(p.pid)); i++) await new Promise((r) => setTimeout(r, 100));
      const left = tree.filter((p) => alive(p.pid));
      for (const p of left) process.kill(p.pid, "SIGKILL");
      expect(code, output).toBe(0);
      expect(left, JSON.stringify(left)).toEqual([]);
      expect(output).toContain('"msg":"shutdown complete"');
      expect(await fetch(`${base}/readyz`).then(() => "answered", () => "refused")).toBe("refused");
    }, 120_000);
  }
});
