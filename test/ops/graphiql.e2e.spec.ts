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
    const response = await page.goto(`${server.baseUrl}/graphql`);
    expect(response?.status()).toBe(200);
    expect(await response?.text()).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);

    await page.locator(".graphiql-container").first().waitFor({ state: "visible", timeout: 60_000 });
    await page.getByText("Loupe admin console").first().waitFor({ timeout: 60_000 });
    expect(await page.title()).toBe("Loupe admin console");

    await page.locator(".graphiql-execute-button").first().click();
    await page.locator(".graphiql-response").getByText("unauthorized").first().waitFor({ timeout: 60_000 });

    expect(elsewhere).toEqual([]);
    expect(errors).toEqual([]);
    expect(requested).toEqual(expect.arrayContaining(["/graphql", expect.stringMatching(/^\/graphql\/assets\/[^/]+\/graphiql\.js$/), expect.stringMatching(/graphiql\.css$/)]));
    await context.close();
  }, 120_000);

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
