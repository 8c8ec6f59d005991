/**
 * The data behind the tool tests, recorded the way production records it: a real git "host" on
 * disk (LOUPE_GITHUB_URL=file://...), signed GitHub webhooks built from @octokit/webhooks-examples,
 * and a code review triggered through the tool interface and run by the real review worker.
 */
import { ulid } from "ulid";
import { startTestServer, type TestServer } from "../support/server.ts";
import { githubExample } from "../support/host-fixtures.ts";
import { createHostRepo, deliverGitHub, GITHUB_SECRET, pullRequestPayload } from "../support/pr-webhooks.ts";

export const REPO = "acme/widgets";
export const REPO_ARGS = { name: REPO, remote: "github", defaultBranch: "main" } as const;
/** The pull requests the fixture records (number -> what is special about it). */
export const PR_COUNT = 7;

export type Fixture = {
  server: TestServer;
  url: string;
  key: string;
  orgId: string;
  /** A key of a second organisation that holds no data. */
  otherKey: string;
  headSha: string;
  humanCommentId: string;
  remove(): Promise<void>;
};

export async function createFixture(): Promise<Fixture> {
  const host = createHostRepo(REPO);
  host.write("src/app.ts", "export function add(a: number, b: number) {\n  return a + b;\n}\n");
  const baseSha = host.commit("base");
  host.push("main");
  host.checkout("feature/logging", true);
  host.write(
    "src/util.ts",
    [
      "export function total(values: number[]) {",
      "  const awsKey = \"AKIAZ7QK3M9P2X4L8B1R\";",
      "  console.log(\"total\", values, awsKey);",
      "  return values.reduce((a, b) => a + b, 0);",
      "}",
      "",
    ].join("\n"),
  );
  const headSha = host.commit("add total");
  host.push("feature/logging");

  const server = await startTestServer({
    env: { LOUPE_WEBHOOK_SECRET_GITHUB: GITHUB_SECRET, LOUPE_GITHUB_URL: host.url, LOUPE_REVIEW_BOT_NAME: "loupe" },
  });
  const orgId = server.loupe.services.keys.organisations()[0]!.orgId;

  // PR 1: the real one (reviewable). PRs 2..7: variety for filters and pagination.
  const opened = githubExample("pull_request", "opened");
  const prs = [
    { number: 1, title: "Add total helper", head: "feature/logging", headSha, login: "octo-dev", createdDay: 1 },
    { number: 2, title: "Fix typo in README", head: "fix/readme", headSha: "2".repeat(40), login: "alice", createdDay: 2, state: "closed", merged: true },
    { number: 3, title: "Draft: new parser", head: "feature/parser", headSha: "3".repeat(40), login: "bob", createdDay: 3, draft: true },
    { number: 4, title: "Bump dependencies", head: "chore/deps", headSha: "4".repeat(40), login: "dependabot", createdDay: 4 },
    { number: 5, title: "Refactor logging", head: "feature/logging-v2", headSha: "5".repeat(40), login: "octo-dev", createdDay: 5 },
    { number: 6, title: "Drop old API", head: "remove/api", headSha: "6".repeat(40), login: "alice", createdDay: 6, state: "closed" },
    { number: 7, title: "Add metrics", head: "feature/metrics", headSha: "7".repeat(40), login: "carol", createdDay: 7 },
  ];
  for (const pr of prs) {
    const payload = pullRequestPayload(pr.state === "closed" ? githubExample("pull_request", "closed") : opened, {
      action: pr.state === "closed" ? "closed" : "opened",
      repo: REPO,
      number: pr.number,
      title: pr.title,
      head: pr.head,
      headSha: pr.headSha,
      base: "main",
      baseSha,
      updatedAt: `2024-05-0${pr.createdDay}T12:00:00Z`,
      login: pr.login,
      draft: pr.draft ?? false,
      state: pr.state ?? "open",
      merged: pr.merged ?? false,
    });
    (payload.pull_request as Record<string, unknown>).created_at = `2024-05-0${pr.createdDay}T10:00:00Z`;
    const res = await deliverGitHub(server, "pull_request", payload);
    if (res.status !== 200) throw new Error(`webhook for PR ${pr.number}: HTTP ${res.status} ${await res.text()}`);
  }

  // A human review comment on PR 1.
  const comment = githubExample("pull_request_review_comment", "created");
  comment.repository = { ...(comment.repository as object), full_name: REPO };
  (comment.pull_request as Record<string, unknown>).number = 1;
  const c = comment.comment as Record<string, unknown>;
  c.body = "Please avoid logging secrets here";
  c.path = "src/util.ts";
  c.line = 3;
  c.start_line = 2;
  c.created_at = "2024-05-02T09:00:00Z";
  c.updated_at = "2024-05-02T09:00:00Z";
  c.user = { ...(c.user as object), login: "reviewer-rita" };
  const res = await deliverGitHub(server, "pull_request_review_comment", comment);
  if (res.status !== 200) throw new Error(`comment webhook: HTTP ${res.status}`);

  // A second organisation with its own key and no data.
  const context = { orgId: "system", actor: "test", correlationId: ulid(), causationId: null };
  const other = await server.loupe.services.keys.createOrganisation("other org", context);
  const { key: otherKey } = await server.loupe.services.keys.issue({ orgId: other.orgId, name: "other", role: "member" }, context);

  return {
    server,
    url: `${server.baseUrl}/mcp`,
    key: server.adminKey,
    orgId,
    otherKey,
    headSha,
    humanCommentId: String(c.id),
    async remove() {
      await server.stop({ remove: true });
      host.remove();
    },
  };
}
