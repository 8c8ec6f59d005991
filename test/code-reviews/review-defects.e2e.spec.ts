/**
 * Review defects of issue 21, end to end: the real server, a real git "host" on disk
 * (LOUPE_GITHUB_URL=file://...), pull requests recorded by signed webhooks, reviews run by the real
 * worker, read back through HTTP and the read models.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { gql, gqlData } from "../graphql/support.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { githubExample } from "../support/host-fixtures.ts";
import { createHostRepo, deliverGitHub, GITHUB_SECRET, pullRequestPayload } from "../support/pr-webhooks.ts";

const REPO = "acme/tools";
const repoArgs = { name: REPO, remote: "github", defaultBranch: "main" };

let server: TestServer;
let host: ReturnType<typeof createHostRepo>;
let orgId: string;
let baseSha = "";
let mcp: Client;
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
  mcp = new Client({ name: "review-defects", version: "1.0.0" });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${server.adminKey}` } } }));
});
afterAll(async () => {
  await mcp?.close();
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

async function callTool(name: string, args: Record<string, unknown>) {
  const result = (await mcp.callTool({ name, arguments: args })) as { structuredContent: Record<string, any>; isError?: boolean };
  expect(result.isError ?? false).toBe(false);
  return result.structuredContent;
}

describe("custom context that can never match", () => {
  const unmatchable = "Do not use print statements.";

  it("is answered with a warning over HTTP, MCP and GraphQL; a matchable one is not", async () => {
    const http = await server.api("/v2/custom-context", { method: "POST", json: { type: "PATTERN", body: unmatchable, status: "INACTIVE" } });
    expect(http.status).toBe(201);
    const created = await http.json();
    expect(created.customContext).toMatchObject({ type: "PATTERN", body: unmatchable });
    expect(created.warning).toMatch(/can never match/);
    const fine = await (await server.api("/v2/custom-context", { method: "POST", json: { type: "PATTERN", body: "Avoid `print(`.", status: "INACTIVE" } })).json();
    expect(fine.warning).toBeUndefined();

    const viaMcp = await callTool("create_custom_context", { type: "PATTERN", body: unmatchable, status: "INACTIVE" });
    expect(viaMcp.warning).toMatch(/can never match/);
    expect((await callTool("create_custom_context", { type: "PATTERN", body: "Never call legacyFetch.", status: "INACTIVE" })).warning).toBeUndefined();

    const data = await gqlData(server, `mutation($body: String!) { createCustomContext(body: $body, type: PATTERN, status: INACTIVE) { id warning } }`, { body: unmatchable });
    expect(data.createCustomContext.warning).toMatch(/can never match/);
    const ok = await gqlData(server, `mutation { createCustomContext(body: "Avoid \`eval(\`", type: PATTERN, status: INACTIVE) { warning } }`);
    expect(ok.createCustomContext.warning).toBeNull();
  });
});

describe("a FAILED review", () => {
  it("says why over HTTP, MCP and GraphQL", async () => {
    const opened = pullRequestPayload(githubExample("pull_request", "opened"), {
      action: "opened", repo: REPO, number: 2, head: "gone", headSha: "f".repeat(40), base: "main", baseSha, updatedAt: "2024-05-01T10:00:00Z",
    });
    await deliverGitHub(server, "pull_request", opened);
    const id = await review(2);
    const detail = await (await server.api(`/v2/code-reviews/${id}`)).json();
    expect(detail.codeReview.status).toBe("FAILED");
    expect(detail.codeReview.reason).toMatch(/head of pull request #2 \(gone\) is not in the repository/);
    const viaMcp = await callTool("get_code_review", { codeReviewId: id });
    expect(viaMcp.codeReview.reason).toBe(detail.codeReview.reason);
    const data = await gqlData(server, `query($id: ID!) { codeReview(id: $id) { status reason } }`, { id });
    expect(data.codeReview).toEqual({ status: "FAILED", reason: detail.codeReview.reason });
    // A completed review has no reason.
    const done = serviceComments(1).find((c) => c.filePath === null)!;
    expect(done).toBeDefined();
    const completed = server.loupe.services.reviews.list(orgId, { ...repoArgs, prNumber: 1 }).codeReviews[0]!;
    expect((await (await server.api(`/v2/code-reviews/${completed.id}`)).json()).codeReview.reason).toBeNull();
  });
});

describe("trigger_code_review over MCP", () => {
  it("takes an optional strictness 1-5; out of range is -32602 naming strictness, and nothing is recorded", async () => {
    const before = server.loupe.services.reviews.list(orgId, { ...repoArgs, prNumber: 1 }).total;
    for (const strictness of [0, 6, 2.5]) {
      const error = await mcp.callTool({ name: "trigger_code_review", arguments: { ...repoArgs, prNumber: 1, strictness } }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(McpError);
      expect((error as McpError).code).toBe(-32602);
      expect((error as McpError).message).toContain("strictness");
      expect((error as McpError).data).toMatchObject({ field: "strictness" });
    }
    expect(server.loupe.services.reviews.list(orgId, { ...repoArgs, prNumber: 1 }).total).toBe(before);
    const triggered = await callTool("trigger_code_review", { ...repoArgs, prNumber: 1, strictness: 5 });
    await server.loupe.services.reviews.idle();
    expect(server.loupe.services.reviews.record(orgId, triggered.codeReviewId)!.metadata.strictness).toBe(5);
  });
});

describe("reviewCompleteness", () => {
  it("counts inline comments only, not summaries", async () => {
    await openPullRequest(3, "one-finding", { "app/jobs.py": "import os\n\n\ndef clean():\n    os.system('make clean')\n" });
    await review(3);
    const { reviewAnalysis, comments } = server.loupe.services.pullRequests.get(orgId, { ...repoArgs, prNumber: 3 }).mergeRequest;
    expect(comments.greptile.filter((c) => c.filePath === null)).toHaveLength(1);
    expect(comments.greptile.filter((c) => c.filePath !== null)).toHaveLength(1);
    expect(reviewAnalysis.reviewCompleteness).toBe("0/1 service comments addressed");
    expect(reviewAnalysis.unaddressedComments.map((c) => c.filePath)).toEqual(["app/jobs.py"]);
  });
});

describe("a custom PATTERN and a built-in analyser on the same line", () => {
  it("make one comment, the team's", async () => {
    const pattern = await server.loupe.services.customContext.create(
      orgId,
      { type: "PATTERN", body: "Avoid `print(` in services: use the logger.", scopes: { AND: [{ field: "filepath", operator: "MATCHES", value: "svc/**" }] } },
      ctx(),
    );
    await openPullRequest(4, "print-in-service", { "svc/worker.py": "def run(job):\n    print(job)\n    return job.result\n" });
    await review(4, 5);
    const inline = serviceComments(4).filter((c) => c.filePath !== null);
    expect(inline.map((c) => [c.filePath, c.lineStart])).toEqual([["svc/worker.py", 2]]);
    expect(inline[0]!.linkedMemory).toMatchObject({ id: pattern.customContext.id });
  });
});

describe("addressed detection", () => {
  async function push(number: number, branch: string, files: Record<string, string>, message: string, updatedAt: string) {
    host.checkout(branch);
    for (const [path, content] of Object.entries(files)) host.write(path, content);
    const headSha = host.commit(message);
    host.push(branch);
    const sync = pullRequestPayload(githubExample("pull_request", "synchronize"), {
      action: "synchronize", repo: REPO, number, head: branch, headSha, base: "main", baseSha, updatedAt,
    });
    await deliverGitHub(server, "pull_request", sync);
    await server.loupe.services.reviews.idle();
    return headSha;
  }
  const source = (handler: string) => `def load(path):\n    try:\n        return open(path).read()\n    ${handler}\n        return None\n`;

  it("an edit of the line's comment that leaves the flagged code keeps the comment open, and the re-review does not repeat it", async () => {
    await openPullRequest(5, "bare-except", { "app/load.py": source("except:") });
    await review(5);
    const [flagged] = serviceComments(5).filter((c) => c.filePath !== null);
    expect(flagged).toMatchObject({ filePath: "app/load.py", lineStart: 4, addressed: false });

    await push(5, "bare-except", { "app/load.py": source("except:  # best effort") }, "explain the handler", "2024-05-02T10:00:00Z");
    expect(serviceComments(5).find((c) => c.id === flagged!.id)!.addressed).toBe(false);
    await review(5);
    expect(serviceComments(5).filter((c) => c.filePath !== null).map((c) => c.id)).toEqual([flagged!.id]);

    // Changing the flagged code itself addresses it.
    await push(5, "bare-except", { "app/load.py": source("except OSError:  # best effort") }, "narrow the handler", "2024-05-03T10:00:00Z");
    expect(serviceComments(5).find((c) => c.id === flagged!.id)!.addressed).toBe(true);
  });
});

describe("re-reviewing an unchanged head", () => {
  it("posts no second summary while the earlier comments are open, and says so in the review's body", async () => {
    await openPullRequest(6, "unchanged-head", { "app/jobs.py": "import os\n\n\ndef clean():\n    os.system('make distclean')\n" });
    await review(6);
    const first = serviceComments(6);
    expect(first.filter((c) => c.filePath === null)).toHaveLength(1);
    const again = await review(6);
    const record = server.loupe.services.reviews.record(orgId, again)!;
    expect(record.status).toBe("COMPLETED");
    expect(record.summaryCommentId).toBeNull();
    expect(serviceComments(6).map((c) => c.id).sort()).toEqual(first.map((c) => c.id).sort());
    expect(record.body).toMatch(/No new findings/);
    expect(record.body).toMatch(/1 earlier comment is still open/);
  });
});

describe("an honest summary, without a chat model", () => {
  it("says what the change does, what was checked, lists the instructions for a human, and does not claim 5/5", async () => {
    const instruction = await server.loupe.services.customContext.create(
      orgId,
      { type: "CUSTOM_INSTRUCTION", body: "Jobs must be idempotent: running one twice changes nothing.", scopes: { AND: [{ field: "filepath", operator: "MATCHES", value: "app/**" }] } },
      ctx(),
    );
    await server.loupe.services.customContext.create(orgId, { type: "CUSTOM_INSTRUCTION", body: "Kotlin needs KDoc.", scopes: { AND: [{ field: "filepath", operator: "MATCHES", value: "**/*.kt" }] } }, ctx());
    await openPullRequest(7, "honest-summary", {
      "app/jobs.py": "import os\n\n\ndef clean(force=False):\n    if force:\n        return None\n\n\ndef archive(path):\n    return path\n",
      "app/settings.py": 'SECRET_KEY = "dev-secret-key"\nDEBUG = False\n',
    });
    const id = await review(7);
    const record = server.loupe.services.reviews.record(orgId, id)!;
    expect(record.status).toBe("COMPLETED");
    const body = record.body;
    expect(body).toContain("### What the change does");
    expect(body).toContain("- `app/jobs.py`: adds `archive()`; changes `clean()` (signature)");
    expect(body).toContain("### What was checked");
    expect(body).toContain("on the added lines of 2 files");
    expect(body).toContain("Not reviewed: the change's logic and behaviour (no chat model is configured).");
    expect(body).toContain("### For a human to check");
    expect(body).toContain(`- ${instruction.customContext.body} (in \`app/jobs.py\`, \`app/settings.py\`)`);
    expect(body).not.toContain("Kotlin needs KDoc");
    expect(body).toMatch(/\*\*Confidence score: [1-3]\/5\*\*/);
    // The hard-coded SECRET_KEY of the issue is a comment at the default strictness.
    const inline = serviceComments(7).filter((c) => c.filePath !== null);
    expect(inline.map((c) => [c.filePath, c.lineStart])).toEqual([["app/settings.py", 1]]);
    expect(inline[0]!.body).toContain("`SECRET_KEY` names a secret");
    expect(inline[0]!.body).not.toContain("dev-secret-key");
    await server.loupe.services.customContext.setStatus(orgId, instruction.customContext.id, "INACTIVE", ctx());
  });
});
