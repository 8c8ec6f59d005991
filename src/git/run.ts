/**
 * Runs git as a child process: argument arrays only (never a shell), a clean environment (no GIT_*
 * variables leak in from ours, no terminal prompts), timeouts, and errors whose text has credentials
 * stripped. Callers put `--end-of-options` / `--` before user-influenced revisions and paths.
 */
import { execFile, spawn, type ChildProcessWithoutNullStreams } from "node:child_process";

export const DEFAULT_TIMEOUT_MS = 120_000;
/** Output is buffered up to this many bytes (ls-tree of a huge repository, big diffs). */
export const DEFAULT_MAX_BUFFER = 1024 * 1024 * 1024;

export type GitRunOptions = {
  /** Working directory (a bare mirror's path for most commands). */
  cwd?: string;
  /** Extra environment, e.g. a host's `gitAuthEnv(token)`; its values are redacted from errors. */
  env?: Record<string, string>;
  timeoutMs?: number;
  maxBuffer?: number;
  /** Written to stdin. */
  input?: string | Buffer;
};

/** A failed git command. `stderr` and `message` never contain credentials. */
export class GitError extends Error {
  constructor(
    message: string,
    readonly args: string[],
    readonly exitCode: number | null,
    readonly stderr: string,
    readonly timedOut: boolean,
  ) {
    super(message);
    this.name = "GitError";
  }
}

/**
 * Removes credentials from text git printed: userinfo in URLs, Authorization values, extraHeader
 * settings, and any of the `secrets` verbatim (including their base64 forms).
 */
export function redact(text: string, secrets: readonly string[] = []): string {
  let out = text
    .replace(/([a-z][a-z0-9+.-]*:\/\/)[^\s/@]+@/gi, "$1***@")
    .replace(/(authorization:\s*)(basic|bearer|token)?\s*[^\s'"]+/gi, (_m, a: string, scheme?: string) => `${a}${scheme ? scheme + " " : ""}***`)
    .replace(/(extraheader[=\s]+)[^\n]*/gi, "$1***");
  for (const secret of secrets) {
    if (secret.length < 4) continue;
    out = out.split(secret).join("***");
  }
  return out;
}

/** Values of the extra env worth redacting (auth headers and what they contain). */
function secretsOf(env: Record<string, string> | undefined): string[] {
  if (!env) return [];
  const values: string[] = [];
  for (const [key, value] of Object.entries(env)) {
    if (!/^GIT_CONFIG_VALUE_|TOKEN|PASSWORD|AUTH/i.test(key)) continue;
    values.push(value);
    const m = /^\s*authorization:\s*(?:basic|bearer)\s+(\S+)/i.exec(value);
    if (m) {
      values.push(m[1]!);
      try {
        const decoded = Buffer.from(m[1]!, "base64").toString("utf8");
        const colon = decoded.indexOf(":");
        if (colon >= 0 && decoded.length - colon > 4) values.push(decoded.slice(colon + 1));
      } catch {
        /* not base64 */
      }
    }
  }
  return values;
}

/** Our environment without GIT_* variables, plus the settings every git call gets, plus `extra`. */
export function gitEnv(extra?: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.toUpperCase().startsWith("GIT_") || key === "SSH_ASKPASS") continue;
    env[key] = value;
  }
  env.GIT_TERMINAL_PROMPT = "0";
  env.GIT_ASKPASS = "true"; // any credential prompt gets an empty answer instead of hanging
  env.GCM_INTERACTIVE = "never";
  env.LC_ALL = "C";
  return { ...env, ...extra };
}

function describe(args: string[], secrets: string[]): string {
  return redact(args.slice(0, 4).join(" "), secrets);
}

/** Runs `git <args>` and resolves with its stdout (bytes) when it exits 0; throws GitError otherwise. */
export function runGit(args: string[], options: GitRunOptions = {}): Promise<{ stdout: Buffer; stderr: string }> {
  const secrets = secretsOf(options.env);
  return new Promise((resolve, reject) => {
    const child = execFile(
      "git",
      args,
      {
        cwd: options.cwd,
        env: gitEnv(options.env),
        encoding: "buffer",
        timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        killSignal: "SIGKILL",
        maxBuffer: options.maxBuffer ?? DEFAULT_MAX_BUFFER,
        windowsHide: true,
      },
      (error, stdout, stderr) => {
        const errText = redact(Buffer.from(stderr ?? "").toString("utf8"), secrets).trim();
        if (!error) return resolve({ stdout: Buffer.from(stdout), stderr: errText });
        const e = error as NodeJS.ErrnoException & { killed?: boolean; code?: number | string; signal?: string };
        const timedOut = Boolean(e.killed) && e.signal === "SIGKILL";
        const exitCode = typeof e.code === "number" ? e.code : null;
        const what = describe(args, secrets);
        const reason = timedOut
          ? `timed out after ${options.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms`
          : e.code === "ENOENT"
            ? "git is not installed"
            : e.code === "ERR_CHILD_PROCESS_STDIO_MAXBUFFER"
              ? "output too large"
              : `exit code ${exitCode ?? e.signal ?? "?"}`;
        const detail = errText ? `: ${lastLines(errText, 4)}` : "";
        reject(new GitError(`git ${what} failed (${reason})${detail}`, args.map((a) => redact(a, secrets)), exitCode, errText, timedOut));
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
    else child.stdin?.end();
  });
}

/** Runs git and returns stdout as trimmed text. */
export async function gitText(args: string[], options: GitRunOptions = {}): Promise<string> {
  const { stdout } = await runGit(args, options);
  return stdout.toString("utf8").trim();
}

/** Starts a long-running git process (e.g. `cat-file --batch`) with the same environment rules. */
export function spawnGit(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): ChildProcessWithoutNullStreams {
  return spawn("git", args, { cwd: options.cwd, env: gitEnv(options.env), stdio: ["pipe", "pipe", "pipe"], windowsHide: true });
}

function lastLines(text: string, n: number): string {
  return text.split("\n").filter(Boolean).slice(-n).join(" | ").slice(0, 1000);
}
