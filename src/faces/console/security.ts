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
