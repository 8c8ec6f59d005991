/**
 * A print left in library code is a comment at the default strictness (issue 21: "the one real leftover
 * print() is rated low and hidden at the default strictness"), end to end without a chat model: the
 * real server, a real git host on disk, pull requests recorded by signed webhooks and reviewed by the
 * real worker, which reads the file's base to tell a module that prints on purpose from a leftover.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.ts";
import { githubExample } from "../support/host-fixtures.ts";
import { createHostRepo, deliverGitHub, GITHUB_SECRET, pullRequestPayload } from "../support/pr-webhooks.ts";

const REPO = "acme/web";
const repoArgs = { name: REPO, remote: "github", defaultBranch: "main" };

let server: TestServer;
let host: ReturnType<typeof createHostRepo>;
let orgId: string;
let baseSha = "";

const APP = ["class App:", "    def create_url_adapter(self, request):", "        subdomain = None", "        return self.url_map.bind(request, subdomain=subdomain)", ""];
const REPORT = ["def report(rows):", "    for row in rows:", "        print(row)", "", "", "def summary(rows):", "    return len(rows)", ""];

async function openPullRequest(number: number, branch: string, files: Record<string, string>) {
  host.checkout("main");
  host.checkout(branch, true);
  for (const [path, content] of Object.entries(files)) host.write(path, content);
  const headSha = host.commit(branch);
  host.push(branch);
  const opened = pullRequestPayload(githubExample("pull_request", "opened"), {
    action: "opened", repo: REPO, number, title: branch, head: branch, headSha, base: "main", baseSha, updatedAt: "2024-05-01T10:00:00Z",
  });
  expect((await (await deliverGitHub(server, "pull_request", opened)).json()).outcome).toBe("recorded");
}

async function inlineComments(number: number) {
  const res = await server.api("/v2/code-reviews", { method: "POST", json: { ...repoArgs, prNumber: number } });
  expect(res.status).toBe(202);
  await server.loupe.services.reviews.idle();
  return server.loupe.services.pullRequests.get(orgId, { ...repoArgs, prNumber: number }).mergeRequest.comments.greptile.filter((c) => c.filePath !== null);
}

beforeAll(async () => {
  host = createHostRepo(REPO);
  host.write("web/__init__.py", "");
  host.write("web/app.py", APP.join("\n"));
  host.write("web/report.py", REPORT.join("\n"));
  baseSha = host.commit("initial");
  host.push("main");
  server = await startTestServer({ env: { LOUPE_WEBHOOK_SECRET_GITHUB: GITHUB_SECRET, LOUPE_GITHUB_URL: host.url } });
  orgId = server.loupe.services.keys.organisations()[0]!.orgId;
});
afterAll(async () => {
  await server?.stop({ remove: true });
  host?.remove();
});

describe("an output call left in library code", () => {
  it("is a medium comment at strictness 3 in a module that prints nowhere else (flask 0ec7f713)", async () => {
    const after = [...APP.slice(0, 3), "        print(self.config['SERVER_NAME'], subdomain)", ...APP.slice(3)];
    await openPullRequest(1, "leftover", { "web/app.py": after.join("\n") });
    const comments = await inlineComments(1);
    expect(comments.map((c) => [c.filePath, c.lineStart])).toEqual([["web/app.py", 4]]);
    expect(comments[0]!.body).toContain("Leftover `print()` call `print(self.config['SERVER_NAME'], subdomain)`; this file prints nowhere else");
  });

  it("stays low, hidden at strictness 3, in a module that prints on purpose", async () => {
    const after = [...REPORT.slice(0, 6), "    print(len(rows))", ...REPORT.slice(6)];
    await openPullRequest(2, "printing-module", { "web/report.py": after.join("\n") });
    expect(await inlineComments(2)).toEqual([]);
  });
});
