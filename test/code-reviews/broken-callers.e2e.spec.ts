/**
 * Broken callers, end to end: a real git "host" on disk, the repository's main branch indexed by the
 * real indexer (its code graph), pull requests recorded by signed webhooks and reviewed by the real
 * worker; the comments are read back through the pull request's read model and HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.ts";
import { githubExample } from "../support/host-fixtures.ts";
import { createHostRepo, deliverGitHub, GITHUB_SECRET, pullRequestPayload } from "../support/pr-webhooks.ts";
import { waitFor } from "../support/fake-hosts.ts";

const REPO = "acme/shop";
const repoArgs = { name: REPO, remote: "github", defaultBranch: "main" };

const PRICING = 'def price(amount, currency):\n    return f"{amount} {currency}"\n';
const CART = 'from shop.pricing import price\n\n\ndef line(item):\n    return price(item.amount, "EUR")\n';
const INVOICE = "from shop import pricing\n\n\ndef row(entry):\n    total = entry.total\n    return pricing.price(total, entry.currency)\n";
// Another `price` (a method of another class) and its call: never a call of shop.pricing.price.
const OFFERS = "class Offer:\n    def price(self):\n        return 3\n\n\ndef cheapest(offers):\n    return min(o.price() for o in offers)\n";
const FORMAT = 'function pad(text, width) {\n  return String(text).padStart(width, " ");\n}\n\nmodule.exports = { pad };\n';
const TABLE = 'const { pad } = require("./format");\n\nfunction cell(value) {\n  return pad(value, 10);\n}\n\nmodule.exports = { cell };\n';
const REPORT = 'const format = require("./format");\n\nexports.title = (t) => format.pad(t, 40);\n';

let server: TestServer;
let host: ReturnType<typeof createHostRepo>;
let orgId: string;
let baseSha = "";

async function openPullRequest(number: number, branch: string, files: Record<string, string>, title = "Change") {
  host.checkout("main");
  host.checkout(branch, true);
  for (const [path, content] of Object.entries(files)) host.write(path, content);
  const headSha = host.commit(title);
  host.push(branch);
  const opened = pullRequestPayload(githubExample("pull_request", "opened"), {
    action: "opened", repo: REPO, number, title, head: branch, headSha, base: "main", baseSha, updatedAt: "2024-05-01T10:00:00Z",
  });
  expect((await (await deliverGitHub(server, "pull_request", opened)).json()).outcome).toBe("recorded");
}

async function review(number: number, strictness?: number) {
  const res = await server.api("/v2/code-reviews", { method: "POST", json: { ...repoArgs, prNumber: number, ...(strictness ? { strictness } : {}) } });
  expect(res.status).toBe(202);
  const { codeReviewId } = (await res.json()) as { codeReviewId: string };
  await server.loupe.services.reviews.idle();
  const detail = await (await server.api(`/v2/code-reviews/${codeReviewId}`)).json();
  expect(detail.codeReview).toMatchObject({ status: "COMPLETED", reason: null });
  return codeReviewId;
}

const brokenCallerComments = (number: number) =>
  server.loupe.services.pullRequests
    .get(orgId, { ...repoArgs, prNumber: number })
    .mergeRequest.comments.greptile.filter((c) => c.filePath !== null && c.body.startsWith("**Broken callers**"));

beforeAll(async () => {
  host = createHostRepo(REPO);
  host.write("shop/__init__.py", "");
  host.write("shop/pricing.py", PRICING);
  host.write("shop/cart.py", CART);
  host.write("shop/invoice.py", INVOICE);
  host.write("shop/offers.py", OFFERS);
  host.write("web/format.js", FORMAT);
  host.write("web/table.js", TABLE);
  host.write("web/report.js", REPORT);
  baseSha = host.commit("initial");
  host.push("main");
  server = await startTestServer({ env: { LOUPE_WEBHOOK_SECRET_GITHUB: GITHUB_SECRET, LOUPE_GITHUB_URL: host.url } });
  orgId = server.loupe.services.keys.organisations()[0]!.orgId;
  const submitted = await server.api("/v2/repositories", { method: "POST", json: { remote: "github", repository: REPO, branch: "main" } });
  expect(submitted.status).toBe(202);
  await server.loupe.services.indexer.idle();
  await waitFor(() => (server.loupe.services.indexer.list(orgId)[0]?.status === "completed" ? true : undefined), 30_000, "indexing");
});
afterAll(async () => {
  await server?.stop({ remove: true });
  host?.remove();
});

describe("broken callers", () => {
  it("a required parameter added: one comment on the definition naming both stale call sites (file:line)", async () => {
    await openPullRequest(1, "rounding", { "shop/pricing.py": 'def price(amount, currency, rounding):\n    return f"{round(amount, rounding)} {currency}"\n' });
    const id = await review(1);
    const comments = brokenCallerComments(1);
    expect(comments).toHaveLength(1);
    const [c] = comments;
    expect(c).toMatchObject({ filePath: "shop/pricing.py", lineStart: 1 });
    expect(c!.body).toContain("`(amount, currency)` to `(amount, currency, rounding)`");
    expect(c!.body).toContain("2 call sites still call it the old way");
    expect(c!.body).toContain("`shop/cart.py:5`: does not pass `rounding`");
    expect(c!.body).toContain("`shop/invoice.py:6`: does not pass `rounding`");
    expect(c!.body).not.toContain("offers.py");
    // The summary says the callers were looked up, and the finding counts.
    const detail = await (await server.api(`/v2/code-reviews/${id}`)).json();
    const summary = server.loupe.services.pullRequests.get(orgId, { ...repoArgs, prNumber: 1 }).mergeRequest.comments.greptile.find((x) => x.filePath === null)!;
    expect(summary.body).toContain("from the code graph of `main` as indexed");
    expect(summary.body).not.toContain("Not checked: the callers");
    expect(summary.body).toContain("1 high");
    expect(detail.codeReview.status).toBe("COMPLETED");
  });

  it("at strictness 1 (critical only) the high finding is not posted", async () => {
    await openPullRequest(2, "rounding-strict", { "shop/pricing.py": 'def price(amount, currency, rounding):\n    return f"{round(amount, rounding)} {currency}"\n' });
    await review(2, 1);
    expect(brokenCallerComments(2)).toHaveLength(0);
  });

  it("the pull request also updates the callers: no comment", async () => {
    await openPullRequest(3, "rounding-everywhere", {
      "shop/pricing.py": 'def price(amount, currency, rounding):\n    return f"{round(amount, rounding)} {currency}"\n',
      "shop/cart.py": CART.replace('price(item.amount, "EUR")', 'price(item.amount, "EUR", 2)'),
      "shop/invoice.py": INVOICE.replace("pricing.price(total, entry.currency)", "pricing.price(total, entry.currency, rounding=2)"),
    });
    await review(3);
    expect(brokenCallerComments(3)).toHaveLength(0);
  });

  it("only one caller updated: the other is still named", async () => {
    await openPullRequest(4, "rounding-half", {
      "shop/pricing.py": 'def price(amount, currency, rounding):\n    return f"{round(amount, rounding)} {currency}"\n',
      "shop/cart.py": CART.replace('price(item.amount, "EUR")', 'price(item.amount, "EUR", 2)'),
    });
    await review(4);
    const [c, ...rest] = brokenCallerComments(4);
    expect(rest).toHaveLength(0);
    expect(c!.body).toContain("1 call site still calls it the old way");
    expect(c!.body).toContain("`shop/invoice.py:6`");
    expect(c!.body).not.toContain("shop/cart.py");
  });

  it("a new parameter with a default: no comment", async () => {
    await openPullRequest(5, "rounding-default", { "shop/pricing.py": 'def price(amount, currency, rounding=2):\n    return f"{round(amount, rounding)} {currency}"\n' });
    await review(5);
    expect(brokenCallerComments(5)).toHaveLength(0);
  });

  it("a rename: both call sites named, each with the rewritten line", async () => {
    await openPullRequest(6, "rename", { "shop/pricing.py": 'def format_price(amount, currency):\n    return f"{amount} {currency}"\n' });
    await review(6);
    const [c, ...rest] = brokenCallerComments(6);
    expect(rest).toHaveLength(0);
    expect(c).toMatchObject({ filePath: "shop/pricing.py", lineStart: 1 });
    expect(c!.body).toContain("renames `price` to `format_price`");
    expect(c!.body).toContain('`shop/cart.py:5`: calls `price`, now `format_price`; fix: `return format_price(item.amount, "EUR")`');
    expect(c!.body).toContain("`shop/invoice.py:6`: calls `price`, now `format_price`; fix: `return pricing.format_price(total, entry.currency)`");
  });

  it("JavaScript: a parameter inserted before another moves the callers' arguments", async () => {
    await openPullRequest(7, "pad-fill", { "web/format.js": FORMAT.replace("function pad(text, width) {\n  return String(text).padStart(width, \" \");", "function pad(text, fill, width) {\n  return String(text).padStart(width, fill);") });
    await review(7);
    const [c, ...rest] = brokenCallerComments(7);
    expect(rest).toHaveLength(0);
    expect(c).toMatchObject({ filePath: "web/format.js", lineStart: 1 });
    expect(c!.body).toContain("`web/report.js:3`: its argument 2 now goes to `fill` (it went to `width`)");
    expect(c!.body).toContain("`web/table.js:4`: its argument 2 now goes to `fill` (it went to `width`)");
  });

  it("addressed when a later commit updates the call sites it names; the re-review raises nothing new", async () => {
    await openPullRequest(8, "rounding-later", { "shop/pricing.py": 'def price(amount, currency, rounding):\n    return f"{round(amount, rounding)} {currency}"\n' });
    await review(8);
    const [open] = brokenCallerComments(8);
    expect(open).toMatchObject({ filePath: "shop/pricing.py", addressed: false });
    // A new commit on the pull request's branch fixes both callers.
    host.checkout("rounding-later");
    host.write("shop/cart.py", CART.replace('price(item.amount, "EUR")', 'price(item.amount, "EUR", 2)'));
    host.write("shop/invoice.py", INVOICE.replace("pricing.price(total, entry.currency)", "pricing.price(total, entry.currency, 2)"));
    const headSha = host.commit("pass rounding");
    host.push("rounding-later");
    const sync = pullRequestPayload(githubExample("pull_request", "synchronize"), {
      action: "synchronize", repo: REPO, number: 8, head: "rounding-later", headSha, base: "main", baseSha, updatedAt: "2024-05-02T10:00:00Z",
    });
    await deliverGitHub(server, "pull_request", sync);
    await server.loupe.services.reviews.idle();
    await waitFor(() => (brokenCallerComments(8)[0]?.addressed ? true : undefined), 20_000, "addressed");
    await review(8);
    expect(brokenCallerComments(8)).toHaveLength(1);
  });
});
