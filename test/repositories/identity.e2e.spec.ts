/**
 * Which commit and which branch a repository's index is, and how the repository is named, through the
 * real server and a file:// git host: a branch moved backwards, the default branch of a branchless
 * reference, GitLab nested groups, local repositories in GraphQL, `private`, and what a failure shows.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestServer, type TestServer } from "../support/server.ts";
import { createGitHostFixture, git, type GitHostFixture, type WorkRepo } from "../support/git-fixtures.ts";
import { gqlData } from "../graphql/support.ts";

type Status = { id: string; repository: string; remote: string; branch: string; private: boolean; status: string; sha: string | null; failureReason: string | null };

let host: GitHostFixture;
let server: TestServer;
let localRoot: string;

async function submit(json: unknown, headers: Record<string, string> = {}) {
  const res = await server.api("/v2/repositories", { method: "POST", json, headers });
  return { status: res.status, body: (await res.json()) as { message: string; statusEndpoint: string; error?: { code: string; message: string } } };
}

async function poll(endpoint: string, until: (s: Status) => boolean): Promise<Status> {
  const path = new URL(endpoint).pathname;
  for (let i = 0; i < 1200; i++) {
    const res = await server.api(path);
    if (res.status === 200) {
      const status = (await res.json()) as Status;
      if (until(status)) return status;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no such status at ${endpoint}`);
}

/** Submits and waits for the job to finish; returns the status. */
async function index(json: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Status> {
  const { status, body } = await submit(json, headers);
  expect(status, JSON.stringify(body)).toBe(202);
  return poll(body.statusEndpoint, (s) => s.status === "completed" || s.status === "failed");
}

async function search(query: string, repositories: unknown[]) {
  const res = await server.api("/v2/search", { method: "POST", json: { query, repositories } });
  return { status: res.status, body: (await res.json()) as { branch: string; filepath: string }[] | { error: { code: string; message: string } } };
}

async function mcp(name: string, args: Record<string, unknown>) {
  const res = await server.api("/mcp", { method: "POST", json: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } } });
  return (await res.json()) as { result?: { structuredContent?: Record<string, unknown>; isError?: boolean }; error?: { message: string } };
}

beforeAll(async () => {
  host = createGitHostFixture();
  localRoot = mkdtempSync(join(tmpdir(), "loupe-local-root-"));
  server = await startTestServer({
    env: {
      LOUPE_GITHUB_URL: host.baseUrl,
      LOUPE_GITLAB_URL: host.baseUrl,
      LOUPE_GITLAB_API_URL: "http://127.0.0.1:1/api/v4",
      LOUPE_LOCAL_ROOTS: localRoot,
    },
  });
}, 60_000);

afterAll(async () => {
  await server?.stop({ remove: true });
  host?.cleanup();
  if (localRoot) rmSync(localRoot, { recursive: true, force: true });
});

describe("a branch moved backwards", () => {
  it("is indexed at the host's head, then up to date", async () => {
    const work = host.createRepo("acme/rollback", { "app/base.py": "def base_helper():\n    return 1\n" });
    const first = git(work.dir, "rev-parse", "HEAD");
    work.write({ "app/later.py": "def later_helper():\n    return 2\n" });
    const second = work.commit("later");
    work.publish();
    expect((await index({ remote: "github", repository: "acme/rollback", branch: "main" })).sha).toBe(second);

    // Reset to a commit the mirror already holds.
    git(work.dir, "reset", "--hard", "--quiet", first);
    git(work.dir, "push", "--quiet", "--force", "origin", "main");
    const again = await index({ remote: "github", repository: "acme/rollback", branch: "main", reload: true });
    expect(again).toMatchObject({ status: "completed", sha: first });
    const found = await search("later_helper base_helper", [{ remote: "github", repository: "acme/rollback", branch: "main" }]);
    expect((found.body as { filepath: string }[]).map((r) => r.filepath)).toEqual(["app/base.py"]);

    const { status, body } = await submit({ remote: "github", repository: "acme/rollback", branch: "main" });
    expect({ status, message: body.message }).toEqual({ status: 200, message: "Repository is up to date" });
  });
});

describe("a reference without a branch", () => {
  let work: WorkRepo;
  beforeAll(async () => {
    work = host.createRepo("acme/branches", { "src/main_only.py": "def shipping_rate():\n    return 'main'\n" });
    git(work.dir, "checkout", "--quiet", "-b", "stable");
    work.write({ "src/main_only.py": "def shipping_rate():\n    return 'stable'\n" });
    work.commit("stable");
    git(work.dir, "checkout", "--quiet", "main");
    work.publish();
    // The default branch first, then another one: the newest index is not the default branch.
    await index({ remote: "github", repository: "acme/branches", branch: "main" });
    await index({ remote: "github", repository: "acme/branches", branch: "stable" });
  }, 60_000);

  it("searches the host's default branch, also after another branch was re-indexed", async () => {
    const ref = { remote: "github", repository: "acme/branches" };
    let found = await search("shipping_rate", [ref]);
    expect(found.status).toBe(200);
    expect((found.body as { branch: string }[]).map((r) => r.branch)).toEqual(["main"]);

    work.write({ "src/extra.py": "def extra():\n    pass\n" });
    git(work.dir, "checkout", "--quiet", "stable");
    work.write({ "src/extra.py": "def extra():\n    pass\n" });
    work.commit("extra on stable");
    git(work.dir, "checkout", "--quiet", "main");
    work.publish();
    await index({ remote: "github", repository: "acme/branches", branch: "stable", reload: true });
    found = await search("shipping_rate", [ref]);
    expect((found.body as { branch: string }[]).map((r) => r.branch)).toEqual(["main"]);

    const status = await mcp("get_repository_status", ref);
    expect(status.result?.structuredContent).toMatchObject({ repository: { branch: "main" } });
  });

  it("follows the host when its default branch changes", async () => {
    git(join(host.baseDir, "acme/branches.git"), "symbolic-ref", "HEAD", "refs/heads/stable");
    await index({ remote: "github", repository: "acme/branches", branch: "main", reload: true });
    const found = await search("shipping_rate", [{ remote: "github", repository: "acme/branches" }]);
    expect((found.body as { branch: string }[]).map((r) => r.branch)).toEqual(["stable"]);
  });
});

describe("GitLab nested groups", () => {
  it("indexes and searches group/sub/project", async () => {
    host.createRepo("group/sub/proj", { "lib/nested.rb": "def nested_group_marker\n  42\nend\n" });
    const done = await index({ remote: "gitlab", repository: "group/sub/proj", branch: "main" });
    expect(done).toMatchObject({ status: "completed", remote: "gitlab", repository: "group/sub/proj", id: "gitlab:main:group/sub/proj" });
    const found = await search("nested_group_marker", [{ remote: "gitlab", repository: "group/sub/proj" }]);
    expect(found.status).toBe(200);
    expect((found.body as { filepath: string }[]).map((r) => r.filepath)).toEqual(["lib/nested.rb"]);
    const viaTool = await mcp("index_repository", { remote: "gitlab", repository: "group/sub/proj", branch: "main" });
    expect(viaTool.result?.structuredContent).toMatchObject({ message: "Repository is up to date" });
  });

  it.each([
    [{ remote: "gitlab", repository: "group/sub.git/proj" }],
    [{ remote: "gitlab", repository: "group/-sub/proj" }],
    [{ remote: "gitlab", repository: "group/../proj" }],
    [{ remote: "github", repository: "group/sub/proj" }],
    [{ remote: "azure", repository: "org/proj.git/repo" }],
  ])("still refuses %j", async (json) => {
    const { status, body } = await submit({ ...json, branch: "main" });
    expect(status).toBe(400);
    expect(body.error?.message).toMatch(/^Invalid request: repository: /);
  });
});

describe("the pull request backfill with the host unreachable", () => {
  it("answers 502 host_unavailable", async () => {
    const res = await server.api("/v2/repositories/pull-requests/backfill", { method: "POST", json: { remote: "gitlab", repository: "group/sub/proj" } });
    expect(res.status).toBe(502);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("host_unavailable");
    expect(body.error.message).toMatch(/gitlab/i);
    expect(server.logs()).not.toMatch(/"level":(50|"error")/);
  });
});

describe("a local repository in GraphQL", () => {
  it("has the id the REST API gives it, and is found by either form", async () => {
    const dir = join(localRoot, "flask");
    mkdirSync(dir);
    git(dir, "init", "--quiet", "--initial-branch=main");
    git(dir, "-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "--quiet", "--allow-empty", "-m", "empty");
    const res = await server.api("/v2/repositories/local", { method: "POST", json: { path: dir } });
    expect(res.status).toBeLessThan(300);
    const { statusEndpoint } = (await res.json()) as { statusEndpoint: string };
    const status = await poll(statusEndpoint, (s) => s.status === "completed");
    expect(status.id).toMatch(/^local:main:flask-[0-9a-f]{8}$/);
    const internal = `github:main:local/${status.repository}`;

    const data = await gqlData<{ repositories: { repoId: string; remote: string; repository: string }[]; shown: { repoId: string } | null; stored: { repoId: string } | null }>(
      server,
      `query($shown: ID!, $stored: ID!) { repositories { repoId remote repository } shown: repository(repoId: $shown) { repoId } stored: repository(repoId: $stored) { repoId } }`,
      { shown: status.id, stored: internal },
    );
    expect(data.repositories).toContainEqual({ repoId: status.id, remote: "local", repository: status.repository });
    expect(data.shown).toEqual({ repoId: status.id });
    expect(data.stored).toEqual({ repoId: status.id });
  });
});

describe("private and failure reasons", () => {
  it("private is what the host says, not whether a token came with the request", async () => {
    host.createRepo("acme/public", { "a.py": "def a():\n    pass\n" });
    const withToken = await index({ remote: "github", repository: "acme/public", branch: "main" }, { "X-GitHub-Token": "ghp_not_needed_here_0123456789" });
    expect(withToken).toMatchObject({ status: "completed", private: false });
  });

  it("a failure reason names the repository, not the server's paths", async () => {
    const failed = await index({ remote: "github", repository: "acme/does-not-exist", branch: "main" });
    expect(failed.status).toBe("failed");
    expect(failed.failureReason).toContain("acme/does-not-exist");
    expect(failed.failureReason).not.toContain(host.baseDir);
    expect(failed.failureReason).not.toContain(server.dataDir);
    expect(server.logs()).toContain(host.baseDir); // the detail is in the server's log
  });
});
