/**
 * REST calls of the four host adapters against a local HTTP server answering in each host's shapes
 * (a protocol stand-in: the shapes follow the hosts' API references, not a live host).
 */
import { execFile } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import {
  createAzureHost,
  createBitbucketHost,
  createGitHubHost,
  createGitLabHost,
  HostError,
} from "../../src/hosts/index.ts";
import { json, startHostServer, type HostServer, type Route } from "../support/host-server.ts";

const TOKEN = "ghp_SuperSecretToken123";

let servers: HostServer[] = [];
async function serve(route: Route): Promise<HostServer> {
  const s = await startHostServer(route);
  servers.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

/** Awaits a rejection and checks it is a HostError that does not carry the token. */
async function hostError(promise: Promise<unknown>, token = TOKEN): Promise<HostError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(HostError);
  const e = err as HostError;
  expect(`${e.message} ${e.stack ?? ""} ${JSON.stringify(e)}`).not.toContain(token);
  return e;
}

const ghPr = (n: number, extra: Record<string, unknown> = {}) => ({
  number: n,
  title: `PR ${n}`,
  body: null,
  state: "open",
  draft: false,
  merged_at: null,
  user: { login: "octocat" },
  head: { ref: `feature-${n}`, sha: `head${n}` },
  base: { ref: "main", sha: `base${n}` },
  labels: [{ name: "bug" }],
  created_at: "2024-01-01T00:00:00Z",
  updated_at: "2024-01-02T00:00:00Z",
  html_url: `https://github.com/o/r/pull/${n}`,
  ...extra,
});

describe("GitHub REST", () => {
  it("lists pull requests across Link-header pages with the token as Bearer", async () => {
    const s = await serve((req, res, base) => {
      if (req.url.includes("page=2")) return json(res, 200, [ghPr(1, { state: "closed", merged_at: "2024-01-03T00:00:00Z" })]);
      json(res, 200, [ghPr(3), ghPr(2, { draft: true })], {
        Link: `<${base}/repos/o/r/pulls?state=all&per_page=100&page=2>; rel="next", <${base}/repos/o/r/pulls?state=all&per_page=100&page=2>; rel="last"`,
      });
    });
    const prs = await createGitHubHost({ apiBase: s.base }).listPullRequests("o/r", TOKEN, { state: "all" });
    expect(prs.map((p) => [p.number, p.state, p.merged, p.isDraft])).toEqual([
      [3, "open", false, false],
      [2, "open", false, true],
      [1, "closed", true, false],
    ]);
    expect(prs[0]).toMatchObject({ authorLogin: "octocat", sourceBranch: "feature-3", targetBranch: "main", headSha: "head3", baseSha: "base3", labels: ["bug"], description: "" });
    expect(s.requests.map((r) => r.url)).toEqual([
      "/repos/o/r/pulls?state=all&per_page=100&sort=created&direction=desc",
      "/repos/o/r/pulls?state=all&per_page=100&page=2",
    ]);
    for (const r of s.requests) {
      expect(r.headers["authorization"]).toBe(`Bearer ${TOKEN}`);
      expect(r.headers["accept"]).toBe("application/vnd.github+json");
      expect(r.headers["user-agent"]).toBe("loupe");
    }
  });

  it("stops at the limit and sends no Authorization header without a token", async () => {
    const s = await serve((_req, res, base) =>
      json(res, 200, [ghPr(5), ghPr(4)], { Link: `<${base}/repos/o/r/pulls?page=2>; rel="next"` }),
    );
    const prs = await createGitHubHost({ apiBase: s.base }).listPullRequests("o/r", undefined, { state: "open", limit: 1 });
    expect(prs.map((p) => p.number)).toEqual([5]);
    expect(s.requests).toHaveLength(1);
    expect(s.requests[0]!.url).toContain("state=open");
    expect(s.requests[0]!.headers["authorization"]).toBeUndefined();
  });

  it("uses an Enterprise base path (/api/v3)", async () => {
    const s = await serve((_req, res) => json(res, 200, { private: true, permissions: { pull: true } }));
    expect(await createGitHubHost({ apiBase: `${s.base}/api/v3/` }).checkReadAccess("o/r", TOKEN)).toBe(true);
    expect(s.requests[0]!.url).toBe("/api/v3/repos/o/r");
  });

  it("refuses to follow a next link or a redirect to another origin", async () => {
    const other = await serve((_req, res) => json(res, 200, []));
    const s = await serve((req, res) => {
      if (req.method === "GET") {
        return json(res, 200, [ghPr(1)], { Link: `<${other.base.replace("127.0.0.1", "localhost")}/steal>; rel="next"` });
      }
      res.writeHead(302, { Location: `${other.base.replace("127.0.0.1", "localhost")}/repos/o/r` });
      res.end();
    });
    const gh = createGitHubHost({ apiBase: s.base });
    const e1 = await hostError(gh.listPullRequests("o/r", TOKEN, { state: "all" }));
    expect(e1.message).toContain("not the configured API origin");
    const e2 = await hostError(gh.postReview("o/r", 1, TOKEN, { summary: "s", inline: [], commitSha: "abc" }));
    expect(e2.message).toContain("redirected off the API origin");
    expect(other.requests).toHaveLength(0);
  });

  it("follows a same-origin redirect (renamed repository)", async () => {
    const s = await serve((req, res) => {
      if (req.url === "/repos/o/old") {
        res.writeHead(301, { Location: "/repositories/42" });
        return res.end();
      }
      json(res, 200, { private: true, permissions: { pull: true } });
    });
    expect(await createGitHubHost({ apiBase: s.base }).checkReadAccess("o/old", TOKEN)).toBe(true);
    expect(s.requests.map((r) => [r.url, r.headers["authorization"]])).toEqual([
      ["/repos/o/old", `Bearer ${TOKEN}`],
      ["/repositories/42", `Bearer ${TOKEN}`],
    ]);
  });

  it("checkReadAccess: permissions.pull decides; 401/403/404 are false; other errors throw without the token", async () => {
    const answers: Record<string, [number, unknown]> = {
      "/repos/o/can": [200, { private: true, permissions: { admin: false, push: false, pull: true } }],
      "/repos/o/cannot": [200, { private: true, permissions: { pull: false } }],
      "/repos/o/public": [200, { private: false }],
      "/repos/o/secret": [200, { private: true }],
      "/repos/o/missing": [404, { message: "Not Found" }],
      "/repos/o/unauth": [401, { message: "Bad credentials" }],
      "/repos/o/forbidden": [403, { message: "Resource not accessible" }],
      "/repos/o/broken": [502, { message: `upstream echoed ${TOKEN}` }],
    };
    const s = await serve((req, res) => {
      const [status, body] = answers[req.url] ?? [500, {}];
      json(res, status, body);
    });
    const gh = createGitHubHost({ apiBase: s.base, retryDelayMs: 5 });
    expect(await gh.checkReadAccess("o/can", TOKEN)).toBe(true);
    expect(await gh.checkReadAccess("o/cannot", TOKEN)).toBe(false);
    expect(await gh.checkReadAccess("o/public", undefined)).toBe(true);
    expect(await gh.checkReadAccess("o/secret", undefined)).toBe(false);
    expect(await gh.checkReadAccess("o/missing", TOKEN)).toBe(false);
    expect(await gh.checkReadAccess("o/unauth", TOKEN)).toBe(false);
    expect(await gh.checkReadAccess("o/forbidden", TOKEN)).toBe(false);
    const err = await hostError(gh.checkReadAccess("o/broken", TOKEN));
    expect(err.status).toBe(502);
    expect(err.message).toBe("github checkReadAccess: GET /repos/o/broken failed with HTTP 502");
    expect(s.requests.filter((r) => r.url === "/repos/o/broken")).toHaveLength(3); // tried twice more first
  });

  it("checkReadAccess: a rate limit is no answer about the repository; it throws, a plain 403 is still false", async () => {
    const limits: Record<string, [number, unknown, Record<string, string>]> = {
      "/repos/o/primary": [403, { message: "API rate limit exceeded for 127.0.0.1." }, { "x-ratelimit-remaining": "0", "x-ratelimit-reset": "1900000000" }],
      "/repos/o/secondary": [403, { message: "You have exceeded a secondary rate limit." }, { "retry-after": "60" }],
      "/repos/o/secondary-message": [403, { message: "You have exceeded a secondary rate limit. Please wait a few minutes before you try again." }, {}],
      "/repos/o/too-many": [429, { message: "Too Many Requests" }, { "retry-after": "60" }],
      "/repos/o/blocked": [403, { message: "Repository access blocked" }, { "x-ratelimit-remaining": "59" }],
    };
    const s = await serve((req, res) => {
      const [status, body, headers] = limits[req.url] ?? [500, {}, {}];
      json(res, status, body, headers);
    });
    const gh = createGitHubHost({ apiBase: s.base, retryDelayMs: 5 });
    for (const repo of ["o/primary", "o/secondary", "o/secondary-message"]) {
      for (const token of [undefined, TOKEN]) {
        const err = await hostError(gh.checkReadAccess(repo, token));
        expect(err.status).toBe(403);
        expect(err.message).toBe(`github checkReadAccess: GET /repos/${repo} rate limited (HTTP 403)`);
      }
    }
    expect((await hostError(gh.checkReadAccess("o/too-many", undefined))).status).toBe(429);
    expect(await gh.checkReadAccess("o/blocked", undefined)).toBe(false);
  });

  it("tries a GET again after 502/503/504/429 (waiting as Retry-After asks) but never re-sends a POST the host may have done", async () => {
    let gets = 0;
    const s = await serve((req, res) => {
      if (req.method === "GET") {
        gets++;
        if (gets === 1) return json(res, 503, { message: "unavailable" });
        if (gets === 2) return json(res, 429, { message: "slow down" }, { "Retry-After": "1" });
        return json(res, 200, { private: true, permissions: { pull: true } });
      }
      json(res, 502, { message: "bad gateway" });
    });
    const gh = createGitHubHost({ apiBase: s.base, retryDelayMs: 5 });
    const started = Date.now();
    expect(await gh.checkReadAccess("o/r", TOKEN)).toBe(true);
    expect(gets).toBe(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950); // the 429's Retry-After: 1 second

    const err = await hostError(gh.postReview("o/r", 7, TOKEN, { summary: "x", commitSha: "abc", inline: [] }));
    expect(err.status).toBe(502);
    expect(s.requests.filter((r) => r.method === "POST")).toHaveLength(1);
  });

  it("re-sends a POST refused with 429, and gives up at once when Retry-After asks for longer than 10 s", async () => {
    let posts = 0;
    const s = await serve((req, res) => {
      if (req.method === "POST") {
        posts++;
        if (posts === 1) return json(res, 429, { message: "secondary rate limit" }, { "Retry-After": "0" });
        return json(res, 200, { id: 81, state: "COMMENTED" });
      }
      if (req.url.startsWith("/repos/o/limited")) return json(res, 429, { message: "rate limited" }, { "Retry-After": "3600" });
      json(res, 200, []);
    });
    const gh = createGitHubHost({ apiBase: s.base, retryDelayMs: 5 });
    const result = await gh.postReview("o/r", 7, TOKEN, { summary: "x", commitSha: "abc", inline: [] });
    expect(result.summaryCommentId).toBe("81");
    expect(posts).toBe(2);
    const started = Date.now();
    const err = await hostError(gh.checkReadAccess("o/limited", TOKEN));
    expect(err.status).toBe(429);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(s.requests.filter((r) => r.url.startsWith("/repos/o/limited"))).toHaveLength(1);
  });

  it("rejects malformed repository names before any request", async () => {
    const s = await serve((_req, res) => json(res, 200, {}));
    const gh = createGitHubHost({ apiBase: s.base });
    for (const bad of ["o", "o/r/x", "../r", "o/..", "o/r?x=1", ""]) {
      await hostError(gh.checkReadAccess(bad, TOKEN));
    }
    expect(s.requests).toHaveLength(0);
  });

  it("postReview posts one review with inline comments and returns their ids in request order", async () => {
    const s = await serve((req, res) => {
      if (req.method === "POST") return json(res, 200, { id: 80, state: "COMMENTED" });
      // Comments come back in another order than they were sent.
      json(res, 200, [
        { id: 1002, path: "src/b.ts", line: 20, body: "second" },
        { id: 1001, path: "src/a.ts", line: 10, body: "first" },
      ]);
    });
    const result = await createGitHubHost({ apiBase: s.base }).postReview("o/r", 7, TOKEN, {
      summary: "Looks fine overall.",
      commitSha: "abc123",
      inline: [
        { path: "src/a.ts", line: 10, body: "first" },
        { path: "src/b.ts", line: 20, startLine: 18, body: "second" },
      ],
    });
    expect(result).toEqual({ summaryCommentId: "80", inlineCommentIds: ["1001", "1002"] });
    expect(s.requests[0]).toMatchObject({ method: "POST", url: "/repos/o/r/pulls/7/reviews" });
    expect(s.requests[0]!.headers["content-type"]).toBe("application/json");
    expect(s.requests[0]!.body).toEqual({
      commit_id: "abc123",
      body: "Looks fine overall.",
      event: "COMMENT",
      comments: [
        { path: "src/a.ts", line: 10, side: "RIGHT", body: "first" },
        { path: "src/b.ts", line: 20, side: "RIGHT", start_line: 18, start_side: "RIGHT", body: "second" },
      ],
    });
    expect(s.requests[1]).toMatchObject({ method: "GET", url: "/repos/o/r/pulls/7/reviews/80/comments?per_page=100" });
  });

  it("postReview surfaces a 422 as a HostError without the token", async () => {
    const s = await serve((_req, res) => json(res, 422, { message: "Line could not be resolved" }));
    const err = await hostError(
      createGitHubHost({ apiBase: s.base }).postReview("o/r", 7, TOKEN, {
        summary: "x",
        commitSha: "abc",
        inline: [{ path: "a", line: 1, body: "b" }],
      }),
    );
    expect(err.status).toBe(422);
  });
});

describe("GitLab REST", () => {
  const mr = (iid: number, extra: Record<string, unknown> = {}) => ({
    iid,
    title: `MR ${iid}`,
    description: "desc",
    state: "opened",
    draft: false,
    author: { username: "jdoe" },
    source_branch: `feat-${iid}`,
    target_branch: "main",
    sha: `sha${iid}`,
    diff_refs: { base_sha: `base${iid}`, head_sha: `sha${iid}`, start_sha: `start${iid}` },
    labels: ["backend"],
    created_at: "2024-02-01T10:00:00.000Z",
    updated_at: "2024-02-02T10:00:00.000Z",
    web_url: `https://gitlab.example.com/g/s/p/-/merge_requests/${iid}`,
    ...extra,
  });

  it("lists merge requests across x-next-page pages, URL-encoding the project path", async () => {
    const s = await serve((req, res) => {
      if (req.url.endsWith("page=1")) return json(res, 200, [mr(3), mr(2, { state: "merged" })], { "x-next-page": "2" });
      json(res, 200, [mr(1, { state: "closed", draft: true })], { "x-next-page": "" });
    });
    const prs = await createGitLabHost({ apiBase: `${s.base}/api/v4` }).listPullRequests("g/s/p", TOKEN, { state: "all" });
    expect(prs.map((p) => [p.number, p.state, p.merged, p.isDraft])).toEqual([
      [3, "open", false, false],
      [2, "closed", true, false],
      [1, "closed", false, true],
    ]);
    expect(prs[0]).toMatchObject({ authorLogin: "jdoe", headSha: "sha3", baseSha: "base3", labels: ["backend"], sourceBranch: "feat-3" });
    expect(s.requests.map((r) => r.url)).toEqual([
      "/api/v4/projects/g%2Fs%2Fp/merge_requests?state=all&per_page=100&order_by=created_at&sort=desc&page=1",
      "/api/v4/projects/g%2Fs%2Fp/merge_requests?state=all&per_page=100&order_by=created_at&sort=desc&page=2",
    ]);
    expect(s.requests.every((r) => r.headers["authorization"] === `Bearer ${TOKEN}`)).toBe(true);
  });

  it("maps state open to GitLab's opened", async () => {
    const s = await serve((_req, res) => json(res, 200, []));
    await createGitLabHost({ apiBase: s.base }).listPullRequests("g/p", TOKEN, { state: "open" });
    expect(s.requests[0]!.url).toContain("state=opened");
  });

  it("checkReadAccess: 200 true, 404/401/403 false, 500 throws", async () => {
    const s = await serve((req, res) => {
      const status = req.url.endsWith("g%2Fok") ? 200 : req.url.endsWith("g%2Fno") ? 404 : req.url.endsWith("g%2Fauth") ? 401 : req.url.endsWith("g%2Fforbid") ? 403 : 500;
      json(res, status, { id: 1 });
    });
    const gl = createGitLabHost({ apiBase: s.base });
    expect(await gl.checkReadAccess("g/ok", TOKEN)).toBe(true);
    expect(await gl.checkReadAccess("g/no", TOKEN)).toBe(false);
    expect(await gl.checkReadAccess("g/auth", TOKEN)).toBe(false);
    expect(await gl.checkReadAccess("g/forbid", TOKEN)).toBe(false);
    expect((await hostError(gl.checkReadAccess("g/err", TOKEN))).status).toBe(500);
    expect(s.requests[0]!.url).toBe("/projects/g%2Fok");
  });

  it("postReview posts one positioned discussion per inline comment, then the summary note", async () => {
    let discussion = 0;
    const s = await serve((req, res) => {
      if (req.method === "GET" && req.url.includes("/discussions")) return json(res, 200, []);
      if (req.method === "GET") return json(res, 200, mr(9));
      if (req.url.endsWith("/notes")) return json(res, 201, { id: 3001, body: "summary" });
      discussion++;
      json(res, 201, { id: `d${discussion}`, notes: [{ id: 4000 + discussion }] });
    });
    const result = await createGitLabHost({ apiBase: s.base }).postReview("g/p", 9, TOKEN, {
      summary: "summary",
      commitSha: "sha9",
      inline: [
        { path: "lib/a.rb", line: 5, body: "one" },
        { path: "lib/b.rb", line: 8, startLine: 6, body: "two" },
      ],
    });
    expect(result).toEqual({ summaryCommentId: "3001", inlineCommentIds: ["4001", "4002"] });
    expect(s.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      "GET /projects/g%2Fp/merge_requests/9",
      "GET /projects/g%2Fp/merge_requests/9/discussions?per_page=100&page=1",
      "POST /projects/g%2Fp/merge_requests/9/discussions",
      "POST /projects/g%2Fp/merge_requests/9/discussions",
      "POST /projects/g%2Fp/merge_requests/9/notes",
    ]);
    expect(s.requests[4]!.body).toEqual({ body: "summary" });
    expect(s.requests[2]!.body).toEqual({
      body: "one",
      commit_id: "sha9",
      position: {
        position_type: "text",
        base_sha: "base9",
        start_sha: "start9",
        head_sha: "sha9",
        old_path: "lib/a.rb",
        new_path: "lib/a.rb",
        new_line: 5,
      },
    });
    expect((s.requests[3]!.body as { position: { new_line: number } }).position.new_line).toBe(8);
  });
});

describe("Bitbucket REST", () => {
  const bbPr = (id: number, state = "OPEN") => ({
    id,
    title: `PR ${id}`,
    description: "d",
    state,
    draft: false,
    author: { display_name: "Emma", nickname: "emma" },
    source: { branch: { name: `f-${id}` }, commit: { hash: `aaaa${id}` } },
    destination: { branch: { name: "main" }, commit: { hash: `bbbb${id}` } },
    created_on: "2024-03-01T00:00:00+00:00",
    updated_on: "2024-03-02T00:00:00+00:00",
    links: { html: { href: `https://bitbucket.org/w/r/pull-requests/${id}` } },
  });

  it("lists pull requests following `next` URLs; Bearer for access tokens", async () => {
    const s = await serve((req, res, base) => {
      if (req.url.includes("page=2")) return json(res, 200, { values: [bbPr(1, "MERGED")], page: 2, pagelen: 50 });
      json(res, 200, { values: [bbPr(3), bbPr(2, "DECLINED")], page: 1, pagelen: 50, next: `${base}/repositories/w/r/pullrequests?page=2` });
    });
    const prs = await createBitbucketHost({ apiBase: s.base }).listPullRequests("w/r", TOKEN, { state: "all" });
    expect(prs.map((p) => [p.number, p.state, p.merged])).toEqual([
      [3, "open", false],
      [2, "closed", false],
      [1, "closed", true],
    ]);
    expect(prs[0]).toMatchObject({ authorLogin: "emma", sourceBranch: "f-3", targetBranch: "main", headSha: "aaaa3", baseSha: "bbbb3" });
    expect(s.requests[0]!.url).toBe("/repositories/w/r/pullrequests?state=OPEN&state=MERGED&state=DECLINED&state=SUPERSEDED&pagelen=50");
    expect(s.requests[1]!.url).toBe("/repositories/w/r/pullrequests?page=2");
    expect(s.requests.every((r) => r.headers["authorization"] === `Bearer ${TOKEN}`)).toBe(true);
  });

  it("sends user:app_password tokens as Basic auth", async () => {
    const s = await serve((_req, res) => json(res, 200, { values: [] }));
    await createBitbucketHost({ apiBase: s.base }).listPullRequests("w/r", "emma:app-pass", { state: "open" });
    expect(s.requests[0]!.url).toBe("/repositories/w/r/pullrequests?state=OPEN&pagelen=50");
    expect(s.requests[0]!.headers["authorization"]).toBe(`Basic ${Buffer.from("emma:app-pass").toString("base64")}`);
  });

  it("checkReadAccess: 200 true, 403/404 false", async () => {
    const s = await serve((req, res) => json(res, req.url.endsWith("/ok") ? 200 : req.url.endsWith("/hidden") ? 404 : 403, {}));
    const bb = createBitbucketHost({ apiBase: s.base });
    expect(await bb.checkReadAccess("w/ok", TOKEN)).toBe(true);
    expect(await bb.checkReadAccess("w/hidden", TOKEN)).toBe(false);
    expect(await bb.checkReadAccess("w/other", TOKEN)).toBe(false);
    expect(s.requests[0]!.url).toBe("/repositories/w/ok");
  });

  it("postReview posts inline comments with {path, to}, then the summary; findPostedReview finds them by the marker", async () => {
    let next = 700;
    const posted: { id: number; content: { raw: string }; inline?: { path: string; to: number } }[] = [];
    const s = await serve((req, res, base) => {
      if (req.method === "POST") {
        const body = req.body as { content: { raw: string }; inline?: { path: string; to: number } };
        posted.push({ id: ++next, ...body });
        return json(res, 201, { id: next });
      }
      // Listing: two pages, a deleted comment left out.
      if (req.url.includes("page=2")) return json(res, 200, { values: posted.slice(1) });
      json(res, 200, { values: [...posted.slice(0, 1), { id: 1, deleted: true, content: { raw: "a" }, inline: { path: "x.py", to: 3 } }], next: `${base}${req.url.split("?")[0]}?pagelen=100&page=2` });
    });
    const bb = createBitbucketHost({ apiBase: s.base });
    const review = {
      summary: "sum <!-- loupe-review:r1 -->",
      commitSha: "abc",
      inline: [
        { path: "x.py", line: 3, body: "a" },
        { path: "y.py", line: 9, startLine: 7, body: "b" },
      ],
    };
    expect(await bb.findPostedReview!("w/r", 4, TOKEN, review, "loupe-review:r1")).toBeNull();
    const result = await bb.postReview("w/r", 4, TOKEN, review);
    expect(result).toEqual({ summaryCommentId: "703", inlineCommentIds: ["701", "702"] });
    const posts = s.requests.filter((r) => r.method === "POST");
    expect(posts.every((r) => r.url === "/repositories/w/r/pullrequests/4/comments")).toBe(true);
    expect(posts.map((r) => r.body)).toEqual([
      { content: { raw: "a" }, inline: { path: "x.py", to: 3 } },
      { content: { raw: "b" }, inline: { path: "y.py", to: 9, start_to: 7 } },
      { content: { raw: "sum <!-- loupe-review:r1 -->" } },
    ]);
    expect(await bb.findPostedReview!("w/r", 4, TOKEN, review, "loupe-review:r1")).toEqual(result);
  });

  it("postReview after an attempt cut short reuses the inline comments already there and posts the rest", async () => {
    let next = 800;
    const s = await serve((req, res) => {
      if (req.method === "POST") return json(res, 201, { id: ++next });
      json(res, 200, { values: [{ id: 42, content: { raw: "a" }, inline: { path: "x.py", to: 3 } }] });
    });
    const result = await createBitbucketHost({ apiBase: s.base }).postReview("w/r", 4, TOKEN, {
      summary: "sum",
      commitSha: "abc",
      inline: [
        { path: "x.py", line: 3, body: "a" },
        { path: "x.py", line: 3, body: "a" }, // the same comment twice: the second is posted
      ],
    });
    expect(result).toEqual({ summaryCommentId: "802", inlineCommentIds: ["42", "801"] });
    expect(s.requests.filter((r) => r.method === "POST")).toHaveLength(2);
  });

});

describe("Azure DevOps REST", () => {
  const azPr = (id: number, status = "active") => ({
    pullRequestId: id,
    title: `PR ${id}`,
    description: "d",
    status,
    isDraft: id % 2 === 0,
    createdBy: { displayName: "Jamal", uniqueName: "jamal@example.com" },
    creationDate: "2024-04-01T00:00:00Z",
    sourceRefName: `refs/heads/topic-${id}`,
    targetRefName: "refs/heads/main",
    lastMergeSourceCommit: { commitId: `src${id}` },
    lastMergeTargetCommit: { commitId: `tgt${id}` },
    labels: [{ name: "infra", active: true }, { name: "old", active: false }],
  });
  const basicPat = `Basic ${Buffer.from(`:${TOKEN}`).toString("base64")}`;

  it("lists pull requests with $top/$skip pages; a PAT goes as Basic with an empty user", async () => {
    const s = await serve((req, res) => {
      const skip = Number(/\$skip=(\d+)/.exec(req.url)?.[1] ?? 0);
      const count = skip === 0 ? 100 : 1;
      json(res, 200, { value: Array.from({ length: count }, (_, i) => azPr(skip + i + 1, skip === 0 ? "active" : "completed")), count });
    });
    const prs = await createAzureHost({ apiBase: s.base }).listPullRequests("org/Proj/repo", TOKEN, { state: "all" });
    expect(prs).toHaveLength(101);
    expect(prs[0]).toEqual({
      number: 1,
      title: "PR 1",
      description: "d",
      state: "open",
      merged: false,
      isDraft: false,
      authorLogin: "jamal@example.com",
      sourceBranch: "topic-1",
      targetBranch: "main",
      headSha: "src1",
      baseSha: "tgt1",
      labels: ["infra"],
      createdAt: "2024-04-01T00:00:00.000Z",
      updatedAt: "2024-04-01T00:00:00.000Z",
      url: `${s.base}/org/Proj/_git/repo/pullrequest/1`,
    });
    expect(prs[100]).toMatchObject({ number: 101, state: "closed", merged: true });
    expect(s.requests.map((r) => r.url)).toEqual([
      "/org/Proj/_apis/git/repositories/repo/pullrequests?searchCriteria.status=all&$top=100&$skip=0&api-version=7.1",
      "/org/Proj/_apis/git/repositories/repo/pullrequests?searchCriteria.status=all&$top=100&$skip=100&api-version=7.1",
    ]);
    expect(s.requests.every((r) => r.headers["authorization"] === basicPat)).toBe(true);
  });

  it("treats org/repo as project = repo, and sends JWTs as Bearer", async () => {
    const jwt = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl";
    const s = await serve((_req, res) => json(res, 200, { value: [] }));
    await createAzureHost({ apiBase: s.base }).listPullRequests("org/Fabrikam", jwt, { state: "open" });
    expect(s.requests[0]!.url).toBe(
      "/org/Fabrikam/_apis/git/repositories/Fabrikam/pullrequests?searchCriteria.status=active&$top=100&$skip=0&api-version=7.1",
    );
    expect(s.requests[0]!.headers["authorization"]).toBe(`Bearer ${jwt}`);
  });

  it("checkReadAccess: 200 JSON true; 203 sign-in page, 401, 404 false", async () => {
    const s = await serve((req, res) => {
      if (req.url.startsWith("/org/p/_apis/git/repositories/ok?")) return json(res, 200, { id: "4bc1", name: "ok" });
      if (req.url.startsWith("/org/p/_apis/git/repositories/signin?")) {
        res.writeHead(203, { "Content-Type": "text/html" });
        return res.end("<html>Sign in</html>");
      }
      json(res, req.url.includes("/unauth?") ? 401 : 404, { message: "TF401019" });
    });
    const az = createAzureHost({ apiBase: s.base });
    expect(await az.checkReadAccess("org/p/ok", TOKEN)).toBe(true);
    expect(await az.checkReadAccess("org/p/signin", TOKEN)).toBe(false);
    expect(await az.checkReadAccess("org/p/unauth", TOKEN)).toBe(false);
    expect(await az.checkReadAccess("org/p/gone", TOKEN)).toBe(false);
    expect(s.requests[0]!.url).toBe("/org/p/_apis/git/repositories/ok?api-version=7.1");
    expect(s.requests[0]!.headers["authorization"]).toBe(basicPat);
  });

  it("postReview creates one thread with threadContext per inline comment, then the summary's; findPostedReview finds them", async () => {
    let thread = 10;
    const threads: unknown[] = [{ id: 5, isDeleted: true, comments: [{ id: 1, content: "sum <!-- loupe-review:r2 -->" }] }];
    const s = await serve((req, res) => {
      if (req.method === "GET") return json(res, 200, { value: threads, count: threads.length });
      thread++;
      threads.push({ id: thread, ...(req.body as object), comments: [{ id: 1, content: (req.body as { comments: { content: string }[] }).comments[0]!.content }] });
      json(res, 200, { id: thread, comments: [{ id: 1, content: "x" }] });
    });
    const az = createAzureHost({ apiBase: s.base });
    const review = { summary: "sum <!-- loupe-review:r2 -->", commitSha: "abc", inline: [{ path: "src/a.cs", line: 30, startLine: 28, body: "range" }] };
    expect(await az.findPostedReview!("org/p/repo", 12, TOKEN, review, "loupe-review:r2")).toBeNull(); // the deleted thread does not count
    const result = await az.postReview("org/p/repo", 12, TOKEN, review);
    expect(result).toEqual({ summaryCommentId: "12/1", inlineCommentIds: ["11/1"] });
    const posts = s.requests.filter((r) => r.method === "POST");
    expect(posts.map((r) => r.url)).toEqual([
      "/org/p/_apis/git/repositories/repo/pullRequests/12/threads?api-version=7.1",
      "/org/p/_apis/git/repositories/repo/pullRequests/12/threads?api-version=7.1",
    ]);
    expect(posts[0]!.body).toEqual({
      comments: [{ parentCommentId: 0, content: "range", commentType: 1 }],
      status: 1,
      threadContext: { filePath: "/src/a.cs", rightFileStart: { line: 28, offset: 1 }, rightFileEnd: { line: 30, offset: 1 } },
    });
    expect(posts[1]!.body).toEqual({ comments: [{ parentCommentId: 0, content: "sum <!-- loupe-review:r2 -->", commentType: 1 }], status: 1 });
    expect(await az.findPostedReview!("org/p/repo", 12, TOKEN, review, "loupe-review:r2")).toEqual(result);
    // Posted again after a cut-short attempt: the inline thread is reused.
    const again = await az.postReview("org/p/repo", 12, TOKEN, { ...review, summary: "other" });
    expect(again.inlineCommentIds).toEqual(["11/1"]);
    expect(s.requests.filter((r) => r.method === "POST")).toHaveLength(3);
  });


  it("errors carry neither the token nor the query string", async () => {
    const s = await serve((_req, res) => json(res, 500, { message: `boom ${TOKEN}` }));
    const err = await hostError(createAzureHost({ apiBase: s.base }).listPullRequests("org/p/r", TOKEN, { state: "all" }));
    expect(err.message).toBe("azure listPullRequests: GET /org/p/_apis/git/repositories/r/pullrequests failed with HTTP 500");
  });

  it("a network failure is a HostError too", async () => {
    const s = await serve((_req, res) => json(res, 200, {}));
    const base = s.base;
    await s.close();
    servers = servers.filter((x) => x !== s);
    const err = await hostError(createAzureHost({ apiBase: base }).checkReadAccess("org/p/r", TOKEN));
    expect(err.message).toContain("network error");
  });
});

describe("clone URLs and git authentication", () => {
  it("builds clone URLs", () => {
    expect(createGitHubHost().cloneUrl("https://github.com/", "o/r")).toBe("https://github.com/o/r.git");
    expect(createGitLabHost().cloneUrl("https://gitlab.com", "g/sub/p")).toBe("https://gitlab.com/g/sub/p.git");
    expect(createBitbucketHost().cloneUrl("https://bitbucket.org", "w/r")).toBe("https://bitbucket.org/w/r.git");
    expect(createAzureHost().cloneUrl("https://dev.azure.com", "org/My Project/repo")).toBe(
      "https://dev.azure.com/org/My%20Project/_git/repo",
    );
  });

  it("builds http.extraHeader values per host", () => {
    const b64 = (s: string) => Buffer.from(s).toString("base64");
    expect(createGitHubHost().gitAuthHeader("t1")).toBe(`Authorization: Basic ${b64("x-access-token:t1")}`);
    expect(createGitLabHost().gitAuthHeader("t1")).toBe(`Authorization: Basic ${b64("oauth2:t1")}`);
    expect(createBitbucketHost().gitAuthHeader("t1")).toBe(`Authorization: Basic ${b64("x-token-auth:t1")}`);
    expect(createBitbucketHost().gitAuthHeader("u:p")).toBe(`Authorization: Basic ${b64("u:p")}`);
    expect(createAzureHost().gitAuthHeader("t1")).toBe(`Authorization: Basic ${b64(":t1")}`);
  });

  it("git sends the header from gitAuthEnv; the token is not on the command line", async () => {
    const s = await serve((_req, res) => {
      res.writeHead(404);
      res.end();
    });
    const host = createGitHubHost();
    const url = host.cloneUrl(s.base, "o/r");
    const args = ["ls-remote", url];
    await new Promise<void>((resolve) => {
      execFile(
        "git",
        args,
        { env: { ...process.env, ...host.gitAuthEnv(TOKEN), GIT_TERMINAL_PROMPT: "0" }, timeout: 20_000 },
        () => resolve(),
      );
    });
    expect(args.join(" ")).not.toContain(TOKEN);
    expect(s.requests[0]!.url).toBe("/o/r.git/info/refs?service=git-upload-pack");
    expect(s.requests[0]!.headers["authorization"]).toBe(`Basic ${Buffer.from(`x-access-token:${TOKEN}`).toString("base64")}`);
  });
});
