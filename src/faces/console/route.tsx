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
import { createSessionStore, randomToken, sameToken, SESSION_COOKIE, SIGN_IN_COOKIE, type SessionStore } from "./session.ts";
import { securityHeaders } from "./security.ts";
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

function signInPage(c: Context, options: { errors?: string[]; status?: 200 | 400 | 401 | 403 } = {}) {
  const token = randomToken();
  setCookie(c, SIGN_IN_COOKIE, token, { httpOnly: true, sameSite: "Strict", path: "/console", maxAge: 900, secure: secureRequest(c) });
  return c.html(
    <Layout title="Sign in">
      <section class="narrow">
        <h1>Sign in to Loupe</h1>
        <p>Paste an API key. It is exchanged at once for a session cookie; the browser never keeps the key.</p>
        <Notice errors={options.errors} />
        <form method="post" action="/console/sign-in" class="stack" autocomplete="off">
          <input type="hidden" name="_csrf" value={token} />
          <label for="apiKey">API key</label>
          <input id="apiKey" name="apiKey" type="password" required autocomplete="off" spellcheck={false} autofocus />
          <button type="submit">Sign in</button>
        </form>
      </section>
    </Layout>,
    options.status ?? 200,
  );
}

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
    if (sessions.get(getCookie(c, SESSION_COOKIE))) return c.redirect("/console/repositories", 303);
    return signInPage(c);
  });

  con.post("/sign-in", async (c) => {
    const form = await c.req.parseBody();
    const token = getCookie(c, SIGN_IN_COOKIE);
    if (!sameToken(token, typeof form._csrf === "string" ? form._csrf : undefined)) {
      return signInPage(c, { errors: ["The sign-in form expired; try again."], status: 403 });
    }
    const key = typeof form.apiKey === "string" ? form.apiKey.trim() : "";
    if (!key) return signInPage(c, { errors: ["apiKey: paste an API key"], status: 400 });
    const principal = keys.authenticate(`Bearer ${key}`);
    if (!principal) return signInPage(c, { errors: ["Invalid or revoked API key"], status: 401 });
    const { id } = sessions.create(principal);
    deleteCookie(c, SIGN_IN_COOKIE, { path: "/console" });
    setCookie(c, SESSION_COOKIE, id, { httpOnly: true, sameSite: "Strict", path: "/console", secure: secureRequest(c) });
    c.get("logger").info({ keyId: principal.keyId, orgId: principal.orgId, role: principal.role }, "console sign-in");
    return c.redirect("/console/repositories", 303);
  });

  // Everything else needs a live session whose key is still active, and a CSRF token on every POST.
  con.use("*", async (c, next) => {
    const id = getCookie(c, SESSION_COOKIE);
    const session = sessions.get(id);
    const key = session && keys.get(session.principal.orgId, session.principal.keyId);
    if (session && (!key || key.revokedAt)) sessions.destroyKey(session.principal.keyId);
    if (!session || !key || key.revokedAt) {
      if (c.req.method === "GET") return c.redirect("/console/sign-in", 303);
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
