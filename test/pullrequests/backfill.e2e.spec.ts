/**
 * POST /v2/repositories/pull-requests/backfill against a local server answering GitHub's
 * `GET /repos/{o}/{r}/pulls?state=all` with Link-header pagination.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.ts";
import { startFakeGitHub, type FakeGitHub } from "../support/fake-hosts.ts";

const REPO = "acme/backfill";
const TOKEN = "ghp_backfill_token_0123456789abcdef";

/** A pull request list item in GitHub's REST shape (the list endpoint carries no stats). */
function pull(n: number, fields: { state?: "open" | "closed"; merged?: boolean; draft?: boolean; login?: string; stats?: boolean } = {}) {
  const closed = fields.state === "closed";
  return {
    id: 100_000 + n,
    number: n,
    state: fields.state ?? "open",
    title: `PR number ${n}`,
    body: `Body of ${n}`,
    draft: fields.draft ?? false,
    user: { login: fields.login ?? `dev${n}` },
    labels: [{ name: "backend" }],
    head: { ref: `feature/${n}`, sha: `${String(n).padStart(2, "0")}`.repeat(20) },
    base: { ref: "main", sha: "b".repeat(40) },
    created_at: `2024-04-${String(n).padStart(2, "0")}T09:00:00Z`,
    updated_at: `2024-05-${String(n).padStart(2, "0")}T09:00:00Z`,
    closed_at: closed ? "2024-05-20T09:00:00Z" : null,
    merged_at: closed && fields.merged ? "2024-05-20T09:00:00Z" : null,
    html_url: `https://github.com/${REPO}/pull/${n}`,
    ...(fields.stats ? { changed_files: 4, additions: 40, deletions: 2 } : {}),
  };
}

let server: TestServer;
let gh: FakeGitHub;
let orgId: string;

beforeAll(async () => {
  gh = await startFakeGitHub();
  gh.perPage = 2;
  gh.pulls.push(
    pull(5, { stats: true }),
    pull(4, { draft: true }),
    pull(3, { state: "closed", merged: true }),
    pull(2, { state: "closed" }),
    pull(1, { login: "octocat" }),
  );
  server = await startTestServer({ env: { LOUPE_GITHUB_API_URL: gh.base } });
  orgId = server.loupe.services.keys.organisations()[0]!.orgId;
});
afterAll(async () => {
  await server?.stop({ remove: true });
  await gh?.close();
});

const backfill = (headers: Record<string, string> = { "x-host-token": TOKEN }) =>
  server.api("/v2/repositories/pull-requests/backfill", { method: "POST", headers, json: { remote: "github", repository: REPO, defaultBranch: "main", state: "all" } });

describe("pull request backfill", () => {
  it("follows the Link header through every page and records each PR with every list field", async () => {
    const res = await backfill();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ listed: 5, recorded: 5, unchanged: 0 });
    const lists = gh.requests.filter((r) => r.url.startsWith(`/repos/${REPO}/pulls`));
    expect(lists).toHaveLength(3);
    expect(lists[0]!.url).toContain("state=all");
    expect(lists.map((r) => new URL(r.url, gh.base).searchParams.get("page"))).toEqual([null, "2", "3"]);
    for (const r of lists) expect(r.headers.authorization).toBe(`Bearer ${TOKEN}`);

    const { mergeRequests, total } = server.loupe.services.pullRequests.list(orgId, { name: REPO, remote: "github", defaultBranch: "main" });
    expect(total).toBe(5);
    const byNumber = new Map(mergeRequests.map((m) => [m.number, m]));
    expect(byNumber.get(5)).toEqual({
      id: `github:${REPO}#5`,
      number: 5,
      title: "PR number 5",
      state: "open",
      isDraft: false,
      authorLogin: "dev5",
      branches: { source: "feature/5", target: "main" },
      repository: { name: REPO, remote: "github" },
      stats: { changedFiles: 4, additions: 40, deletions: 2 },
      commentsCount: 0,
      reviewsCount: 0,
      createdAt: "2024-04-05T09:00:00.000Z",
    });
    expect(byNumber.get(4)).toMatchObject({ isDraft: true, state: "open", authorLogin: "dev4" });
    // Merged requests are listed as closed; the detail still says merged.
    expect(byNumber.get(3)).toMatchObject({ state: "closed", branches: { source: "feature/3", target: "main" } });
    expect(byNumber.get(2)).toMatchObject({ state: "closed" });
    expect(byNumber.get(1)).toMatchObject({ authorLogin: "octocat", createdAt: "2024-04-01T09:00:00.000Z", stats: { changedFiles: 0, additions: 0, deletions: 0 } });
    expect(server.loupe.services.pullRequests.get(orgId, { name: REPO, remote: "github", defaultBranch: "main", prNumber: 3 }).mergeRequest).toMatchObject({ merged: true, state: "closed", description: "Body of 3" });
    expect(server.loupe.services.pullRequests.list(orgId, { name: REPO, remote: "github", defaultBranch: "main", state: "closed" }).mergeRequests.map((m) => m.number).sort()).toEqual([2, 3]);
  });

  it("a second backfill records nothing new; a changed PR is recorded once", async () => {
    const head = await server.loupe.services.eventStore.headPosition();
    expect(await (await backfill()).json()).toEqual({ listed: 5, recorded: 0, unchanged: 5 });
    expect(await server.loupe.services.eventStore.headPosition()).toBe(head);

    gh.pulls[1] = { ...pull(4), title: "Ready now", updated_at: "2024-06-01T09:00:00Z" };
    expect(await (await backfill()).json()).toEqual({ listed: 5, recorded: 1, unchanged: 4 });
    const four = server.loupe.services.pullRequests.list(orgId, { name: REPO, remote: "github", defaultBranch: "main" }).mergeRequests.find((m) => m.number === 4);
    expect(four).toMatchObject({ title: "Ready now", isDraft: false });
    expect(await (await backfill()).json()).toEqual({ listed: 5, recorded: 0, unchanged: 5 });
  });

  it("a secondary rate limit on the listing is a rate limit (429 host_rate_limited), not a repository not found", async () => {
    for (const answer of ["retry-after", "message"] as const) {
      gh.secondaryRateLimit = answer;
      try {
        const res = await backfill();
        expect(res.status).toBe(429);
        const body = (await res.json()) as { error: { code: string; message: string } };
        expect(body.error.code).toBe("host_rate_limited");
        expect(body.error.message).toMatch(/rate limit/);
      } finally {
        gh.secondaryRateLimit = null;
      }
    }
  });

  it("needs the admin key, and the host token stays out of events and logs", async () => {
    const member = await server.api("/v2/repositories/pull-requests/backfill", { method: "POST", key: null, json: { remote: "github", repository: REPO } });
    expect(member.status).toBe(401);
    const events = await server.loupe.services.eventStore.readAll({ maxCount: 10_000 });
    expect(JSON.stringify(events)).not.toContain(TOKEN);
    expect(server.logs()).not.toContain(TOKEN);
  });
});
