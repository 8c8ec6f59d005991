/**
 * The chat-model review path against a local OpenAI-compatible server (LOUPE_CHAT_URL /
 * LOUPE_CHAT_MODEL), on a repository indexed by the real indexer: the request carries the diff,
 * the CUSTOM_INSTRUCTION in scope and related code from the code index; model findings become
 * inline comments on added lines only, filtered by strictness.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.ts";
import { githubExample } from "../support/host-fixtures.ts";
import { createHostRepo, deliverGitHub, GITHUB_SECRET, pullRequestPayload } from "../support/pr-webhooks.ts";
import { startFakeChat, waitFor, type FakeChat } from "../support/fake-hosts.ts";

const REPO = "acme/shop";
const repoArgs = { name: REPO, remote: "github", defaultBranch: "main" };
const MONEY = [
  "/** Formats an amount in cents as a price with the currency sign. */",
  "export function formatPrice(cents: number): string {",
  "  return `EUR ${(cents / 100).toFixed(2)}`;",
  "}",
  "",
].join("\n");
const CART_BASE = ['import { formatPrice } from "./money";', "", "export function total(items: number[]): number {", "  return items.reduce((a, b) => a + b, 0);", "}", ""].join("\n");
const CART_HEAD =
  CART_BASE.replace("return items.reduce((a, b) => a + b, 0);", "return items.reduce((sum, n) => sum + n, 0);") +
  [
    "",
    "export function label(items: number[]): string {",
    "  const sum = total(items);",
    '  return "Total: " + (sum / 100).toFixed(2);',
    "}",
    "",
    "export function priced(items: number[]): string {",
    "  return formatPrice(total(items));",
    "}",
    "",
  ].join("\n");

/** What the fake model answers for src/cart.ts: one finding per kind of case. */
let instructionId = "";
const modelAnswer = (user: string) => {
  if (!user.includes("File: src/cart.ts")) return '{"findings":[]}';
  return (
    "Here is my review:\n" +
    JSON.stringify({
      findings: [
        { line: 9, severity: "high", message: "Raw toFixed for money: use formatPrice.", suggestion: "  return \"Total: \" + formatPrice(sum);", contextId: instructionId },
        { line: 3, severity: "critical", message: "Finding on an unchanged line (must be dropped)." },
        { line: 13, severity: "low", message: "Consider naming this pricedTotal." },
        { line: 400, severity: "high", message: "Out of the file (must be dropped)." },
      ],
    })
  );
};

let server: TestServer;
let chat: FakeChat;
let orgId: string;
let host: ReturnType<typeof createHostRepo>;
let headSha = "";
let baseSha = "";

beforeAll(async () => {
  host = createHostRepo(REPO);
  host.write("src/money.ts", MONEY);
  host.write("src/cart.ts", CART_BASE);
  baseSha = host.commit("initial");
  host.push("main");
  host.checkout("feature", true);
  host.write("src/cart.ts", CART_HEAD);
  host.write("src/labels.md", "Labels for the cart.\n");
  headSha = host.commit("labels");
  host.push("feature");
  // main moves on after the branch point: the index holds this version, the review must not show it as "before".
  host.checkout("main");
  host.write("src/cart.ts", `${CART_BASE}// main moved on\n`);
  host.commit("main moves on");
  host.push("main");
  chat = await startFakeChat(modelAnswer);
  server = await startTestServer({
    env: { LOUPE_WEBHOOK_SECRET_GITHUB: GITHUB_SECRET, LOUPE_GITHUB_URL: host.url, LOUPE_CHAT_URL: chat.base, LOUPE_CHAT_MODEL: "review-model" },
  });
  orgId = server.loupe.services.keys.organisations()[0]!.orgId;
});
afterAll(async () => {
  await server?.stop({ remove: true });
  await chat?.close();
  host?.remove();
});

describe("review with the chat model", () => {
  it("sends the diff, the custom instruction and related code; model findings land on added lines, filtered by strictness", async () => {
    // Index the repository's main branch with the real indexer.
    const submitted = await server.api("/v2/repositories", { method: "POST", json: { remote: "github", repository: REPO, branch: "main" } });
    expect(submitted.status).toBe(202);
    await server.loupe.services.indexer.idle();
    await waitFor(() => (server.loupe.services.indexer.list(orgId)[0]?.status === "completed" ? true : undefined), 30_000, "indexing");

    const ctx = { orgId, actor: "t", correlationId: "c" };
    const instruction = await server.loupe.services.customContext.create(orgId, { type: "CUSTOM_INSTRUCTION", body: "Money must always be formatted with formatPrice, never with raw toFixed." }, ctx);
    instructionId = instruction.customContext.id;
    // Out of scope for this repository: must not be sent.
    await server.loupe.services.customContext.create(orgId, { type: "CUSTOM_INSTRUCTION", body: "Kotlin files need KDoc.", scopes: { AND: [{ field: "filepath", operator: "MATCHES", value: "**/*.kt" }] } }, ctx);
    // Inactive: not sent either.
    const inactive = await server.loupe.services.customContext.create(orgId, { type: "CUSTOM_INSTRUCTION", body: "Retired rule about tabs." }, ctx);
    await server.loupe.services.customContext.setStatus(orgId, inactive.customContext.id, "INACTIVE", ctx);

    const opened = pullRequestPayload(githubExample("pull_request", "opened"), { action: "opened", repo: REPO, number: 4, head: "feature", headSha, base: "main", baseSha, updatedAt: "2024-05-01T10:00:00Z" });
    expect((await (await deliverGitHub(server, "pull_request", opened)).json()).outcome).toBe("recorded");
    const { codeReviewId } = await (await server.api("/v2/code-reviews", { method: "POST", json: { ...repoArgs, prNumber: 4, strictness: 3 } })).json();
    await server.loupe.services.reviews.idle();
    expect(server.loupe.services.reviews.record(orgId, codeReviewId)).toMatchObject({ status: "COMPLETED" });

    // The request to the model.
    const prompts = chat.prompts();
    expect(prompts).toHaveLength(2); // one per reviewed file
    const { system, user } = prompts.find((p) => p.user.includes("File: src/cart.ts"))!;
    expect(chat.requests[0]!.url).toBe("/v1/chat/completions");
    expect((chat.requests[0]!.body as { model: string }).model).toBe("review-model");
    expect(system).toContain('"findings"');
    expect(user).toContain("File: src/cart.ts");
    // The pull request as a whole: title, description, the other files it changes.
    expect(user).toContain("Pull request: Add widgets\nAdds the widget helpers");
    expect(user).toContain("Other files this pull request changes: src/labels.md");
    // The deleted line (old numbering) beside the added ones.
    expect(user).toContain("-    4   return items.reduce((a, b) => a + b, 0);");
    expect(user).toContain("+    4   return items.reduce((sum, n) => sum + n, 0);");
    expect(user).toContain(`+    9   return "Total: " + (sum / 100).toFixed(2);`);
    expect(user).toContain("+   13   return formatPrice(total(items));");
    expect(user).toContain(`[${instructionId}] Money must always be formatted with formatPrice`);
    expect(user).not.toContain("Kotlin files need KDoc");
    expect(user).not.toContain("Retired rule");
    // Related code from the index: the definition of formatPrice from another file, and the file as indexed.
    expect(user).toContain("Related code elsewhere in the repository:");
    expect(user).toMatch(/--- src\/money\.ts:\d+-\d+ \(function formatPrice\)/);
    expect(user).toContain("return `EUR ${(cents / 100).toFixed(2)}`;");
    // The file before the change comes from the pull request's base commit, not from the indexed branch.
    expect(user).toContain("The file src/cart.ts before the change (the pull request's base, old numbering):");
    expect(user).toContain('    1 import { formatPrice } from "./money";');
    expect(user).not.toContain("main moved on");

    // Only the finding on an added line at or above the strictness threshold is a comment.
    const service = server.loupe.services.pullRequests.get(orgId, { ...repoArgs, prNumber: 4 }).mergeRequest.comments.greptile;
    const inline = service.filter((c) => c.filePath !== null);
    expect(inline.map((c) => [c.filePath, c.lineStart])).toEqual([["src/cart.ts", 9]]);
    expect(inline[0]).toMatchObject({ filePath: "src/cart.ts", lineStart: 9, lineEnd: 9, hasSuggestion: true, suggestedCode: '  return "Total: " + formatPrice(sum);', linkedMemory: { id: instructionId } });
    expect(inline[0]!.body).toContain("Raw toFixed for money");
    expect(service.some((c) => c.body.includes("must be dropped"))).toBe(false);
    expect(service.some((c) => c.body.includes("pricedTotal"))).toBe(false);

    // At strictness 5 the low finding shows too; the earlier comment is not repeated.
    const again = await server.loupe.services.reviews.trigger(orgId, { ...repoArgs, prNumber: 4, strictness: 5 }, ctx);
    await server.loupe.services.reviews.idle();
    expect(server.loupe.services.reviews.record(orgId, again.codeReviewId)).toMatchObject({ status: "COMPLETED" });
    const after = server.loupe.services.pullRequests.get(orgId, { ...repoArgs, prNumber: 4 }).mergeRequest.comments.greptile.filter((c) => c.filePath !== null);
    expect(after.map((c) => c.lineStart).sort()).toEqual([13, 9]);
    expect(after.find((c) => c.lineStart === 13)!.body).toContain("pricedTotal");
  });
});
