/**
 * The HTTP policy shared by every model adapter: POST a JSON body with a per-attempt timeout,
 * retry 429 / 5xx / network failures / timeouts with exponential backoff and jitter (honouring
 * Retry-After), never retry other 4xx, and never let an API key reach an error message.
 * Plain global fetch and AbortController, so the same code runs on Node 20 and Deno 2.
 */
import { LlmError, redact } from "./errors.ts";

export type RetryPolicy = {
  /** Retries after the first attempt (0 = one attempt only). */
  maxRetries: number;
  /** First backoff delay; doubles per retry, then jittered to [delay/2, delay]. */
  baseDelayMs: number;
  /** Cap on the computed backoff delay. */
  maxDelayMs: number;
  /** Cap on a server-requested Retry-After delay. */
  maxRetryAfterMs: number;
};

export function retryPolicy(overrides: Partial<RetryPolicy> = {}): RetryPolicy {
  return { maxRetries: 4, baseDelayMs: 500, maxDelayMs: 20_000, maxRetryAfterMs: 60_000, ...overrides };
}

export type HttpTarget = {
  /** Label used in error messages, e.g. "openai embeddings". */
  label: string;
  url: string;
  headers: Record<string, string>;
  /** Values redacted from every error message (API keys). */
  secrets: readonly (string | undefined)[];
  /** Per attempt: until the whole body is read (JSON) or until headers arrive (streams). */
  timeoutMs: number;
  retry: RetryPolicy;
  fetch?: typeof fetch;
};

/**
 * `{baseUrl}/v1{path}`; `baseUrl` may or may not already end in `/v1` (trailing slashes ignored).
 * Query parameters of `baseUrl` are kept.
 */
export function apiUrl(baseUrl: string, path: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new LlmError("invalid base URL (expected http(s)://host[:port][/prefix])", { kind: "config" });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new LlmError(`unsupported base URL scheme ${url.protocol}`, { kind: "config" });
  }
  let prefix = url.pathname.replace(/\/+$/, "");
  if (!/\/v1$/.test(prefix)) prefix += "/v1";
  url.pathname = prefix + path;
  return url.toString();
}

/** POSTs `body` and returns the parsed JSON response, retrying per the target's policy. */
export async function postJson(target: HttpTarget, body: unknown, signal?: AbortSignal): Promise<unknown> {
  return attempts(target, body, signal, async (res) => {
    const text = await res.text();
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new LlmError(`${target.label}: response is not JSON: ${snippet(text, target.secrets)}`, {
        kind: "response",
      });
    }
  });
}

/**
 * POSTs `body` and returns the response body as chunks once a 2xx status arrives. The retry and
 * timeout policy covers the request up to the response headers; afterwards the stream fails with
 * an LlmError (kind "timeout") when no chunk arrives for `timeoutMs`. Ending the iteration early
 * (break / return) cancels the request.
 */
export async function postStream(
  target: HttpTarget,
  body: unknown,
  signal?: AbortSignal,
): Promise<AsyncIterable<Uint8Array>> {
  return attempts(target, body, signal, async (res, ctl, release) => {
    release.keepOpen();
    return readChunks(res, ctl, signal, target, release.done);
  });
}

type Release = { keepOpen(): void; done(): void };

async function attempts<T>(
  target: HttpTarget,
  body: unknown,
  signal: AbortSignal | undefined,
  onOk: (res: Response, ctl: AbortController, release: Release) => Promise<T>,
): Promise<T> {
  const doFetch = target.fetch ?? globalThis.fetch;
  const payload = JSON.stringify(body);
  const where = describeUrl(target.url, target.secrets);
  for (let attempt = 1; ; attempt++) {
    signal?.throwIfAborted();
    const ctl = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      ctl.abort(new Error("timeout"));
    }, target.timeoutMs);
    const unlink = linkSignal(signal, ctl);
    let kept = false;
    const release: Release = {
      keepOpen: () => {
        kept = true;
        clearTimeout(timer);
      },
      done: unlink,
    };
    let failure: LlmError;
    let retryAfterMs: number | null = null;
    try {
      const res = await doFetch(target.url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", ...target.headers },
        body: payload,
        signal: ctl.signal,
      });
      if (res.ok) return await onOk(res, ctl, release);
      const text = await res.text().catch(() => "");
      const retryable = res.status === 429 || res.status >= 500;
      if (retryable) retryAfterMs = parseRetryAfter(res.headers, target.retry.maxRetryAfterMs);
      failure = new LlmError(
        `${target.label}: POST ${where} answered HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ""}: ${errorDetail(text, target.secrets)}`,
        { kind: "http", status: res.status, retryable, attempts: attempt },
      );
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      if (timedOut) {
        failure = new LlmError(`${target.label}: POST ${where} timed out after ${target.timeoutMs} ms`, {
          kind: "timeout",
          retryable: true,
          attempts: attempt,
        });
      } else if (err instanceof LlmError) {
        throw err;
      } else {
        failure = new LlmError(`${target.label}: POST ${where} failed: ${describeError(err, target.secrets)}`, {
          kind: "network",
          retryable: true,
          attempts: attempt,
        });
      }
    } finally {
      if (!kept) {
        clearTimeout(timer);
        unlink();
      }
    }
    if (!failure.retryable || attempt > target.retry.maxRetries) {
      if (attempt === 1) throw failure;
      throw new LlmError(`${failure.message} (gave up after ${attempt} attempts)`, {
        kind: failure.kind,
        status: failure.status,
        retryable: failure.retryable,
        attempts: attempt,
      });
    }
    await sleep(retryAfterMs ?? backoffDelay(attempt, target.retry), signal);
  }
}

async function* readChunks(
  res: Response,
  ctl: AbortController,
  signal: AbortSignal | undefined,
  target: HttpTarget,
  done: () => void,
): AsyncGenerator<Uint8Array> {
  if (!res.body) {
    done();
    return;
  }
  const reader = res.body.getReader();
  let finished = false;
  try {
    for (;;) {
      let idle = false;
      const timer = setTimeout(() => {
        idle = true;
        ctl.abort(new Error("idle timeout"));
      }, target.timeoutMs);
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (err) {
        if (signal?.aborted) throw signal.reason;
        if (idle) {
          throw new LlmError(`${target.label}: stream received nothing for ${target.timeoutMs} ms`, {
            kind: "timeout",
            retryable: true,
          });
        }
        throw new LlmError(`${target.label}: stream broke: ${describeError(err, target.secrets)}`, {
          kind: "network",
          retryable: true,
        });
      } finally {
        clearTimeout(timer);
      }
      if (chunk.done) {
        finished = true;
        return;
      }
      yield chunk.value;
    }
  } finally {
    done();
    if (!finished) {
      ctl.abort(new Error("stream closed by consumer"));
      await reader.cancel().catch(() => undefined);
    }
  }
}

/** Delay before retry number `attempt` (1-based): base * 2^(attempt-1), capped, jittered to [d/2, d]. */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const d = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(d / 2 + random() * (d / 2));
}

/** Milliseconds from `retry-after-ms` or `retry-after` (seconds or HTTP date), capped; null if absent. */
export function parseRetryAfter(headers: Headers, capMs: number, now: number = Date.now()): number | null {
  const ms = headers.get("retry-after-ms");
  if (ms !== null && ms.trim() !== "" && Number.isFinite(Number(ms))) {
    return clamp(Number(ms), 0, capMs);
  }
  const value = headers.get("retry-after");
  if (value === null || value.trim() === "") return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return clamp(seconds * 1000, 0, capMs);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return null;
  return clamp(date - now, 0, capMs);
}

function clamp(n: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, Math.round(n)));
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

function linkSignal(parent: AbortSignal | undefined, ctl: AbortController): () => void {
  if (!parent) return () => undefined;
  if (parent.aborted) {
    ctl.abort(parent.reason);
    return () => undefined;
  }
  const onAbort = () => ctl.abort(parent.reason);
  parent.addEventListener("abort", onAbort, { once: true });
  return () => parent.removeEventListener("abort", onAbort);
}

/** origin + path only: user info and query strings may hold credentials. */
function describeUrl(url: string, secrets: readonly (string | undefined)[]): string {
  try {
    const u = new URL(url);
    return redact(`${u.origin}${u.pathname}`, secrets);
  } catch {
    return "(invalid url)";
  }
}

function describeError(err: unknown, secrets: readonly (string | undefined)[]): string {
  const parts: string[] = [];
  let current: unknown = err;
  for (let depth = 0; depth < 3 && current !== undefined && current !== null; depth++) {
    if (current instanceof Error) {
      const code = (current as { code?: unknown }).code;
      parts.push(typeof code === "string" && !current.message.includes(code) ? `${current.message} [${code}]` : current.message);
      current = current.cause;
    } else {
      parts.push(String(current));
      break;
    }
  }
  return redact(parts.filter((p) => p !== "").join(": ") || "unknown error", secrets);
}

/** The provider's error message when the body is a JSON error document, else a snippet of the body. */
function errorDetail(text: string, secrets: readonly (string | undefined)[]): string {
  try {
    const doc = JSON.parse(text) as unknown;
    const message = findErrorMessage(doc);
    if (message !== null) return snippet(message, secrets);
  } catch {
    // not JSON
  }
  return snippet(text, secrets) || "(empty body)";
}

function findErrorMessage(doc: unknown): string | null {
  if (typeof doc !== "object" || doc === null) return null;
  const record = doc as Record<string, unknown>;
  const error = record["error"];
  if (typeof error === "string") return error;
  if (typeof error === "object" && error !== null) {
    const message = (error as Record<string, unknown>)["message"];
    const type = (error as Record<string, unknown>)["type"];
    if (typeof message === "string") return typeof type === "string" ? `${type}: ${message}` : message;
  }
  const message = record["message"] ?? record["detail"];
  return typeof message === "string" ? message : null;
}

export function snippet(text: string, secrets: readonly (string | undefined)[], max = 300): string {
  const clean = redact(text, secrets).replace(/\s+/g, " ").trim();
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}
