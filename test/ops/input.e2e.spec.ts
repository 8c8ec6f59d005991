/**
 * Input that never reaches the host: malformed repository references are 400s naming the field, and a
 * well-formed one this organisation never indexed is a 404, both without any call to the host's API
 * (one API base records its requests, another points at a closed port). GraphQL bad input answers
 * BAD_USER_INPUT naming the field and logs a warning without a stack. Only the bootstrap organisation
 * creates organisations. Repository names are matched without case and cloned as given (a file://
 * host is case-sensitive).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer } from "node:net";
import { startTestServer, type TestServer } from "../support/server.ts";
import { createGitHostFixture, type GitHostFixture } from "../support/git-fixtures.ts";
import { startHostServer, json, type HostServer } from "../support/host-server.ts";
import { gql } from "../graphql/support.ts";
import { indexRepository } from "../search/support.ts";

/** A port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const BAD_REFERENCES: { ref: Record<string, unknown>; field: string }[] = [
  { ref: { remote: "github", repository: "../../etc" }, field: "repositories.0.repository" },
  { ref: { remote: "github", repository: "acme/shop", branch: "--upload-pack=touch /tmp/pwned" }, field: "repositories.0.branch" },
  { ref: { remote: "file:///etc", repository: "acme/shop" }, field: "repositories.0.remote" },
  { ref: { remote: "github", repository: "-x/shop" }, field: "repositories.0.repository" },
  { ref: { remote: "github", repository: "acme/shop", branch: "a..b" }, field: "repositories.0.branch" },
];

describe("input that never reaches the host (e2e)", () => {
  let server: TestServer;
  let hostApi: HostServer;
  let git: GitHostFixture;

  beforeAll(async () => {
    hostApi = await startHostServer((_req, res) => json(res, 200, { permissions: { pull: true } }));
    git = createGitHostFixture();
    git.createRepo("Acme/Widgets", { "src/gears.py": 'def turn_gears(count):\n    """Turns the gears."""\n    return count * 2\n' });
    server = await startTestServer({
      env: {
        LOUPE_GITHUB_API_URL: `${hostApi.base}/github`,
        LOUPE_BITBUCKET_API_URL: `http://127.0.0.1:${await closedPort()}`,
        LOUPE_GITLAB_URL: git.baseUrl,
      },
    });
  });
  afterAll(async () => {
    await server?.stop({ remove: true });
    await hostApi?.close();
    git?.cleanup();
  });

  for (const path of ["/v2/search", "/v2/query"]) {
    const body = (ref: Record<string, unknown>) =>
      path === "/v2/search" ? { query: "gears", repositories: [ref] } : { messages: [{ role: "user", content: "gears?" }], repositories: [ref] };

    it.each(BAD_REFERENCES)(`${path}: a malformed reference is a 400 naming $field, and the host is not asked`, async ({ ref, field }) => {
      const before = hostApi.requests.length;
      const res = await server.api(path, { method: "POST", json: body(ref), headers: { "x-host-token": "tok-0123456789" } });
      expect(res.status).toBe(400);
      const error = ((await res.json()) as { error: { code: string; message: string; details: { field: string }[] } }).error;
      expect(error.details.map((d) => d.field)).toContain(field);
      expect(error.message).toContain(field);
      expect(hostApi.requests.length).toBe(before);
    });

    it(`${path}: a well-formed reference that is not indexed is a 404 without a host call (reachable or not)`, async () => {
      const before = hostApi.requests.length;
      for (const ref of [
        { remote: "github", repository: "acme/never-indexed" },
        { remote: "bitbucket", repository: "acme/never-indexed", branch: "main" },
      ]) {
        const res = await server.api(path, { method: "POST", json: body(ref), headers: { "x-host-token": "tok-0123456789" } });
        expect(res.status).toBe(404);
        const error = ((await res.json()) as { error: { code: string; message: string } }).error;
        expect(error.code).toBe("repository_not_found");
        expect(error.message).toContain("acme/never-indexed");
      }
      expect(hostApi.requests.length).toBe(before);
    });
  }

  it("GraphQL: bad names and variables of the wrong type are BAD_USER_INPUT naming the field, logged as a warning without a stack", async () => {
    const cases: { query: string; variables?: Record<string, unknown>; names: string }[] = [
      { query: 'mutation { submitRepository(remote: github, repository: "owner/repo", branch: "--upload-pack=x") { __typename } }', names: "branch" },
      { query: 'mutation { submitRepository(remote: github, repository: "../../etc") { __typename } }', names: "repository" },
      { query: "mutation ($i: String!) { submitRepository(remote: github, repository: $i) { __typename } }", variables: { i: [1] }, names: "$i" },
    ];
    for (const { query, variables, names } of cases) {
      const linesBefore = server.logs().split("\n").length;
      const result = await gql(server, query, variables);
      expect(result.errors?.length).toBe(1);
      const [error] = result.errors!;
      expect(error!.extensions?.code).toBe("BAD_USER_INPUT");
      expect(error!.message).toContain(names);
      const newLines = server.logs().split("\n").slice(linesBefore - 1).filter(Boolean).map((l) => JSON.parse(l) as { level: number; msg: string });
      const warnings = newLines.filter((l) => l.msg === "admin API: bad input");
      expect(warnings.length).toBe(1);
      expect(warnings[0]!.level).toBe(40);
      expect(newLines.some((l) => l.level >= 50)).toBe(false);
      expect(JSON.stringify(newLines)).not.toMatch(/stack|node_modules|\/src\//);
    }
    expect(hostApi.requests.length).toBe(0);
  });

  it("only the bootstrap organisation creates organisations (HTTP 403 and GraphQL FORBIDDEN for another's admin key)", async () => {
    const created = await server.api("/v2/organisations", { method: "POST", json: { name: "team-b" } });
    expect(created.status).toBe(201);
    const otherAdmin = ((await created.json()) as { adminKey: { key: string } }).adminKey.key;

    const refused = await server.api("/v2/organisations", { method: "POST", json: { name: "team-c" }, key: otherAdmin });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("forbidden");
    const viaGraphql = await gql(server, 'mutation { createOrganisation(name: "team-d") { organisation { orgId } } }', undefined, otherAdmin);
    expect(viaGraphql.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");

    const names = () => server.loupe.services.keys.organisations().map((o) => o.name);
    expect(names()).not.toContain("team-c");
    expect(names()).not.toContain("team-d");
    const again = await gql(server, 'mutation { createOrganisation(name: "team-e") { organisation { name } } }');
    expect(again.data?.createOrganisation.organisation.name).toBe("team-e");
  });

  it("names are cloned as given and matched without case (a case-sensitive file:// host)", async () => {
    await indexRepository(server, { remote: "gitlab", repository: "Acme/Widgets", branch: "main" });
    const status = (await (await server.api(`/v2/repositories/${encodeURIComponent("gitlab:main:acme/widgets")}`)).json()) as { repository: string; status: string };
    expect(status).toMatchObject({ repository: "Acme/Widgets", status: "completed" });

    const search = await server.api("/v2/search", { method: "POST", json: { query: "turn gears", repositories: [{ remote: "gitlab", repository: "ACME/widgets" }] } });
    expect(search.status).toBe(200);
    const results = (await search.json()) as { repository: string; filepath: string }[];
    expect(results[0]).toMatchObject({ repository: "Acme/Widgets", filepath: "src/gears.py" });

    // The host is case-sensitive: the lower-cased name does not exist there, and the failure says so.
    const wrongCase = await server.api("/v2/repositories", { method: "POST", json: { remote: "gitlab", repository: "acme/widgets", branch: "main", reload: true } });
    expect(wrongCase.status).toBeLessThan(300);
    const deadline = Date.now() + 30_000;
    let after: { repository: string; status: string; failureReason: string | null };
    do {
      await new Promise((r) => setTimeout(r, 100));
      after = (await (await server.api(`/v2/repositories/${encodeURIComponent("gitlab:main:acme/widgets")}`)).json()) as typeof after;
    } while (after.status !== "failed" && after.status !== "completed" && Date.now() < deadline);
    expect(after.repository).toBe("acme/widgets");
    expect(after.status).toBe("failed");
    expect(after.failureReason).toContain("Repository not found on the host, or not readable with the token given (check the name, its case");
    expect(after.failureReason).not.toContain("and the repository exists");
  });
});
