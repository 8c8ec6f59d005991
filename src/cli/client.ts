import process from "node:process";
import { REPOSITORY_NAME } from "./args.ts";

/** An error the CLI reports as one line on stderr, exiting with `exitCode`. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = "CliError";
  }
}

export type ClientOptions = { url: string; key: string | undefined; hostToken?: string | undefined };

/** The service's error body `{ error: { code, message, details } }`, or whatever text it sent. */
async function serverMessage(response: Response): Promise<{ code: string | undefined; message: string }> {
  const text = await response.text().catch(() => "");
  try {
    const body = JSON.parse(text) as { error?: { code?: string; message?: string } | string; message?: string };
    if (body.error && typeof body.error === "object") return { code: body.error.code, message: body.error.message ?? text };
    if (typeof body.error === "string") return { code: undefined, message: body.error };
    if (typeof body.message === "string") return { code: undefined, message: body.message };
  } catch {
    // not JSON
  }
  return { code: undefined, message: text.trim().slice(0, 300) || response.statusText || `HTTP ${response.status}` };
}

/** What to do about a refusal, by status, unless the command knows better (`hints`). */
const NEXT_STEP: Record<number, string> = {
  400: "fix the request and run it again",
  401: "check --key or LOUPE_API_KEY",
  403: "use an admin key of this organisation: an admin issues one with `loupe keys issue <name> --role admin`",
  404: "check the name; `loupe status` lists what is indexed",
  409: "wait until indexing has finished (`loupe status <id>`), then run it again",
  413: "send less at once",
};

/**
 * Turns a non-2xx response into a one-line CliError naming the cause and what to do next. `hints`
 * replaces the next step for a status (404) or a server error code (`repository_not_found`).
 */
export async function errorFor(response: Response, what: string, hints: Record<string, string> = {}): Promise<CliError> {
  const { code, message } = await serverMessage(response);
  const next = (code && hints[code]) ?? hints[String(response.status)] ?? NEXT_STEP[response.status];
  const label = ({ 400: "invalid request", 401: "authentication failed", 403: "forbidden", 404: "not found", 409: "conflict", 413: "request too large" } as Record<number, string>)[response.status];
  // The server's message may already open with the label ("Invalid request: remote: ..."): said once.
  const said = label && message.toLowerCase().startsWith(`${label}:`) ? message.slice(label.length + 1).trimStart() : message;
  if (label) return new CliError(`${label}: ${said}${next ? ` (${next})` : ""}`);
  const requestId = response.headers.get("x-request-id");
  return new CliError(
    `${what} failed: HTTP ${response.status}: ${message} (try again; if it persists, look for ${requestId ? `request id ${requestId}` : "this request"} in the server's logs)`,
  );
}

function connectionError(url: string, error: unknown): CliError {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  const code = cause?.code ?? "";
  const text = code === "ECONNREFUSED" ? "connection refused" : code === "ENOTFOUND" ? "host not found" : (cause?.message ?? (error as Error)?.message ?? String(error));
  return new CliError(`cannot reach Loupe at ${url} (${text}); is the service running? (set --url or LOUPE_URL)`);
}

export type Client = ReturnType<typeof createClient>;

export function createClient(options: ClientOptions) {
  const base = options.url.replace(/\/+$/, "");
  try {
    const parsed = new URL(base);
    if (!["http:", "https:"].includes(parsed.protocol)) throw new Error("scheme");
  } catch {
    throw new CliError(`invalid service URL ${JSON.stringify(options.url)} (expected http(s)://host:port)`, 2);
  }

  const requireKey = () => {
    if (!options.key) throw new CliError("no API key: pass --key <key> or set LOUPE_API_KEY", 2);
    return options.key;
  };

  /** A raw request; connection failures become CliErrors. Non-2xx responses are returned as they are. */
  async function send(method: string, path: string, init: { json?: unknown; auth?: boolean; headers?: Record<string, string>; signal?: AbortSignal } = {}) {
    const headers = new Headers(init.headers);
    if (init.auth !== false) headers.set("authorization", `Bearer ${requireKey()}`);
    if (options.hostToken) headers.set("x-host-token", options.hostToken);
    let body: string | undefined;
    if (init.json !== undefined) {
      headers.set("content-type", "application/json");
      body = JSON.stringify(init.json);
    }
    try {
      return await fetch(base + path, { method, headers, body, signal: init.signal });
    } catch (error) {
      throw connectionError(base, error);
    }
  }

  return {
    url: base,
    send,
    /** JSON request; non-2xx become CliErrors with the server's message. */
    async json<T>(method: string, path: string, json?: unknown, what = `${method} ${path}`): Promise<T> {
      const response = await send(method, path, { json });
      if (!response.ok) throw await errorFor(response, what);
      return (await response.json()) as T;
    },
  };
}

/** Service URL, key and host token from flags, then the environment. */
export function clientOptions(flags: { url?: string | undefined; key?: string | undefined; hostToken?: string | undefined }): ClientOptions {
  return {
    url: flags.url ?? process.env.LOUPE_URL ?? "http://localhost:8080",
    key: flags.key ?? (process.env.LOUPE_API_KEY || undefined),
    hostToken: flags.hostToken ?? (process.env.LOUPE_HOST_TOKEN || undefined),
  };
}

/**
 * A repository reference `remote:branch:owner/repo` (or `owner/repo`, `branch:owner/repo`), or a
 * repository indexed by path, `local:branch:<name>` (as `loupe index <path>` and `loupe status` show it).
 */
export function parseRepoRef(value: string, defaults: { remote?: string; branch?: string } = {}) {
  const parts = value.split(":");
  const repository = parts.pop() ?? "";
  const branch = parts.length === 2 ? parts[1]! : parts.length === 1 ? parts[0]! : defaults.branch;
  const remote = parts.length === 2 ? parts[0]! : (defaults.remote ?? "github");
  const shape = remote === "local" ? /^[^/\s]+$/ : REPOSITORY_NAME;
  if (parts.length > 2 || !shape.test(repository)) {
    throw new CliError(`invalid repository ${JSON.stringify(value)}: expected remote:branch:owner/repo (e.g. github:main:acme/api) or local:branch:<name>`, 2);
  }
  if (!branch) throw new CliError(`repository ${JSON.stringify(value)} needs a branch: remote:branch:owner/repo`, 2);
  return { remote, branch, repository };
}

/** What to do when a search or question names a repository that is not indexed. */
export const notIndexedHint = (refs: { remote: string; branch: string; repository: string }[]) =>
  `not indexed yet? run ${refs
    .map((r) => (r.remote === "local" ? "`loupe index <path>`" : `\`loupe index ${r.repository}${r.remote === "github" ? "" : ` --remote ${r.remote}`} --branch ${r.branch}\``))
    .join(" / ")} and wait for it to complete; \`loupe status\` lists what is indexed`;
