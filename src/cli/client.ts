import process from "node:process";

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

/** Turns a non-2xx response into a one-line CliError naming the cause and, when useful, the fix. */
export async function errorFor(response: Response, what: string): Promise<CliError> {
  const { message } = await serverMessage(response);
  switch (response.status) {
    case 400:
      return new CliError(`invalid request: ${message}`);
    case 401:
      return new CliError(`authentication failed: ${message} (check --key or LOUPE_API_KEY)`);
    case 403:
      return new CliError(`forbidden: ${message}`);
    case 404:
      return new CliError(`not found: ${message}`);
    case 409:
      return new CliError(`conflict: ${message}`);
    case 413:
      return new CliError(`request too large: ${message}`);
    default:
      return new CliError(`${what} failed: HTTP ${response.status}: ${message}`);
  }
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

/** A repository reference `remote:branch:owner/repo` (or `owner/repo`, `branch:owner/repo`). */
export function parseRepoRef(value: string, defaults: { remote?: string; branch?: string } = {}) {
  const parts = value.split(":");
  const repository = parts.pop() ?? "";
  const branch = parts.length === 2 ? parts[1]! : parts.length === 1 ? parts[0]! : defaults.branch;
  const remote = parts.length === 2 ? parts[0]! : (defaults.remote ?? "github");
  if (parts.length > 2 || !/^[^/\s]+(\/[^/\s]+)+$/.test(repository)) {
    throw new CliError(`invalid repository ${JSON.stringify(value)}: expected remote:branch:owner/repo (e.g. github:main:acme/api)`, 2);
  }
  if (!branch) throw new CliError(`repository ${JSON.stringify(value)} needs a branch: remote:branch:owner/repo`, 2);
  return { remote, branch, repository };
}
