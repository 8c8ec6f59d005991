/**
 * Per-folder strictness (issue 21): a `.loupe/config.json` that sets `strictness` applies it to the
 * files under its folder, the nearest folder that sets it winning; files no such file covers get the
 * review's strictness. End to end: the real server, a real git "host" on disk, a pull request recorded
 * by a signed webhook and one review through POST /v2/code-reviews.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.ts";
import { githubExample } from "../support/host-fixtures.ts";
import { createHostRepo, deliverGitHub, GITHUB_SECRET, pullRequestPayload } from "../support/pr-webhooks.ts";

const REPO = "acme/folders";
const repoArgs = { name: REPO, remote: "github", defaultBranch: "main" };

/** A `print()` to a stream of its choosing (low: output on purpose) and a `breakpoint()` (medium) on lines 3 and 4. */
const JOB = (name: string) => `def ${name}(items):\n    total = sum(items)\n    print(total, file=sys.stdout)\n    breakpoint()\n    return total\n`;

let server: TestServer;
let host: ReturnType<typeof createHostRepo>;
let orgId: string;

beforeAll(async () => {
  host = createHostRepo(REPO);
  host.write("README.md", "folders\n");
  host.write("strict/.loupe/config.json", JSON.stringify({ strictness: 5 }));
  host.write("lenient/.loupe/config.json", JSON.stringify({ strictness: 2 }));
  // Nearest folder wins: inside strict/, this subtree is back to critical only.
  host.write("strict/quiet/.loupe/config.json", JSON.stringify({ strictness: 1 }));
  // A config without strictness leaves the inherited level alone.
  host.write("lenient/rules/.loupe/config.json", JSON.stringify({ ignore: ["*.tmp"] }));
  const baseSha = host.commit("initial");
  host.push("main");
  server = await startTestServer({ env: { LOUPE_WEBHOOK_SECRET_GITHUB: GITHUB_SECRET, LOUPE_GITHUB_URL: host.url } });
  orgId = server.loupe.services.keys.organisations()[0]!.orgId;
  host.checkout("jobs", true);
  for (const dir of ["core", "strict", "strict/quiet", "lenient", "lenient/rules"]) host.write(`${dir}/job.py`, JOB(`run_${dir.replace("/", "_")}`));
  const headSha = host.commit("jobs");
  host.push("jobs");
  const opened = pullRequestPayload(githubExample("pull_request", "opened"), {
    action: "opened", repo: REPO, number: 1, title: "Jobs", head: "jobs", headSha, base: "main", baseSha, updatedAt: "2024-05-01T10:00:00Z",
  });
  expect((await (await deliverGitHub(server, "pull_request", opened)).json()).outcome).toBe("recorded");
});
afterAll(async () => {
  await server?.stop({ remove: true });
  host?.remove();
});

describe("per-folder strictness", () => {
  it("applies the nearest .loupe/config.json strictness to the files under it, the review's to the rest", async () => {
    const res = await server.api("/v2/code-reviews", { method: "POST", json: { ...repoArgs, prNumber: 1, strictness: 3 } });
    expect(res.status).toBe(202);
    const { codeReviewId } = (await res.json()) as { codeReviewId: string };
    await server.loupe.services.reviews.idle();
    const detail = await (await server.api(`/v2/code-reviews/${codeReviewId}`)).json();
    expect(detail.codeReview.status).toBe("COMPLETED");
    expect(detail.codeReview.metadata.strictness).toBe(3);
    const inline = server.loupe.services.pullRequests
      .get(orgId, { ...repoArgs, prNumber: 1 })
      .mergeRequest.comments.greptile.filter((c) => c.filePath !== null)
      .map((c) => `${c.filePath}:${c.lineStart}`)
      .sort();
    expect(inline).toEqual([
      "core/job.py:4", // the review's strictness 3: medium and above
      "strict/job.py:3", // strict/: 5, the print() too
      "strict/job.py:4",
      // strict/quiet/: 1 (nearest wins), lenient/ and lenient/rules/: 2 (a config without strictness inherits)
    ]);
    // The summary says which files were held to another level.
    const body = server.loupe.services.reviews.record(orgId, codeReviewId)!.body;
    expect(body).toContain("Strictness 3: showing medium and above");
    expect(body).toContain("`.loupe/config.json` sets another strictness for 4 files: 2 in `lenient/` (2 files), 5 in `strict/` (1 file), 1 in `strict/quiet/` (1 file).");
  });
});
