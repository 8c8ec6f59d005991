/**
 * Helpers shared by the host modules: constant-time comparisons, delivery ids, a small JSON HTTP
 * client that never leaks tokens, and payload accessors. Internal to src/hosts/.
 */
import { Buffer } from "node:buffer";
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { HostError, HostRateLimitError, WebhookPayloadError } from "./errors.ts";
import type { HostIgnoredEvent, InlineReviewComment, Remote } from "./types.ts";

// ---------------------------------------------------------------------------------------------
// Crypto

// A string goes to the hash as it is: hashed as its UTF-8 bytes, without encoding a copy first.
export function sha256Hex(data: Uint8Array | string): string {
  return createHash("sha256").update(data).digest("hex");
}

export function hmacSha256Hex(secret: string, body: Uint8Array | string): string {
  return createHmac("sha256", secret).update(body).digest("hex");
}

/**
 * Constant-time equality of two strings of any length: both are hashed first, so neither the
 * contents nor the length of the expected value leak through timing.
 */
export function safeEqual(a: string, b: string): boolean {
  const ha = createHash("sha256").update(a, "utf8").digest();
  const hb = createHash("sha256").update(b, "utf8").digest();
  return timingSafeEqual(ha, hb);
}

/** Checks `sha256=<hex>` (GitHub X-Hub-Signature-256, Bitbucket X-Hub-Signature). */
export function verifySha256Signature(
  header: string | null,
  rawBody: Uint8Array | string,
  secret: string,
): boolean {
  if (!secret || !header) return false;
  const expected = `sha256=${hmacSha256Hex(secret, rawBody)}`;
  return safeEqual(header.trim().toLowerCase(), expected);
}

// ---------------------------------------------------------------------------------------------
// Delivery ids

/** Parses a raw body (string / bytes) as JSON; other values are returned as they are. */
export function asJson(body: unknown): unknown {
  if (typeof body === "string" || body instanceof Uint8Array) {
    const text = typeof body === "string" ? body : new TextDecoder().decode(body);
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return body;
}

/** The longest delivery id kept (hosts send UUIDs); a longer one is refused, not cut (cut ids could collide). */
export const MAX_DELIVERY_ID_LENGTH = 200;

/**
 * A delivery's id from the first of its sources (headers, or a payload field) that holds one; a blank
 * value counts as absent. Null when none holds one: the body's hash is the id then. An id longer than
 * MAX_DELIVERY_ID_LENGTH is a WebhookPayloadError naming its source.
 */
export function deliveryIdFrom(remote: Remote, sources: readonly { field: string; value: string | null }[]): string | null {
  for (const { field, value } of sources) {
    const id = value?.trim() ?? "";
    if (id === "") continue;
    if (id.length > MAX_DELIVERY_ID_LENGTH) {
      throw new WebhookPayloadError(remote, [{ field, problem: `a delivery id of ${id.length} characters; at most ${MAX_DELIVERY_ID_LENGTH} are accepted` }]);
    }
    return id;
  }
  return null;
}

/** Hash of the JSON body (the same for the raw body and its parsed form). */
export function bodyHashId(body: unknown): string {
  const value = asJson(body);
  const text = typeof value === "string" ? value : JSON.stringify(value) ?? "";
  return `sha256:${sha256Hex(text)}`;
}

export function ignored(remote: Remote, deliveryId: string, reason: string): HostIgnoredEvent {
  return { kind: "ignored", remote, deliveryId, reason };
}

// ---------------------------------------------------------------------------------------------
// Payload shapes: the fields a handled event needs, checked before it is read (zod)

/**
 * Checks a verified payload against the shape of the fields its event needs; a WebhookPayloadError
 * naming each missing or malformed one (as a path into the payload) otherwise. Unknown fields pass.
 */
export function requireFields(remote: Remote, shape: z.ZodType, payload: unknown): void {
  const parsed = shape.safeParse(payload);
  if (parsed.success) return;
  const issues = parsed.error.issues.slice(0, 10).map((i) => ({ field: i.path.map(String).join(".") || "(body)", problem: i.message }));
  throw new WebhookPayloadError(remote, issues);
}

/** Field shapes the hosts' payload shapes share. */
export const shapes = {
  /** A pull request's number (GitHub), iid (GitLab) or id (Bitbucket, Azure): a positive integer. */
  number: z.number({ error: "expected a positive integer" }).int("expected a positive integer").positive("expected a positive integer"),
  /** A host's id for a comment: a number or a non-empty string. */
  id: z.union([z.number().int(), z.string().trim().min(1)], { error: "expected a number or a non-empty string" }),
  /** A non-empty string (branch names, commit hashes, logins). */
  text: z.string({ error: "expected a non-empty string" }).trim().min(1, "expected a non-empty string"),
  /** A timestamp `iso` reads (ISO 8601, GitLab's `2015-05-17 18:21:36 UTC`). */
  timestamp: z.string({ error: "expected a timestamp" }).refine((s) => !Number.isNaN(new Date(iso(s)).getTime()), "expected an ISO 8601 timestamp"),
  /** `owner/repo` (or deeper, for GitLab's groups): non-empty segments without spaces. */
  repository: (segments: "two" | "two or more") =>
    z.string({ error: "expected a repository name" }).regex(segments === "two" ? /^[^/\s]+\/[^/\s]+$/ : /^[^/\s]+(\/[^/\s]+)+$/, segments === "two" ? "expected owner/repository" : "expected group/project"),
};

// ---------------------------------------------------------------------------------------------
// Payload accessors (payloads are untrusted JSON: read defensively)

export type Json = Record<string, unknown>;

export function obj(value: unknown): Json {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : {};
}

export function arr(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function str(value: unknown, fallback = ""): string {
  return typeof value === "string" ? value : typeof value === "number" ? String(value) : fallback;
}

export function strOrNull(value: unknown): string | null {
  return typeof value === "string" ? value : typeof value === "number" ? String(value) : null;
}

export function num(value: unknown, fallback = 0): number {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) return Number(value);
  return fallback;
}

export function numOrNull(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/**
 * Normalises host timestamps to ISO 8601 (UTC). Accepts ISO strings and GitLab's
 * `2015-05-17 18:21:36 UTC`; unparseable values are returned as they are.
 */
export function iso(value: unknown): string {
  const s = str(value);
  if (!s) return "";
  const gitlab = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}) UTC$/.exec(s);
  const date = new Date(gitlab ? `${gitlab[1]}T${gitlab[2]}Z` : s);
  return Number.isNaN(date.getTime()) ? s : date.toISOString();
}

export function stripRefsHeads(ref: string): string {
  return ref.startsWith("refs/heads/") ? ref.slice("refs/heads/".length) : ref;
}

export function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

// ---------------------------------------------------------------------------------------------
// Repository names

const SEGMENT = /^[A-Za-z0-9_.][A-Za-z0-9_.\- ]*$/;

/** Splits and validates `a/b[/c...]`: no empty, `.` or `..` segments, no odd characters. */
export function repoSegments(
  remote: Remote,
  repo: string,
  operation: string,
  counts: readonly number[],
): string[] {
  const parts = repo.split("/");
  const ok =
    counts.includes(parts.length) &&
    parts.every((p) => p.length > 0 && p !== "." && p !== ".." && SEGMENT.test(p));
  if (!ok) {
    throw new HostError(
      remote,
      operation,
      `invalid repository name (expected ${counts.map((n) => `${n} segments`).join(" or ")})`,
    );
  }
  return parts;
}

export function basicAuth(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`, "utf8").toString("base64")}`;
}

export function gitEnvFor(header: string): Record<string, string> {
  return {
    GIT_CONFIG_COUNT: "1",
    GIT_CONFIG_KEY_0: "http.extraHeader",
    GIT_CONFIG_VALUE_0: header,
  };
}

// ---------------------------------------------------------------------------------------------
// HTTP

export type HttpClientOptions = {
  remote: Remote;
  apiBase: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** Headers every request carries (Accept, API version, User-Agent). */
  defaultHeaders?: Record<string, string>;
  retries?: number;
  retryDelayMs?: number;
};

export type HttpRequest = {
  operation: string;
  method?: "GET" | "POST";
  /** Absolute URL; must be on the API base's origin. */
  url: string;
  /** Authorization header value, or undefined for anonymous calls. */
  authorization?: string;
  body?: unknown;
  /** Statuses returned to the caller instead of thrown (2xx are always returned). */
  accept?: readonly number[];
};

export type HttpResponse = {
  status: number;
  headers: Headers;
  /** Parsed JSON, or undefined when the body is empty or not JSON. */
  json: unknown;
};

/**
 * Whether the host refused a call for its rate limit, not with an answer about the repository: 429, or a
 * 403 that names the limit as GitHub does: the primary limit with `x-ratelimit-remaining: 0`, a
 * secondary limit with `retry-after` or a message naming it. Every call is read with this one test (a
 * secondary limit on a pull request listing is no "not found").
 */
export function isRateLimited(res: HttpResponse): boolean {
  if (res.status === 429) return true;
  if (res.status !== 403) return false;
  if (res.headers.get("x-ratelimit-remaining") === "0" || res.headers.has("retry-after")) return true;
  const message = obj(res.json)["message"];
  return typeof message === "string" && /rate limit/i.test(message);
}

const MAX_REDIRECTS = 3;
/** Answers after which a GET is tried again: rate limited, or a gateway or the host briefly down. */
const RETRIED_GET_STATUSES = new Set([429, 502, 503, 504]);
/** A Retry-After longer than this is not waited for: the call fails at once. */
const MAX_RETRY_AFTER_MS = 10_000;

/**
 * The pause before trying a failed call again, or null to give up. A GET is retried after a network
 * error, a timeout or RETRIED_GET_STATUSES; a POST only after 429 (the host refused it unprocessed):
 * after a lost answer or a 5xx the host may have done it, and posting twice would duplicate a review
 * (the review service finds an earlier post by its marker instead).
 */
function retryDelay(method: string, attempt: number, retries: number, baseMs: number, status: number | undefined, retryAfter: string | null): number | null {
  if (attempt >= retries) return null;
  const retried = method === "GET" ? status === undefined || RETRIED_GET_STATUSES.has(status) : status === 429;
  if (!retried) return null;
  const backoff = baseMs * 2 ** attempt;
  if (!retryAfter) return backoff;
  const seconds = Number(retryAfter);
  const asked = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(retryAfter) - Date.now();
  if (!Number.isFinite(asked)) return backoff;
  return asked > MAX_RETRY_AFTER_MS ? null : Math.max(backoff, asked);
}

export type HttpClient = {
  request(req: HttpRequest): Promise<HttpResponse>;
  /** Throws unless `url` is on the API base's origin (tokens never go elsewhere). */
  assertSameOrigin(url: string, operation: string): URL;
};

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const { remote } = options;
  const origin = new URL(options.apiBase).origin;
  const doFetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const retries = options.retries ?? 2;
  const retryDelayMs = options.retryDelayMs ?? 500;

  function assertSameOrigin(url: string, operation: string): URL {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new HostError(remote, operation, "invalid URL");
    }
    if (parsed.origin !== origin) {
      throw new HostError(remote, operation, `refusing to call ${parsed.origin}: not the configured API origin`);
    }
    return parsed;
  }

  async function request(req: HttpRequest): Promise<HttpResponse> {
    for (let attempt = 0; ; attempt++) {
      const outcome = await attemptOnce(req);
      if (!("failure" in outcome)) return outcome;
      const pause = retryDelay(req.method ?? "GET", attempt, retries, retryDelayMs, outcome.failure.status, outcome.retryAfter);
      if (pause === null) throw outcome.failure;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }

  type Failure = { failure: HostError; retryAfter: string | null };

  /** One call (with its same-origin redirects): the response, or the error to throw or retry. */
  async function attemptOnce(req: HttpRequest): Promise<HttpResponse | Failure> {
    const method = req.method ?? "GET";
    let url = assertSameOrigin(req.url, req.operation);
    const headers: Record<string, string> = { ...options.defaultHeaders };
    if (req.authorization) headers["Authorization"] = req.authorization;
    if (req.body !== undefined) headers["Content-Type"] = "application/json";
    const body = req.body === undefined ? undefined : JSON.stringify(req.body);

    for (let hop = 0; ; hop++) {
      let res: Response;
      try {
        res = await doFetch(url, {
          method,
          headers,
          body,
          redirect: "manual",
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (err) {
        const kind = err instanceof Error && err.name === "TimeoutError" ? "timed out" : "network error";
        return { failure: new HostError(remote, req.operation, `${method} ${url.pathname} ${kind}`), retryAfter: null };
      }
      // Redirects are followed only on the same origin, so the Authorization header stays there.
      if (res.status >= 300 && res.status < 400 && res.headers.has("location") && hop < MAX_REDIRECTS) {
        await res.body?.cancel();
        const next = new URL(res.headers.get("location") ?? "", url);
        if (next.origin !== origin) {
          if (req.accept?.includes(res.status)) return { status: res.status, headers: res.headers, json: undefined };
          throw new HostError(remote, req.operation, `${method} ${url.pathname} redirected off the API origin`, res.status);
        }
        url = next;
        continue;
      }
      const text = await res.text();
      let json: unknown;
      const type = res.headers.get("content-type") ?? "";
      if (text && (type.includes("json") || /^\s*[[{]/.test(text))) {
        try {
          json = JSON.parse(text) as unknown;
        } catch {
          json = undefined;
        }
      }
      if ((res.status >= 200 && res.status < 300) || req.accept?.includes(res.status)) {
        return { status: res.status, headers: res.headers, json };
      }
      return {
        failure: isRateLimited({ status: res.status, headers: res.headers, json })
          ? new HostRateLimitError(remote, req.operation, `${method} ${url.pathname} rate limited (HTTP ${res.status})`, res.status)
          : new HostError(remote, req.operation, `${method} ${url.pathname} failed with HTTP ${res.status}`, res.status),
        retryAfter: res.headers.get("retry-after"),
      };
    }
  }

  return { request, assertSameOrigin };
}

/** URL of the `rel="next"` entry of an RFC 8288 Link header, if any. */
export function nextLink(link: string | null): string | undefined {
  if (!link) return undefined;
  for (const part of link.split(",")) {
    const m = /<([^>]+)>\s*;(.*)$/.exec(part.trim());
    if (m && /\brel="?next"?/.test(m[2] ?? "")) return m[1];
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Reviews posted before (crash recovery)

/** An inline comment found on a pull request: its id (as postReview returns it), path, line and body. */
export type PostedInline = { id: string; path: string; line: number | null; body: string };

/**
 * For each comment of a review, the id of a comment already posted with the same path, line and body
 * (each used once), or undefined: how postReview skips what an earlier attempt posted, and how
 * findPostedReview finds a review's inline comments.
 */
export function matchPostedInline(inline: readonly InlineReviewComment[], posted: readonly PostedInline[]): (string | undefined)[] {
  const used = new Set<string>();
  return inline.map((c) => {
    const found = posted.find((p) => !used.has(p.id) && p.path === c.path && p.line === c.line && p.body === c.body);
    if (found) used.add(found.id);
    return found?.id;
  });
}

/** The ids of a found review's inline comments; a review whose summary is there has them all (posted first). */
export function allPosted(remote: Remote, operation: string, ids: (string | undefined)[]): string[] {
  return ids.map((id, i) => {
    if (id === undefined) throw new HostError(remote, operation, `posted review is missing inline comment ${i + 1}`);
    return id;
  });
}
