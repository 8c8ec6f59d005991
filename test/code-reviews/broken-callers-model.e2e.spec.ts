/**
 * Broken callers with a chat model configured (a local OpenAI-compatible server): the finding from the
 * code graph is posted as before, and the model is told about it (so it does not repeat it).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.ts";
import { githubExample } from "../support/host-fixtures.ts";
import { createHostRepo, deliverGitHub, GITHUB_SECRET, pullRequestPayload } from "../support/pr-webhooks.ts";
import { startFakeChat, waitFor, type FakeChat } from "../support/fake-hosts.ts";

const REPO = "acme/mail";
let server: TestServer;
let chat: FakeChat;
let host: ReturnType<typeof createHostRepo>;
let orgId: string;

beforeAll(async () => {
  host = createHostRepo(REPO);
  host.write("mail/send.py", "def send(to, subject):\n    return (to, subject)\n");
  host.write("mail/jobs.py", "from mail.send import send\n\n\ndef nightly():\n    send('ops@example.com', 'report')\n");
  const baseSha = host.commit("initial");
  host.push("main");
  host.checkout("body", true);
  host.write("mail/send.py", "def send(to, subject, body):\n    return (to, subject, body)\n");
  const headSha = host.commit("send a body");
  host.push("body");
  chat = await startFakeChat(() => '{"findings":[]}');
  server = await startTestServer({ env: { LOUPE_WEBHOOK_SECRET_GITHUB: GITHUB_SECRET, LOUPE_GITHUB_URL: host.url, LOUPE_CHAT_URL: chat.base, LOUPE_CHAT_MODEL: "review-model" } });
  orgId = server.loupe.services.keys.organisations()[0]!.orgId;
  expect((await server.api("/v2/repositories", { method: "POST", json: { remote: "github", repository: REPO, branch: "main" } })).status).toBe(202);
  await server.loupe.services.indexer.idle();
  await waitFor(() => (server.loupe.services.indexer.list(orgId)[0]?.status === "completed" ? true : undefined), 30_000, "indexing");
  const opened = pullRequestPayload(githubExample("pull_request", "opened"), { action: "opened", repo: REPO, number: 1, head: "body", headSha, base: "main", baseSha, updatedAt: "2024-05-01T10:00:00Z" });
  expect((await (await deliverGitHub(server, "pull_request", opened)).json()).outcome).toBe("recorded");
});
afterAll(async () => {
  await server?.stop({ remove: true });
  await chat?.close();
  host?.remove();
});

describe("broken callers with a chat model", () => {
  it("posts the finding and hands it to the model as context", async () => {
    const res = await server.api("/v2/code-reviews", { method: "POST", json: { name: REPO, remote: "github", defaultBranch: "main", prNumber: 1 } });
    expect(res.status).toBe(202);
    await server.loupe.services.reviews.idle();
    const comments = server.loupe.services.pullRequests.get(orgId, { name: REPO, remote: "github", defaultBranch: "main", prNumber: 1 }).mergeRequest.comments.greptile;
    const inline = comments.filter((c) => c.filePath !== null);
    expect(inline).toHaveLength(1);
    expect(inline[0]).toMatchObject({ filePath: "mail/send.py", lineStart: 1 });
    expect(inline[0]!.body).toContain("`mail/jobs.py:5`: does not pass `body`");
    const prompt = chat.prompts().find((p) => p.user.includes("File: mail/send.py"))!;
    expect(prompt.user).toContain("Already found from the repository's code graph (do not repeat them):\n- line 1: **Broken callers**");
    expect(prompt.user).toContain("`mail/jobs.py:5`");
  });
});
