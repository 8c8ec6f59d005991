/**
 * Response headers of every console response: a strict Content-Security-Policy (only Loupe's own
 * script and stylesheet, no inline script or style, no framing), no sniffing, no referrer to other sites, and no
 * caching of pages (an issued key's page must not be kept).
 */
import type { MiddlewareHandler } from "hono";

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

export const securityHeaders: MiddlewareHandler = async (c, next) => {
  await next();
  const headers = c.res.headers;
  const set = (name: string, value: string) => {
    try {
      headers.set(name, value);
    } catch {
      c.header(name, value); // immutable headers (redirects)
    }
  };
  set("content-security-policy", CONTENT_SECURITY_POLICY);
  set("x-content-type-options", "nosniff");
  set("x-frame-options", "DENY");
  set("referrer-policy", "same-origin");
  set("cross-origin-opener-policy", "same-origin");
  if (!headers.has("cache-control")) set("cache-control", "no-store");
};

const PLACEHOLDER_ORIGIN = "http://console.invalid";
/** Pages a sign-in never returns to: the sign-in itself, sign-out, assets and the live streams. */
const NO_RETURN = /^\/console\/(sign-in|sign-out|assets|live)(\/|$)/;

/**
 * The page to return to after sign-in: a relative path of a console page (`/console/...`, with its
 * query), normalised, else undefined. Absolute and protocol-relative URLs, backslashes and control
 * characters are refused, so a `next` value can never send the browser to another site.
 */
export function safeReturnPath(value: unknown): string | undefined {
  if (typeof value !== "string" || value.length === 0 || value.length > 2000) return undefined;
  if (!value.startsWith("/") || value.startsWith("//") || /[\\\u0000-\u001f\u007f]/.test(value)) return undefined;
  let url: URL;
  try {
    url = new URL(value, PLACEHOLDER_ORIGIN);
  } catch {
    return undefined;
  }
  if (url.origin !== PLACEHOLDER_ORIGIN) return undefined;
  if (url.pathname !== "/console" && !url.pathname.startsWith("/console/")) return undefined;
  if (NO_RETURN.test(url.pathname)) return undefined;
  return url.pathname + url.search;
}

/**
 * The console page a form was posted from (its Referer: POSTs have passed the same-origin check, and
 * only the path is kept, so it cannot lead elsewhere), when it is one to return to.
 */
export function returnPathOfReferer(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    const from = new URL(referer);
    return safeReturnPath(from.pathname + from.search);
  } catch {
    return undefined;
  }
}

/** Where sign-in lands when no other page was asked for. */
const DEFAULT_LANDING = new Set(["/console", "/console/", "/console/repositories"]);

/** `/console/sign-in`, with the page to return to (unless it is where sign-in lands anyway) and why the session ended. */
export function signInPath(options: { next?: string | undefined; ended?: boolean } = {}): string {
  const query = new URLSearchParams();
  const next = safeReturnPath(options.next);
  if (next && !DEFAULT_LANDING.has(next)) query.set("next", next);
  if (options.ended) query.set("ended", "1");
  const text = query.toString();
  return text ? `/console/sign-in?${text}` : "/console/sign-in";
}
