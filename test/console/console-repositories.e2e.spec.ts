/**
 * The repositories page in a real Chromium against the real server: a local repository indexed by path
 * (LOUPE_LOCAL_ROOTS) with the API's checks, or the way to turn that on; re-index of exactly the row's
 * repository and branch (a default branch that could not be resolved is resolved on re-index and
 * replaces its row); ids shown as users know them, in notices and in the audit history; a too-long name
 * named as such (console and API); rows that keep their order when one is re-indexed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { chromiumAvailable, CHROMIUM, launchChromium, type Browser } from "../support/browser.ts";
import { signInConsole } from "../support/console-browser.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=Test", "-c", "user.email=test@example.com", ...args], { cwd, encoding: "utf8" }).trim();

/** A working repository with one commit on `main` (and `dev` when asked). */
function makeRepo(dir: string, file: string, content: string) {
  mkdirSync(dir, { recursive: true });
  git(dir, "init", "-q", "--initial-branch=main");
  writeFileSync(join(dir, file), content);
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "initial");
}

/** A bare repository `owner/name.git` under the "GitHub" host directory, pushed from a working copy. */
function publish(hostRoot: string, fullName: string, file: string, content: string) {
  const work = mkdtempSync(join(tmpdir(), "loupe-work-"));
  makeRepo(work, file, content);
  const bare = join(hostRoot, `${fullName}.git`);
  mkdirSync(bare, { recursive: true });
  git(bare, "init", "-q", "--bare", "--initial-branch=main");
  git(work, "push", "-q", bare, "main", "main:trunk");
  rmSync(work, { recursive: true, force: true });
  return bare;
}

let browser: Browser;
let page: Page;
let server: TestServer;
let disabled: TestServer;
const temp: string[] = [];
let hostRoot: string;
let rootsDir: string;
let localRepo: string;

const notice = () => page.getByRole("status").first().textContent();
const rowIds = () => page.locator("#repositories tbody tr").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-repo-id")));
const row = (text: string) => page.locator("#repositories tbody tr", { hasText: text });
const status = (text: string, value: string) => row(text).locator('[data-field="status"]', { hasText: value }).waitFor({ timeout: 60_000 });

beforeAll(async () => {
  if (!chromiumAvailable()) throw new Error(`Chromium not found at ${CHROMIUM}: install Debian's chromium package (apt-get install -y chromium)`);
  hostRoot = mkdtempSync(join(tmpdir(), "loupe-host-"));
  rootsDir = mkdtempSync(join(tmpdir(), "loupe-roots-"));
  temp.push(hostRoot, rootsDir);
  localRepo = join(rootsDir, "flask");
  makeRepo(localRepo, "app.py", "def create_app():\n    return 'flask'\n");
  server = await startTestServer({ env: { LOUPE_GITHUB_URL: `file://${hostRoot}`, LOUPE_LOCAL_ROOTS: rootsDir } });
  disabled = await startTestServer();
  browser = await launchChromium();
  page = await browser.context.newPage();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop({ remove: true });
  await disabled?.stop({ remove: true });
  for (const dir of temp) rmSync(dir, { recursive: true, force: true });
});

describe("repositories page", () => {
  it("says how to turn on local repositories when LOUPE_LOCAL_ROOTS is not set", async () => {
    await signInConsole(page, disabled.baseUrl, disabled.adminKey);
    const local = page.locator("#local");
    expect(await local.textContent()).toContain("LOUPE_LOCAL_ROOTS");
    expect(await local.locator("form").count()).toBe(0);
  });

  it("indexes a local repository by path, with the API's checks and the local: id", async () => {
    await signInConsole(page, server.baseUrl, server.adminKey);
    const path = page.getByLabel("Path on the server");
    const submit = page.getByRole("button", { name: "Index local repository" });
    expect(await page.locator("#local").textContent()).toContain(rootsDir);

    // Something that could be an option, a path outside the roots, a branch that could be an option: refused, input kept.
    await path.fill("--upload-pack=touch /tmp/x");
    await submit.click();
    expect(await page.locator("#local").getByRole("alert").textContent()).toContain("path must be an absolute path");
    expect(await page.getByLabel("Path on the server").inputValue()).toBe("--upload-pack=touch /tmp/x");
    await page.getByLabel("Path on the server").fill(join(rootsDir, "..", "elsewhere"));
    await submit.click();
    expect(await page.locator("#local").getByRole("alert").textContent()).toContain("outside the directories this server may index");
    await page.getByLabel("Path on the server").fill(localRepo);
    await page.locator("#local").getByLabel("Branch").fill("--orphan");
    await submit.click();
    expect(await page.locator("#local").getByRole("alert").textContent()).toContain("branch: must not start with '-'");
    expect(await page.locator("#repositories").count()).toBe(0); // nothing recorded

    await page.getByLabel("Path on the server").fill(localRepo);
    await page.locator("#local").getByLabel("Branch").fill("");
    await submit.click();
    await page.waitForURL(/notice=/);
    expect(await notice()).toMatch(/^Indexing started: local:main:flask-[0-9a-f]{8} \(/);
    await status("flask-", "completed");
    expect(await row("flask-").locator("th").textContent()).toContain("local · main");
  });

  it("re-indexes a local repository and names it by its local: id; its history opens by that id too", async () => {
    const id = (await notice())!.match(/local:main:flask-[0-9a-f]{8}/)![0];
    await row("flask-").getByRole("button", { name: "Re-index" }).click();
    await page.waitForURL(/notice=/);
    expect(await notice()).toBe(`Re-indexing started: ${id}`);
    await status("flask-", "completed");

    for (const entity of [id, `github:main:local/${id.slice("local:main:".length)}`]) {
      await page.goto(`${server.baseUrl}/console/audit/history?entity=${encodeURIComponent(entity)}`);
      const summary = (await page.locator("main p.muted").first().textContent())!;
      expect(summary).toMatch(/\b\d+ events in repository-/);
      expect(summary).not.toMatch(/^0 events/);
      expect(await page.locator("main").textContent()).toContain("RepositoryIndexingCompleted");
    }
  });

  it("re-indexes a repository whose default branch could not be resolved: it resolves it and replaces the row", async () => {
    await page.goto(`${server.baseUrl}/console/repositories`);
    await page.getByLabel("Repository (owner/repo)").fill("acme/late"); // not on the host yet: the default branch cannot be resolved
    await page.getByRole("button", { name: "Submit" }).click();
    await page.waitForURL(/notice=/);
    expect(await notice()).toContain("Indexing started: github:HEAD:acme/late");
    await status("acme/late", "failed");
    expect(await row("acme/late").locator("th").textContent()).toContain("default branch (not resolved)");

    publish(hostRoot, "acme/late", "late.ts", "export const late = 1;\n");
    await row("acme/late").getByRole("button", { name: "Re-index" }).click();
    await page.waitForURL(/notice=/);
    expect(await notice()).toContain("The default branch resolved to main: Indexing started: github:main:acme/late");
    expect(await row("acme/late").count()).toBe(1); // the unresolved row is gone, not left failed beside the new one
    expect(await rowIds()).toContain("github:main:acme/late");
    expect(await rowIds()).not.toContain("github:HEAD:acme/late");
    await status("acme/late", "completed");
    // The API answers the same for the same submission (no branch): the default branch's id.
    const res = await server.api("/v2/repositories", { method: "POST", json: { remote: "github", repository: "acme/late" } });
    expect(((await res.json()) as { statusEndpoint: string }).statusEndpoint).toContain(encodeURIComponent("github:main:acme/late"));
    await server.loupe.services.indexer.idle();
  });

  it("re-indexes exactly the row's branch, in place: no new row, no move to the top", async () => {
    // The host's default branch moves to trunk: a re-index of the main row still indexes main.
    git(join(hostRoot, "acme/late.git"), "symbolic-ref", "HEAD", "refs/heads/trunk");
    await page.goto(`${server.baseUrl}/console/repositories`);
    const before = await rowIds();
    expect(before.length).toBe(2);
    const last = before[before.length - 1]!;
    await page.locator(`tr[data-repo-id="${last}"]`).getByRole("button", { name: "Re-index" }).click();
    await page.waitForURL(/notice=/);
    expect(await notice()).toMatch(/^Re-indexing started: /);
    expect(await rowIds()).toEqual(before);
    await server.loupe.services.indexer.idle();
    await page.locator("#repositories tbody tr").first().getByRole("button", { name: "Re-index" }).click();
    await page.waitForURL(/notice=/);
    expect(await rowIds()).toEqual(before);
    expect(await rowIds()).not.toContain("github:trunk:acme/late");
  });

  it("names a too-long repository as too long, in the console and in the API (400 with a JSON body)", async () => {
    const long = `a/${"x".repeat(5000)}`;
    await page.goto(`${server.baseUrl}/console/repositories`);
    await page.getByLabel("Repository (owner/repo)").fill(long);
    await page.getByRole("button", { name: "Submit" }).click();
    expect(await page.getByRole("alert").textContent()).toBe("repository: is too long (max 300 characters)");
    expect(await page.getByLabel("Repository (owner/repo)").inputValue()).toBe(long);
    const res = await server.api("/v2/repositories", { method: "POST", json: { remote: "github", repository: long } });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { message: string; details: unknown } };
    expect(body.error.details).toEqual([{ field: "repository", message: "is too long (max 300 characters)" }]);
  });

  it("another organisation's admin gets no local form (the bootstrap organisation's only), and a posted one is refused", async () => {
    const created = await server.api("/v2/organisations", { method: "POST", json: { name: "Tenant" } });
    const tenantKey = ((await created.json()) as { adminKey: { key: string } }).adminKey.key;
    await page.context().clearCookies();
    await signInConsole(page, server.baseUrl, tenantKey);
    const local = page.locator("#local");
    expect(await local.textContent()).toContain("bootstrap organisation");
    expect(await local.locator("form").count()).toBe(0);
    // The form's request, as the bootstrap organisation's page would send it, from the tenant's session.
    const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
    const answer = await page.request.post(`${server.baseUrl}/console/repositories/local`, {
      form: { _csrf: csrf, path: localRepo, branch: "" },
      headers: { origin: server.baseUrl, referer: `${server.baseUrl}/console/repositories` },
    });
    expect(answer.status()).toBe(403);
    expect(await answer.text()).toContain("bootstrap organisation");
    expect((await (await server.api("/v2/repositories", { key: tenantKey })).json()).repositories).toEqual([]);
  });
});

