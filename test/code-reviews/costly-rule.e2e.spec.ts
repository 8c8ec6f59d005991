/**
 * A `.loupe/` PATTERN rule whose regex would cost more than the review engine's budget per line (more
 * than MAX_NFA_STATES automaton states) cannot be refused when it is written, as a custom context is:
 * the review skips the rule whole and its summary says so, while the repository's other rules apply.
 * End to end: the real server, a real git "host" on disk, a pull request recorded by a signed webhook
 * and one review through POST /v2/code-reviews.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.ts";
import { githubExample } from "../support/host-fixtures.ts";
import { createHostRepo, deliverGitHub, GITHUB_SECRET, pullRequestPayload } from "../support/pr-webhooks.ts";

const REPO = "acme/rules";
const repoArgs = { name: REPO, remote: "github", defaultBranch: "main" };

let server: TestServer;
let host: ReturnType<typeof createHostRepo>;
let orgId: string;

beforeAll(async () => {
  host = createHostRepo(REPO);
  host.write("README.md", "rules\n");
  // About 4,800 states: 4,800 steps per character of every added line (the old limit was 5,000).
  host.write(".loupe/long-words.md", "---\ntype: PATTERN\nid: no-long-words\n---\nNever write /[a-z]{0,2400}y/ in this repository.\n");
  host.write(".loupe/legacy.md", "---\ntype: PATTERN\nid: no-legacy\n---\nAvoid `legacyFetch`.\n");
  const baseSha = host.commit("initial");
  host.push("main");
  server = await startTestServer({ env: { LOUPE_WEBHOOK_SECRET_GITHUB: GITHUB_SECRET, LOUPE_GITHUB_URL: host.url } });
  orgId = server.loupe.services.keys.organisations()[0]!.orgId;
  host.checkout("feature", true);
  host.write("src/net.py", `def load(path):\n    return legacyFetch(path)\n\n\nlazy = "${"a".repeat(3000)}y"\n`);
  const headSha = host.commit("net");
  host.push("feature");
  const opened = pullRequestPayload(githubExample("pull_request", "opened"), {
    action: "opened", repo: REPO, number: 1, title: "Net", head: "feature", headSha, base: "main", baseSha, updatedAt: "2024-05-01T10:00:00Z",
  });
  expect((await (await deliverGitHub(server, "pull_request", opened)).json()).outcome).toBe("recorded");
});
afterAll(async () => {
  await server?.stop({ remove: true });
  host?.remove();
});

describe("a .loupe/ PATTERN rule over the regex cost limit", () => {
  it("is skipped with a note in the summary; the other rules apply", async () => {
    const res = await server.api("/v2/code-reviews", { method: "POST", json: { ...repoArgs, prNumber: 1, strictness: 3 } });
    expect(res.status).toBe(202);
    const { codeReviewId } = (await res.json()) as { codeReviewId: string };
    await server.loupe.services.reviews.idle();
    const detail = await (await server.api(`/v2/code-reviews/${codeReviewId}`)).json();
    expect(detail.codeReview.status).toBe("COMPLETED");
    const comments = server.loupe.services.pullRequests.get(orgId, { ...repoArgs, prNumber: 1 }).mergeRequest.comments.greptile.filter((c) => c.filePath !== null);
    const byRule = comments.map((c) => `${c.filePath}:${c.lineStart} ${c.body.includes("legacyFetch") ? "no-legacy" : c.body.includes("{0,2400}") ? "no-long-words" : "other"}`);
    expect(byRule).toContain("src/net.py:2 no-legacy");
    expect(byRule.filter((r) => r.endsWith("no-long-words"))).toEqual([]);
    const body = server.loupe.services.reviews.record(orgId, codeReviewId)!.body;
    expect(body).toContain(
      "- Not applied: the rule `no-long-words` of `.loupe/long-words.md` (in `src/net.py`), whose regex `/[a-z]{0,2400}y/` is refused: pattern is too large: it compiles to 4,801 states, over the limit of 500",
    );
    expect(body).toContain("- 1 repository rule checked against the added lines.");
  });
});
