/**
 * Broken imports, end to end: a real git "host" on disk, the repository's main branch indexed by the
 * real indexer (its code graph, imports resolved to files), pull requests that delete or move files
 * recorded by signed webhooks and reviewed by the real worker, each review posted to a local server
 * speaking GitHub's REST shapes; comments read back through the pull request's read model and HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReviewedRepository, type ReviewedRepository } from "../support/reviewed-repository.ts";
import { githubExample } from "../support/host-fixtures.ts";
import { deliverGitHub, pullRequestPayload } from "../support/pr-webhooks.ts";
import { startFakeGitHub, waitFor, type FakeGitHub } from "../support/fake-hosts.ts";

const REPO = "acme/store";

const PRICING = "def price(amount, currency):\n    return f\"{amount} {currency}\"\n";
const CART = "import os\nfrom store.pricing import price\n\n\ndef line(item):\n    return price(item.amount, os.environ['CUR'])\n";
const INVOICE = "from store import pricing\n\n\ndef row(entry):\n    return pricing.price(entry.total, entry.currency)\n";
const TEST_PRICING = "import store.pricing\n\n\ndef test_price():\n    assert store.pricing.price(1, 'EUR') == '1 EUR'\n";
const FORMAT = "export function pad(text: string, width: number): string {\n  return text.padStart(width, \" \");\n}\n";
const TABLE = 'import { pad } from "./format";\n\nexport const cell = (value: string) => pad(value, 10);\n';
const REPORT = 'const format = require("./format");\n\nexports.title = (t) => format.pad(t, 40);\n';

let gh: FakeGitHub;
let repo: ReviewedRepository;
let server: ReviewedRepository["server"];
let host: ReviewedRepository["host"];
let baseSha = "";
const openPullRequest: ReviewedRepository["openPullRequest"] = (...args) => repo.openPullRequest(...args);
const review: ReviewedRepository["review"] = (...args) => repo.review(...args);
const comments: ReviewedRepository["comments"] = (number) => repo.comments(number);
const brokenImports = (number: number) => comments(number).filter((c) => c.filePath !== null && c.body.startsWith("**Broken imports**"));
const summaryOf = (number: number) => comments(number).find((c) => c.filePath === null)!;
/** The review posted to the host for a code review (its summary carries the review's marker). */
const postedFor = (codeReviewId: string) => gh.reviews.find((r) => r.body.includes(`loupe-review:${codeReviewId}`))!;

beforeAll(async () => {
  gh = await startFakeGitHub();
  repo = await startReviewedRepository(REPO, {
    "store/__init__.py": "",
    "store/pricing.py": PRICING,
    "store/cart.py": CART,
    "store/invoice.py": INVOICE,
    "tests/test_pricing.py": TEST_PRICING,
    "store/legacy.py": "def old():\n    return 1\n",
    "web/format.ts": FORMAT,
    "web/table.ts": TABLE,
    "web/report.js": REPORT,
  }, { LOUPE_GITHUB_API_URL: gh.base, LOUPE_POST_REVIEWS: "true", LOUPE_REVIEW_TOKEN_GITHUB: "ghs_broken_imports_test_token" });
  ({ server, host, baseSha } = repo);
});
afterAll(async () => {
  await repo?.stop();
  await gh?.close();
});

describe("broken imports: a deleted Python module", () => {
  it("is reviewed, not skipped: one comment on the deleted file naming each importer (the test said so), repeated whole in the summary", async () => {
    await openPullRequest(1, "drop-pricing", { "store/pricing.py": null });
    const codeReview = await review(1);
    expect(codeReview).toMatchObject({ status: "COMPLETED", reason: null });
    const [c, ...rest] = brokenImports(1);
    expect(rest).toHaveLength(0);
    expect(c).toMatchObject({ filePath: "store/pricing.py", lineStart: null, lineEnd: null, addressed: false });
    expect(c!.body).toContain("this deletes `store/pricing.py`, but 3 files still import it (1 of them a test); they will fail to import:");
    expect(c!.body).toContain("- `store/cart.py:2`: `from store.pricing import price`");
    expect(c!.body).toContain("- `store/invoice.py:1`: `from store import pricing`");
    expect(c!.body).toContain("- `tests/test_pricing.py:1`: `import store.pricing` (a test)");
    const summary = summaryOf(1).body;
    expect(summary).toContain("- **high** `store/pricing.py`: **Broken imports**: this deletes `store/pricing.py`");
    expect(summary).toContain("  - `tests/test_pricing.py:1`: `import store.pricing` (a test)");
    expect(summary).toContain("The imports elsewhere in the repository (tests included) of the 1 file this change deletes or moves, from the code graph of `main` as indexed");
    // The host gets it in the summary: a deleted file has no line an inline comment could sit on.
    const posted = postedFor(codeReview.id);
    expect(posted.comments).toEqual([]);
    expect(posted.body).toContain("  - `store/cart.py:2`: `from store.pricing import price`");
  });

  it("a deleted module nobody imports: skipped as before", async () => {
    await openPullRequest(2, "drop-legacy", { "store/legacy.py": null });
    const codeReview = await review(2);
    expect(codeReview).toMatchObject({ status: "SKIPPED", reason: "nothing reviewable: every changed file was skipped: store/legacy.py (deleted)" });
  });

  it("deleted with every file importing it: no comment", async () => {
    await openPullRequest(3, "drop-pricing-all", { "store/pricing.py": null, "store/cart.py": null, "store/invoice.py": null, "tests/test_pricing.py": null });
    const codeReview = await review(3);
    expect(codeReview.status).toBe("SKIPPED");
    expect(brokenImports(3)).toHaveLength(0);
  });

  it("at strictness 1 (critical only) the high finding is not posted", async () => {
    await openPullRequest(4, "drop-pricing-strict", { "store/pricing.py": null });
    expect((await review(4, 1)).status).toBe("COMPLETED");
    expect(brokenImports(4)).toHaveLength(0);
  });

  it("importers in a folder `.loupe/` ignores are not named", async () => {
    await openPullRequest(5, "drop-pricing-ignore-tests", { "store/pricing.py": null, ".loupe/config.json": JSON.stringify({ ignore: ["tests/"] }) });
    await review(5);
    const [c] = brokenImports(5);
    expect(c!.body).toContain("but 2 files still import it; they will fail to import:");
    expect(c!.body).not.toContain("tests/test_pricing.py");
  });

  it("addressed once a later commit fixes every import it names; the re-review adds nothing", async () => {
    await openPullRequest(6, "drop-pricing-later", { "store/pricing.py": null });
    await review(6);
    expect(brokenImports(6)[0]).toMatchObject({ addressed: false });
    host.checkout("drop-pricing-later");
    host.write("store/prices.py", PRICING);
    host.write("store/cart.py", CART.replace("store.pricing", "store.prices"));
    host.write("store/invoice.py", INVOICE.replace("from store import pricing", "from store import prices as pricing"));
    host.write("tests/test_pricing.py", TEST_PRICING.replace("import store.pricing", "import store.prices as pricing").replace("store.pricing.price", "pricing.price"));
    const headSha = host.commit("import the prices module");
    host.push("drop-pricing-later");
    const sync = pullRequestPayload(githubExample("pull_request", "synchronize"), {
      action: "synchronize", repo: REPO, number: 6, head: "drop-pricing-later", headSha, base: "main", baseSha, updatedAt: "2024-05-02T10:00:00Z",
    });
    await deliverGitHub(server, "pull_request", sync);
    await server.loupe.services.reviews.idle();
    await waitFor(() => (brokenImports(6)[0]?.addressed ? true : undefined), 20_000, "addressed");
    await review(6);
    expect(brokenImports(6)).toHaveLength(1);
  });
});

describe("broken imports: a moved TypeScript module", () => {
  it("moved without its importers: one comment on the new place naming both (import and require)", async () => {
    await openPullRequest(7, "move-format", { "web/format.ts": null, "web/text/format.ts": FORMAT });
    const codeReview = await review(7);
    expect(codeReview.status).toBe("COMPLETED");
    const [c, ...rest] = brokenImports(7);
    expect(rest).toHaveLength(0);
    expect(c).toMatchObject({ filePath: "web/text/format.ts", lineStart: null });
    expect(c!.body).toContain("this moves `web/format.ts` to `web/text/format.ts`, but 2 files still import it from `web/format.ts`; they will fail to import:");
    expect(c!.body).toContain("- `web/report.js:1`: `const format = require(\"./format\");`");
    expect(c!.body).toContain("- `web/table.ts:1`: `import { pad } from \"./format\";`");
  });

  it("moved with its importers updated: no comment", async () => {
    await openPullRequest(8, "move-format-everywhere", {
      "web/format.ts": null,
      "web/text/format.ts": FORMAT,
      "web/table.ts": TABLE.replace("./format", "./text/format"),
      "web/report.js": REPORT.replace("./format", "./text/format"),
    });
    const codeReview = await review(8);
    expect(codeReview.status).toBe("COMPLETED");
    expect(brokenImports(8)).toHaveLength(0);
    expect(comments(8).filter((c) => c.filePath !== null)).toHaveLength(0);
  });

  it("moved with an edit: the comment sits on its first added line", async () => {
    await openPullRequest(9, "move-format-edit", { "web/format.ts": null, "web/text/format.ts": FORMAT.replace('padStart(width, " ")', 'padStart(width, "·")') });
    const codeReview = await review(9);
    const [c] = brokenImports(9);
    expect(c).toMatchObject({ filePath: "web/text/format.ts", lineStart: 2, lineEnd: 2 });
    expect(postedFor(codeReview.id).comments).toEqual([expect.objectContaining({ path: "web/text/format.ts", line: 2, side: "RIGHT", body: c!.body })]);
  });
});

describe("a pull request whose target branch is gone", () => {
  it("fails naming the target branch", async () => {
    await openPullRequest(10, "onto-release", { "store/cart.py": `${CART}# note\n` }, { base: "release-1.x" });
    const codeReview = await review(10);
    expect(codeReview.status).toBe("FAILED");
    expect(codeReview.reason).toContain('the target branch "release-1.x" of pull request #10');
  });
});
