/**
 * The admin GraphQL API over a real code review: a pull request recorded by a signed GitHub webhook on a
 * real git repository (served as the "GitHub" host through LOUPE_GITHUB_URL=file://...), a review
 * triggered and followed through GraphQL only, then read back with its typed metadata, merge request and
 * comments, and the pull request with its comments and reviews.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.ts";
import { githubExample } from "../support/host-fixtures.ts";
import { createHostRepo, deliverGitHub, GITHUB_SECRET, pullRequestPayload } from "../support/pr-webhooks.ts";
import { gql, gqlData } from "./support.ts";

const REPO = "acme/widgets";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function makeRepo() {
  const host = createHostRepo(REPO);
  host.write("src/app.ts", "export const version = 1;\n");
  host.write("src/net.ts", "export const base = '/api';\n");
  host.write("README.md", "# widgets\n");
  const baseSha = host.commit("initial");
  host.push("main");
  host.checkout("feature", true);
  host.write("src/app.ts", "export const version = 1;\n\nexport function add(a: number, b: number) {\n  debugger;\n  return a + b;\n}\n");
  host.write("src/net.ts", "export const base = '/api';\n\nexport async function load(path: string) {\n  return legacyFetch(base + path);\n}\n");
  host.write("docs/notes.ts", "export const note = legacyFetch;\n");
  const headSha = host.commit("add helpers");
  host.push("feature");
  return { host, baseSha, headSha };
}

const COMMENT_FIELDS = `id commentId body authorLogin filePath lineStart lineEnd isGreptileComment addressed createdAt hasSuggestion suggestedCode linkedMemory { id type }`;

const CODE_REVIEW = `query($id: ID!) {
  codeReview(id: $id) {
    id status createdAt completedAt body
    metadata { totalFiles completedFiles strictness correlationId }
    mergeRequest { id prNumber title sourceRepoUrl description authorLogin repository { id name remote } }
    comments { ${COMMENT_FIELDS} }
  }
}`;

const PULL_REQUEST = `query($greptileGenerated: Boolean) {
  pullRequests(name: "${REPO}", remote: github, defaultBranch: "main") {
    total
    items {
      id number title commentsCount reviewsCount
      comments { ${COMMENT_FIELDS} }
      serviceOnly: comments(greptileGenerated: $greptileGenerated) { id }
      codeReviews { id status body metadata { totalFiles completedFiles } comments { id } }
    }
  }
}`;

describe("admin GraphQL: a code review with its comments, over a real repository", () => {
  let server: TestServer;
  let repo: ReturnType<typeof makeRepo>;

  beforeAll(async () => {
    repo = makeRepo();
    server = await startTestServer({ env: { LOUPE_WEBHOOK_SECRET_GITHUB: GITHUB_SECRET, LOUPE_GITHUB_URL: repo.host.url } });
  });
  afterAll(async () => {
    await server?.stop({ remove: true });
    repo?.host.remove();
  });

  const waitForReview = async (id: string) => {
    const deadline = Date.now() + 30_000;
    const seen: string[] = [];
    for (;;) {
      const { codeReview } = await gqlData(server, `query($id: ID!) { codeReview(id: $id) { status metadata { completedFiles } } }`, { id });
      if (seen.at(-1) !== codeReview.status) seen.push(codeReview.status);
      if (codeReview.status === "COMPLETED") return seen;
      if (codeReview.status === "FAILED" || codeReview.status === "SKIPPED") throw new Error(`review ended ${codeReview.status}`);
      if (Date.now() > deadline) throw new Error(`review stayed ${JSON.stringify(seen)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  it("triggers a review by mutation, follows it to COMPLETED, and reads its metadata, merge request and comments", async () => {
    // A pattern scoped to src/**/*.ts: it produces the linked comment on src/net.ts, none on docs/notes.ts.
    const pattern = (
      await gqlData(
        server,
        `mutation($scopes: JSON) { createCustomContext(type: PATTERN, body: "Never call \`legacyFetch\`; use \`httpClient\` instead.", scopes: $scopes) { id type } }`,
        { scopes: { AND: [{ field: "filepath", operator: "MATCHES", value: "src/**/*.ts" }] } },
      )
    ).createCustomContext;
    expect(pattern.type).toBe("PATTERN");

    const opened = pullRequestPayload(githubExample("pull_request", "opened"), {
      action: "opened", repo: REPO, number: 7, title: "Add widget helpers", head: "feature", headSha: repo.headSha, base: "main", baseSha: repo.baseSha, updatedAt: "2024-05-01T10:00:00Z", login: "octodev",
    });
    expect((await (await deliverGitHub(server, "pull_request", opened)).json()).outcome).toBe("recorded");

    const triggered = (
      await gqlData(
        server,
        `mutation { triggerCodeReview(name: "${REPO}", remote: github, defaultBranch: "main", prNumber: 7, strictness: 3) { codeReviewId status message } }`,
      )
    ).triggerCodeReview;
    expect(triggered.status).toBe("PENDING");
    expect(triggered.codeReviewId).toMatch(UUID);

    const seen = await waitForReview(triggered.codeReviewId);
    expect(seen.at(-1)).toBe("COMPLETED");

    const { codeReview } = await gqlData(server, CODE_REVIEW, { id: triggered.codeReviewId });
    expect(codeReview).toMatchObject({
      id: triggered.codeReviewId,
      status: "COMPLETED",
      metadata: { totalFiles: 3, completedFiles: 3, strictness: 3 },
      mergeRequest: {
        id: "github:acme/widgets#7",
        prNumber: 7,
        title: "Add widget helpers",
        sourceRepoUrl: `${repo.host.url}/${REPO}`,
        description: "Adds the widget helpers",
        authorLogin: "octodev",
        repository: { id: "github:acme/widgets", name: REPO, remote: "github" },
      },
    });
    expect(codeReview.metadata.correlationId).toMatch(UUID);
    expect(codeReview.completedAt).not.toBeNull();
    expect(codeReview.body).toContain("Review");

    const comments: any[] = codeReview.comments;
    expect(comments.map((c) => [c.filePath, c.lineStart])).toEqual([
      ["src/app.ts", 4],
      ["src/net.ts", 4],
      [null, null],
    ]);
    const [debuggerComment, patternComment, summary] = comments;
    expect(debuggerComment).toMatchObject({
      lineEnd: 4, authorLogin: "loupe", isGreptileComment: true, addressed: false, hasSuggestion: true, suggestedCode: "", linkedMemory: null,
    });
    expect(debuggerComment.body).toContain("```suggestion");
    expect(patternComment).toMatchObject({ lineEnd: 4, isGreptileComment: true, hasSuggestion: false, linkedMemory: { id: pattern.id } });
    expect(summary).toMatchObject({ authorLogin: "loupe[bot]", isGreptileComment: true, hasSuggestion: false, suggestedCode: null, lineEnd: null });
    for (const c of comments) expect(Date.parse(c.createdAt)).not.toBeNaN();

    // The list reads the same review with the same typed objects (its merge request and body resolved too).
    const list = (
      await gqlData(
        server,
        `{ codeReviews(name: "${REPO}", remote: github, defaultBranch: "main", prNumber: 7) { total items { id body metadata { totalFiles } mergeRequest { prNumber title repository { id remote } } comments { id } } } }`,
      )
    ).codeReviews;
    expect(list.total).toBe(1);
    expect(list.items[0]).toEqual({
      id: triggered.codeReviewId,
      body: codeReview.body,
      metadata: { totalFiles: 3 },
      mergeRequest: { prNumber: 7, title: "Add widget helpers", repository: { id: "github:acme/widgets", remote: "github" } },
      comments: comments.map((c) => ({ id: c.id })),
    });

    // A human comment on the pull request: the pull request shows it, the review does not.
    const human = githubExample("pull_request_review_comment", "created");
    human.repository = { ...(human.repository as object), full_name: REPO };
    (human.pull_request as Record<string, unknown>).number = 7;
    Object.assign(human.comment as Record<string, unknown>, {
      body: "Could `add` take a list instead?",
      path: "src/app.ts",
      line: 3,
      start_line: null,
      created_at: "2030-01-01T00:00:00Z",
      updated_at: "2030-01-01T00:00:00Z",
    });
    expect((await (await deliverGitHub(server, "pull_request_review_comment", human)).json()).outcome).toBe("recorded");

    const pr = (await gqlData(server, PULL_REQUEST, { greptileGenerated: true })).pullRequests;
    expect(pr.total).toBe(1);
    const item = pr.items[0];
    expect(item).toMatchObject({ id: "github:acme/widgets#7", number: 7, title: "Add widget helpers", commentsCount: 4, reviewsCount: 1 });
    expect(item.comments).toHaveLength(4);
    expect(item.comments.slice(0, 3)).toEqual(comments);
    expect(item.comments[3]).toMatchObject({ filePath: "src/app.ts", lineStart: 3, isGreptileComment: false, hasSuggestion: false, body: "Could `add` take a list instead?" });
    expect(item.serviceOnly).toEqual(comments.map((c) => ({ id: c.id })));
    expect(item.codeReviews).toEqual([
      { id: triggered.codeReviewId, status: "COMPLETED", body: codeReview.body, metadata: { totalFiles: 3, completedFiles: 3 }, comments: comments.map((c) => ({ id: c.id })) },
    ]);
    const humanOnly = (await gqlData(server, PULL_REQUEST, { greptileGenerated: false })).pullRequests.items[0].serviceOnly;
    expect(humanOnly).toEqual([{ id: item.comments[3].id }]);

    // The review's comments stay its own after the human comment.
    const again = await gqlData(server, `query($id: ID!) { codeReview(id: $id) { comments { id } } }`, { id: triggered.codeReviewId });
    expect(again.codeReview.comments).toEqual(comments.map((c) => ({ id: c.id })));
  });

  it("an unknown review is null; a sub-selection is required on the typed objects", async () => {
    expect((await gqlData(server, `{ codeReview(id: "00000000-0000-0000-0000-000000000000") { id comments { id } } }`)).codeReview).toBeNull();
    const bad = await gql(server, `{ codeReviews { items { metadata mergeRequest } } }`);
    expect(bad.errors?.[0]?.message).toMatch(/must have a selection of subfields/);
  });
});
