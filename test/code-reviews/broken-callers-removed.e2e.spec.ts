/**
 * Broken callers of removed definitions, end to end: a real git "host" on disk, the repository's main
 * branch indexed by the real indexer, pull requests recorded by signed webhooks and reviewed by the
 * real worker, each review posted to a local server speaking GitHub's REST shapes; comments read back
 * through the pull request's read model.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReviewedRepository, type ReviewedRepository } from "../support/reviewed-repository.ts";
import { githubExample } from "../support/host-fixtures.ts";
import { deliverGitHub, pullRequestPayload } from "../support/pr-webhooks.ts";
import { startFakeGitHub, type FakeGitHub } from "../support/fake-hosts.ts";

const REPO = "acme/router";

const ROUTER =
  "function Router() {\n  this.routes = {};\n}\n\n/**\n * Find the route of a path.\n */\n\nRouter.prototype.find = function (path) {\n  return this.routes[path];\n};\n\n/**\n * Handle a request.\n */\n\nRouter.prototype.handle = function (req) {\n  return req;\n};\n\nmodule.exports = Router;\n";
const ROUTER_TEST = "var Router = require('../lib/router');\nvar router = new Router();\nrouter.find('/a');\nrouter.handle({ url: '/a' });\n";
const SESSION =
  "class Session:\n    def __init__(self):\n        self.proxies = {}\n\n    def set_http_proxy(self, http_url, https_url=None):\n        self.proxies['http'] = http_url\n        self.proxies['https'] = https_url or http_url\n\n    def describe_proxies(self):\n        return ', '.join(self.proxies)\n\n    def send(self, request):\n        return request\n";
const SESSION_TEST = "from shop.session import Session\n\n\ndef test_proxy():\n    s = Session()\n    s.set_http_proxy('http://10.0.0.1:3128')\n    assert s.proxies\n";

let gh: FakeGitHub;
let repo: ReviewedRepository;
let server: ReviewedRepository["server"];
let host: ReviewedRepository["host"];
let baseSha = "";
const openPullRequest: ReviewedRepository["openPullRequest"] = (...args) => repo.openPullRequest(...args);
const review: ReviewedRepository["review"] = (...args) => repo.review(...args);
const comments: ReviewedRepository["comments"] = (number) => repo.comments(number);
const brokenCallers = (number: number) => comments(number).filter((c) => c.filePath !== null && c.body.startsWith("**Broken callers**"));
const postedFor = (codeReviewId: string) => gh.reviews.find((r) => r.body.includes(`loupe-review:${codeReviewId}`))!;

beforeAll(async () => {
  gh = await startFakeGitHub();
  repo = await startReviewedRepository(REPO, {
    "lib/router.js": ROUTER,
    "test/router.js": ROUTER_TEST,
    "shop/__init__.py": "",
    "shop/session.py": SESSION,
    "tests/test_session.py": SESSION_TEST,
  }, { LOUPE_GITHUB_API_URL: gh.base, LOUPE_POST_REVIEWS: "true", LOUPE_REVIEW_TOKEN_GITHUB: "ghs_broken_callers_removed_token" });
  ({ server, host, baseSha } = repo);
});
afterAll(async () => {
  await repo?.stop();
  await gh?.close();
});

describe("where a removed definition's finding sits", () => {
  it("no added line takes its place: a comment on the file as a whole (no lines), given whole in the summary, not posted inline", async () => {
    // The hunk that deletes `find` also rewrites the comment of `handle`: that comment is not `find`'s place.
    const head = ROUTER.replace("/**\n * Find the route of a path.\n */\n\nRouter.prototype.find = function (path) {\n  return this.routes[path];\n};\n\n", "").replace(" * Handle a request.", " * Dispatch a request into the router.");
    await openPullRequest(1, "drop-find", { "lib/router.js": head });
    const codeReview = await review(1);
    expect(codeReview).toMatchObject({ status: "COMPLETED", reason: null });
    const [c, ...rest] = brokenCallers(1);
    expect(rest).toHaveLength(0);
    expect(c).toMatchObject({ filePath: "lib/router.js", lineStart: null, lineEnd: null });
    expect(c!.body).toContain("this removes `Router.find`, but 1 call site still calls it the old way:\n- `test/router.js:3`: calls `find`, which the change removes");
    expect(codeReview.body).toContain("- **high** `lib/router.js`: **Broken callers**: this removes `Router.find`");
    expect(codeReview.body).toContain("  - `test/router.js:3`: calls `find`, which the change removes");
    const posted = postedFor(codeReview.id);
    expect(posted.comments).toEqual([]);
    expect(posted.body).toContain("  - `test/router.js:3`: calls `find`, which the change removes");
  });

  it("another definition in its place: an inline comment on that definition's first line", async () => {
    const head = ROUTER.replace("Router.prototype.find = function (path) {\n  return this.routes[path];\n};", "Router.prototype.lookup = function (method, path) {\n  return this.routes[method + path];\n};");
    await openPullRequest(2, "find-to-lookup", { "lib/router.js": head });
    const codeReview = await review(2);
    const [c] = brokenCallers(2);
    expect(c).toMatchObject({ filePath: "lib/router.js", lineStart: 9, lineEnd: 9 });
    expect(postedFor(codeReview.id).comments).toEqual([expect.objectContaining({ path: "lib/router.js", line: 9, body: c!.body })]);
  });
});

describe("two removals from one file, in two commits", () => {
  it("the re-review after the second commit comments on the second removal too (each comment on the file as a whole is its own)", async () => {
    const withoutFind = ROUTER.replace("/**\n * Find the route of a path.\n */\n\nRouter.prototype.find = function (path) {\n  return this.routes[path];\n};\n\n", "");
    await openPullRequest(5, "drop-find-then-handle", { "lib/router.js": withoutFind });
    await review(5);
    expect(brokenCallers(5).map((c) => [c.lineStart, c.body.split(",")[0]])).toEqual([[null, "**Broken callers**: this removes `Router.find`"]]);
    host.checkout("drop-find-then-handle");
    host.write("lib/router.js", withoutFind.replace("/**\n * Handle a request.\n */\n\nRouter.prototype.handle = function (req) {\n  return req;\n};\n\n", ""));
    const headSha = host.commit("drop handle");
    host.push("drop-find-then-handle");
    const sync = pullRequestPayload(githubExample("pull_request", "synchronize"), {
      action: "synchronize", repo: REPO, number: 5, head: "drop-find-then-handle", headSha, base: "main", baseSha, updatedAt: "2024-05-02T10:00:00Z",
    });
    await deliverGitHub(server, "pull_request", sync);
    await server.loupe.services.reviews.idle();
    expect((await review(5)).status).toBe("COMPLETED");
    expect(brokenCallers(5).map((c) => [c.lineStart, c.body.split(",")[0]]).sort()).toEqual([
      [null, "**Broken callers**: this removes `Router.find`"],
      [null, "**Broken callers**: this removes `Router.handle`"],
    ]);
  });
});

describe("a pull request that only deletes lines", () => {
  it("removes a method still called elsewhere: reviewed (not skipped), one comment on the file as a whole", async () => {
    await openPullRequest(3, "drop-proxy-helper", { "shop/session.py": SESSION.replace("    def set_http_proxy(self, http_url, https_url=None):\n        self.proxies['http'] = http_url\n        self.proxies['https'] = https_url or http_url\n\n", "") });
    const codeReview = await review(3);
    expect(codeReview).toMatchObject({ status: "COMPLETED", reason: null });
    const [c, ...rest] = brokenCallers(3);
    expect(rest).toHaveLength(0);
    expect(c).toMatchObject({ filePath: "shop/session.py", lineStart: null, lineEnd: null });
    expect(c!.body).toContain("this removes `Session.set_http_proxy`, but 1 call site still calls it the old way:\n- `tests/test_session.py:6`: calls `set_http_proxy`, which the change removes");
    expect(codeReview.body).toContain("| `shop/session.py` | modified | 0 | 4 | 1 |");
    expect(codeReview.body).not.toContain("`shop/session.py`: no added lines");
  });

  it("removes a method nobody calls: skipped, saying the file has no added lines", async () => {
    await openPullRequest(4, "drop-describe", { "shop/session.py": SESSION.replace("    def describe_proxies(self):\n        return ', '.join(self.proxies)\n\n", "") });
    const codeReview = await review(4);
    expect(codeReview).toMatchObject({ status: "SKIPPED", reason: "nothing reviewable: every changed file was skipped: shop/session.py (no added lines)" });
  });
});
