/**
 * Host read permissions for search and query, per host adapter. The git data is served from a file://
 * base (no network), while LOUPE_FILE_HOSTS_NEED_TOKEN=true makes the service check read access for
 * those repositories through each host's REST API, here a local HTTP server answering in the host's
 * shapes (GitHub `permissions.pull`, GitLab project, Bitbucket repository, Azure DevOps repository).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IncomingHttpHeaders } from "node:http";
import { startTestServer, type TestServer } from "../support/server.ts";
import { createGitHostFixture, type GitHostFixture } from "../support/git-fixtures.ts";
import { startHostServer, json, type HostServer } from "../support/host-server.ts";
import { indexRepository } from "./support.ts";

const TOKEN_A = "tok-a-0123456789-secret";
const TOKEN_B = "tok-b-9876543210-secret";
/** token -> repositories (host names) it can read. */
const GRANTS: Record<string, string[]> = {
  [TOKEN_A]: ["acme/shop", "acme/proj/shop"],
  [TOKEN_B]: ["acme/shop", "acme/secret", "acme/proj/shop", "acme/proj/secret"],
};

function tokenOf(headers: IncomingHttpHeaders): string | null {
  const value = String(headers.authorization ?? headers["private-token"] ?? "");
  if (!value) return null;
  const m = /^(?:Bearer|token)\s+(.+)$/i.exec(value);
  if (m) return m[1]!;
  const basic = /^Basic\s+(.+)$/i.exec(value);
  if (basic) return Buffer.from(basic[1]!, "base64").toString("utf8").split(":").slice(1).join(":");
  return value;
}

const FILES = { "shop/pricing.py": 'def apply_discount(amount, coupon):\n    """Applies a coupon."""\n    return amount\n' };
const SECRET = { "secret/keys.py": 'def rotate_keys(vault):\n    """Rotates the vault keys."""\n    return vault\n' };

describe("host permissions for search and query (e2e, one local API server per host shape)", () => {
  let server: TestServer;
  let git: GitHostFixture;
  let api: HostServer;

  beforeAll(async () => {
    api = await startHostServer((req, res) => {
      const url = new URL(req.url, "http://x");
      const token = tokenOf(req.headers);
      const can = (repo: string) => token !== null && (GRANTS[token] ?? []).includes(repo);
      let m: RegExpExecArray | null;
      if ((m = /^\/github\/repos\/([^/]+)\/([^/]+)$/.exec(url.pathname))) {
        const repo = `${m[1]}/${m[2]}`;
        return can(repo) ? json(res, 200, { full_name: repo, private: true, permissions: { admin: false, push: false, pull: true } }) : json(res, 404, { message: "Not Found" });
      }
      if ((m = /^\/gitlab\/projects\/([^/]+)$/.exec(url.pathname))) {
        const repo = decodeURIComponent(m[1]!);
        return can(repo) ? json(res, 200, { id: 7, path_with_namespace: repo }) : json(res, 404, { message: "404 Project Not Found" });
      }
      if ((m = /^\/bitbucket\/repositories\/([^/]+)\/([^/]+)$/.exec(url.pathname))) {
        const repo = `${m[1]}/${m[2]}`;
        return can(repo) ? json(res, 200, { full_name: repo, is_private: true }) : json(res, 404, { type: "error", error: { message: "Repository not found" } });
      }
      if ((m = /^\/azure\/([^/]+)\/([^/]+)\/_apis\/git\/repositories\/([^/]+)$/.exec(url.pathname))) {
        const repo = `${m[1]}/${m[2]}/${m[3]}`;
        if (!token) return json(res, 203, { signIn: true });
        return can(repo) ? json(res, 200, { id: "5f1c", name: m[3] }) : json(res, 404, { message: "TF401019: repository does not exist" });
      }
      json(res, 500, { unexpected: req.url });
    });
    git = createGitHostFixture();
    git.createRepo("acme/shop", FILES);
    git.createRepo("acme/secret", SECRET);
    git.createRepo("acme/proj/_git/shop", FILES);
    git.createRepo("acme/proj/_git/secret", SECRET);
    server = await startTestServer({
      env: {
        LOUPE_GITHUB_URL: git.baseUrl,
        LOUPE_GITLAB_URL: git.baseUrl,
        LOUPE_BITBUCKET_URL: git.baseUrl,
        LOUPE_AZURE_URL: git.baseUrl,
        LOUPE_GITHUB_API_URL: `${api.base}/github`,
        LOUPE_GITLAB_API_URL: `${api.base}/gitlab`,
        LOUPE_BITBUCKET_API_URL: `${api.base}/bitbucket`,
        LOUPE_AZURE_API_URL: `${api.base}/azure`,
        LOUPE_FILE_HOSTS_NEED_TOKEN: "true",
      },
    });
    for (const remote of ["github", "gitlab", "bitbucket"]) {
      await indexRepository(server, { remote, repository: "acme/shop" });
      await indexRepository(server, { remote, repository: "acme/secret" });
    }
    await indexRepository(server, { remote: "azure", repository: "acme/proj/shop" });
    await indexRepository(server, { remote: "azure", repository: "acme/proj/secret" });
  }, 180_000);

  afterAll(async () => {
    await server?.stop({ remove: true });
    await api?.close();
    git?.cleanup();
  });

  const hosts = [
    { remote: "github", header: "X-GitHub-Token", shop: "acme/shop", secret: "acme/secret" },
    { remote: "gitlab", header: "X-GitLab-Token", shop: "acme/shop", secret: "acme/secret" },
    { remote: "bitbucket", header: "X-Bitbucket-Token", shop: "acme/shop", secret: "acme/secret" },
    { remote: "azure", header: "X-Azure-Token", shop: "acme/proj/shop", secret: "acme/proj/secret" },
  ];

  const search = (repositories: unknown[], headers: Record<string, string>) =>
    server.api("/v2/search", { method: "POST", json: { query: "rotate_keys apply_discount", repositories }, headers });

  for (const h of hosts) {
    describe(h.remote, () => {
      it("a token that can read A but not B gets A, and B exactly like a repository that does not exist", async () => {
        const shop = { remote: h.remote, repository: h.shop };
        const ok = await search([shop], { [h.header]: TOKEN_A });
        expect(ok.status).toBe(200);
        const results = (await ok.json()) as { repository: string; filepath: string }[];
        expect(results.map((r) => r.filepath)).toEqual(["shop/pricing.py"]);

        const denied = await search([{ remote: h.remote, repository: h.secret }], { [h.header]: TOKEN_A });
        const missing = await search([{ remote: h.remote, repository: h.secret.replace("secret", "nothing-here") }], { [h.header]: TOKEN_A });
        expect(denied.status).toBe(404);
        expect(missing.status).toBe(denied.status);
        const deniedBody = (await denied.json()) as { error: { code: string; message: string; details: unknown } };
        const missingBody = (await missing.json()) as { error: { code: string; message: string; details: unknown } };
        expect(missingBody.error.code).toBe(deniedBody.error.code);
        expect(missingBody.error.message.replace("nothing-here", "secret")).toBe(deniedBody.error.message);
        expect(JSON.stringify(missingBody.error.details).replace("nothing-here", "secret")).toBe(JSON.stringify(deniedBody.error.details));

        // Mixed: B is never referenced; the request fails as for an unknown repository.
        const mixed = await search([shop, { remote: h.remote, repository: h.secret }], { [h.header]: TOKEN_A });
        expect(mixed.status).toBe(404);
        const q = await server.api("/v2/query", { method: "POST", json: { messages: [{ role: "user", content: "rotate_keys" }], repositories: [{ remote: h.remote, repository: h.secret }] }, headers: { "X-Host-Token": TOKEN_A } });
        expect(q.status).toBe(404);

        // A token that can read B sees it; no token at all sees nothing private.
        const other = await search([{ remote: h.remote, repository: h.secret }], { "X-Host-Token": TOKEN_B });
        expect(other.status).toBe(200);
        expect(((await other.json()) as { filepath: string }[])[0]!.filepath).toBe("secret/keys.py");
        expect((await search([shop], {})).status).toBe(404);
      });
    });
  }

  it("marks repositories the host lets no one read without a token private, although none was submitted with one", async () => {
    const res = await server.api("/v2/repositories");
    const { repositories } = (await res.json()) as { repositories: { remote: string; repository: string; private: boolean }[] };
    expect(repositories).toHaveLength(8);
    for (const r of repositories) expect(r, `${r.remote}:${r.repository}`).toMatchObject({ private: true });
  });

  it("caches answers briefly by token hash; tokens never reach logs or events", async () => {
    const before = api.requests.length;
    for (let i = 0; i < 3; i++) expect((await search([{ remote: "github", repository: "acme/shop" }], { "X-GitHub-Token": TOKEN_A })).status).toBe(200);
    expect(api.requests.length).toBe(before); // answered from the cache of the earlier test
    expect(server.logs()).not.toContain(TOKEN_A);
    expect(server.logs()).not.toContain(TOKEN_B);
    const events = await server.loupe.services.eventStore.readAll({ fromPosition: 0, maxCount: 100_000 });
    const dump = JSON.stringify(events);
    expect(dump).toContain("QuerySessionSearched");
    expect(dump).not.toContain(TOKEN_A);
    expect(dump).not.toContain(TOKEN_B);
  });
});
