/** @jsxImportSource hono/jsx */
/**
 * The web console at /console (and / redirects there): server-rendered pages (Hono JSX) over the same
 * services the other faces call, a small client script for the live parts, API-key sign-in exchanged
 * for a session cookie, a CSRF token on every POST, and a strict CSP on every response.
 */
import { Hono, type Context } from "hono";
import { getCookie, setCookie, deleteCookie } from "hono/cookie";
import type { AppEnv } from "../http/env.ts";
import type { Services } from "../../services.ts";
import { HttpError } from "../http/errors.ts";
import { DomainError } from "../../eventstore/decider.ts";
import type { ConsoleEnv } from "./env.ts";
import { createSessionStore, randomToken, sameToken, SESSION_COOKIE, SIGN_IN_COOKIE, SIGN_IN_FORM_TTL_MS, type SessionStore } from "./session.ts";
import { returnPathOfReferer, safeReturnPath, securityHeaders, signInPath } from "./security.ts";
import { asset } from "./assets.ts";
import { Layout, Notice } from "./layout.tsx";
import { ConsoleError } from "./errors.ts";
import { repositoryPages } from "./pages/repositories.tsx";
import { searchPages } from "./pages/search.tsx";
import { pullRequestPages } from "./pages/pull-requests.tsx";
import { customContextPages } from "./pages/custom-context.tsx";
import { auditPages } from "./pages/audit.tsx";
import { keyPages } from "./pages/keys.tsx";
import { livePages } from "./pages/live.ts";

export type ConsolePages = (app: Hono<ConsoleEnv>, services: Services) => void;

const DOMAIN_STATUS = { not_found: 404, conflict: 409, invalid: 400, forbidden: 403 } as const;

const secureRequest = (c: Context) => new URL(c.req.url).protocol === "https:" || c.req.header("x-forwarded-proto") === "https";

const SIGN_IN_BROWSER = /^[A-Za-z0-9_-]{43}$/;

/**
 * The sign-in page. The browser's sign-in cookie (a random value, see session.ts) is kept when it has
 * one, so every tab's form stays valid; `next` is the console page to return to after sign-in.
 */
function signInPage(
  c: Context,
  sessions: SessionStore,
  options: { errors?: string[]; notice?: string; next?: string | undefined; status?: 200 | 400 | 401 | 403 } = {},
) {
  const current = getCookie(c, SIGN_IN_COOKIE);
  const browser = current && SIGN_IN_BROWSER.test(current) ? current : randomToken();
  setCookie(c, SIGN_IN_COOKIE, browser, { httpOnly: true, sameSite: "Strict", path: "/console", maxAge: SIGN_IN_FORM_TTL_MS / 1000, secure: secureRequest(c) });
  const next = safeReturnPath(options.next);
  return c.html(
    <Layout title="Sign in">
      <section class="narrow">
        <h1>Sign in to Loupe</h1>
        <p>Paste an API key. It is exchanged at once for a session cookie; the browser never keeps the key.</p>
        <Notice errors={options.errors} notice={options.notice} />
        <form method="post" action="/console/sign-in" class="stack" autocomplete="off">
          <input type="hidden" name="_csrf" value={sessions.signInToken(browser)} />
          {next ? <input type="hidden" name="next" value={next} /> : null}
          <label for="apiKey">API key</label>
          <input id="apiKey" name="apiKey" type="password" required autocomplete="off" spellcheck={false} autofocus />
          <button type="submit">Sign in</button>
        </form>
        {next ? (
          <p class="muted small">
            After sign-in: <span class="mono">{next}</span>
          </p>
        ) : null}
      </section>
    </Layout>,
    options.status ?? 200,
  );
}

const ENDED_NOTICE = "Your session had ended (signed out, expired or the server restarted), so what you sent was not saved. Sign in to go back to the page and send it again.";

/** Mounts the console on the HTTP app. Sessions live in memory (see session.ts). */
export function consoleRoutes(app: Hono<AppEnv>, services: Services, sessions: SessionStore = createSessionStore()) {
  const con = new Hono<ConsoleEnv>();
  const { keys, logger } = services;

  con.onError((error, c) => {
    let status: 400 | 401 | 403 | 404 | 409 | 413 | 500 = 500;
    let message = "Something went wrong; the details are in the server's log.";
    if (error instanceof ConsoleError || error instanceof HttpError) {
      status = error.status as typeof status;
      message = error.message;
    } else if (error instanceof DomainError) {
      status = DOMAIN_STATUS[error.code];
      message = error.message;
    } else {
      c.get("logger")?.error({ err: { message: error.message, stack: error.stack } }, "console: unhandled error");
    }
    return c.html(
      <Layout title={`Error ${status}`} session={c.get("session")}>
        <h1>{status === 403 ? "Forbidden" : status === 404 ? "Not found" : `Error ${status}`}</h1>
        <Notice errors={[message]} />
        <p>
          <a href="/console">Back to the console</a>
        </p>
      </Layout>,
      status,
    );
  });

  con.use("*", securityHeaders);

  con.get("/assets/:name", (c) => {
    const file = asset(c.req.param("name"));
    if (!file) throw new ConsoleError(404, "No such asset");
    if (c.req.header("if-none-match") === file.etag) return c.body(null, 304);
    return c.body(file.body, 200, { "content-type": file.type, etag: file.etag, "cache-control": "public, max-age=86400" });
  });

  // Every POST must come from a page of this origin (in addition to its CSRF token).
  con.use("*", async (c, next) => {
    if (c.req.method !== "GET" && c.req.method !== "HEAD") {
      const origin = c.req.header("origin");
      const site = c.req.header("sec-fetch-site");
      // Browsers send Sec-Fetch-Site (reliable behind a proxy); older ones only Origin.
      const crossSite = site ? site !== "same-origin" && site !== "none" : Boolean(origin) && origin !== new URL(c.req.url).origin;
      if (crossSite) {
        throw new ConsoleError(403, "Cross-site request refused.");
      }
    }
    await next();
  });

  con.get("/sign-in", (c) => {
    const next = safeReturnPath(c.req.query("next"));
    if (sessions.get(getCookie(c, SESSION_COOKIE))) return c.redirect(next ?? "/console/repositories", 303);
    return signInPage(c, sessions, { next, notice: c.req.query("ended") ? ENDED_NOTICE : undefined });
  });

  con.post("/sign-in", async (c) => {
    const form = await c.req.parseBody();
    const next = safeReturnPath(form.next);
    if (!sessions.validSignInToken(getCookie(c, SIGN_IN_COOKIE), typeof form._csrf === "string" ? form._csrf : undefined)) {
      // A fresh form answers a stale one (too old, or from before a restart): never a dead end.
      return signInPage(c, sessions, { errors: ["This sign-in form had expired (it was open too long, or Loupe restarted). Paste the key again."], next, status: 403 });
    }
    const key = typeof form.apiKey === "string" ? form.apiKey.trim() : "";
    if (!key) return signInPage(c, sessions, { errors: ["apiKey: paste an API key"], next, status: 400 });
    const principal = keys.authenticate(`Bearer ${key}`);
    if (!principal) return signInPage(c, sessions, { errors: ["Invalid or revoked API key"], next, status: 401 });
    // A browser has one session: the one it had (another tab's sign-in) ends.
    sessions.destroy(getCookie(c, SESSION_COOKIE));
    const { id } = sessions.create(principal);
    setCookie(c, SESSION_COOKIE, id, { httpOnly: true, sameSite: "Strict", path: "/console", secure: secureRequest(c) });
    c.get("logger").info({ keyId: principal.keyId, orgId: principal.orgId, role: principal.role }, "console sign-in");
    return c.redirect(next ?? "/console/repositories", 303);
  });

  // Everything else needs a live session whose key is still active, and a CSRF token on every POST.
  con.use("*", async (c, next) => {
    const id = getCookie(c, SESSION_COOKIE);
    const session = sessions.get(id);
    const key = session && keys.get(session.principal.orgId, session.principal.keyId);
    if (session && (!key || key.revokedAt)) sessions.destroyKey(session.principal.keyId);
    if (!session || !key || key.revokedAt) {
      const url = new URL(c.req.url);
      // A page: sign in, then back to it.
      if (c.req.method === "GET" || c.req.method === "HEAD") return c.redirect(signInPath({ next: url.pathname + url.search }), 303);
      // A form a person sent: sign in, then back to the page it was sent from (what was sent is not kept).
      const formPost = /^(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(c.req.header("content-type") ?? "") && !c.req.header("x-csrf-token");
      if (formPost) return c.redirect(signInPath({ next: returnPathOfReferer(c.req.header("referer")), ended: true }), 303);
      // The client script's fetches get the status to act on.
      throw new ConsoleError(401, "Your session has ended; sign in again.");
    }
    c.set("session", session);
    c.set("sessionId", id!);
    c.set("logger", c.get("logger").child({ keyId: session.principal.keyId, orgId: session.principal.orgId }));
    if (c.req.method !== "GET" && c.req.method !== "HEAD") {
      let sent = c.req.header("x-csrf-token");
      if (!sent && /^(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(c.req.header("content-type") ?? "")) {
        const field = (await c.req.parseBody())._csrf;
        sent = typeof field === "string" ? field : undefined;
      }
      if (!sameToken(sent, session.csrf)) throw new ConsoleError(403, "Missing or wrong CSRF token; reload the page and try again.");
    }
    await next();
  });

  con.post("/sign-out", (c) => {
    sessions.destroy(c.get("sessionId"));
    deleteCookie(c, SESSION_COOKIE, { path: "/console" });
    return c.redirect("/console/sign-in", 303);
  });

  con.get("/", (c) => c.redirect("/console/repositories", 303));

  for (const pages of [repositoryPages, searchPages, pullRequestPages, customContextPages, auditPages, keyPages, livePages]) pages(con, services);

  con.all("*", () => {
    throw new ConsoleError(404, "No such console page.");
  });

  app.get("/", (c) => c.redirect("/console", 302));
  app.route("/console", con as unknown as Hono<AppEnv>);
  logger.debug?.({}, "console mounted at /console");
  return sessions;
}
