/**
 * The GraphiQL console works with no network beyond Loupe: real Chromium (Debian's package, driven by
 * playwright-core) with every request to another host refused and DNS resolving nothing but
 * 127.0.0.1. The page loads Loupe's own script, style and editor workers, renders the editor with the
 * default query, and runs it against /graphql (the empty key in its headers gets Loupe's 401 answer).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";
import { startTestServer, type TestServer } from "../support/server.ts";

const CHROMIUM = "/usr/bin/chromium";
const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

describe.skipIf(!existsSync(CHROMIUM))("GraphiQL from Loupe's own assets (Chromium, network blocked beyond localhost)", () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startTestServer();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: [...ARGS, "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"] });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop({ remove: true });
  });

  it("renders the console and runs a query with no request leaving Loupe", async () => {
    const context = await browser.newContext();
    const own = new URL(server.baseUrl).host;
    const elsewhere: string[] = [];
    const requested: string[] = [];
    await context.route("**/*", (route) => {
      const url = new URL(route.request().url());
      if ((url.protocol === "http:" || url.protocol === "https:") && url.host !== own) {
        elsewhere.push(url.href);
        return route.abort("blockedbyclient");
      }
      requested.push(url.pathname);
      return route.continue();
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    // Anything the page's Content-Security-Policy refuses (scripts, styles, workers, fonts, requests).
    const refused: string[] = [];
    page.on("console", (m) => {
      if (/Content Security Policy/i.test(m.text())) refused.push(m.text());
    });
    await page.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (e) => console.error(`Content Security Policy violation: ${e.violatedDirective} ${e.blockedURI}`));
    });
    const response = await page.goto(`${server.baseUrl}/graphql`);
    expect(response?.status()).toBe(200);
    expect(await response?.text()).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);
    const headers = response!.headers();
    expect(headers["content-security-policy"]).toContain("script-src 'self'");
    expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(headers["x-frame-options"]).toBe("DENY");
    expect(headers["x-content-type-options"]).toBe("nosniff");

    await page.locator(".graphiql-container").first().waitFor({ state: "visible", timeout: 60_000 });
    await page.getByText("Loupe admin console").first().waitFor({ timeout: 60_000 });
    expect(await page.title()).toBe("Loupe admin console");

    await page.locator(".graphiql-execute-button").first().click();
    await page.locator(".graphiql-response").getByText("unauthorized").first().waitFor({ timeout: 60_000 });

    // The editor's workers started under the policy (they answer for the query editor's language).
    await page.locator(".graphiql-query-editor").first().waitFor({ timeout: 60_000 });
    expect(elsewhere).toEqual([]);
    expect(errors).toEqual([]);
    expect(refused).toEqual([]);
    expect(requested).toEqual(expect.arrayContaining(["/graphql", expect.stringMatching(/^\/graphql\/assets\/[^/]+\/graphiql\.js$/), expect.stringMatching(/graphiql\.css$/)]));
    await context.close();
  }, 120_000);

  it("cannot be framed by another page", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.setContent(`<iframe id="admin" src="${server.baseUrl}/graphql" width="800" height="600"></iframe>`);
    const frame = await (await page.waitForSelector("#admin")).contentFrame();
    // Chromium replaces a refused frame with its own error page: nothing of the console loads there.
    await frame!.waitForLoadState();
    expect(await frame!.locator(".graphiql-container").count()).toBe(0);
    expect(await frame!.locator("#root").count()).toBe(0);
    await context.close();
  }, 60_000);

  it("sends no CORS headers: another origin's page cannot read the admin API, with or without credentials", async () => {
    const evil = "https://evil.example";
    const post = await fetch(`${server.baseUrl}/graphql`, {
      method: "POST",
      headers: { origin: evil, authorization: `Bearer ${server.adminKey}`, "content-type": "application/json" },
      body: JSON.stringify({ query: "{ viewer { keyId } }" }),
    });
    expect(post.headers.get("access-control-allow-origin")).toBeNull();
    expect(post.headers.get("access-control-allow-credentials")).toBeNull();
    expect(post.headers.get("x-content-type-options")).toBe("nosniff");
    const preflight = await fetch(`${server.baseUrl}/graphql`, {
      method: "OPTIONS",
      headers: { origin: evil, "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" },
    });
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
    expect(preflight.headers.get("access-control-allow-credentials")).toBeNull();
  });

  it("serves the assets cacheably, and nothing for an unknown asset", async () => {
    const html = await (await fetch(`${server.baseUrl}/graphql`, { headers: { accept: "text/html" } })).text();
    const script = /src="(\/graphql\/assets\/[^"]+\/graphiql\.js)"/.exec(html)?.[1];
    expect(script).toBeTruthy();
    const js = await fetch(server.baseUrl + script);
    expect(js.status).toBe(200);
    expect(js.headers.get("content-type")).toContain("javascript");
    expect(js.headers.get("cache-control")).toContain("immutable");
    expect((await js.text()).length).toBeGreaterThan(100_000);
    expect((await fetch(server.baseUrl + script!.replace("graphiql.js", "nope.js"))).status).toBe(404);
  });
});
