/**
 * `private` when the host's anonymous check cannot answer. The git data is served from a file:// base
 * while LOUPE_FILE_HOSTS_NEED_TOKEN=true makes the service ask GitHub's REST API (here a local HTTP
 * server in GitHub's shapes) whether anyone may read the repository without a token. A rate-limited
 * answer (403 with `x-ratelimit-remaining: 0`, a secondary limit's 403 with `retry-after` or its
 * message, a 429) or a failing one says nothing about the repository: the record keeps what the host
 * said before, and the server logs why.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerResponse } from "node:http";
import { startTestServer, type TestServer } from "../support/server.ts";
import { createGitHostFixture, type GitHostFixture } from "../support/git-fixtures.ts";
import { json, startHostServer, type HostServer } from "../support/host-server.ts";
import { indexRepository } from "../search/support.ts";

type Mode = "answer" | "primary-limit" | "secondary-limit" | "secondary-message" | "too-many" | "failing";
let mode: Mode = "answer";
const PUBLIC = new Set(["acme/open"]);

/** GitHub's answers to an anonymous `GET /repos/{o}/{r}` in each mode. */
function answer(res: ServerResponse, repo: string) {
  const reset = String(Math.floor(Date.now() / 1000) + 3600);
  switch (mode) {
    case "answer":
      return PUBLIC.has(repo) ? json(res, 200, { full_name: repo, private: false }) : json(res, 404, { message: "Not Found" });
    case "primary-limit":
      return json(res, 403, { message: "API rate limit exceeded for 127.0.0.1." }, { "x-ratelimit-limit": "60", "x-ratelimit-remaining": "0", "x-ratelimit-reset": reset });
    case "secondary-limit":
      return json(res, 403, { message: "You have exceeded a secondary rate limit." }, { "retry-after": "60" });
    case "secondary-message":
      return json(res, 403, { message: "You have exceeded a secondary rate limit. Please wait a few minutes before you try again." });
    case "too-many":
      return json(res, 429, { message: "Too Many Requests" }, { "retry-after": "60" });
    case "failing":
      return json(res, 500, { message: "Server Error" });
  }
}

let server: TestServer;
let git: GitHostFixture;
let api: HostServer;

const recordOf = async (repository: string) => {
  const res = await server.api(`/v2/repositories/${encodeURIComponent(`github:main:${repository}`)}`);
  expect(res.status).toBe(200);
  return (await res.json()) as { private: boolean; status: string };
};
const reindex = (repository: string) => {
  const ref = { remote: "github", repository, branch: "main", reload: true };
  return indexRepository(server, ref);
};

beforeAll(async () => {
  api = await startHostServer((req, res) => {
    const m = /^\/repos\/([^/]+)\/([^/]+)$/.exec(new URL(req.url, "http://x").pathname);
    if (!m) return json(res, 404, { message: "Not Found" });
    answer(res, `${m[1]}/${m[2]}`);
  });
  git = createGitHostFixture();
  for (const name of ["acme/open", "acme/closed", "acme/fresh"]) git.createRepo(name, { "app.py": "def run():\n    return 1\n" });
  server = await startTestServer({ env: { LOUPE_GITHUB_URL: git.baseUrl, LOUPE_GITHUB_API_URL: api.base, LOUPE_FILE_HOSTS_NEED_TOKEN: "true" } });
  mode = "answer";
  await indexRepository(server, { remote: "github", repository: "acme/open", branch: "main" });
  await indexRepository(server, { remote: "github", repository: "acme/closed", branch: "main" });
}, 120_000);

afterAll(async () => {
  await server?.stop({ remove: true });
  await api?.close();
  git?.cleanup();
});

describe("private when GitHub's anonymous check is rate limited or failing", () => {
  it("is what the host said while it answers", async () => {
    expect(await recordOf("acme/open")).toMatchObject({ status: "completed", private: false });
    expect(await recordOf("acme/closed")).toMatchObject({ status: "completed", private: true });
  });

  for (const limited of ["primary-limit", "secondary-limit", "secondary-message", "too-many", "failing"] as const) {
    it(`keeps the previous value on a re-index answered ${limited}, and logs why`, async () => {
      mode = limited;
      try {
        const asked = api.requests.length;
        await reindex("acme/open");
        await reindex("acme/closed");
        expect(api.requests.length).toBeGreaterThan(asked); // the host was asked, and could not tell
        expect(await recordOf("acme/open")).toMatchObject({ status: "completed", private: false });
        expect(await recordOf("acme/closed")).toMatchObject({ status: "completed", private: true });
      } finally {
        mode = "answer";
      }
      const logged = server
        .logs()
        .split("\n")
        .filter((l) => l.includes("repository visibility not told by the host") && l.includes("acme/open"));
      expect(logged.length).toBeGreaterThan(0);
      expect(logged.at(-1)).toContain(limited === "failing" ? "HTTP 500" : limited === "too-many" ? "HTTP 429" : "rate limited (HTTP 403)");
    });
  }

  it("a first submission that cannot be told is not private (the field's default) until the host answers", async () => {
    mode = "primary-limit";
    try {
      await indexRepository(server, { remote: "github", repository: "acme/fresh", branch: "main" });
    } finally {
      mode = "answer";
    }
    expect(await recordOf("acme/fresh")).toMatchObject({ status: "completed", private: false });
    await reindex("acme/fresh");
    expect(await recordOf("acme/fresh")).toMatchObject({ status: "completed", private: true });
  });

  it("a rate-limited read check makes a search wait, not a repository that does not exist", async () => {
    mode = "primary-limit";
    try {
      const res = await server.api("/v2/search", { method: "POST", json: { query: "run", repositories: [{ remote: "github", repository: "acme/open", branch: "main" }] } });
      const body = await res.text();
      expect(res.status, body).not.toBe(404);
      expect(body).toContain("Could not verify read access with github");
    } finally {
      mode = "answer";
    }
  });
});
