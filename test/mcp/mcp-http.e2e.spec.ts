/**
 * The tool interface through the official MCP client (@modelcontextprotocol/sdk, streamable HTTP)
 * and through jayson's HTTP client calling the tools as direct methods, against data recorded by
 * signed GitHub webhooks and a code review run by the real worker on a real git repository.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import jayson from "jayson";
import { createFixture, PR_COUNT, REPO, REPO_ARGS, type Fixture } from "./fixture.ts";

let fx: Fixture;
let client: Client;
let transport: StreamableHTTPClientTransport;
let codeReviewId: string;
let customContextId: string;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

async function call<T = Record<string, any>>(name: string, args: Record<string, unknown> = {}, c = client): Promise<T> {
  const result = (await c.callTool({ name, arguments: args })) as { content: { type: string; text: string }[]; structuredContent: T; isError?: boolean };
  expect(result.isError ?? false).toBe(false);
  expect(result.content).toHaveLength(1);
  expect(result.content[0]!.type).toBe("text");
  expect(JSON.parse(result.content[0]!.text)).toEqual(result.structuredContent);
  return result.structuredContent;
}

async function connect(key: string | null) {
  const c = new Client({ name: "loupe-test", version: "1.0.0" });
  const t = new StreamableHTTPClientTransport(new URL(fx.url), key ? { requestInit: { headers: { Authorization: `Bearer ${key}` } } } : {});
  await c.connect(t);
  return { c, t };
}

beforeAll(async () => {
  fx = await createFixture();
  ({ c: client, t: transport } = await connect(fx.key));
});
afterAll(async () => {
  await client?.close();
  await fx?.remove();
});

const sortedKeys = (o: object) => Object.keys(o).sort();
const COMMENT_KEYS = [
  "addressed", "authorLogin", "body", "commentId", "createdAt", "filePath", "hasSuggestion", "id", "isGreptileComment",
  "lineEnd", "lineStart", "linkedMemory", "suggestedCode",
].sort();
const MR_REF_KEYS = ["id", "prNumber", "repository", "sourceRepoUrl", "title"];

function expectComment(c: Record<string, any>) {
  expect(sortedKeys(c)).toEqual(COMMENT_KEYS);
  expect(typeof c.id).toBe("string");
  expect(typeof c.commentId).toBe("string");
  expect(typeof c.body).toBe("string");
  expect(typeof c.authorLogin).toBe("string");
  expect(c.filePath === null || typeof c.filePath === "string").toBe(true);
  expect(c.lineStart === null || typeof c.lineStart === "number").toBe(true);
  expect(c.lineEnd === null || typeof c.lineEnd === "number").toBe(true);
  expect(typeof c.isGreptileComment).toBe("boolean");
  expect(typeof c.addressed).toBe("boolean");
  expect(c.createdAt).toMatch(ISO);
  expect(typeof c.hasSuggestion).toBe("boolean");
  expect(c.suggestedCode === null || typeof c.suggestedCode === "string").toBe(true);
  expect(c.hasSuggestion).toBe(c.suggestedCode !== null);
  expect(c.linkedMemory === null || typeof c.linkedMemory === "object").toBe(true);
}

describe("MCP session (official SDK client, streamable HTTP)", () => {
  it("initialize: serverInfo, capabilities, negotiated protocol version, session id", async () => {
    expect(client.getServerVersion()).toEqual({ name: "loupe", version: expect.any(String) });
    expect(client.getServerCapabilities()).toEqual({ tools: { listChanged: false } });
    expect(transport.sessionId).toMatch(UUID);
    expect((transport as unknown as { _protocolVersion?: string })._protocolVersion ?? transport.protocolVersion).toBe("2025-11-25");
    await expect(client.ping()).resolves.toEqual({});
  });

  it("tools/list: every tool with a description, an input schema from zod, an output schema", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      "list_pull_requests",
      "list_merge_requests",
      "get_merge_request",
      "list_merge_request_comments",
      "list_code_reviews",
      "get_code_review",
      "trigger_code_review",
      "search_greptile_comments",
      "list_custom_context",
      "get_custom_context",
      "search_custom_context",
      "create_custom_context",
      "index_repository",
      "get_repository_status",
      "search_code",
      "query_repositories",
      "get_query_session",
    ]);
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    for (const tool of tools) {
      expect(tool.description!.length).toBeGreaterThan(20);
      expect(tool.inputSchema.type).toBe("object");
      expect((tool.inputSchema as { additionalProperties?: unknown }).additionalProperties).toBe(false);
      expect(tool.outputSchema?.type).toBe("object");
    }
    const props = (name: string) => byName[name]!.inputSchema.properties as Record<string, Record<string, unknown>>;
    const required = (name: string) => ((byName[name]!.inputSchema as { required?: string[] }).required ?? []).sort();
    // Defaults and maxima (interface.md section 8; list_code_reviews' maximum is Loupe's choice: 100).
    expect(props("list_pull_requests").limit).toMatchObject({ type: "integer", default: 20, minimum: 1, maximum: 100 });
    expect(props("list_merge_requests").limit).toMatchObject({ default: 20, maximum: 100 });
    expect(props("list_code_reviews").limit).toMatchObject({ default: 20, maximum: 100 });
    expect(props("search_greptile_comments").limit).toMatchObject({ default: 10, maximum: 50 });
    expect(props("search_greptile_comments").includeAddressed).toMatchObject({ type: "boolean", default: false });
    expect(props("list_custom_context").limit).toMatchObject({ default: 20, maximum: 100 });
    expect(props("search_custom_context").limit).toMatchObject({ default: 10, maximum: 50 });
    expect(props("list_pull_requests").remote).toMatchObject({ enum: ["github", "gitlab", "azure", "bitbucket"] });
    expect(props("get_custom_context").customContextId).toMatchObject({ type: "string", format: "uuid" });
    // Required parameters (4.2).
    expect(required("list_pull_requests")).toEqual([]);
    expect(required("list_merge_requests")).toEqual([]);
    expect(required("get_merge_request")).toEqual(["defaultBranch", "name", "prNumber", "remote"]);
    expect(required("list_merge_request_comments")).toEqual(["defaultBranch", "name", "prNumber", "remote"]);
    expect(required("list_code_reviews")).toEqual([]);
    expect(required("get_code_review")).toEqual(["codeReviewId"]);
    expect(required("trigger_code_review")).toEqual(["defaultBranch", "name", "prNumber", "remote"]);
    expect(required("search_greptile_comments")).toEqual(["query"]);
    expect(required("list_custom_context")).toEqual([]);
    expect(required("get_custom_context")).toEqual(["customContextId"]);
    expect(required("search_custom_context")).toEqual(["query"]);
    expect(required("create_custom_context")).toEqual([]);
    expect(Object.keys(props("list_pull_requests")).sort()).toEqual(
      ["authorLogin", "defaultBranch", "limit", "name", "offset", "remote", "sourceBranch", "state"].sort(),
    );
    expect(Object.keys(props("list_merge_request_comments")).sort()).toEqual(
      ["addressed", "createdAfter", "createdBefore", "defaultBranch", "greptileGenerated", "name", "prNumber", "remote"].sort(),
    );
    expect(Object.keys(props("list_code_reviews")).sort()).toEqual(["defaultBranch", "limit", "name", "offset", "prNumber", "remote", "status"].sort());
    expect(Object.keys(props("trigger_code_review")).sort()).toEqual(["branch", "defaultBranch", "name", "prNumber", "remote", "strictness"].sort());
    expect(Object.keys(props("search_greptile_comments")).sort()).toEqual(["createdAfter", "includeAddressed", "limit", "query"]);
    expect(Object.keys(props("list_custom_context")).sort()).toEqual(["greptileGenerated", "limit", "offset", "type"]);
    expect(Object.keys(props("create_custom_context")).sort()).toEqual(["body", "metadata", "scopes", "status", "type"]);
  });
});

describe("every tool with valid parameters", () => {
  it("trigger_code_review -> PENDING, then the worker completes it", async () => {
    const triggered = await call("trigger_code_review", { ...REPO_ARGS, prNumber: 1 });
    expect(sortedKeys(triggered)).toEqual(["codeReviewId", "message", "status"]);
    expect(triggered.codeReviewId).toMatch(UUID);
    expect(triggered.status).toBe("PENDING");
    expect(typeof triggered.message).toBe("string");
    codeReviewId = triggered.codeReviewId;
    await fx.server.loupe.services.reviews.idle();
  });

  it("get_code_review: detail fields", async () => {
    const { codeReview } = await call("get_code_review", { codeReviewId });
    expect(sortedKeys(codeReview)).toEqual(["body", "completedAt", "createdAt", "id", "mergeRequest", "metadata", "reason", "status"]);
    expect(codeReview.reason).toBeNull();
    expect(codeReview.id).toBe(codeReviewId);
    expect(codeReview.status).toBe("COMPLETED");
    expect(codeReview.createdAt).toMatch(ISO);
    expect(codeReview.completedAt).toMatch(ISO);
    expect(typeof codeReview.body).toBe("string");
    expect(codeReview.body.length).toBeGreaterThan(0);
    expect(sortedKeys(codeReview.metadata)).toEqual(["completedFiles", "correlationId", "strictness", "totalFiles"]);
    expect(codeReview.metadata.strictness).toBeGreaterThanOrEqual(1);
    expect(codeReview.metadata.strictness).toBeLessThanOrEqual(5);
    expect(codeReview.metadata.totalFiles).toBe(1);
    expect(codeReview.metadata.completedFiles).toBe(1);
    expect(codeReview.metadata.correlationId).toMatch(UUID);
    expect(codeReview.mergeRequest).toEqual({
      id: expect.any(String),
      prNumber: 1,
      title: "Add total helper",
      sourceRepoUrl: expect.stringContaining(REPO),
      description: "Adds the widget helpers",
      authorLogin: "octo-dev",
      repository: { id: expect.any(String), name: REPO, remote: "github" },
    });
  });

  it("list_code_reviews: list items, filters", async () => {
    const all = await call("list_code_reviews");
    expect(sortedKeys(all)).toEqual(["codeReviews", "total"]);
    expect(all.total).toBe(1);
    const item = all.codeReviews[0];
    expect(sortedKeys(item)).toEqual(["completedAt", "createdAt", "id", "mergeRequest", "metadata", "status"]);
    expect(item).toMatchObject({ id: codeReviewId, status: "COMPLETED" });
    expect(sortedKeys(item.mergeRequest)).toEqual(MR_REF_KEYS);
    expect(item.mergeRequest).toMatchObject({ prNumber: 1, title: "Add total helper", repository: { name: REPO } });
    expect((await call("list_code_reviews", { ...REPO_ARGS, prNumber: 1, status: "COMPLETED" })).total).toBe(1);
    expect((await call("list_code_reviews", { prNumber: 1 })).total).toBe(1);
    expect((await call("list_code_reviews", { prNumber: 2 })).total).toBe(0);
    expect((await call("list_code_reviews", { status: "PENDING" })).total).toBe(0);
    expect((await call("list_code_reviews", { name: "acme/other", remote: "github", defaultBranch: "main" })).total).toBe(0);
  });

  it("list_pull_requests and list_merge_requests: same answers, list item fields, filters", async () => {
    const prs = await call("list_pull_requests");
    const mrs = await call("list_merge_requests");
    expect(mrs).toEqual(prs);
    expect(sortedKeys(prs)).toEqual(["mergeRequests", "total"]);
    expect(prs.total).toBe(PR_COUNT);
    expect(prs.mergeRequests.map((m: { number: number }) => m.number)).toEqual([7, 6, 5, 4, 3, 2, 1]); // newest first
    const one = prs.mergeRequests.find((m: { number: number }) => m.number === 1);
    expect(one).toEqual({
      id: expect.any(String),
      number: 1,
      title: "Add total helper",
      state: "open",
      isDraft: false,
      authorLogin: "octo-dev",
      branches: { source: "feature/logging", target: "main" },
      repository: { name: REPO, remote: "github" },
      stats: { changedFiles: expect.any(Number), additions: expect.any(Number), deletions: expect.any(Number) },
      commentsCount: expect.any(Number),
      reviewsCount: 1,
      createdAt: "2024-05-01T10:00:00.000Z",
    });
    expect(one.commentsCount).toBeGreaterThanOrEqual(2); // the human comment and the review's comments
    const merged = prs.mergeRequests.find((m: { number: number }) => m.number === 2);
    expect(merged.state).toBe("closed"); // merged requests appear as closed
    expect(prs.mergeRequests.find((m: { number: number }) => m.number === 3).isDraft).toBe(true);

    const numbers = async (args: Record<string, unknown>) =>
      (await call("list_pull_requests", args)).mergeRequests.map((m: { number: number }) => m.number);
    expect(await numbers({ state: "closed" })).toEqual([6, 2]);
    expect(await numbers({ state: "open" })).toEqual([7, 5, 4, 3, 1]);
    expect(await numbers({ sourceBranch: "logging" })).toEqual([5, 1]); // partial match
    expect(await numbers({ authorLogin: "octo-dev" })).toEqual([5, 1]);
    expect(await numbers({ authorLogin: "Octo_Dev" })).toEqual([5, 1]); // fuzzy
    expect(await numbers({ ...REPO_ARGS, state: "open", authorLogin: "carol" })).toEqual([7]);
    expect(await numbers({ name: "acme/other", remote: "github", defaultBranch: "main" })).toEqual([]);
    expect(await numbers({ name: REPO, remote: "gitlab", defaultBranch: "main" })).toEqual([]);
  });

  it("pagination: limit/offset/total consistent across pages; default limit 20", async () => {
    const pages: number[][] = [];
    for (let offset = 0; offset < PR_COUNT + 2; offset += 3) {
      const page = await call("list_pull_requests", { limit: 3, offset });
      expect(page.total).toBe(PR_COUNT);
      expect(page.mergeRequests.length).toBe(Math.max(0, Math.min(3, PR_COUNT - offset)));
      pages.push(page.mergeRequests.map((m: { number: number }) => m.number));
    }
    expect(pages.flat()).toEqual([7, 6, 5, 4, 3, 2, 1]);
    expect((await call("list_pull_requests", { limit: 100 })).mergeRequests).toHaveLength(PR_COUNT);
    expect((await call("list_pull_requests", { offset: 100 })).mergeRequests).toEqual([]);
    expect((await call("list_pull_requests", { limit: 1, offset: 6 })).mergeRequests.map((m: { number: number }) => m.number)).toEqual([1]);
  });

  it("get_merge_request: detail with comments split, code reviews, review analysis", async () => {
    const { mergeRequest } = await call("get_merge_request", { ...REPO_ARGS, prNumber: 1 });
    expect(sortedKeys(mergeRequest)).toEqual(
      ["authorLogin", "branches", "codeReviews", "comments", "description", "isDraft", "labels", "number", "reviewAnalysis", "stats", "state", "title"].sort(),
    );
    expect(mergeRequest).toMatchObject({
      number: 1,
      title: "Add total helper",
      description: "Adds the widget helpers",
      state: "open",
      isDraft: false,
      authorLogin: "octo-dev",
      branches: { source: "feature/logging", target: "main" },
    });
    expect(Array.isArray(mergeRequest.labels)).toBe(true);
    expect(sortedKeys(mergeRequest.stats)).toEqual(["additions", "changedFiles", "deletions"]);
    expect(sortedKeys(mergeRequest.comments)).toEqual(["greptile", "human"]);
    const { greptile, human } = mergeRequest.comments;
    expect(human).toHaveLength(1);
    expectComment(human[0]);
    expect(human[0]).toMatchObject({
      commentId: fx.humanCommentId,
      body: "Please avoid logging secrets here",
      authorLogin: "reviewer-rita",
      filePath: "src/util.ts",
      isGreptileComment: false,
    });
    expect(greptile.length).toBeGreaterThanOrEqual(1);
    for (const c of greptile) {
      expectComment(c);
      expect(c.isGreptileComment).toBe(true);
    }
    expect(greptile.some((c: { filePath: string | null }) => c.filePath === "src/util.ts")).toBe(true);
    expect(mergeRequest.codeReviews).toEqual([{ id: codeReviewId, status: "COMPLETED", createdAt: expect.stringMatching(ISO), completedAt: expect.stringMatching(ISO) }]);
    const analysis = mergeRequest.reviewAnalysis;
    expect(sortedKeys(analysis)).toEqual(
      [
        "addressedComments", "commitsSinceLastReview", "hasNewCommitsSinceReview", "lastReviewDate", "reviewCompleteness",
        "totalGreptileComments", "totalHumanComments", "unaddressedComments",
      ].sort(),
    );
    expect(analysis.totalGreptileComments).toBe(greptile.length);
    expect(analysis.totalHumanComments).toBe(1);
    expect(analysis.addressedComments).toEqual([]);
    // Summaries are never addressed: the lists and completeness count the inline comments.
    const inline = greptile.filter((c: { filePath: string | null }) => c.filePath !== null);
    expect(analysis.unaddressedComments).toHaveLength(inline.length);
    expect(analysis.commitsSinceLastReview).toEqual([]);
    expect(analysis.lastReviewDate).toMatch(ISO);
    expect(analysis.reviewCompleteness).toBe(`0/${inline.length} service comments addressed`);
    expect(analysis.hasNewCommitsSinceReview).toBe(false);
  });

  it("list_merge_request_comments: all, filters, dates", async () => {
    const args = { ...REPO_ARGS, prNumber: 1 };
    const all = await call("list_merge_request_comments", args);
    expect(sortedKeys(all)).toEqual(["comments", "prNumber", "repository", "total"]);
    expect(all.repository).toBe(REPO);
    expect(all.prNumber).toBe(1);
    expect(all.total).toBe(all.comments.length);
    all.comments.forEach(expectComment);
    const service = await call("list_merge_request_comments", { ...args, greptileGenerated: true });
    const human = await call("list_merge_request_comments", { ...args, greptileGenerated: false });
    expect(service.total + human.total).toBe(all.total);
    expect(service.comments.every((c: { isGreptileComment: boolean }) => c.isGreptileComment)).toBe(true);
    expect(human.comments.map((c: { authorLogin: string }) => c.authorLogin)).toEqual(["reviewer-rita"]);
    expect((await call("list_merge_request_comments", { ...args, addressed: true })).total).toBe(0);
    expect((await call("list_merge_request_comments", { ...args, addressed: false })).total).toBe(all.total);
    // The human comment is from 2024-05-02T09:00Z; the service comments are from now.
    expect((await call("list_merge_request_comments", { ...args, createdBefore: "2024-05-03" })).total).toBe(1);
    expect((await call("list_merge_request_comments", { ...args, createdAfter: "2024-05-02T09:00:01+00:00" })).total).toBe(service.total);
    expect((await call("list_merge_request_comments", { ...args, createdAfter: "2024-05-01T00:00:00Z", createdBefore: "2024-05-02T10:00:00.000Z" })).total).toBe(1);
  });

  it("search_greptile_comments: service comments only, with sourceType and mergeRequest; summary and note", async () => {
    const found = await call("search_greptile_comments", { query: "AWS access key" });
    expect(sortedKeys(found)).toEqual(["comments", "note", "query", "summary", "total"]);
    expect(found.query).toBe("AWS access key");
    expect(found.total).toBeGreaterThanOrEqual(1);
    expect(found.comments.length).toBeLessThanOrEqual(10);
    expect(typeof found.note).toBe("string");
    expect(sortedKeys(found.summary)).toEqual(["addressed", "unaddressed", "withSuggestions"]);
    expect(found.summary.addressed).toBe(0);
    expect(found.summary.unaddressed).toBe(found.total);
    for (const c of found.comments) {
      const { sourceType, mergeRequest, ...comment } = c;
      expectComment(comment);
      expect(comment.isGreptileComment).toBe(true);
      expect(typeof sourceType).toBe("string");
      expect(sortedKeys(mergeRequest)).toEqual(MR_REF_KEYS);
      expect(mergeRequest).toMatchObject({ prNumber: 1, title: "Add total helper", repository: { name: REPO } });
    }
    expect((await call("search_greptile_comments", { query: "AWS access key", limit: 1 })).comments).toHaveLength(1);
    expect((await call("search_greptile_comments", { query: "AWS access key", includeAddressed: true })).total).toBe(found.total);
    expect((await call("search_greptile_comments", { query: "AWS access key", createdAfter: "2999-01-01" })).total).toBe(0);
    expect((await call("search_greptile_comments", { query: "avoid logging secrets here" })).comments.some((c: { authorLogin: string }) => c.authorLogin === "reviewer-rita")).toBe(false);
  });

  it("create_custom_context, then get/list/search it", async () => {
    const scopes = { AND: [{ operator: "MATCHES", field: "filepath", value: "**/*.ts" }] };
    const created = await call("create_custom_context", {
      body: "Never log credentials or API keys",
      type: "CUSTOM_INSTRUCTION",
      status: "ACTIVE",
      scopes,
      metadata: { subtype: "security", includeUris: ["src/**"] },
    });
    expect(sortedKeys(created)).toEqual(["customContext"]);
    expect(sortedKeys(created.customContext)).toEqual(["body", "createdAt", "id", "metadata", "scopes", "status", "type"]);
    expect(created.customContext).toEqual({
      id: expect.stringMatching(UUID),
      type: "CUSTOM_INSTRUCTION",
      body: "Never log credentials or API keys",
      scopes,
      status: "ACTIVE",
      metadata: { subtype: "security", includeUris: ["src/**"] },
      createdAt: expect.stringMatching(ISO),
    });
    customContextId = created.customContext.id;
    // Defaults: CUSTOM_INSTRUCTION, ACTIVE, scopes {} (universal), metadata {}.
    const minimal = await call("create_custom_context", { body: "Prefer early returns" });
    expect(minimal.customContext).toMatchObject({ type: "CUSTOM_INSTRUCTION", status: "ACTIVE", scopes: {}, metadata: {} });
    const pattern = await call("create_custom_context", { body: "Use the logger, not console.log", type: "PATTERN", status: "INACTIVE" });
    expect(pattern.customContext).toMatchObject({ type: "PATTERN", status: "INACTIVE" });

    const { customContext } = await call("get_custom_context", { customContextId });
    expect(sortedKeys(customContext)).toEqual(
      ["body", "commentsCount", "createdAt", "evidenceCount", "id", "linkedComments", "metadata", "scopes", "status", "type"].sort(),
    );
    expect(customContext).toMatchObject({ id: customContextId, body: "Never log credentials or API keys", scopes, evidenceCount: 0, commentsCount: 0, linkedComments: [] });

    const list = await call("list_custom_context");
    expect(sortedKeys(list)).toEqual(["customContexts", "total"]);
    expect(list.total).toBe(3);
    for (const item of list.customContexts) {
      expect(sortedKeys(item)).toEqual(["body", "commentsCount", "createdAt", "evidenceCount", "id", "metadata", "scopes", "status", "type"].sort());
    }
    expect((await call("list_custom_context", { type: "PATTERN" })).total).toBe(1);
    expect((await call("list_custom_context", { type: "CUSTOM_INSTRUCTION" })).total).toBe(2);
    expect((await call("list_custom_context", { greptileGenerated: false })).total).toBe(3);
    expect((await call("list_custom_context", { greptileGenerated: true })).total).toBe(0);
    const p1 = await call("list_custom_context", { limit: 2 });
    const p2 = await call("list_custom_context", { limit: 2, offset: 2 });
    expect(p1.customContexts).toHaveLength(2);
    expect(p2.customContexts).toHaveLength(1);
    expect(new Set([...p1.customContexts, ...p2.customContexts].map((c: { id: string }) => c.id)).size).toBe(3);

    const search = await call("search_custom_context", { query: "credentials" });
    expect(sortedKeys(search)).toEqual(["customContexts", "query", "total"]);
    expect(search.query).toBe("credentials");
    expect(search.total).toBe(1);
    expect(search.customContexts[0].id).toBe(customContextId);
    expect((await call("search_custom_context", { query: "log", limit: 1 })).customContexts.length).toBeLessThanOrEqual(1);
  });

  it("a key sees only its organisation's data", async () => {
    const { c } = await connect(fx.otherKey);
    try {
      expect(await call("list_pull_requests", {}, c)).toEqual({ mergeRequests: [], total: 0 });
      expect(await call("list_code_reviews", {}, c)).toEqual({ codeReviews: [], total: 0 });
      expect(await call("list_custom_context", {}, c)).toEqual({ customContexts: [], total: 0 });
      expect((await call("search_greptile_comments", { query: "AWS access key" }, c)).total).toBe(0);
      await expect(c.callTool({ name: "get_merge_request", arguments: { ...REPO_ARGS, prNumber: 1 } })).rejects.toThrow(/-32000.*not found/);
      await expect(c.callTool({ name: "get_code_review", arguments: { codeReviewId } })).rejects.toThrow(/-32000.*not found/);
      await expect(c.callTool({ name: "get_custom_context", arguments: { customContextId } })).rejects.toThrow(/-32000.*not found/);
    } finally {
      await c.close();
    }
  });
});

describe("jayson HTTP client: tools as direct JSON-RPC methods", () => {
  const jaysonClient = (key: string | null) => {
    const url = new URL(fx.url);
    return jayson.client.http({
      hostname: url.hostname,
      port: Number(url.port),
      path: url.pathname,
      headers: key ? { Authorization: `Bearer ${key}` } : {},
    });
  };
  const request = (c: ReturnType<typeof jaysonClient>, method: string, params: unknown) =>
    new Promise<{ result?: any; error?: { code: number; message: string; data?: any } }>((resolve, reject) => {
      c.request(method, params as object, ((err: Error | null, response: any) => (err ? reject(err) : resolve(response))) as never);
    });

  it("every tool answers the same object as tools/call's structuredContent", async () => {
    const c = jaysonClient(fx.key);
    const calls: [string, Record<string, unknown>][] = [
      ["list_pull_requests", { limit: 2 }],
      ["list_merge_requests", { limit: 2 }],
      ["get_merge_request", { ...REPO_ARGS, prNumber: 1 }],
      ["list_merge_request_comments", { ...REPO_ARGS, prNumber: 1 }],
      ["list_code_reviews", {}],
      ["get_code_review", { codeReviewId }],
      ["search_greptile_comments", { query: "AWS access key" }],
      ["list_custom_context", {}],
      ["get_custom_context", { customContextId }],
      ["search_custom_context", { query: "credentials" }],
    ];
    for (const [method, params] of calls) {
      const direct = await request(c, method, params);
      expect(direct.error, method).toBeUndefined();
      expect(direct.result, method).toEqual(await call(method, params));
    }
    const created = await request(c, "create_custom_context", { body: "Direct call", type: "PATTERN" });
    expect(created.result.customContext).toMatchObject({ body: "Direct call", type: "PATTERN", status: "ACTIVE" });
    const triggered = await request(c, "trigger_code_review", { ...REPO_ARGS, prNumber: 1 });
    expect(triggered.result).toEqual({ codeReviewId: expect.stringMatching(UUID), status: "PENDING", message: expect.any(String) });
    await fx.server.loupe.services.reviews.idle();
  });

  it("errors arrive as JSON-RPC errors: auth, params, the defaultBranch rule", async () => {
    const anonymous = await request(jaysonClient(null), "list_pull_requests", {});
    expect(anonymous.error).toEqual({ code: -32000, message: "Unauthorized: missing or invalid API key" });
    const c = jaysonClient(fx.key);
    const tooBig = await request(c, "list_pull_requests", { limit: 101 });
    expect(tooBig.error).toMatchObject({ code: -32602, message: "Invalid params: limit: Too big: expected number to be <=100", data: { field: "limit" } });
    const noBranch = await request(c, "trigger_code_review", { name: REPO, remote: "github", prNumber: 1 });
    expect(noBranch.error).toMatchObject({ code: -32000, message: "MCP error -32000: invalid_type - defaultBranch Required" });
    const positional = await request(c, "list_pull_requests", [20]);
    expect(positional.error).toMatchObject({ code: -32602 });
    const unknown = await request(c, "no_such_tool", {});
    expect(unknown.error).toMatchObject({ code: -32601 });
  });

  it("a batch through jayson's client", async () => {
    const c = jaysonClient(fx.key);
    // jayson builds a request object without sending it when the callback is `false`.
    const build = (method: string, params: object, id?: string) => c.request(method, params, id as never, false as never);
    const batch = [build("list_pull_requests", { limit: 1 }), build("ping", {}), build("list_custom_context", { limit: 1 }, "custom-id")];
    const responses = await new Promise<any[]>((resolve, reject) =>
      c.request(batch as never, ((err: Error | null, responses: any[]) => (err ? reject(err) : resolve(responses))) as never),
    );
    expect(responses).toHaveLength(3);
    const byId = new Map(responses.map((r) => [r.id, r]));
    expect(byId.get("custom-id").result.customContexts).toHaveLength(1);
    expect(byId.get(batch[0]!.id).result.total).toBe(PR_COUNT);
    expect(byId.get(batch[1]!.id).result).toEqual({});
  });
});
