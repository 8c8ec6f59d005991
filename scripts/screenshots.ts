/**
 * Screenshots of every console page, for the README and docs/console/: starts the real server on a
 * seeded temp data dir (a git repository served as the "GitHub" host, pull requests and comments from
 * signed webhooks), drives Debian's Chromium through the pages, and writes PNGs at 1280 px wide and,
 * for the main pages, at phone width (390 px).
 *
 *   npm run screenshots            (needs /usr/bin/chromium, or CHROMIUM_PATH)
 */
import { mkdirSync } from "node:fs";
import { join, relative } from "node:path";
import type { Page } from "playwright-core";
import { launchChromium } from "../test/support/browser.ts";
import { seedConsole, REPO } from "../test/support/console-seed.ts";

const OUT = join(import.meta.dirname, "..", "docs", "console");
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

async function main() {
  mkdirSync(OUT, { recursive: true });
  const seed = await seedConsole();
  const browser = await launchChromium({ viewport: DESKTOP });
  const base = seed.server.baseUrl;
  const written: string[] = [];
  try {
    const page = await browser.context.newPage();
    const shot = async (name: string, p: Page = page) => {
      const file = join(OUT, `${name}.png`);
      await p.screenshot({ path: file, fullPage: true });
      written.push(file);
    };
    const go = (path: string) => page.goto(base + path, { waitUntil: "networkidle" }).catch(() => page.goto(base + path));

    await go("/console/sign-in");
    await shot("sign-in");
    await page.getByLabel("API key").fill(seed.server.adminKey);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/repositories/);

    await page.getByLabel("Repository (owner/repo)").fill(REPO);
    await page.getByRole("button", { name: "Submit" }).click();
    await page.waitForURL(/notice=/);
    await page.locator('[data-field="status"]', { hasText: "completed" }).waitFor({ timeout: 60_000 });
    await shot("repositories");

    await go("/console/search");
    await page.getByLabel("Query or question").fill("parseConfig configuration key value pairs");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.locator("#results .result").first().waitFor();
    await shot("search-results");
    await page.locator("#results .result").first().getByRole("link", { name: "Open in file" }).click();
    await page.waitForURL(/\/console\/code/);
    await shot("code-view");

    await go("/console/search");
    await page.getByLabel("Query or question").fill("How is the configuration text parsed?");
    await page.getByRole("button", { name: "Ask" }).click();
    await page.locator("#answer-status", { hasText: "Done" }).waitFor({ timeout: 30_000 });
    await shot("ask-answer");
    await page.locator("#answer-session a").click(); // the address is the session's page already: wait for its content
    await page.locator(".turn").first().waitFor();
    await shot("session");

    await go("/console/pull-requests");
    await shot("pull-requests");
    await page.getByRole("link", { name: /#7 Add widget helpers/ }).click();
    await page.getByRole("button", { name: "Trigger a review" }).click();
    await page.waitForURL(/#reviews/);
    await page.locator('.review [data-field="status"]', { hasText: "COMPLETED" }).waitFor({ timeout: 60_000 });
    await page.reload();
    await shot("pull-request");
    await page.locator(".review a.mono").first().click();
    await page.waitForURL(/\/console\/reviews\//);
    await shot("code-review");

    await go("/console/custom-context");
    await page.locator("#create-context").getByLabel("Type").selectOption("PATTERN");
    await page.locator("#create-context").getByLabel("Scope applies").selectOption("AND");
    await page.locator("#create-context").getByLabel("Value (glob for MATCHES)").fill("src/{a");
    await page.locator("#create-context").getByLabel("Body (markdown)").fill("Prefer `httpClient` over raw `fetch` in application code.");
    await page.locator("#create-context").getByRole("button", { name: "Create" }).click();
    await page.locator(".scope-error").waitFor();
    await shot("custom-context-scope-check");
    await page.locator("#create-context").getByLabel("Value (glob for MATCHES)").fill("src/**/*.ts");
    await page.locator("#create-context").getByRole("button", { name: "Create" }).click();
    await page.waitForURL(/notice=created/);
    await shot("custom-context-detail");
    const createdId = /custom-context\/([0-9a-f-]{36})/.exec(page.url())![1]!;
    await go("/console/custom-context");
    await shot("custom-context");
    await page.locator("section", { hasText: "Learned suggestions" }).locator("a").first().click();
    await shot("custom-context-learned");

    await go("/console/audit/events");
    await shot("audit-events");
    await go(`/console/audit/events?type=CustomContextCreated`);
    await page.locator("#events tbody tr", { hasText: createdId }).locator("th a").click();
    await page.waitForURL(/\/audit\/events\/\d+$/);
    await shot("audit-event");
    await go(`/console/audit/history?entity=${encodeURIComponent(`github:main:${REPO}`)}`);
    await shot("audit-history");
    await go(`/console/audit/read-models?projection=repositories&asOf=${encodeURIComponent(new Date().toISOString())}`);
    await shot("audit-read-model-as-of");
    await go("/console/audit/projections");
    await shot("audit-projections");
    await go("/console/keys");
    await page.getByLabel("Name").fill("ci bot");
    await page.getByRole("button", { name: "Issue a key" }).click();
    await page.locator("#issued-secret").waitFor();
    await page.locator("#issued-secret").evaluate((el) => (el.textContent = "lp_…(shown once)…"));
    await shot("api-keys");

    // Phone width: the main pages again.
    const phone = await browser.context.newPage();
    await phone.setViewportSize(PHONE);
    for (const [name, path] of [
      ["phone-repositories", "/console/repositories"],
      ["phone-pull-request", `/console/pull-requests/view?remote=github&name=${encodeURIComponent(REPO)}&number=7`],
      ["phone-custom-context", "/console/custom-context"],
      ["phone-audit-events", "/console/audit/events"],
    ] as const) {
      await phone.goto(base + path);
      await phone.waitForLoadState("networkidle").catch(() => undefined);
      await shot(name, phone);
    }

    // A member key: no admin links, 403 on the admin pages.
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(/sign-in/);
    await page.getByLabel("API key").fill(seed.memberKey);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/repositories/);
    await go("/console/audit/events");
    await shot("member-forbidden");
  } finally {
    await browser.close();
    await seed.cleanup();
  }
  for (const file of written) process.stdout.write(`${relative(process.cwd(), file)}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
