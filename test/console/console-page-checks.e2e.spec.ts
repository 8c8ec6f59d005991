/**
 * Small checks of console pages, in a real Chromium against the real server: the code view past the
 * end of its file or with a line number that is not one, the read-models page asked for a
 * projection that does not exist, and a query session opened by a malformed id.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { seedConsole, REPO, APP_TS, type ConsoleSeed } from "../support/console-seed.ts";
import { launchChromium, chromiumAvailable, type Browser } from "../support/browser.ts";
import { signInConsole } from "../support/console-browser.ts";

let seed: ConsoleSeed;
let browser: Browser;
let page: Page;
const fileLines = APP_TS.split("\n").length - 1; // the file ends with a newline

beforeAll(async () => {
  seed = await seedConsole();
  const res = await seed.server.api("/v2/repositories", { method: "POST", json: { remote: "github", repository: REPO } });
  expect(res.status).toBe(202);
  await seed.server.loupe.services.indexer.idle();
  if (!chromiumAvailable()) return;
  browser = await launchChromium();
  page = await browser.context.newPage();
  await signInConsole(page, seed.server.baseUrl, seed.server.adminKey, "navigation");
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await seed?.cleanup();
});

const codeUrl = (params: Record<string, string>) =>
  `${seed.server.baseUrl}/console/code?${new URLSearchParams({ remote: "github", repository: REPO, branch: "main", path: "src/app.ts", ...params })}`;
const gutter = () => page.locator(".code .gutter").textContent().then((t) => (t ?? "").trim().split("\n").map(Number));

describe.skipIf(!chromiumAvailable())("console page checks", () => {
  it("code view: a start past the end of the file says so and shows the file's last lines", async () => {
    await page.goto(codeUrl({ start: "5000", end: "5005" }));
    expect(await page.getByRole("alert").textContent()).toContain(`start: line 5000 is beyond the end of the file (${fileLines} lines)`);
    const numbers = await gutter();
    expect(numbers.at(-1)).toBe(fileLines);
    expect(numbers.every((n) => n >= 1 && n <= fileLines)).toBe(true);
    expect(await page.locator(".code .source").textContent()).toContain("this.jobs.push(job)");
  });

  it("code view: an end past the end of the file is clamped to it", async () => {
    await page.goto(codeUrl({ start: "3", end: "900" }));
    expect(await page.getByRole("alert").count()).toBe(0);
    expect(await page.locator("p.muted").first().textContent()).toContain(`lines 3-${fileLines} marked`);
  });

  it("code view: a start that is not a line number is named and ignored", async () => {
    await page.goto(codeUrl({ start: "abc" }));
    expect(await page.getByRole("alert").textContent()).toContain('start: "abc" is not a line number');
    expect((await gutter())[0]).toBe(1);
    expect(await page.locator(".code .gutter b").count()).toBe(0);
  });

  it("read models: an unknown projection is named, with the known ones", async () => {
    const res = await page.goto(`${seed.server.baseUrl}/console/audit/read-models?projection=nope`);
    expect(res!.status()).toBe(400);
    const alert = (await page.getByRole("alert").textContent())!;
    expect(alert).toContain('unknown projection "nope"');
    expect(alert).toContain("custom-context");
    expect(alert).toContain("repositories");
    // The page is still usable: pick a known one.
    await page.getByLabel("Read model").selectOption("custom-context");
    await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Show" }).click()]);
    expect(await page.getByRole("alert").count()).toBe(0);
    expect(await page.locator("#snapshot-info").textContent()).toContain("As served now");
  });

  it("session by id: a malformed id is refused in the words the API and MCP use for it", async () => {
    const refused: [string, string][] = [
      ["a b", "may contain letters, digits and . _ : - only"],
      ["a".repeat(129), "is too long (max 128 characters)"],
    ];
    for (const [id, message] of refused) {
      const res = await page.goto(`${seed.server.baseUrl}/console/sessions?${new URLSearchParams({ sessionId: id })}`);
      expect(res!.status()).toBe(400);
      expect(await page.locator("body").textContent()).toContain(`sessionId: ${message}`);
    }
  });
});
