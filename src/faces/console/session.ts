/**
 * Console sessions. Signing in exchanges an API key, at once, for a random session id sent back as an
 * HttpOnly, SameSite=Strict cookie; the browser never holds the key. The server keeps only the
 * SHA-256 of the session id, mapped to the key's principal (key id, organisation, role) and the
 * session's CSRF token, in memory: a session is not domain data, so it is not an event. A restart
 * signs everyone out. Every request checks that the key behind the session is still active, so
 * revoking a key ends its console sessions too.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Principal } from "../../features/access/service.ts";

export const SESSION_COOKIE = "loupe_console";
export const SIGN_IN_COOKIE = "loupe_console_signin";
/** How long a sign-in form stays valid (and the sign-in cookie is kept): 12 hours. */
export const SIGN_IN_FORM_TTL_MS = 12 * 60 * 60 * 1000;

export type ConsoleSession = {
  principal: Principal;
  /** The per-session CSRF token every state-changing request carries (form field or header). */
  csrf: string;
  createdAt: number;
  lastSeenAt: number;
};

export type SessionStore = ReturnType<typeof createSessionStore>;

const hashOf = (id: string) => createHash("sha256").update(id, "utf8").digest("hex");
export const randomToken = () => randomBytes(32).toString("base64url");

/** Constant-time comparison of two tokens (false when either is missing). */
export function sameToken(a: string | undefined | null, b: string | undefined | null): boolean {
  if (!a || !b) return false;
  const x = Buffer.from(a, "utf8");
  const y = Buffer.from(b, "utf8");
  return x.length === y.length && timingSafeEqual(x, y);
}

export function createSessionStore(options: { idleMs?: number; maxAgeMs?: number; maxSessions?: number; now?: () => number } = {}) {
  const idleMs = options.idleMs ?? 8 * 60 * 60 * 1000;
  const maxAgeMs = options.maxAgeMs ?? 24 * 60 * 60 * 1000;
  const maxSessions = options.maxSessions ?? 10_000;
  const now = options.now ?? Date.now;
  const sessions = new Map<string, ConsoleSession>();
  const formSecret = randomBytes(32);
  const formMac = (browser: string, issuedAt: number) => createHmac("sha256", formSecret).update(`${browser}\0${issuedAt}`, "utf8").digest("base64url");

  const expired = (s: ConsoleSession, t: number) => t - s.lastSeenAt > idleMs || t - s.createdAt > maxAgeMs;

  return {
    /** Starts a session for `principal`; returns the id to put in the cookie (never stored). */
    create(principal: Principal): { id: string; session: ConsoleSession } {
      const t = now();
      if (sessions.size >= maxSessions) {
        for (const [k, s] of sessions) if (expired(s, t)) sessions.delete(k);
        // Still full: the oldest session goes (Map keeps insertion order).
        if (sessions.size >= maxSessions) sessions.delete(sessions.keys().next().value!);
      }
      const id = randomToken();
      const session: ConsoleSession = { principal, csrf: randomToken(), createdAt: t, lastSeenAt: t };
      sessions.set(hashOf(id), session);
      return { id, session };
    },
    /** The live session of a cookie value, or undefined (unknown, expired). */
    get(id: string | undefined): ConsoleSession | undefined {
      if (!id || id.length > 200) return undefined;
      const key = hashOf(id);
      const session = sessions.get(key);
      if (!session) return undefined;
      const t = now();
      if (expired(session, t)) {
        sessions.delete(key);
        return undefined;
      }
      session.lastSeenAt = t;
      return session;
    },
    destroy(id: string | undefined) {
      if (id) sessions.delete(hashOf(id));
    },
    /** Ends every session of a key (used when its key is found revoked). */
    destroyKey(keyId: string) {
      for (const [k, s] of sessions) if (s.principal.keyId === keyId) sessions.delete(k);
    },
    /**
     * Sign-in forms (login CSRF). The browser keeps one random value in the HttpOnly, SameSite=Strict
     * sign-in cookie, reused by every tab; each form carries `<issuedAt>.<HMAC(secret, that value, issuedAt)>`.
     * So any form rendered for this browser signs in, from any tab and in any order, for
     * SIGN_IN_FORM_TTL_MS, while a token is worthless without the cookie it was made for (and another
     * site can neither read nor set that cookie). The secret is in memory: a restart expires open forms.
     */
    signInToken(browser: string): string {
      const issuedAt = now();
      return `${issuedAt}.${formMac(browser, issuedAt)}`;
    },
    /** True when `token` was issued by this process for the browser's sign-in cookie value, and is fresh. */
    validSignInToken(browser: string | undefined, token: string | undefined): boolean {
      if (!browser || !token || token.length > 200) return false;
      const dot = token.indexOf(".");
      const issuedAt = Number(token.slice(0, dot));
      if (dot < 1 || !Number.isSafeInteger(issuedAt)) return false;
      const age = now() - issuedAt;
      if (age < 0 || age > SIGN_IN_FORM_TTL_MS) return false;
      return sameToken(token.slice(dot + 1), formMac(browser, issuedAt));
    },
    size: () => sessions.size,
    /** The stored keys (hashes), for tests that check the id itself is not kept. */
    storedKeys: () => [...sessions.keys()],
  };
}
