/**
 * Re-index of a private repository from the console's repositories page, in a real Chromium against
 * the real server and a git host on 127.0.0.1 that serves a private repository only with its token
 * (git's smart HTTP protocol and GitHub's REST shape: test/support/private-git-host.ts). The server
 * keeps no token, so the row of a repository the host says is private asks for one; the token goes
 * with that one POST to the job, and never into a URL, a page, a log line or an event.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { chromiumAvailable, CHROMIUM, launchChromium, type Browser } from "../support/browser.ts";
import { signInConsole } from "../support/console-browser.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { startPrivateGitHost, type PrivateGitHost } from "../support/private-git-host.ts";
import type { WorkRepo } from "../support/git-fixtures.ts";

let browser: Browser;
let page: Page;
let server: TestServer;
let host: PrivateGitHost;
let vault: WorkRepo;

const notice = () => page.getByRole("status").first().textContent();
const row = (text: string) => page.locator("#repositories tbody tr", { hasText: text });
const status = (text: string, value: string) => row(text).locator('[data-field="status"]', { hasText: value }).waitFor({ timeout: 60_000 });
const recordOf = async (repository: string) =>
  (await (await server.api(`/v2/repositories/${encodeURIComponent(`github:main:${repository}`)}`)).json()) as { private: boolean; status: string; sha: string | null; failureReason: string | null };

beforeAll(async () => {
  if (!chromiumAvailable()) throw new Error(`Chromium not found at ${CHROMIUM}: install Debian's chromium package (apt-get install -y chromium)`);
  host = await startPrivateGitHost();
  vault = host.createRepo("acme/vault", { "vault/keys.py": "def rotate_keys(vault):\n    return vault\n" }, { private: true });
  host.createRepo("acme/plaza", { "plaza/shop.py": "def open_shop():\n    return 1\n" }, { private: false });
  server = await startTestServer({ env: { LOUPE_GITHUB_URL: host.gitBase, LOUPE_GITHUB_API_URL: host.apiBase } });
  browser = await launchChromium();
  page = await browser.context.newPage();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop({ remove: true });
  await host?.close();
});

describe("re-index of a private repository from the console", () => {
  it("indexes both repositories through the submit form: the private one with its token", async () => {
    await signInConsole(page, server.baseUrl, server.adminKey);
    await page.getByLabel("Repository (owner/repo)").fill("acme/vault");
    await page.getByLabel("Host token (private repositories; kept only for the job)").fill(host.token);
    await page.getByRole("button", { name: "Submit" }).click();
    await page.waitForURL(/notice=/);
    await status("acme/vault", "completed");
    await page.getByLabel("Repository (owner/repo)").fill("acme/plaza");
    await page.getByRole("button", { name: "Submit" }).click();
    await page.waitForURL(/notice=/);
    await status("acme/plaza", "completed");
    expect(await recordOf("acme/vault")).toMatchObject({ status: "completed", private: true });
    expect(await recordOf("acme/plaza")).toMatchObject({ status: "completed", private: false });
  });

  it("a private repository's row asks for a host token; a public one's does not", async () => {
    await page.goto(`${server.baseUrl}/console/repositories`);
    const field = row("acme/vault").getByLabel("Host token for acme/vault");
    expect(await field.getAttribute("type")).toBe("password");
    expect(await field.getAttribute("autocomplete")).toBe("off");
    expect(await field.inputValue()).toBe("");
    expect(await row("acme/vault").locator("form").getAttribute("method")).toBe("post");
    expect(await row("acme/plaza").locator('input[name="hostToken"]').count()).toBe(0);
    // The field fits a phone's card as well as the desktop table.
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.reload();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      expect(await row("acme/vault").getByLabel("Host token for acme/vault").isVisible()).toBe(true);
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  it("without the token a re-index cannot read it; with the token typed into its row it indexes the new commit", async () => {
    const second = (() => {
      vault.write({ "vault/audit.py": "def audit_vault(vault):\n    return []\n" });
      const sha = vault.commit("audit");
      vault.publish();
      return sha;
    })();

    await row("acme/vault").getByRole("button", { name: "Re-index" }).click();
    await page.waitForURL(/notice=/);
    await status("acme/vault", "failed");
    expect((await recordOf("acme/vault")).private).toBe(true); // still private: the row keeps its token field

    const asked = host.gitRequests.length;
    await row("acme/vault").getByLabel("Host token for acme/vault").fill(host.token);
    await row("acme/vault").getByRole("button", { name: "Re-index" }).click();
    await page.waitForURL(/notice=/);
    expect(await notice()).toBe("Re-indexing started: github:main:acme/vault");
    await status("acme/vault", "completed");
    expect(await recordOf("acme/vault")).toMatchObject({ status: "completed", private: true, sha: second, failureReason: null });
    const calls = host.gitRequests.slice(asked).filter((r) => r.repository === "acme/vault");
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((r) => r.authorized)).toBe(true);

    // The token went with the POST only: not in the address, not back in the page, not kept.
    expect(page.url()).not.toContain(host.token);
    expect(await page.content()).not.toContain(host.token);
    expect(await row("acme/vault").getByLabel("Host token for acme/vault").inputValue()).toBe("");
    expect(server.logs()).not.toContain(host.token);
    const events = await server.loupe.services.eventStore.readAll({ fromPosition: 0, maxCount: 100_000 });
    const dump = JSON.stringify(events);
    expect(dump).toContain("RepositoryIndexingCompleted");
    expect(dump).not.toContain(host.token);
    expect(JSON.stringify(server.loupe.services.indexer.list(server.loupe.services.keys.organisations()[0]!.orgId))).not.toContain(host.token);
  });
});
