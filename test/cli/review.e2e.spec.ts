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
  server = await startTestServer({ env: { LOUPE_WEBHOOK_SECRET_GITHUB: GITHUB_SECRET, LOUPE_GITHUB_URL: host.url } });
  const opened = pullRequestPayload(githubExample("pull_request", "opened"), {
    action: "opened", repo: "acme/gadgets", number: 3, head: "feature", headSha, base: "main", baseSha, updatedAt: "2024-05-01T10:00:00Z",
  });
  expect((await (await deliverGitHub(server, "pull_request", opened)).json()).outcome).toBe("recorded");
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
