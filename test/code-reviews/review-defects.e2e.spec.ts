/**
 * Review defects of issue 21, end to end: the real server, a real git "host" on disk
 * (LOUPE_GITHUB_URL=file://...), pull requests recorded by signed webhooks, reviews run by the real
 * worker, read back through HTTP and the read models.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.ts";
import { githubExample } from "../support/host-fixtures.ts";
import { createHostRepo, deliverGitHub, GITHUB_SECRET, pullRequestPayload } from "../support/pr-webhooks.ts";

const REPO = "acme/tools";
const repoArgs = { name: REPO, remote: "github", defaultBranch: "main" };

let server: TestServer;
let host: ReturnType<typeof createHostRepo>;
let orgId: string;
let baseSha = "";
const ctx = () => ({ orgId, actor: "test", correlationId: "c" });

/** A branch off main with these files, opened as pull request `number`. */
async function openPullRequest(number: number, branch: string, files: Record<string, string>, title = "Change") {
  host.checkout("main");
  host.checkout(branch, true);
  for (const [path, content] of Object.entries(files)) host.write(path, content);
  const headSha = host.commit(title);
  host.push(branch);
  const opened = pullRequestPayload(githubExample("pull_request", "opened"), {
    action: "opened", repo: REPO, number, title, head: branch, headSha, base: "main", baseSha, updatedAt: "2024-05-01T10:00:00Z",
  });
  const res = await deliverGitHub(server, "pull_request", opened);
  expect((await res.json()).outcome).toBe("recorded");
  return headSha;
}

async function review(number: number, strictness?: number) {
  const res = await server.api("/v2/code-reviews", { method: "POST", json: { ...repoArgs, prNumber: number, ...(strictness ? { strictness } : {}) } });
  expect(res.status).toBe(202);
  const { codeReviewId } = (await res.json()) as { codeReviewId: string };
  await server.loupe.services.reviews.idle();
  return codeReviewId;
}

const serviceComments = (number: number) => server.loupe.services.pullRequests.get(orgId, { ...repoArgs, prNumber: number }).mergeRequest.comments.greptile;

beforeAll(async () => {
  host = createHostRepo(REPO);
  host.write("app/__init__.py", "");
  host.write("app/jobs.py", "import os\n\n\ndef clean():\n    pass\n");
  baseSha = host.commit("initial");
  host.push("main");
  server = await startTestServer({ env: { LOUPE_WEBHOOK_SECRET_GITHUB: GITHUB_SECRET, LOUPE_GITHUB_URL: host.url } });
  orgId = server.loupe.services.keys.organisations()[0]!.orgId;
});
afterAll(async () => {
  await server?.stop({ remove: true });
  host?.remove();
});

describe("a file with two or more comments", () => {
  it("completes with one comment per finding (each comment event has its own id)", async () => {
    await openPullRequest(1, "two-system-calls", {
      "app/jobs.py": "import os\n\n\ndef clean():\n    os.system('rm -rf build')\n    os.system('rm -rf dist')\n",
    });
    const id = await review(1);
    const record = server.loupe.services.reviews.record(orgId, id)!;
    expect(record.reason).toBeNull();
    expect(record.status).toBe("COMPLETED");
    const inline = serviceComments(1).filter((c) => c.filePath !== null);
    expect(inline.map((c) => [c.filePath, c.lineStart]).sort((a, b) => Number(a[1]) - Number(b[1]))).toEqual([
      ["app/jobs.py", 5],
      ["app/jobs.py", 6],
    ]);
    const { events } = await server.loupe.services.eventStore.readStream(`codereview-${id}`);
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
  });
});
