/**
 * LOUPE_WEBHOOK_ORG must name an organisation that exists: otherwise Loupe does not start (a
 * configuration error, exit code 2, naming the variable) instead of recording every delivery into an
 * organisation no key can see. On a fresh data directory the bootstrap organisation, created at the
 * first start, is the one it may name on the next.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config.ts";
import { startTestServer, TEST_ADMIN_KEY } from "../support/server.ts";
import { githubExample } from "../support/host-fixtures.ts";
import { deliverGitHub, GITHUB_SECRET, pullRequestPayload } from "../support/pr-webhooks.ts";
import { spawnProcess, tsxBin } from "../support/process.ts";

const dataDir = mkdtempSync(join(tmpdir(), "loupe-webhook-org-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const env = (orgId: string) => ({ LOUPE_WEBHOOK_SECRET_GITHUB: GITHUB_SECRET, LOUPE_WEBHOOK_ORG: orgId });

describe("LOUPE_WEBHOOK_ORG", () => {
  it("naming no organisation stops start-up with a configuration error naming the variable", async () => {
    const error = await startTestServer({ dataDir, env: env("nonexistent-org-123") }).then(
      async (started) => {
        await started.stop();
        return null;
      },
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems.map((p) => p.variable)).toEqual(["LOUPE_WEBHOOK_ORG"]);
    expect((error as ConfigError).message).toMatch(/nonexistent-org-123/);
  });

  it("the bootstrap organisation made at the first start may be named on the next, and deliveries land there", async () => {
    // The failed start above released the data directory and its stores: this start opens them again.
    const first = await startTestServer({ dataDir });
    const orgId = first.loupe.services.keys.organisations()[0]!.orgId;
    await first.stop();

    const server = await startTestServer({ dataDir, env: env(orgId) });
    try {
      const payload = pullRequestPayload(githubExample("pull_request", "opened"), {
        action: "opened", repo: "acme/org-hooks", number: 1, head: "feature", headSha: "a".repeat(40), base: "main", baseSha: "b".repeat(40), updatedAt: "2024-05-01T10:00:00Z",
      });
      const res = await deliverGitHub(server, "pull_request", payload);
      expect(await res.json()).toMatchObject({ outcome: "recorded" });
      const { mergeRequests } = server.loupe.services.pullRequests.list(orgId, { name: "acme/org-hooks", remote: "github", defaultBranch: "main" });
      expect(mergeRequests.map((m) => m.number)).toEqual([1]);
    } finally {
      await server.stop();
    }
  });

  it("the server process exits with code 2 and a line naming the variable", async () => {
    const proc = spawnProcess(tsxBin, ["src/main.ts"], {
      PORT: "0", LOUPE_HOST: "127.0.0.1", LOUPE_DATA_DIR: dataDir, LOUPE_API_KEY: TEST_ADMIN_KEY, LOUPE_WEBHOOK_ORG: "nonexistent-org-123",
    });
    expect(await proc.exited).toBe(2);
    expect(proc.output()).toMatch(/LOUPE_WEBHOOK_ORG: no organisation has the id "nonexistent-org-123"/);
  }, 60_000);
});
