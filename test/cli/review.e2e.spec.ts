import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.ts";
import { githubExample } from "../support/host-fixtures.ts";
import { createHostRepo, deliverGitHub, GITHUB_SECRET, pullRequestPayload } from "../support/pr-webhooks.ts";
import { runCli } from "../support/cli.ts";

/** `loupe review owner/repo <pr>` triggers a real review (real git repo, PR recorded by a signed webhook) and follows it. */
let server: TestServer;
let host: ReturnType<typeof createHostRepo>;

beforeAll(async () => {
  host = createHostRepo("acme/gadgets");
  host.write("src/app.ts", "export const version = 1;\n");
  const baseSha = host.commit("initial");
  host.push("main");
  host.checkout("feature", true);
  host.write("src/app.ts", "export const version = 1;\n\nexport function add(a: number, b: number) {\n  debugger;\n  return a + b;\n}\n");
  const headSha = host.commit("add helper");
  host.push("feature");
  // A pull request with nothing to read: a binary file added and a renamed file left as it was.
  host.checkout("main");
  host.write("src/old-name.ts", "export const unchanged = true;\n");
  const assetsBase = host.commit("a module to rename");
  host.push("main");
  host.checkout("assets", true);
  mkdirSync(join(host.root, "work", "assets"));
  writeFileSync(join(host.root, "work", "assets", "logo.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 1, 2, 3]));
  renameSync(join(host.root, "work", "src", "old-name.ts"), join(host.root, "work", "src", "new-name.ts"));
  const assetsSha = host.commit("logo, and a clearer module name");
  host.push("assets");
  server = await startTestServer({ env: { LOUPE_WEBHOOK_SECRET_GITHUB: GITHUB_SECRET, LOUPE_GITHUB_URL: host.url } });
  const opened = pullRequestPayload(githubExample("pull_request", "opened"), {
    action: "opened", repo: "acme/gadgets", number: 3, head: "feature", headSha, base: "main", baseSha, updatedAt: "2024-05-01T10:00:00Z",
  });
  expect((await (await deliverGitHub(server, "pull_request", opened)).json()).outcome).toBe("recorded");
  const assets = pullRequestPayload(githubExample("pull_request", "opened"), {
    action: "opened", repo: "acme/gadgets", number: 4, head: "assets", headSha: assetsSha, base: "main", baseSha: assetsBase, updatedAt: "2024-05-01T10:00:00Z",
  });
  expect((await (await deliverGitHub(server, "pull_request", assets)).json()).outcome).toBe("recorded");
});
afterAll(async () => {
  await server?.stop({ remove: true });
  host?.remove();
});

it("triggers a review and follows it to its final status", async () => {
  const env = { LOUPE_URL: server.baseUrl, LOUPE_API_KEY: server.adminKey };
  const result = await runCli(["review", "acme/gadgets", "3", "--interval", "200"], env, { timeoutMs: 120_000 });
  expect(result.code, result.stdout + result.stderr).toBe(0);
  expect(result.stdout).toMatch(/: [0-9a-f-]{36} \(PENDING\)/);
  expect(result.stdout).toMatch(/Review [0-9a-f-]{36}: COMPLETED/);

  const missing = await runCli(["review", "acme/gadgets", "999"], env);
  expect(missing.code).toBe(1);
  expect(missing.stderr.trim().split("\n")).toHaveLength(1);
  expect(missing.stderr).toContain("configure the host's webhook");
}, 120_000);

it("--strictness 1-5 reaches the review; anything else is a usage error that names the range", async () => {
  const env = { LOUPE_URL: server.baseUrl, LOUPE_API_KEY: server.adminKey };
  const result = await runCli(["review", "acme/gadgets", "3", "--strictness", "5", "--interval", "200", "--json"], env, { timeoutMs: 120_000 });
  expect(result.code, result.stdout + result.stderr).toBe(0);
  const review = JSON.parse(result.stdout) as { metadata: { strictness: number } };
  expect(review.metadata.strictness).toBe(5);
  for (const bad of ["0", "6", "high", "2.5"]) {
    const refused = await runCli(["review", "acme/gadgets", "3", "--strictness", bad], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`--strictness must be a whole number from 1 to 5 (got "${bad}")`);
  }
}, 120_000);

it("a skipped review says why, naming each file left out and its reason (exit 0)", async () => {
  const env = { LOUPE_URL: server.baseUrl, LOUPE_API_KEY: server.adminKey };
  const result = await runCli(["review", "acme/gadgets", "4", "--interval", "200"], env, { timeoutMs: 120_000 });
  expect(result.code, result.stdout + result.stderr).toBe(0);
  expect(result.stdout).toMatch(
    /Review [0-9a-f-]{36}: SKIPPED \(nothing reviewable: every changed file was skipped: assets\/logo\.png \(binary\) and src\/new-name\.ts \(renamed from src\/old-name\.ts without changes\)\)/,
  );
}, 120_000);

it("--branch naming a branch the host does not have fails the review with that reason (exit 1), not a review of the pull request's head", async () => {
  const env = { LOUPE_URL: server.baseUrl, LOUPE_API_KEY: server.adminKey };
  const result = await runCli(["review", "acme/gadgets", "3", "--branch", "no-such-branch", "--interval", "200"], env, { timeoutMs: 120_000 });
  expect(result.code, result.stdout + result.stderr).toBe(1);
  expect(result.stdout).not.toContain("COMPLETED");
  // Progress lines go to stderr; the error is the last line, alone.
  expect(result.stderr.trim().split("\n").at(-1)).toMatch(/^loupe review: review [0-9a-f-]{36} FAILED: branch "no-such-branch" \(asked for as the branch to review\) is not on the host's acme\/gadgets; pull request #3 is from "feature"/);
  const json = await runCli(["review", "acme/gadgets", "3", "--branch", "no-such-branch", "--interval", "200", "--json"], env, { timeoutMs: 120_000 });
  expect(json.code).toBe(1);
  expect((JSON.parse(json.stdout) as { status: string; reason: string }).reason).toContain('branch "no-such-branch"');
  // The pull request's own source branch (which may live in a fork) is still accepted.
  const own = await runCli(["review", "acme/gadgets", "3", "--branch", "feature", "--interval", "200"], env, { timeoutMs: 120_000 });
  expect(own.code, own.stdout + own.stderr).toBe(0);
}, 120_000);

it("a host that is not one of the four, or a repository that is not owner/repo, is a usage error naming what was given (exit 2, nothing sent)", async () => {
  const env = { LOUPE_URL: server.baseUrl, LOUPE_API_KEY: server.adminKey };
  for (const args of [["review", "acme/gadgets", "3", "--remote", "gitlub"], ["index", "acme/gadgets", "--remote", "gitlub"]]) {
    const refused = await runCli(args, env);
    expect(refused.code, refused.stdout + refused.stderr).toBe(2);
    expect(refused.stderr).toContain('--remote must be one of github, gitlab, bitbucket, azure (got "gitlub")');
  }
  const bare = await runCli(["review", "gadgets", "3"], env);
  expect(bare.code).toBe(2);
  expect(bare.stderr).toContain('"gadgets" is not a repository name: expected owner/repo');
  // The server's own 400 is said once: "invalid request: defaultBranch: ...", not "invalid request: Invalid request: ...".
  const empty = await runCli(["review", "acme/gadgets", "3", "--default-branch", ""], env);
  expect(empty.code).toBe(1);
  expect(empty.stderr).toMatch(/^loupe review: invalid request: defaultBranch: /);
});
