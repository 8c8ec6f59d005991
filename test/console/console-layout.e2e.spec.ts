/**
 * How the console renders markdown and lays out its pages, in a real Chromium against the real server:
 * a review summary's HTML (`<sub>`, the allowed elements of a description) rendered and everything else
 * inert, table alignment without inline styles (no CSP violation), long words that wrap instead of
 * widening the page, no page wider than a 390 px phone, the repositories table on a desktop and on a
 * phone, and the console's own icon (no /favicon.ico 404).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConsoleMessage, Page } from "playwright-core";
import { chromiumAvailable, CHROMIUM, launchChromium, type Browser } from "../support/browser.ts";
import { signInConsole } from "../support/console-browser.ts";
import { seedConsole, REPO, type ConsoleSeed } from "../support/console-seed.ts";
import { githubExample } from "../support/host-fixtures.ts";
import { deliverGitHub, pullRequestPayload } from "../support/pr-webhooks.ts";
import { waitFor } from "../support/fake-hosts.ts";

const LONG = "x".repeat(3000);
const DESCRIPTION = [
  `A long token: ${LONG}`,
  `Inline code: \`${LONG}\``,
  "```\n" + LONG + "\n```",
  `| name | count |\n|---|--:|\n| ${LONG} | 2 |`,
  "<details open class=\"x\"><summary onclick=\"window.__pwned=5\">Bot notes</summary>\n\n- a note with <kbd>Ctrl</kbd>+<kbd>C</kbd>\n\n</details>",
  '<b onmouseover="window.__pwned=4" style="color:red">bold</b> and <a href="javascript:window.__pwned=6">a link</a> and <script>window.__pwned=7</script>',
  "<sub>a footnote</sub>",
].join("\n\n");
const FAILING_REPO = "acme/flask-52204ef8";

let seed: ConsoleSeed;
let browser: Browser;
let page: Page;
let reviewId = "";
let contextId = "";
const consoleErrors: string[] = [];
const failedResponses: string[] = [];

const prPage = (n: number) => `/console/pull-requests/view?remote=github&name=${encodeURIComponent(REPO)}&number=${n}`;
const open = async (path: string) => {
  await page.goto(seed.server.baseUrl + path);
  return page;
};
const pageWidth = (p: Page) => p.evaluate(() => document.documentElement.scrollWidth);
const pwned = (p: Page) => p.evaluate(() => (window as unknown as { __pwned?: number }).__pwned);

beforeAll(async () => {
  if (!chromiumAvailable()) throw new Error(`Chromium not found at ${CHROMIUM}: install Debian's chromium package (apt-get install -y chromium)`);
  seed = await seedConsole();
  const { server } = seed;
  // A pull request whose description has long words, a wide table, and allowed and hostile HTML.
  const opened = pullRequestPayload(githubExample("pull_request", "opened"), {
    action: "opened", repo: REPO, number: 9, title: "Long words", head: "feature", headSha: seed.headSha, base: "main", baseSha: seed.baseSha, updatedAt: "2024-05-01T10:00:00Z", login: "octo-dev",
  });
  (opened.pull_request as { body: string }).body = DESCRIPTION;
  expect((await deliverGitHub(server, "pull_request", opened)).status).toBeLessThan(300);
  const created = await server.api("/v2/custom-context", { method: "POST", json: { body: `Prefer the helper ${LONG} in src.` } });
  contextId = ((await created.json()) as { customContext: { id: string } }).customContext.id;
  // One repository that indexes and one the host does not have (failed, with a long reason).
  for (const repository of [REPO, FAILING_REPO]) {
    expect((await server.api("/v2/repositories", { method: "POST", json: { remote: "github", repository } })).status).toBe(202);
  }
  const statuses = async () => ((await (await server.api("/v2/repositories")).json()) as { repositories: { status: string }[] }).repositories.map((r) => r.status).sort().join();
  await server.loupe.services.indexer.idle();
  // The jobs' last events reach the repositories' read model a moment after the indexer is idle.
  let seen = "";
  await waitFor(async () => ((seen = await statuses()) === "completed,failed" ? true : undefined), 30_000, "repositories completed and failed").catch(() => {
    throw new Error(`repositories not indexed as expected: ${seen}`);
  });
  const triggered = await server.api("/v2/code-reviews", { method: "POST", json: { remote: "github", name: REPO, defaultBranch: "main", prNumber: seed.prNumber, strictness: 3 } });
  reviewId = ((await triggered.json()) as { codeReviewId: string }).codeReviewId;
  await server.loupe.services.reviews.idle();

  browser = await launchChromium();
  page = await browser.context.newPage();
  page.on("console", (m: ConsoleMessage) => {
    if (m.type() === "error") consoleErrors.push(`${page.url()}: ${m.text()}`);
  });
  page.on("response", (r) => {
    if (r.status() >= 400) failedResponses.push(`${r.status()} ${r.url()}`);
  });
  await signInConsole(page, server.baseUrl, server.adminKey);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await seed?.cleanup();
});

describe("markdown in the console", () => {
  it("renders a review summary's <sub> as HTML on the review page and on the pull request's page", async () => {
    for (const [path, summary] of [
      [`/console/reviews/${reviewId}`, "main > .markdown"],
      [`/console/reviews/${reviewId}`, ".comment.service .markdown"],
      [prPage(seed.prNumber), ".comment.service .markdown"],
    ] as const) {
      const markdown = (await open(path)).locator(summary, { hasText: "Confidence score" });
      expect(await markdown.locator("sub").textContent(), `${path} ${summary}`).toBe("Strictness 3: showing medium and above.");
      expect(await markdown.textContent()).not.toContain("<sub>");
    }
  });

  it("keeps the allowed elements of a description without their attributes, and leaves everything else inert text", async () => {
    const description = (await open(prPage(9))).locator("main > .markdown").first();
    const details = description.locator("details");
    expect(await details.getAttribute("open")).toBe("");
    expect(await details.locator("summary").textContent()).toBe("Bot notes");
    expect(await details.locator("kbd").allTextContents()).toEqual(["Ctrl", "C"]);
    expect(await description.locator("sub").textContent()).toBe("a footnote");
    const bold = description.locator("b");
    expect(await bold.textContent()).toBe("bold");
    expect(await bold.evaluate((b) => b.getAttributeNames())).toEqual([]);
    expect(await description.locator("[onclick], [onmouseover], [style], [class='x'], script, a").count()).toBe(0);
    expect(await description.textContent()).toContain('<a href="javascript:window.__pwned=6">a link</a>');
    expect(await description.textContent()).toContain("<script>window.__pwned=7</script>");
    await bold.hover();
    await details.locator("summary").click();
    expect(await pwned(page)).toBeUndefined();
    // The seeded hostile review comment stays inert too.
    const hostile = (await open(prPage(seed.prNumber))).locator(".comment.human .comment-body", { hasText: "Looks risky" });
    expect(await hostile.textContent()).toContain('<img src=x onerror="window.__pwned=1">');
    expect(await hostile.locator("img, script, a").count()).toBe(0);
    expect(await pwned(page)).toBeUndefined();
  });

  it("aligns numeric table columns with classes: no inline style, no CSP violation", async () => {
    const before = consoleErrors.length;
    for (const path of [`/console/reviews/${reviewId}`, prPage(seed.prNumber), prPage(9)]) {
      await open(path);
      expect(await page.locator(".markdown [style]").count(), path).toBe(0);
    }
    await open(`/console/reviews/${reviewId}`);
    const files = page.locator("main > .markdown table").first();
    const aligns = await files.locator("tbody tr").first().locator("td").evaluateAll((cells) => cells.map((c) => getComputedStyle(c).textAlign));
    expect(aligns).toEqual(["left", "left", "right", "right", "right"]); // File, Change, +, -, Findings
    expect(consoleErrors.slice(before).filter((e) => /Content Security Policy|inline style/i.test(e))).toEqual([]);
  });
});

describe("page layout", () => {
  it("wraps long words in descriptions and custom context; a code block scrolls in its own box", async () => {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      for (const path of [prPage(9), `/console/custom-context/${contextId}`]) {
        await open(path);
        expect(await pageWidth(page), `${path} at ${width}`).toBeLessThanOrEqual(width);
      }
      await open(prPage(9));
      const pre = page.locator("main > .markdown pre").first();
      const box = await pre.evaluate((p) => ({ right: p.getBoundingClientRect().right, scrollWidth: p.scrollWidth, clientWidth: p.clientWidth }));
      expect(box.right).toBeLessThanOrEqual(width);
      expect(box.scrollWidth).toBeGreaterThan(box.clientWidth); // the code keeps its line and scrolls inside
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it("fits a 390 px phone: no page scrolls sideways; a summary's table scrolls in its own box", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      for (const path of [
        `/console/reviews/${reviewId}`,
        prPage(seed.prNumber),
        prPage(9),
        `/console/custom-context/${contextId}`,
        "/console/audit/read-models?projection=repositories",
        "/console/repositories",
      ]) {
        await open(path);
        expect(await pageWidth(page), path).toBeLessThanOrEqual(390);
      }
      await open(`/console/reviews/${reviewId}`);
      expect(await page.locator("main > .markdown table").first().evaluate((t) => t.parentElement!.className)).toBe("table-wrap");
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  it("lays out the repositories table: nothing breaks mid-word on a desktop, one card per repository on a phone", async () => {
    const lineBoxes = (p: Page, selector: string) =>
      p.locator(selector).evaluateAll((nodes) =>
        nodes.map((n) => {
          const range = document.createRange();
          range.selectNodeContents(n);
          return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
        }),
      );
    for (const width of [1280, 1024]) {
      await page.setViewportSize({ width, height: 900 });
      await open("/console/repositories");
      expect(await page.locator("#repositories tbody tr").count()).toBe(2);
      expect(await lineBoxes(page, "#repositories tbody button"), `Re-index at ${width}`).toEqual([1, 1]);
      expect(await lineBoxes(page, "#repositories tbody th .mono"), `names at ${width}`).toEqual([1, 1]);
      expect(await lineBoxes(page, '#repositories tbody [data-field="sha"]'), `heads at ${width}`).toEqual([1, 1]);
    }
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await open("/console/repositories");
      const rows = await page.locator("#repositories tbody tr").evaluateAll((trs) =>
        trs.map((tr) => ({
          right: Math.max(...[...tr.querySelectorAll("th, td, button")].map((e) => e.getBoundingClientRect().right)),
          labels: [...tr.querySelectorAll("td")].map((td) => getComputedStyle(td, "::before").content),
        })),
      );
      for (const row of rows) {
        expect(row.right).toBeLessThanOrEqual(390); // every cell, the Re-index button included, is on screen
        expect(row.labels).toEqual(['"Status"', '"Files"', '"Languages"', '"Head"', '"Last indexed"', "none"]);
      }
      expect(await pageWidth(page)).toBeLessThanOrEqual(390);
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  it("serves its own icon, so no page load asks for /favicon.ico", async () => {
    await open("/console/repositories");
    const href = await page.locator('link[rel="icon"]').getAttribute("href");
    expect(href).toMatch(/^\/console\/assets\/favicon\.svg\?v=[0-9a-f]{12}$/);
    const icon = await page.request.get(seed.server.baseUrl + href!);
    expect(icon.status()).toBe(200);
    expect(icon.headers()["content-type"]).toBe("image/svg+xml");
    // A fresh page in a fresh context (no cached icon): nothing fails to load, nothing is logged as an error.
    const fresh = await launchChromium();
    try {
      const p = await fresh.context.newPage();
      const failures: string[] = [];
      p.on("response", (r) => {
        if (r.status() >= 400) failures.push(`${r.status()} ${r.url()}`);
      });
      p.on("console", (m) => {
        if (m.type() === "error") failures.push(m.text());
      });
      await p.goto(`${seed.server.baseUrl}/console/sign-in`, { waitUntil: "networkidle" });
      expect(failures).toEqual([]);
    } finally {
      await fresh.close();
    }
    expect(failedResponses).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
