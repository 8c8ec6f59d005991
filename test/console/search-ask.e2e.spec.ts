/**
 * The console's search and ask pages in a real Chromium against the real server, with two indexed
 * repositories (the seed's repository on main and on feature): a search's results have their own GET
 * URL (POST-redirect-GET), so Back from a result, Reload and a bookmark show them, and the search is
 * recorded once; its session is among the past sessions at once; one Ask per double click, the buttons
 * disabled while the answer streams; the answered question lives at its session's page, so Back from a
 * source shows it; continuing a session keeps its repositories; an ended session gets a sign-in link
 * and the typed question is kept. The search runs once (the service's `loupe_code_searches_total`): its
 * page, Back, Reload and the bookmark show the results the POST found.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page, Request } from "playwright-core";
import { chromiumAvailable, CHROMIUM, launchChromium, type Browser } from "../support/browser.ts";
import { signInConsole } from "../support/console-browser.ts";
import { seedConsole, REPO, type ConsoleSeed } from "../support/console-seed.ts";

let seed: ConsoleSeed;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];
const MAIN = `github:main:${REPO}`;
const FEATURE = `github:feature:${REPO}`;

const signIn = (p: Page) => signInConsole(p, seed.server.baseUrl, seed.server.adminKey, (url) => !url.pathname.endsWith("/sign-in"));

/** Signs out in another tab of the same browser: this tab's session has ended. */
async function signOutElsewhere() {
  const other = await browser.context.newPage();
  await other.goto(`${seed.server.baseUrl}/console/repositories`);
  await other.getByRole("button", { name: "Sign out" }).click();
  await other.waitForURL(/\/console\/sign-in/);
  await other.close();
}

/** The code searches the service ran (GET /metrics). */
const searchesRun = async () => {
  const text = await (await fetch(`${seed.server.baseUrl}/metrics`)).text();
  return Number(/^loupe_code_searches_total (\S+)$/m.exec(text)?.[1]);
};

const repoBox = (p: Page, id: string) => p.locator(`input[name="repo"][value="${id}"]`);

beforeAll(async () => {
  if (!chromiumAvailable()) throw new Error(`Chromium not found at ${CHROMIUM}: install Debian's chromium package (apt-get install -y chromium)`);
  seed = await seedConsole();
  for (const branch of ["main", "feature"]) {
    const res = await seed.server.api("/v2/repositories", { method: "POST", json: { remote: "github", repository: REPO, branch } });
    expect(res.status).toBe(202);
  }
  await seed.server.loupe.services.indexer.idle();
  browser = await launchChromium();
  page = await browser.context.newPage();
  page.on("pageerror", (e) => pageErrors.push(e.message));
  await signIn(page);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await seed?.cleanup();
});

describe("search and ask pages", () => {
  it("a search's results have their own URL: Back from a result, Reload and a bookmark show them, and the search is recorded once", async () => {
    await page.goto(`${seed.server.baseUrl}/console/search`);
    await page.getByLabel("Query or question").fill("parseConfig configuration key value pairs");
    await repoBox(page, MAIN).check();
    const searchesBefore = await searchesRun();
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.waitForURL(/\/console\/search\?/);
    await page.locator("#results .result").first().waitFor();
    const url = new URL(page.url());
    expect(url.pathname).toBe("/console/search");
    expect(url.searchParams.get("query")).toBe("parseConfig configuration key value pairs");
    expect(url.searchParams.getAll("repo")).toEqual([MAIN]);
    const sid = url.searchParams.get("sessionId")!;
    expect(sid).toMatch(/^[0-9A-Z]{26}$/);

    await page.locator("#results .result").first().getByRole("link", { name: "Open in file" }).click();
    await page.waitForURL(/\/console\/code\?/);
    const back = await page.goBack();
    expect(back?.status()).toBe(200);
    expect(page.url()).toBe(url.href);
    expect(await page.locator("#results .result .path").first().textContent()).toBe("src/app.ts");
    expect(await page.getByLabel("Query or question").inputValue()).toBe("parseConfig configuration key value pairs");
    expect(await repoBox(page, MAIN).isChecked()).toBe(true);
    expect(await repoBox(page, FEATURE).isChecked()).toBe(false);

    const reloaded = await page.reload();
    expect(reloaded?.status()).toBe(200);
    expect(await page.locator("#results .result .path").first().textContent()).toBe("src/app.ts");

    const bookmark = await browser.context.newPage();
    try {
      await bookmark.goto(url.href);
      expect(await bookmark.locator("#results .result .path").first().textContent()).toBe("src/app.ts");
    } finally {
      await bookmark.close();
    }
    // Back, Reload and the bookmark read the search; only the POST ran and recorded it.
    expect(await searchesRun()).toBe(searchesBefore + 1);
    await page.goto(`${seed.server.baseUrl}/console/sessions/${sid}`);
    expect(await page.locator(".turn").count()).toBe(1);
  });

  it("a search sent with a host token is shown at once: the token never goes into a URL", async () => {
    await page.goto(`${seed.server.baseUrl}/console/search`);
    const csrf = await page.locator('meta[name="csrf-token"]').getAttribute("content");
    const token = "host-token-never-in-a-url";
    const res = await page.request.post(`${seed.server.baseUrl}/console/search`, {
      form: { _csrf: csrf!, query: "parseConfig", repo: MAIN, hostToken: token },
      headers: { origin: seed.server.baseUrl },
      maxRedirects: 0,
    });
    expect(res.status()).toBe(200);
    expect(res.headers().location).toBeUndefined();
    const html = await res.text();
    expect(html).toContain("src/app.ts");
    expect(html).not.toContain(token);
  });

  it("lists the session a search just created among the past sessions of its results page", async () => {
    await page.goto(`${seed.server.baseUrl}/console/search`);
    await page.getByLabel("Query or question").fill("Scheduler jobs timer");
    await repoBox(page, FEATURE).check();
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.locator("#results .result").first().waitFor();
    const sid = await page.locator("#results a.mono").first().textContent();
    expect(sid).toMatch(/^[0-9A-Z]{26}$/);
    expect(await page.locator("#past-sessions a", { hasText: sid! }).count()).toBe(1);
  });

  it("asks once per double click, the buttons disabled while the answer streams", async () => {
    await page.goto(`${seed.server.baseUrl}/console/search`);
    await page.getByLabel("Query or question").fill("How is the configuration text parsed?");
    await repoBox(page, MAIN).check();
    const asks: Request[] = [];
    page.on("request", (r) => {
      if (new URL(r.url()).pathname === "/console/ask") asks.push(r);
    });
    // Records whether the Ask button was ever disabled (an observer, not a timed look).
    await page.evaluate(() => {
      const button = document.getElementById("ask-button") as HTMLButtonElement;
      new MutationObserver(() => {
        if (button.disabled) (window as unknown as { __askDisabled: boolean }).__askDisabled = true;
      }).observe(button, { attributes: true, attributeFilter: ["disabled"] });
    });
    await page.getByRole("button", { name: "Ask" }).dblclick();
    await page.locator("#answer-status", { hasText: "Done" }).waitFor({ timeout: 30_000 });
    expect(asks).toHaveLength(1);
    expect(await page.evaluate(() => (window as unknown as { __askDisabled?: boolean }).__askDisabled)).toBe(true);
    expect(await page.getByRole("button", { name: "Ask" }).isEnabled()).toBe(true);
  });

  it("an answered question lives at its session's page: Back from a source and Reload show it; continuing keeps its repositories", async () => {
    await page.goto(`${seed.server.baseUrl}/console/search`);
    await page.getByLabel("Query or question").fill("How is the configuration text parsed?");
    await repoBox(page, MAIN).check();
    await page.getByRole("button", { name: "Ask" }).click();
    await page.locator("#answer-status", { hasText: "Done" }).waitFor({ timeout: 30_000 });
    const sid = /\/console\/sessions\/([0-9A-Z]{26})$/.exec(page.url())?.[1];
    expect(sid).toBeDefined();
    expect(await page.locator("#past-sessions a", { hasText: sid! }).count()).toBe(1);
    expect(await page.locator('#search-form input[name="sessionId"]').inputValue()).toBe(sid);

    // Back from a source: the session's page, with the answer.
    await page.locator("#answer-sources a").first().click();
    await page.waitForURL(/\/console\/code\?/);
    const back = await page.goBack();
    expect(back?.status()).toBe(200);
    expect(page.url()).toBe(`${seed.server.baseUrl}/console/sessions/${sid}`);
    expect(await page.locator(".turn .question").first().textContent()).toContain("How is the configuration text parsed?");
    expect(await page.locator(".turn .markdown").first().textContent()).not.toBe("");
    await page.reload();
    expect(await page.locator(".turn .markdown").first().textContent()).not.toBe("");

    // Continuing the session keeps its repositories and says which session it continues.
    await page.getByRole("link", { name: "Continue this session" }).click();
    await page.waitForURL(/\/console\/search\?sessionId=/);
    expect(await repoBox(page, MAIN).isChecked()).toBe(true);
    expect(await repoBox(page, FEATURE).isChecked()).toBe(false);
    expect(await page.locator("#continuing").textContent()).toContain(sid);
    expect(await page.locator('#search-form input[name="sessionId"]').isVisible()).toBe(true);
    expect(await page.locator('#search-form input[name="sessionId"]').inputValue()).toBe(sid);
  });

  it("after the session ended, Ask says so with a sign-in link, and the typed question comes back after signing in", async () => {
    const question = "Where are names normalised?";
    await page.goto(`${seed.server.baseUrl}/console/search`);
    await page.getByLabel("Query or question").fill(question);
    await repoBox(page, FEATURE).check();
    await signOutElsewhere();

    await page.getByRole("button", { name: "Ask" }).click();
    const status = page.locator("#answer-status");
    await status.getByRole("link", { name: "Sign in again" }).waitFor();
    expect(await status.textContent()).toContain("Your session has ended");
    const href = await status.getByRole("link", { name: "Sign in again" }).getAttribute("href");
    expect(href).toBe(`/console/sign-in?next=${encodeURIComponent("/console/search")}`);

    await status.getByRole("link", { name: "Sign in again" }).click();
    await page.waitForURL(/\/console\/sign-in/);
    await page.getByLabel("API key").fill(seed.server.adminKey);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL((url) => !url.pathname.endsWith("/sign-in"));
    if (new URL(page.url()).pathname !== "/console/search") await page.goto(`${seed.server.baseUrl}/console/search`);
    expect(await page.getByLabel("Query or question").inputValue()).toBe(question);
    expect(await repoBox(page, FEATURE).isChecked()).toBe(true);
    expect(await repoBox(page, MAIN).isChecked()).toBe(false);
    expect(await page.locator("#form-status").textContent()).toContain("unsent question");
    // Put back once: the next visit starts empty.
    await page.reload();
    expect(await page.getByLabel("Query or question").inputValue()).toBe("");
  });

  it("a search sent after the session ended is kept too, and comes back after signing in", async () => {
    const query = "normalise_name strip lower";
    await page.goto(`${seed.server.baseUrl}/console/search`);
    await page.getByLabel("Query or question").fill(query);
    await repoBox(page, FEATURE).check();
    await signOutElsewhere();
    const refused = page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/console/search");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await refused; // refused: the session had ended
    await page.waitForLoadState();
    await signIn(page);
    await page.goto(`${seed.server.baseUrl}/console/search`);
    expect(await page.getByLabel("Query or question").inputValue()).toBe(query);
    expect(await repoBox(page, FEATURE).isChecked()).toBe(true);
    expect(pageErrors).toEqual([]);
  });
});
