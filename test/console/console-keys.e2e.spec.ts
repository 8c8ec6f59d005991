/**
 * The API keys page in a real Chromium: issuing redirects to a GET page that shows the new secret
 * once, so a reload neither issues another key nor shows the secret again; revoking lands on the keys
 * page, not on /console/keys/revoke.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.ts";
import { launchChromium, chromiumAvailable, type Browser } from "../support/browser.ts";
import { signInConsole } from "../support/console-browser.ts";

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

describe.skipIf(!chromiumAvailable())("console API keys", () => {
  it("shows a new key once; a reload issues nothing and shows it no longer; revoke lands on the keys page", async () => {
    const page = await browser.context.newPage();
    await signInConsole(page, server.baseUrl, server.adminKey, "navigation");
    await page.goto(`${server.baseUrl}/console/keys`);
    const orgId = server.loupe.services.keys.organisations()[0]!.orgId;
    const named = () => server.loupe.services.keys.list(orgId).filter((k) => k.name === "nightly build");

    await page.locator("#issue-key input[name=name]").fill("nightly build");
    await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Issue a key" }).click()]);
    expect(new URL(page.url()).pathname).toBe("/console/keys");
    const secret = (await page.locator("#issued-secret").textContent())!.trim();
    expect(server.loupe.services.keys.authenticate(`Bearer ${secret}`)).not.toBeNull();
    expect(page.url()).not.toContain(secret);
    expect(named()).toHaveLength(1);

    await page.reload();
    expect(named()).toHaveLength(1);
    expect(await page.locator("#issued-secret").count()).toBe(0);
    expect(await page.content()).not.toContain(secret);
    expect(await page.getByRole("status").textContent()).toContain("was shown once");

    const row = page.locator(`tr[data-key-id="${named()[0]!.keyId}"]`);
    await Promise.all([page.waitForNavigation(), row.getByRole("button", { name: "Revoke" }).click()]);
    expect(new URL(page.url()).pathname).toBe("/console/keys");
    expect(await page.getByRole("status").textContent()).toContain("Revoked nightly build");
    expect(server.loupe.services.keys.authenticate(`Bearer ${secret}`)).toBeNull();
    await page.reload(); // a GET: repeats nothing
    expect(new URL(page.url()).pathname).toBe("/console/keys");
    expect(server.logs()).not.toContain(secret);
    await page.close();
  }, 60_000);
});
