import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.ts";
import { createGitHostFixture, type GitHostFixture } from "../support/git-fixtures.ts";
import { gql, gqlData } from "./support.ts";

/** The admin schema over the other read models and services: repositories, pull requests, reviews, custom context. */
describe("admin GraphQL API over the domain services", () => {
  let server: TestServer;
  let fixture: GitHostFixture;
  let adminKeyId: string;

  beforeAll(async () => {
    fixture = createGitHostFixture();
    fixture.createRepo("acme/widgets", {
      "src/widget.ts": "export function widget(n: number) {\n  return n * 2;\n}\n",
      "README.md": "# Widgets\n",
    });
    server = await startTestServer({ env: { LOUPE_GITHUB_URL: fixture.baseUrl } });
    adminKeyId = (await gqlData(server, "{ viewer { keyId } }")).viewer.keyId;
  });
  afterAll(async () => {
    await server?.stop({ remove: true });
    fixture?.cleanup();
  });

  const waitForStatus = async (repoId: string, status: string) => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const { repository } = await gqlData(server, `query($id: ID!) { repository(repoId: $id) { status failureReason } }`, { id: repoId });
      if (repository.status === status) return;
      if (Date.now() > deadline) throw new Error(`repository stayed ${JSON.stringify(repository)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  it("submits and re-indexes a repository, and lists it with its status and history", async () => {
    const SUBMIT = `mutation($reload: Boolean) { submitRepository(remote: github, repository: "acme/widgets", reload: $reload) {
      repoId message started repository { repoId status } } }`;
    const submitted = (await gqlData(server, SUBMIT)).submitRepository;
    expect(submitted).toMatchObject({ message: "Indexing started", started: true });
    await waitForStatus(submitted.repoId, "completed");
    const { repository, repositories } = await gqlData(
      server,
      `query($id: ID!) { repository(repoId: $id) { repoId remote repository branch status numFiles filesProcessed sha languages submittedAt failureReason }
         repositories { repoId status } }`,
      { id: submitted.repoId },
    );
    expect(repository).toMatchObject({ repoId: submitted.repoId, remote: "github", repository: "acme/widgets", branch: "main", status: "completed", failureReason: null });
    expect(repository.sha).toMatch(/^[0-9a-f]{40}$/);
    expect(repositories).toEqual([{ repoId: submitted.repoId, status: "completed" }]);

    const reindexed = (await gqlData(server, SUBMIT, { reload: true })).submitRepository;
    expect(reindexed).toMatchObject({ repoId: submitted.repoId, message: "Re-indexing started", started: true });
    await waitForStatus(submitted.repoId, "completed");

    const history = (await gqlData(server, `query($id: String!) { entityHistory(entityId: $id) { events { type actor } } }`, { id: submitted.repoId }))
      .entityHistory.events;
    expect(history.length).toBeGreaterThanOrEqual(2);
    expect(history[0].actor).toBe(adminKeyId);

    const bad = await gql(server, `mutation { submitRepository(remote: github, repository: "  ") { repoId } }`);
    expect(bad.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
  });

  it("lists pull requests and code reviews, and refuses a review of an unknown pull request with NOT_FOUND", async () => {
    const data = await gqlData(
      server,
      `{ pullRequests(limit: 10) { total items { id number title state isDraft authorLogin sourceBranch targetBranch repositoryName remote stats commentsCount reviewsCount createdAt } }
         codeReviews(limit: 10) { total items { id status createdAt completedAt metadata { strictness totalFiles completedFiles correlationId } mergeRequest { id prNumber title sourceRepoUrl repository { name remote } } comments { id } } }
         codeReview(id: "00000000-0000-0000-0000-000000000000") { id body } }`,
    );
    expect(data).toEqual({ pullRequests: { total: 0, items: [] }, codeReviews: { total: 0, items: [] }, codeReview: null });
    const trigger = await gql(
      server,
      `mutation { triggerCodeReview(name: "acme/widgets", remote: github, defaultBranch: "main", prNumber: 7, strictness: 3) { codeReviewId status message } }`,
    );
    expect(trigger.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    const strict = await gql(
      server,
      `mutation { triggerCodeReview(name: "acme/widgets", remote: github, defaultBranch: "main", prNumber: 7, strictness: 9) { codeReviewId } }`,
    );
    expect(strict.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
  });

  it("creates custom context, changes its status twice, and audits it: history and the model as of each change", async () => {
    const created = (
      await gqlData(
        server,
        `mutation { createCustomContext(body: "Prefer early returns", type: CUSTOM_INSTRUCTION, metadata: { team: "core" }) {
           id type body status scopes metadata evidenceCount commentsCount createdAt learned } }`,
      )
    ).createCustomContext;
    expect(created).toMatchObject({ type: "CUSTOM_INSTRUCTION", body: "Prefer early returns", status: "ACTIVE", metadata: { team: "core" }, learned: false });
    const SET = `mutation($id: ID!, $status: CustomContextStatus!) { setCustomContextStatus(id: $id, status: $status) { id status } }`;
    expect((await gqlData(server, SET, { id: created.id, status: "INACTIVE" })).setCustomContextStatus.status).toBe("INACTIVE");
    expect((await gqlData(server, SET, { id: created.id, status: "ACTIVE" })).setCustomContextStatus.status).toBe("ACTIVE");

    const { customContext, customContexts } = await gqlData(
      server,
      `query($id: ID!) { customContext(id: $id) { id status } customContexts(status: ACTIVE) { total items { id } } }`,
      { id: created.id },
    );
    expect(customContext).toEqual({ id: created.id, status: "ACTIVE" });
    expect(customContexts).toEqual({ total: 1, items: [{ id: created.id }] });

    const events = (
      await gqlData(server, `query($id: String!) { entityHistory(entityId: $id) { streams events { type actor time position } } }`, { id: created.id })
    ).entityHistory;
    expect(events.events).toHaveLength(3);
    expect(events.events.every((e: { actor: string }) => e.actor === adminKeyId)).toBe(true);
    expect(events.streams).toHaveLength(1);

    const statuses = [];
    for (const event of events.events) {
      const { readModelAsOf } = await gqlData(
        server,
        `query($p: Position!) { readModelAsOf(projection: "custom-context", asOf: { position: $p }) { position customContexts { id status } } }`,
        { p: event.position },
      );
      expect(readModelAsOf.position).toBe(event.position);
      statuses.push(readModelAsOf.customContexts.map((c: { status: string }) => c.status));
    }
    expect(statuses).toEqual([["ACTIVE"], ["INACTIVE"], ["ACTIVE"]]);
    const before = await gqlData(
      server,
      `query($p: Position!) { readModelAsOf(projection: "custom-context", asOf: { position: $p }) { customContexts { id } } }`,
      { p: events.events[0].position - 1 },
    );
    expect(before.readModelAsOf.customContexts).toEqual([]);

    const missing = await gql(server, `mutation { setCustomContextStatus(id: "nope", status: INACTIVE) { id } }`);
    expect(missing.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
  });
});
