/**
 * Signing in, in a real Chromium against the real server: from any tab's form (in any order), back to
 * the page that was asked for (same-origin console paths only: no open redirect), and from a form sent
 * after the session ended, back to the page it was sent from with a clear note.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { startTestServer, type TestServer } from "../support/server.ts";
import { launchChromium, chromiumAvailable, type Browser } from "../support/browser.ts";

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  server = await startTestServer();
  if (chromiumAvailable()) browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop({ remove: true });
});

const path = (page: Page) => {
  const url = new URL(page.url());
  return url.pathname + url.search;
};

async function submitKey(page: Page, key = server.adminKey) {
  await page.getByLabel("API key").fill(key);
  await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Sign in" }).click()]);
}

describe.skipIf(!chromiumAvailable())("console sign-in in a browser", () => {
  it("signs in from every open tab's form, in any order", async () => {
    const a = await browser.context.newPage();
    const b = await browser.context.newPage();
    const c = await browser.context.newPage();
    for (const page of [a, b, c]) await page.goto(`${server.baseUrl}/console/sign-in`);
    await submitKey(b);
    expect(path(b)).toBe("/console/repositories");
    await submitKey(a);
    expect(path(a)).toBe("/console/repositories");
    expect(await a.locator("h1").textContent()).toBe("Repositories");
    await submitKey(c);
    expect(path(c)).toBe("/console/repositories");
    for (const page of [a, b, c]) await page.close();
    await browser.context.clearCookies();
  }, 60_000);

  it("returns to the deep link asked for while signed out", async () => {
    const page = await browser.context.newPage();
    const deep = "/console/pull-requests/view?remote=github&name=pallets%2Fflask&number=42";
    await page.goto(server.baseUrl + deep);
    expect(new URL(page.url()).pathname).toBe("/console/sign-in");
    await submitKey(page);
    expect(path(page)).toBe(deep);
    // A page that renders, with its query kept.
    await browser.context.clearCookies();
    await page.goto(`${server.baseUrl}/console/custom-context?type=PATTERN&status=ACTIVE`);
    await submitKey(page);
    expect(path(page)).toBe("/console/custom-context?type=PATTERN&status=ACTIVE");
    expect(await page.getByLabel("Type").first().inputValue()).toBe("PATTERN");
    await page.close();
    await browser.context.clearCookies();
  }, 60_000);

  it("never follows a next that leaves the console", async () => {
    const page = await browser.context.newPage();
    for (const next of ["https://evil.example/", "//evil.example/x", "/\\evil.example", "/console/../evil", "javascript:alert(1)", "/console/sign-out"]) {
      await page.goto(`${server.baseUrl}/console/sign-in?next=${encodeURIComponent(next)}`);
      await submitKey(page);
      expect(page.url()).toBe(`${server.baseUrl}/console/repositories`);
      await browser.context.clearCookies();
    }
    await page.close();
  }, 60_000);

  it("sends a form posted after the session ended to sign-in, then back to its page", async () => {
    const page = await browser.context.newPage();
    await page.goto(`${server.baseUrl}/console/sign-in`);
    await submitKey(page);
    await page.goto(`${server.baseUrl}/console/custom-context?type=PATTERN`);
    // The session ends elsewhere (another tab signs out).
    const other = await browser.context.newPage();
    await other.goto(`${server.baseUrl}/console/repositories`);
    await Promise.all([other.waitForNavigation(), other.getByRole("button", { name: "Sign out" }).click()]);
    await other.close();

    const before = await server.loupe.services.eventStore.headPosition();
    await page.locator("#body").fill("Prefer early returns");
    await Promise.all([page.waitForNavigation(), page.locator("#create-context").getByRole("button", { name: "Create" }).click()]);
    expect(new URL(page.url()).pathname).toBe("/console/sign-in");
    expect(await page.getByRole("status").textContent()).toContain("Your session had ended");
    expect(await page.getByLabel("API key").inputValue()).toBe("");
    expect(await server.loupe.services.eventStore.headPosition()).toBe(before);
    await submitKey(page);
    expect(path(page)).toBe("/console/custom-context?type=PATTERN");
    await page.close();
    await browser.context.clearCookies();
  }, 60_000);
});

describe("console sign-in over HTTP", () => {
  it("answers a form from before a restart with a fresh form that signs in", async () => {
    const jar = new Map<string, string>();
    const request = async (p: string, init: { form?: Record<string, string> } = {}) => {
      const headers = new Headers({ cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; ") });
      if (init.form) headers.set("content-type", "application/x-www-form-urlencoded");
      const res = await fetch(server.baseUrl + p, { method: init.form ? "POST" : "GET", headers, body: init.form ? new URLSearchParams(init.form).toString() : null, redirect: "manual" });
      for (const line of res.headers.getSetCookie()) {
        const [name, ...rest] = line.split(";")[0]!.split("=");
        jar.set(name!.trim(), rest.join("="));
      }
      return res;
    };
    const tokenIn = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)![1]!;
    await request("/console/sign-in?next=%2Fconsole%2Fkeys");
    // A token another process (before a restart) issued for this browser: refused, and the answer is a fresh form.
    const stale = await request("/console/sign-in", { form: { _csrf: `${Date.now()}.bm90LWZyb20tdGhpcy1wcm9jZXNz`, apiKey: server.adminKey, next: "/console/keys" } });
    expect(stale.status).toBe(403);
    const html = await stale.text();
    expect(html).toContain("This sign-in form had expired");
    expect(html).toContain('name="next" value="/console/keys"');
    expect(jar.has("loupe_console")).toBe(false);
    const ok = await request("/console/sign-in", { form: { _csrf: tokenIn(html), apiKey: server.adminKey, next: "/console/keys" } });
    expect(ok.status).toBe(303);
    expect(ok.headers.get("location")).toBe("/console/keys");
  });

  it("accepts a form token only with the sign-in cookie it was issued for", async () => {
    const page = async () => {
      const res = await fetch(`${server.baseUrl}/console/sign-in`);
      const cookie = res.headers.getSetCookie().find((l) => l.startsWith("loupe_console_signin="))!.split(";")[0]!;
      return { cookie, token: /name="_csrf" value="([^"]+)"/.exec(await res.text())![1]! };
    };
    const [x, y] = [await page(), await page()];
    const post = (cookie: string | null, token: string) =>
      fetch(`${server.baseUrl}/console/sign-in`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", ...(cookie ? { cookie } : {}) },
        body: new URLSearchParams({ _csrf: token, apiKey: server.adminKey }).toString(),
      });
    expect((await post(y.cookie, x.token)).status).toBe(403);
    expect((await post(null, x.token)).status).toBe(403);
    expect((await post(x.cookie, x.token)).status).toBe(303);
  });

  it("keeps the client script's fetches at 401 when the session has ended", async () => {
    const res = await fetch(`${server.baseUrl}/console/custom-context`, { method: "POST", headers: { "x-csrf-token": "x", "content-type": "application/json" }, body: "{}", redirect: "manual" });
    expect(res.status).toBe(401);
  });
});
