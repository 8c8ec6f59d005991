/**
 * The web console end to end in a real Chromium (Debian's package, driven by playwright-core) against
 * the real server: sign in, submit a real git repository and watch its progress bar reach completed,
 * search and open a span, ask and reopen the session, trigger a review and watch it complete, create
 * a custom context with the scope editor and browse the event that recorded it, a hostile comment that
 * stays inert, a member key kept out of the admin pages, sign out. Each flow's time is printed and
 * written to test-results/console-flows.json.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdirSync, writeFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { chromiumAvailable, CHROMIUM, launchChromium, type Browser } from "../support/browser.ts";
import { signInConsole } from "../support/console-browser.ts";
import { seedConsole, REPO, type ConsoleSeed } from "../support/console-seed.ts";

const timings: Record<string, number> = {};
async function timed<T>(name: string, flow: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await flow();
  timings[name] = Math.round(performance.now() - started);
  return result;
}

let seed: ConsoleSeed;
let browser: Browser;
let page: Page;
const dialogs: string[] = [];
const pageErrors: string[] = [];
const REPO_ID = `github:main:${REPO}`;

beforeAll(async () => {
  if (!chromiumAvailable()) throw new Error(`Chromium not found at ${CHROMIUM}: install Debian's chromium package (apt-get install -y chromium)`);
  seed = await seedConsole();
  browser = await launchChromium();
  page = await browser.context.newPage();
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on("pageerror", (e) => pageErrors.push(e.message));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await seed?.cleanup();
  if (Object.keys(timings).length > 0) {
    mkdirSync("test-results", { recursive: true });
    writeFileSync("test-results/console-flows.json", JSON.stringify({ chromium: CHROMIUM, timingsMs: timings }, null, 2) + "\n");
    console.log(`console flows (ms): ${JSON.stringify(timings)}`);
  }
});

describe("web console in Chromium", () => {
  it("/ redirects to the console, which asks to sign in", async () => {
    await page.goto(`${seed.server.baseUrl}/`);
    await expect.poll(() => page.url()).toMatch(/\/console\/sign-in$/);
    const res = await page.request.get(`${seed.server.baseUrl}/console/sign-in`);
    const csp = res.headers()["content-security-policy"] ?? "";
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("unsafe-inline");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("apiKey"); // focused for typing
  });

  it("signs in: the key becomes an HttpOnly, SameSite=Strict session cookie and is kept nowhere in the browser", async () => {
    const bad = await timed("sign in (wrong key)", async () => {
      await page.goto(`${seed.server.baseUrl}/console/sign-in`);
      await page.getByLabel("API key").fill("lp_not_a_key");
      await page.getByRole("button", { name: "Sign in" }).click();
      return page.getByRole("alert").textContent();
    });
    expect(bad).toContain("Invalid or revoked API key");
    await timed("sign in", () => signInConsole(page, seed.server.baseUrl, seed.server.adminKey));
    expect(page.url()).not.toContain(seed.server.adminKey);
    const cookies = await browser.context.cookies();
    const session = cookies.find((c) => c.name === "loupe_console");
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Strict", path: "/console" });
    expect(cookies.some((c) => c.value.includes(seed.server.adminKey))).toBe(false);
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie);
    expect(stored).not.toContain(seed.server.adminKey);
    expect(stored).not.toContain(session!.value); // HttpOnly: scripts cannot read it
    // Neither the key nor the session id is in the log lines or the event log.
    expect(seed.server.logs()).not.toContain(session!.value);
    const events = JSON.stringify(await seed.server.loupe.services.eventStore.readAll({ maxCount: 100_000 }));
    expect(events).not.toContain(session!.value);
    expect(events).not.toContain(seed.server.adminKey);
  });

  it("submits a repository with the API's validation, and its progress bar reaches completed without a reload", async () => {
    // Keyboard: the first Tab reaches the skip link, Enter jumps to the content, Tab to its first field.
    await page.goto(`${seed.server.baseUrl}/console/repositories`);
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to content");
    await page.keyboard.press("Enter");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("remote");
    await page.getByLabel("Repository (owner/repo)").fill("not a repository");
    await page.getByRole("button", { name: "Submit" }).click();
    await expect.poll(() => page.getByRole("alert").textContent()).toMatch(/^repository: /);

    let initial = "";
    await timed("submit a repository and watch it index", async () => {
      await page.getByLabel("Repository (owner/repo)").fill(REPO);
      await page.getByRole("button", { name: "Submit" }).click();
      await page.waitForURL(/\/console\/repositories\?notice=/);
      await page.evaluate(() => ((window as unknown as { __samePage: boolean }).__samePage = true));
      const row = page.locator(`tr[data-repo-id="${REPO_ID}"]`);
      initial = (await row.locator('[data-field="status"]').textContent())!;
      await row.locator('[data-field="status"]', { hasText: "completed" }).waitFor({ timeout: 60_000 });
    });
    const row = page.locator(`tr[data-repo-id="${REPO_ID}"]`);
    expect(await page.evaluate(() => (window as unknown as { __samePage?: boolean }).__samePage)).toBe(true);
    expect(initial).not.toBe("completed"); // the page was rendered while indexing: the live stream moved it
    const bar = row.locator('progress[data-field="progress"]');
    expect(await bar.evaluate((b: HTMLProgressElement) => [b.value, b.max])).toEqual([3, 3]);
    await expect.poll(() => row.locator('[data-field="progress-text"]').textContent()).toBe("3 / 3");
    expect(await row.locator('[data-field="languages"]').textContent()).toMatch(/typescript 1/);
    expect((await row.locator('[data-field="sha"]').textContent())!.trim()).toMatch(/^[0-9a-f]{12}$/);
  });

  it("searches and opens a span: file, line range and its highlighted, escaped code", async () => {
    await timed("search and open a span", async () => {
      await page.getByRole("link", { name: "Search & ask" }).click();
      await page.getByLabel("Query or question").fill("parseConfig configuration key value pairs");
      await page.getByRole("button", { name: "Search", exact: true }).click();
      await page.locator("#results .result").first().waitFor();
    });
    const first = page.locator("#results .result").first();
    expect(await first.locator(".path").textContent()).toBe("src/app.ts");
    expect(await first.locator(".lines").textContent()).toMatch(/^L\d+-\d+$/);
    expect(await first.locator(".code .source").textContent()).toContain("export function parseConfig");
    expect(await first.locator(".code .hljs-keyword").count()).toBeGreaterThan(0);
    await timed("open the span in its file", async () => {
      await first.getByRole("link", { name: "Open in file" }).click();
      await page.waitForURL(/\/console\/code\?/);
    });
    expect(await page.locator("h1").textContent()).toBe("src/app.ts");
    expect(await page.locator(".code .gutter b").count()).toBeGreaterThan(0);
    expect(await page.locator(".code .source").textContent()).toContain("parseConfig");
  });

  it("asks a question, watches the streamed answer with its sources, and reopens the session", async () => {
    await page.goto(`${seed.server.baseUrl}/console/search`);
    await timed("ask and read the streamed answer", async () => {
      await page.getByLabel("Query or question").fill("How is the configuration text parsed?");
      await page.getByRole("button", { name: "Ask" }).click();
      await page.locator("#answer-status", { hasText: "Done" }).waitFor({ timeout: 30_000 });
    });
    expect(page.url()).toMatch(/\/console\/sessions\/[0-9A-Z]{26}$/); // streamed in place, then the address is the session's page
    expect((await page.locator("#answer-text").textContent())!.length).toBeGreaterThan(20);
    // Once streamed, the answer is shown as rendered markdown (its code fence becomes highlighted code).
    expect(await page.locator("#answer-text .markdown pre code").count()).toBeGreaterThan(0);
    expect(await page.locator("#answer-sources li").count()).toBeGreaterThan(0);
    expect(await page.locator("#answer-sources").textContent()).toContain("src/app.ts");
    await timed("reopen the session", async () => {
      await page.locator("#answer-session a").click();
      await page.waitForURL(/\/console\/sessions\//);
    });
    expect(await page.locator(".turn .question").first().textContent()).toContain("How is the configuration text parsed?");
    expect(await page.locator(".turn .markdown").first().textContent()).not.toBe("");
  });

  it("triggers a review with a strictness and watches it complete (timeline and progress, no reload)", async () => {
    await page.getByRole("link", { name: "Pull requests" }).click();
    await page.getByRole("link", { name: /#7 Add widget helpers/ }).click();
    let initial = "";
    await timed("trigger a review and watch it complete", async () => {
      await page.getByLabel("Strictness").selectOption("4");
      await page.getByRole("button", { name: "Trigger a review" }).click();
      await page.waitForURL(/#reviews$/);
      await page.evaluate(() => ((window as unknown as { __samePage: boolean }).__samePage = true));
      initial = (await page.locator('.review [data-field="status"]').textContent())!;
      await page.locator('.review [data-field="status"]', { hasText: "COMPLETED" }).waitFor({ timeout: 60_000 });
    });
    expect(await page.evaluate(() => (window as unknown as { __samePage?: boolean }).__samePage)).toBe(true);
    expect(initial).not.toBe("COMPLETED");
    const timeline = await page.locator(".review .timeline li").allTextContents();
    expect(timeline[0]).toContain("PENDING");
    expect(timeline.join(" ")).toContain("REVIEWING_FILES");
    expect(timeline[timeline.length - 1]).toContain("COMPLETED");
    const progress = await page.locator('.review [data-field="progress-text"]').textContent();
    const [done, total] = progress!.split(" / ").map(Number);
    expect(total).toBeGreaterThan(0);
    expect(done).toBe(total);
    expect(await page.locator(".review .muted.small").first().textContent()).toContain("strictness 4");
  });

  it("renders a hostile comment inert: no image, no handler, no javascript: link, no script", async () => {
    await page.reload();
    const body = page.locator(".comment.human .comment-body", { hasText: "Looks risky" });
    await body.waitFor();
    expect(await body.textContent()).toContain('<img src=x onerror="window.__pwned=1">');
    expect(await body.locator("img, script").count()).toBe(0);
    expect(await page.locator('a[href^="javascript"], [onerror]').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(dialogs).toEqual([]);
  });

  it("badges only the comments the review analysis counts: as many 'unaddressed' badges as its Unaddressed figure", async () => {
    const analysis = page.locator("#analysis-title + dl");
    const unaddressed = Number(await analysis.locator("dt", { hasText: /^Unaddressed$/ }).locator("xpath=following-sibling::dd[1]").textContent());
    expect(await page.locator(".comment.human").count()).toBeGreaterThan(0);
    expect(await page.locator(".comment.service").count()).toBeGreaterThan(0);
    expect(await page.locator(".comment .badge-unaddressed").count()).toBe(unaddressed);
    // A human's comment and a review's summary (an overview) have no addressed state.
    expect(await page.locator(".comment.human .badge-unaddressed, .comment.human .badge-addressed").count()).toBe(0);
    const overview = page.locator(".comment.service", { has: page.locator(".comment-head .muted", { hasText: "overview" }) });
    expect(await overview.count()).toBeGreaterThan(0);
    expect(await overview.locator(".badge-unaddressed, .badge-addressed").count()).toBe(0);
  });

  it("creates a custom context with the scope editor (checked before sending) and browses the event that recorded it", async () => {
    await page.getByRole("link", { name: "Custom context" }).click();
    const form = page.locator("#create-context");
    await form.getByLabel("Body (markdown)").fill("Prefer `httpClient` over raw fetch in src.");
    await form.getByLabel("Type").selectOption("PATTERN");
    await form.getByLabel("Scope applies").selectOption("AND");
    await form.getByLabel("Value (glob for MATCHES)").fill("src/{a");
    const before = page.url();
    await form.getByRole("button", { name: "Create" }).click();
    await expect.poll(() => form.locator(".scope-error").textContent()).toContain("unbalanced");
    expect(page.url()).toBe(before); // refused in the browser: nothing sent
    await timed("create a custom context", async () => {
      await form.getByLabel("Value (glob for MATCHES)").fill("src/**/*.ts");
      await form.getByRole("button", { name: "Create" }).click();
      await page.waitForURL(/\/console\/custom-context\/[0-9a-f-]{36}\?notice=created/);
    });
    const id = /custom-context\/([0-9a-f-]{36})/.exec(page.url())![1]!;
    expect(await page.locator(".facts dd.mono").first().textContent()).toBe('{"AND":[{"field":"filepath","operator":"MATCHES","value":"src/**/*.ts"}]}');
    await timed("browse the event that recorded it", async () => {
      await page.getByRole("link", { name: "Audit" }).click();
      await page.getByLabel("Type(s)").fill("CustomContextCreated");
      await page.getByRole("button", { name: "Filter" }).click();
      await page.locator("#events tbody tr").first().waitFor();
      await page.locator("#events tbody tr", { hasText: id }).locator("th a").click();
      await page.waitForURL(/\/console\/audit\/events\/\d+$/);
    });
    expect(await page.locator("h1").textContent()).toContain("CustomContextCreated");
    expect(await page.locator("pre.json").textContent()).toContain(id);
    expect(await page.locator("pre.json").textContent()).toContain("src/**/*.ts");
    // Status change, then the history of the entity shows both events.
    await page.goto(`${seed.server.baseUrl}/console/custom-context/${id}`);
    await page.locator("#status-form").getByLabel("Status").selectOption("INACTIVE");
    await page.locator("#status-form").getByRole("button", { name: "Set status" }).click();
    await page.waitForURL(/notice=saved/);
    await page.getByRole("link", { name: "events of this custom context" }).click();
    const types = await page.locator("#events tbody tr td:nth-child(3)").allTextContents();
    expect(types).toEqual(["CustomContextCreated", "CustomContextStatusChanged"]);
  });

  it("shows a learned SUGGESTED pattern with its evidence", async () => {
    await page.goto(`${seed.server.baseUrl}/console/custom-context`);
    await page.locator("section", { hasText: "Learned suggestions" }).locator("a").first().click();
    expect(await page.locator("h1").textContent()).toContain("SUGGESTED");
    const evidence = await page.locator(".comments .comment").allTextContents();
    expect(evidence.join(" ")).toContain("transaction");
    expect(evidence).toHaveLength(2);
  });

  it("fits a phone's width: no page scrolls sideways (wide tables scroll inside their box)", async () => {
    const phone = await browser.context.newPage();
    await phone.setViewportSize({ width: 390, height: 844 });
    try {
      for (const path of [
        "/console/repositories",
        "/console/search",
        "/console/pull-requests",
        `/console/pull-requests/view?remote=github&name=${encodeURIComponent(REPO)}&number=7`,
        "/console/custom-context",
        "/console/audit/events",
        "/console/audit/projections",
        "/console/keys",
      ]) {
        await phone.goto(seed.server.baseUrl + path);
        expect(await phone.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(390);
      }
    } finally {
      await phone.close();
    }
  });

  it("keeps a member key out of the admin pages (403, and no link), then signs out", async () => {
    await timed("sign out", async () => {
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.waitForURL(/\/console\/sign-in$/);
    });
    await page.goto(`${seed.server.baseUrl}/console/repositories`);
    expect(page.url()).toMatch(/\/console\/sign-in$/); // the old session is gone
    await signInConsole(page, seed.server.baseUrl, seed.memberKey);
    const nav = await page.locator('nav[aria-label="Main"] a').allTextContents();
    expect(nav).toEqual(["Repositories", "Search & ask", "Pull requests", "Custom context"]);
    for (const path of ["/console/audit/events", "/console/audit/projections", "/console/keys"]) {
      const response = await page.goto(`${seed.server.baseUrl}${path}`);
      expect(response!.status(), path).toBe(403);
      expect(await page.locator("h1").textContent()).toBe("Forbidden");
    }
    await page.goto(`${seed.server.baseUrl}/console/repositories`);
    expect(await page.locator(`tr[data-repo-id="${REPO_ID}"]`).count()).toBe(1); // its organisation's repositories
    expect(pageErrors).toEqual([]);
  });
});
