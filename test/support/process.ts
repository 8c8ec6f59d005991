import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";

export const repoRoot = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");
export const tsxBin = `${repoRoot}/node_modules/.bin/tsx`;
export const denoBin = `${repoRoot}/node_modules/.bin/deno`;

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export type Spawned = {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
};

/** Spawns a process from the repository root, collecting stdout+stderr. */
export function spawnProcess(command: string, args: string[], env: Record<string, string> = {}): Spawned {
  const child = spawn(command, args, { cwd: repoRoot, env: { ...process.env, NO_COLOR: "1", ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout!.on("data", (d) => (out += String(d)));
  child.stderr!.on("data", (d) => (out += String(d)));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => out, exited };
}

export async function waitForHttp(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
