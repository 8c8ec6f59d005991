import { spawn } from "node:child_process";
import { repoRoot } from "./process.ts";

export type CliResult = { code: number | null; stdout: string; stderr: string };

/** Runs the real CLI binary (`node bin/loupe.js ...`) asynchronously (an in-process server keeps serving). */
export function runCli(args: string[], env: Record<string, string | undefined> = {}, options: { timeoutMs?: number } = {}): Promise<CliResult> {
  const childEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, NO_COLOR: "1", ...env })) if (v !== undefined) childEnv[k] = v;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [`${repoRoot}/bin/loupe.js`, ...args], { cwd: repoRoot, env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += String(d)));
    child.stderr.on("data", (d) => (stderr += String(d)));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`loupe ${args.join(" ")} timed out\n${stdout}\n${stderr}`));
    }, options.timeoutMs ?? 60_000);
    child.on("error", reject);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
