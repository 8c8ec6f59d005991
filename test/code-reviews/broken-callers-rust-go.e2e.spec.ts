/**
 * Broken callers in Rust and Go, end to end: per language a real git "host" repository on disk (a
 * definition in one file, its callers in two others, and a decoy of the same name that is not a call
 * of it), its main branch indexed by the real indexer, pull requests recorded by signed webhooks and
 * reviewed by the real worker; the comments are read back through the pull request's read model.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.ts";
import { githubExample } from "../support/host-fixtures.ts";
import { createHostRepo, deliverGitHub, GITHUB_SECRET, pullRequestPayload } from "../support/pr-webhooks.ts";
import { waitFor } from "../support/fake-hosts.ts";

type Repo = {
  server: TestServer;
  host: ReturnType<typeof createHostRepo>;
  orgId: string;
  baseSha: string;
  name: string;
};

async function setUp(name: string, files: Record<string, string>): Promise<Repo> {
  const host = createHostRepo(name);
  for (const [path, content] of Object.entries(files)) host.write(path, content);
  const baseSha = host.commit("initial");
  host.push("main");
  const server = await startTestServer({ env: { LOUPE_WEBHOOK_SECRET_GITHUB: GITHUB_SECRET, LOUPE_GITHUB_URL: host.url } });
  const orgId = server.loupe.services.keys.organisations()[0]!.orgId;
  const submitted = await server.api("/v2/repositories", { method: "POST", json: { remote: "github", repository: name, branch: "main" } });
  expect(submitted.status).toBe(202);
  await server.loupe.services.indexer.idle();
  await waitFor(() => (server.loupe.services.indexer.list(orgId)[0]?.status === "completed" ? true : undefined), 30_000, "indexing");
  return { server, host, orgId, baseSha, name };
}

/** Opens pull request `number` (a branch off main with `files` changed, null: deleted), reviews it and returns its broken-callers comments. */
async function reviewPullRequest(r: Repo, number: number, branch: string, files: Record<string, string | null>) {
  r.host.checkout("main");
  r.host.checkout(branch, true);
  for (const [path, content] of Object.entries(files)) {
    if (content === null) r.host.removeFile(path);
    else r.host.write(path, content);
  }
  const headSha = r.host.commit("Change");
  r.host.push(branch);
  const opened = pullRequestPayload(githubExample("pull_request", "opened"), {
    action: "opened", repo: r.name, number, title: "Change", head: branch, headSha, base: "main", baseSha: r.baseSha, updatedAt: "2024-05-01T10:00:00Z",
  });
  expect((await (await deliverGitHub(r.server, "pull_request", opened)).json()).outcome).toBe("recorded");
  const repoArgs = { name: r.name, remote: "github", defaultBranch: "main" };
  const res = await r.server.api("/v2/code-reviews", { method: "POST", json: { ...repoArgs, prNumber: number } });
  expect(res.status).toBe(202);
  const { codeReviewId } = (await res.json()) as { codeReviewId: string };
  await r.server.loupe.services.reviews.idle();
  const detail = await (await r.server.api(`/v2/code-reviews/${codeReviewId}`)).json();
  expect(detail.codeReview).toMatchObject({ status: "COMPLETED", reason: null });
  return r.server.loupe.services.pullRequests
    .get(r.orgId, { ...repoArgs, prNumber: number })
    .mergeRequest.comments.greptile.filter((c) => c.filePath !== null && c.body.startsWith("**Broken callers**"));
}

const RUST_PRICING = 'pub fn price(amount: u32, currency: &str) -> String {\n    format!("{} {}", amount, currency)\n}\n';
const RUST_PRICING_ROUNDED = 'pub fn price(amount: u32, currency: &str, rounding: u8) -> String {\n    format!("{} {} {}", amount, currency, rounding)\n}\n';
const RUST_CART = 'use crate::pricing::price;\n\npub fn line(amount: u32) -> String {\n    price(amount, "EUR")\n}\n';
const RUST_INVOICE = 'use crate::pricing;\n\npub fn row(total: u32) -> String {\n    let label = pricing::price(total, "USD");\n    label\n}\n';
// Another `price` (a method of another type) and its call: never a call of pricing::price.
const RUST_OFFERS = "pub struct Offer {\n    pub cents: u32,\n}\n\nimpl Offer {\n    pub fn price(&self) -> u32 {\n        self.cents\n    }\n}\n\npub fn cheapest(offers: &[Offer]) -> u32 {\n    offers.iter().map(|o| o.price()).min().unwrap_or(0)\n}\n";

describe("broken callers in Rust", () => {
  let r: Repo;
  beforeAll(async () => {
    r = await setUp("acme/shop-rs", {
      "Cargo.toml": '[package]\nname = "shop"\nversion = "0.1.0"\nedition = "2021"\n',
      "src/lib.rs": "pub mod cart;\npub mod invoice;\npub mod offers;\npub mod pricing;\n",
      "src/pricing.rs": RUST_PRICING,
      "src/cart.rs": RUST_CART,
      "src/invoice.rs": RUST_INVOICE,
      "src/offers.rs": RUST_OFFERS,
    });
  });
  afterAll(async () => {
    await r?.server.stop({ remove: true });
    r?.host.remove();
  });

  it("a parameter added: one comment on the definition naming both call sites (a `use`d name and a module path)", async () => {
    const comments = await reviewPullRequest(r, 1, "rounding", { "src/pricing.rs": RUST_PRICING_ROUNDED });
    expect(comments).toHaveLength(1);
    const [c] = comments;
    expect(c).toMatchObject({ filePath: "src/pricing.rs", lineStart: 1 });
    expect(c!.body).toContain("`(amount: u32, currency: &str)` to `(amount: u32, currency: &str, rounding: u8)`");
    expect(c!.body).toContain("2 call sites still call it the old way");
    expect(c!.body).toContain("`src/cart.rs:4`: does not pass `rounding`");
    expect(c!.body).toContain("`src/invoice.rs:4`: does not pass `rounding`");
    expect(c!.body).not.toContain("offers.rs");
  });

  it("the pull request also updates the callers: no comment", async () => {
    const comments = await reviewPullRequest(r, 2, "rounding-everywhere", {
      "src/pricing.rs": RUST_PRICING_ROUNDED,
      "src/cart.rs": RUST_CART.replace('price(amount, "EUR")', 'price(amount, "EUR", 2)'),
      "src/invoice.rs": RUST_INVOICE.replace('pricing::price(total, "USD")', 'pricing::price(total, "USD", 2)'),
    });
    expect(comments).toHaveLength(0);
  });

  it("a method's parameter added: `.m(` calls with the old arity are named, `self` is not an argument", async () => {
    const comments = await reviewPullRequest(r, 3, "offer-discount", {
      "src/offers.rs": RUST_OFFERS.replace("pub fn price(&self) -> u32 {\n        self.cents", "pub fn price(&self, discount: u32) -> u32 {\n        self.cents - discount"),
    });
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body).toContain("`Offer.price`");
    expect(comments[0]!.body).toContain("`src/offers.rs:12`: does not pass `discount`");
    expect(comments[0]!.body).not.toContain("cart.rs");
  });
});

const GO_PRICING = 'package pricing\n\nimport "fmt"\n\n// Price formats an amount.\nfunc Price(amount int, currency string) string {\n\treturn fmt.Sprintf("%d %s", amount, currency)\n}\n';
const GO_PRICING_ROUNDED = 'package pricing\n\nimport "fmt"\n\n// Price formats an amount.\nfunc Price(amount int, currency string, rounding int) string {\n\treturn fmt.Sprintf("%d %s %d", amount, currency, rounding)\n}\n';
const GO_TOTAL = 'package pricing\n\n// Total prices the sum.\nfunc Total(amounts []int) string {\n\tsum := 0\n\tfor _, a := range amounts {\n\t\tsum += a\n\t}\n\treturn Price(sum, "EUR")\n}\n';
const GO_CART = 'package cart\n\nimport (\n\t"strings"\n\n\t"example.com/shop/pricing"\n)\n\n// Line is one line of the cart.\nfunc Line(amount int) string {\n\treturn strings.ToUpper(pricing.Price(amount, "EUR"))\n}\n';
// Another `Price` (a method of another type), and its call: never a call of pricing.Price.
const GO_OFFERS = "package offers\n\n// Offer is a price offer.\ntype Offer struct{ Cents int }\n\n// Price is the offer's price.\nfunc (o Offer) Price() int { return o.Cents }\n\n// Cheapest of the offers.\nfunc Cheapest(offers []Offer) int {\n\tbest := 0\n\tfor _, o := range offers {\n\t\tif p := o.Price(); best == 0 || p < best {\n\t\t\tbest = p\n\t\t}\n\t}\n\treturn best\n}\n";

describe("broken callers in Go", () => {
  let r: Repo;
  beforeAll(async () => {
    r = await setUp("acme/shop-go", {
      "go.mod": "module example.com/shop\n\ngo 1.22\n",
      "pricing/pricing.go": GO_PRICING,
      "pricing/total.go": GO_TOTAL,
      "cart/cart.go": GO_CART,
      "offers/offers.go": GO_OFFERS,
    });
  });
  afterAll(async () => {
    await r?.server.stop({ remove: true });
    r?.host.remove();
  });

  it("a parameter added: one comment naming the package-qualified call and the same-package call", async () => {
    const comments = await reviewPullRequest(r, 1, "rounding", { "pricing/pricing.go": GO_PRICING_ROUNDED });
    expect(comments).toHaveLength(1);
    const [c] = comments;
    expect(c).toMatchObject({ filePath: "pricing/pricing.go", lineStart: 6 });
    expect(c!.body).toContain("`(amount int, currency string)` to `(amount int, currency string, rounding int)`");
    expect(c!.body).toContain("2 call sites still call it the old way");
    expect(c!.body).toContain("`cart/cart.go:11`: does not pass `rounding`");
    expect(c!.body).toContain("`pricing/total.go:9`: does not pass `rounding`");
    expect(c!.body).not.toContain("offers.go");
  });

  it("the pull request also updates the callers: no comment", async () => {
    const comments = await reviewPullRequest(r, 2, "rounding-everywhere", {
      "pricing/pricing.go": GO_PRICING_ROUNDED,
      "pricing/total.go": GO_TOTAL.replace('Price(sum, "EUR")', 'Price(sum, "EUR", 2)'),
      "cart/cart.go": GO_CART.replace('pricing.Price(amount, "EUR")', 'pricing.Price(amount, "EUR", 2)'),
    });
    expect(comments).toHaveLength(0);
  });

  it("an exported function renamed: its callers are named with the rewritten line; the same-package call too", async () => {
    const comments = await reviewPullRequest(r, 3, "rename", { "pricing/pricing.go": GO_PRICING.replace(/Price/g, "Format") });
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body).toContain("renames `Price` to `Format`");
    expect(comments[0]!.body).toContain('`cart/cart.go:11`: calls `Price`, now `Format`; fix: `return strings.ToUpper(pricing.Format(amount, "EUR"))`');
    expect(comments[0]!.body).toContain("`pricing/total.go:9`");
  });

  it("the file defining an exported function deleted (its package kept): one comment on the file naming its callers", async () => {
    const comments = await reviewPullRequest(r, 4, "drop-pricing-file", { "pricing/pricing.go": null });
    expect(comments).toHaveLength(1);
    expect(comments[0]).toMatchObject({ filePath: "pricing/pricing.go", lineStart: null });
    expect(comments[0]!.body).toContain("this deletes `pricing/pricing.go` and with it `Price`, but 2 call sites still call it:");
    expect(comments[0]!.body).toContain("- `cart/cart.go:11`: calls `Price`, which the change removes");
    expect(comments[0]!.body).toContain("- `pricing/total.go:9`: calls `Price`, which the change removes");
  });

  it("the file deleted with its function moved to another file of the package: no comment", async () => {
    const moved = `${GO_TOTAL}
${GO_PRICING.slice(GO_PRICING.indexOf("// Price")).replace("fmt.Sprintf", "fmt.Sprint")}`.replace("package pricing\n", 'package pricing\n\nimport "fmt"\n');
    expect(await reviewPullRequest(r, 5, "move-price", { "pricing/pricing.go": null, "pricing/total.go": moved })).toHaveLength(0);
  });
});
