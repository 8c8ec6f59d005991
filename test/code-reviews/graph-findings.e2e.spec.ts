/**
 * Review findings that know the rest of the repository (issue 21): "existing helper" (a new function
 * that copies one the repository already has, named with its file:line) and "untested change" (a
 * changed public function whose tests the pull request leaves alone: one summary note). End to end:
 * the real server, a real git "host" on disk, the repository indexed by the real indexer through
 * POST /v2/repositories, pull requests recorded by signed webhooks, reviews through POST
 * /v2/code-reviews; with a chat model, a local OpenAI-compatible server receives them as context.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.ts";
import { githubExample } from "../support/host-fixtures.ts";
import { createHostRepo, deliverGitHub, GITHUB_SECRET, pullRequestPayload } from "../support/pr-webhooks.ts";
import { startFakeChat, waitFor, type FakeChat } from "../support/fake-hosts.ts";

const REPO = "acme/store";
const repoArgs = { name: REPO, remote: "github", defaultBranch: "main" };

const TEXTUTIL = `import re


def normalise_header(value, default=""):
    """Strips and folds a header value."""
    if value is None:
        return default
    text = str(value).strip()
    parts = [p.strip() for p in text.split(",") if p.strip()]
    seen = []
    for part in parts:
        key = part.lower()
        if key not in seen:
            seen.append(key)
    return ", ".join(seen)


def slugify(title):
    words = re.findall(r"[a-z0-9]+", title.lower())
    return "-".join(words)
`;

/** normalise_header with every name changed and a comment: the same code. */
const COPY = (name: string, comment = "# fold the header") => `def ${name}(raw, fallback=""):
    ${comment}
    if raw is None:
        return fallback
    s = str(raw).strip()
    items = [x.strip() for x in s.split(",") if x.strip()]
    out = []
    for item in items:
        k = item.lower()
        if k not in out:
            out.append(k)
    return ", ".join(out)
`;

/** As long as the copy and as loop-heavy, but other code. */
const COUNT_WORDS = `def count_words(text, minimum=1):
    if text is None:
        return {}
    counts = {}
    for word in str(text).split():
        w = word.strip(".,;:").lower()
        if len(w) >= minimum:
            counts[w] = counts.get(w, 0) + 1
    return dict(sorted(counts.items()))
`;

const PRICING = `def compute_total(items, tax=0.0):
    subtotal = sum(i["price"] * i["qty"] for i in items)
    return round(subtotal * (1 + tax), 2)


def format_amount(value):
    return f"{value:.2f}"


def _internal(x):
    return x
`;

const ORDERS = `def place_order(cart, customer):
    if not cart:
        raise ValueError("empty cart")
    return {"customer": customer, "lines": list(cart)}
`;

/** A small class: indexed as one chunk holding its methods. */
const INVENTORY = `class Inventory:
    def __init__(self):
        self.items = {}

    def restock(self, sku, amount, limit=100):
        if amount <= 0:
            raise ValueError("amount must be positive")
        current = self.items.get(sku, 0)
        total = min(current + amount, limit)
        self.items[sku] = total
        self.log.append((sku, amount, total))
        return total
`;

/** restock as a function of another module, its names changed. */
const REFILL = `def refill(store, code, qty, cap=100):
    if qty <= 0:
        raise ValueError("qty must be positive")
    have = store.items.get(code, 0)
    new_total = min(have + qty, cap)
    store.items[code] = new_total
    store.log.append((code, qty, new_total))
    return new_total
`;

/** A function with a nested one, a warning and a test: changed below in ways no test would look at. */
const LEGACY = `import warnings


def fetch(url, retries=3):
    def attempt(n: int) -> str:
        return url * n

    if retries > 5:
        warnings.warn("retries above 5 are slow", UserWarning)
    return attempt(retries)
`;

/** Conversions whose unused keyword parameters a change drops: the same edit in two functions. */
const UNITS = `def to_cents(amount, **options):
    return int(amount * 100)


def to_grams(weight, **options):
    return int(weight * 1000)


def to_metres(length):
    return round(length / 100, 2)
`;

/** A function over 150 lines: indexed as several windows of one definition. */
const LONG = (name: string, v: string) =>
  `def ${name}(${v}, factor):\n    out = []\n` +
  Array.from({ length: 80 }, (_, i) => `    if ${v}.kind == "k${i}":\n        out.append(${v}.${["scale", "shift", "clip", "round", "merge"][i % 5]}(factor, ${i}))`).join("\n") +
  `\n    return out\n`;

let server: TestServer;
let host: ReturnType<typeof createHostRepo>;
let orgId: string;
let baseSha = "";

function seed(h: ReturnType<typeof createHostRepo>) {
  h.write(".loupe/config.json", JSON.stringify({ ignore: ["legacy/**"] }));
  h.write("app/__init__.py", "");
  h.write("app/textutil.py", TEXTUTIL);
  h.write("app/pricing.py", PRICING);
  h.write("app/orders.py", ORDERS);
  h.write("app/other.py", 'def greet(name):\n    return "hello " + name\n');
  h.write("app/inventory.py", INVENTORY);
  h.write("app/report.py", LONG("build_report", "row"));
  h.write("app/legacy_api.py", LEGACY);
  h.write("tests/test_legacy_api.py", 'from app.legacy_api import fetch\n\n\ndef test_fetch():\n    assert fetch("a", 2) == "aa"\n');
  h.write("tests/test_pricing.py", 'from app.pricing import compute_total, format_amount\n\n\ndef test_total():\n    assert compute_total([{"price": 2, "qty": 3}]) == 6\n\n\ndef test_format():\n    assert format_amount(1) == "1.00"\n');
  // Tests place_order without following the naming convention: found through the code graph.
  h.write("tests/test_checkout.py", 'from app.orders import place_order\n\n\ndef test_place():\n    assert place_order(["a"], "c")["lines"] == ["a"]\n');
  h.write("app/units.py", UNITS);
  h.write("tests/test_units.py", 'from app.units import to_cents, to_grams, to_metres\n\n\ndef test_units():\n    assert (to_cents(1), to_grams(1), to_metres(150)) == (100, 1000, 1.5)\n');
  h.write("tests/test_other.py", 'from app.other import greet\n\n\ndef test_greet():\n    assert greet("x") == "hello x"\n');
  // Reaches place_order only through app/shop.py, without naming it.
  h.write("app/shop.py", 'from app.orders import place_order\n\n\ndef buy(cart):\n    return place_order(cart, "me")\n');
  h.write("tests/test_shop.py", 'from app.shop import buy\n\n\ndef test_buy():\n    assert buy(["a"])["customer"] == "me"\n');
  return h.commit("initial");
}

async function openPullRequest(s: TestServer, h: ReturnType<typeof createHostRepo>, number: number, branch: string, files: Record<string, string | null>, title = "Change") {
  h.checkout("main");
  h.checkout(branch, true);
  for (const [path, content] of Object.entries(files)) {
    if (content === null) h.write(path, "");
    else h.write(path, content);
  }
  const headSha = h.commit(title);
  h.push(branch);
  const opened = pullRequestPayload(githubExample("pull_request", "opened"), {
    action: "opened", repo: REPO, number, title, head: branch, headSha, base: "main", baseSha, updatedAt: "2024-05-01T10:00:00Z",
  });
  expect((await (await deliverGitHub(s, "pull_request", opened)).json()).outcome).toBe("recorded");
}

async function review(s: TestServer, number: number, strictness?: number) {
  const res = await s.api("/v2/code-reviews", { method: "POST", json: { ...repoArgs, prNumber: number, ...(strictness ? { strictness } : {}) } });
  expect(res.status).toBe(202);
  const { codeReviewId } = (await res.json()) as { codeReviewId: string };
  await s.loupe.services.reviews.idle();
  const detail = await (await s.api(`/v2/code-reviews/${codeReviewId}`)).json();
  expect(detail.codeReview.status).toBe("COMPLETED");
  return codeReviewId;
}

async function indexMain(s: TestServer, org: string) {
  const submitted = await s.api("/v2/repositories", { method: "POST", json: { remote: "github", repository: REPO, branch: "main" } });
  expect(submitted.status).toBe(202);
  await s.loupe.services.indexer.idle();
  await waitFor(() => (s.loupe.services.indexer.list(org)[0]?.status === "completed" ? true : undefined), 30_000, "indexing");
}

const inlineComments = (s: TestServer, org: string, number: number) =>
  s.loupe.services.pullRequests.get(org, { ...repoArgs, prNumber: number }).mergeRequest.comments.greptile.filter((c) => c.filePath !== null);

beforeAll(async () => {
  host = createHostRepo(REPO);
  baseSha = seed(host);
  host.push("main");
  server = await startTestServer({ env: { LOUPE_WEBHOOK_SECRET_GITHUB: GITHUB_SECRET, LOUPE_GITHUB_URL: host.url } });
  orgId = server.loupe.services.keys.organisations()[0]!.orgId;
  await indexMain(server, orgId);
});
afterAll(async () => {
  await server?.stop({ remove: true });
  host?.remove();
});

describe("existing helper", () => {
  it("comments on a new function that copies an existing one, naming it with file:line; other new code and ignored files get nothing", async () => {
    await openPullRequest(server, host, 1, "copy-helper", {
      "app/headers.py": `${COPY("clean_header")}\n\n${COUNT_WORDS}`,
      "legacy/copy.py": COPY("legacy_header"),
    });
    const id = await review(server, 1);
    const inline = inlineComments(server, orgId, 1);
    expect(inline.map((c) => [c.filePath, c.lineStart, c.lineEnd])).toEqual([["app/headers.py", 1, 12]]);
    expect(inline[0]!.body).toContain("`clean_header()` closely duplicates the existing `normalise_header()` at `app/textutil.py:4`");
    // It is a finding like any other: in the summary, and hidden at strictness 2 (medium is shown from 3).
    expect(server.loupe.services.reviews.record(orgId, id)!.body).toContain("- **medium** `app/headers.py:1-12`: `clean_header()` closely duplicates");
    await openPullRequest(server, host, 2, "copy-helper-strict", { "app/headers.py": COPY("clean_header") });
    await review(server, 2, 2);
    expect(inlineComments(server, orgId, 2)).toEqual([]);
  });

  it("names a method of a class indexed whole and a long function indexed in windows, each compared whole", async () => {
    await openPullRequest(server, host, 8, "copy-whole", { "app/stock.py": REFILL, "app/summary.py": LONG("summarise_rows", "item") });
    await review(server, 8);
    const inline = inlineComments(server, orgId, 8).sort((a, b) => (a.filePath! < b.filePath! ? -1 : 1));
    expect(inline.map((c) => c.filePath)).toEqual(["app/stock.py", "app/summary.py"]);
    expect(inline[0]!.body).toContain("`refill()` closely duplicates the existing `Inventory.restock()` at `app/inventory.py:5`");
    expect(inline[1]!.body).toContain("`summarise_rows()` closely duplicates the existing `build_report()` at `app/report.py:1`");
  });

  it("says nothing when the existing function is moved or rewritten by the same change", async () => {
    await openPullRequest(server, host, 3, "move-helper", {
      "app/textutil.py": TEXTUTIL.replace(/def normalise_header[\s\S]*?return ", "\.join\(seen\)\n\n\n/, ""),
      "app/headers.py": COPY("fold_header"),
    });
    await review(server, 3);
    expect(inlineComments(server, orgId, 3)).toEqual([]);
  });

  it("stays open when only a comment in the copy changes, and is addressed when the copy calls the helper", async () => {
    const [flagged] = inlineComments(server, orgId, 1);
    const push = async (content: string, message: string, updatedAt: string) => {
      host.checkout("copy-helper");
      host.write("app/headers.py", content);
      const headSha = host.commit(message);
      host.push("copy-helper");
      const sync = pullRequestPayload(githubExample("pull_request", "synchronize"), { action: "synchronize", repo: REPO, number: 1, head: "copy-helper", headSha, base: "main", baseSha, updatedAt });
      await deliverGitHub(server, "pull_request", sync);
      await server.loupe.services.reviews.idle();
    };
    await push(`${COPY("clean_header", "# fold a header value")}\n\n${COUNT_WORDS}`, "reword the comment", "2024-05-02T10:00:00Z");
    expect(inlineComments(server, orgId, 1).find((c) => c.id === flagged!.id)!.addressed).toBe(false);
    await push(`from app.textutil import normalise_header\n\n\ndef clean_header(raw, fallback=""):\n    return normalise_header(raw, fallback)\n\n\n${COUNT_WORDS}`, "use the helper", "2024-05-03T10:00:00Z");
    expect(inlineComments(server, orgId, 1).find((c) => c.id === flagged!.id)!.addressed).toBe(true);
  });
});

const PRICING_CHANGED = PRICING.replace("return round(subtotal * (1 + tax), 2)", "return round(subtotal + subtotal * tax, 2)")
  .replace("def format_amount(value):", "def format_amount(value):\n    # two decimals")
  .replace("return x", "return x or None");

describe("untested change", () => {
  it("lists changed public functions whose tests the pull request does not touch, in the summary only", async () => {
    await openPullRequest(server, host, 4, "untested", {
      "app/pricing.py": PRICING_CHANGED,
      "app/orders.py": ORDERS.replace('raise ValueError("empty cart")', 'raise LookupError("empty cart")'),
      "app/other.py": 'def greet(name):\n    return "hello, " + name\n',
      "tests/test_other.py": 'from app.other import greet\n\n\ndef test_greet():\n    assert greet("x") == "hello, x"\n',
    });
    const id = await review(server, 4);
    const body = server.loupe.services.reviews.record(orgId, id)!.body;
    expect(body).toContain("### Tests not updated");
    const note = body.slice(body.indexOf("### Tests not updated")).split("\n\n###")[0]!;
    // By convention (tests/test_pricing.py for app/pricing.py) and through the code graph (tests/test_checkout.py uses place_order).
    expect(note).toContain("- `compute_total()` (`app/pricing.py:1`): tested in `tests/test_pricing.py`");
    expect(note).toContain("- `place_order()` (`app/orders.py:1`): tested in `tests/test_checkout.py`");
    // A comment-only change, a private function and a function whose test the PR updates are not listed.
    expect(note).not.toContain("format_amount");
    expect(note).not.toContain("_internal");
    expect(note).not.toContain("greet");
    // Never inline.
    expect(inlineComments(server, orgId, 4)).toEqual([]);
  });

  it("leaves out changes the parse shows keep the behaviour: locals renamed, statements moved into a helper the change adds", async () => {
    await openPullRequest(server, host, 7, "untested-refactor", {
      "app/pricing.py": PRICING.replace(/subtotal/g, "amount").replace('return f"{value:.2f}"', 'return f"{value:.3f}"'),
      "app/orders.py": `def _check(cart):\n    if not cart:\n        raise ValueError("empty cart")\n\n\n${ORDERS.replace('    if not cart:\n        raise ValueError("empty cart")\n', "    _check(cart)\n")}`,
    });
    const id = await review(server, 7);
    const body = server.loupe.services.reviews.record(orgId, id)!.body;
    const note = body.slice(body.indexOf("### Tests not updated")).split("\n\n###")[0]!;
    // A real change is still listed...
    expect(note).toContain("- `format_amount()` (`app/pricing.py:");
    // ...a local renamed and an extracted helper called in place of the same statements are not.
    expect(note).not.toContain("compute_total");
    expect(note).not.toContain("place_order");
  });

  it("leaves out a function whose call of a helper the change moves and renames follows it, and an exception's message reworded (httpx 41597ad, 4189b7f)", async () => {
    const moved = (body: string) => `def _place_order(cart, customer):\n    if not cart:\n        raise ValueError("empty cart")\n    return ${body}\n\n\ndef buy(cart):\n    return _place_order(cart, "me")\n`;
    // Nothing imports app/orders.py at head, so the file (only lines removed) is not reviewed: the helper's old place is still read.
    const checkout = 'from app.shop import _place_order\n\n\ndef test_place():\n    assert _place_order(["a"], "c")["lines"] == ["a"]\n';
    await openPullRequest(server, host, 20, "untested-moved-helper", {
      "app/orders.py": null,
      "app/shop.py": moved('{"customer": customer, "lines": list(cart)}'),
      "tests/test_checkout.py": checkout,
    });
    const body = server.loupe.services.reviews.record(orgId, await review(server, 20))!.body;
    expect(body).toContain("app/shop.py");
    expect(body).toContain("- `app/orders.py`: no added lines");
    expect(body).not.toContain("### Tests not updated");
    // The moved helper now does something else: buy() changes with it.
    await openPullRequest(server, host, 21, "untested-moved-changed", { "app/orders.py": null, "app/shop.py": moved('{"customer": customer.strip(), "lines": list(cart)}'), "tests/test_checkout.py": checkout });
    const changed = server.loupe.services.reviews.record(orgId, await review(server, 21))!.body;
    expect(changed).toContain("- `buy()` (`app/shop.py:7`): tested in `tests/test_shop.py`");
    // Only the message of the exception place_order() raises: not listed (another exception class is: the first test).
    await openPullRequest(server, host, 22, "untested-message", { "app/orders.py": ORDERS.replace('raise ValueError("empty cart")', 'raise ValueError("the cart is empty")') });
    const message = server.loupe.services.reviews.record(orgId, await review(server, 22))!.body;
    expect(message).toContain("app/orders.py");
    expect(message).not.toContain("### Tests not updated");
  });

  it("leaves out a warning reworded, annotations of a nested function, a trailing comma and an import moved into the body", async () => {
    const legacy = LEGACY.replace("def fetch(url, retries=3):", "def fetch(\n    url,\n    retries=3,\n):\n    import logging\n")
      .replace("def attempt(n: int) -> str:", 'def attempt(n: "Count") -> "Text":')
      .replace('warnings.warn("retries above 5 are slow", UserWarning)', 'warnings.warn(\n            "more than 5 retries"\n            " are slow",\n            UserWarning,\n            stacklevel=2,\n        )');
    await openPullRequest(server, host, 9, "untested-neutral", { "app/legacy_api.py": legacy, "app/pricing.py": PRICING_CHANGED });
    const id = await review(server, 9);
    const body = server.loupe.services.reviews.record(orgId, id)!.body;
    const note = body.slice(body.indexOf("### Tests not updated")).split("\n\n###")[0]!;
    expect(note).toContain("- `compute_total()` (`app/pricing.py:1`): tested in `tests/test_pricing.py`");
    expect(note).not.toContain("fetch");
    // The warning's category changing is a change.
    await openPullRequest(server, host, 10, "untested-category", { "app/legacy_api.py": LEGACY.replace("UserWarning", "DeprecationWarning") });
    const changed = server.loupe.services.reviews.record(orgId, await review(server, 10))!.body;
    expect(changed).toContain("- `fetch()` (`app/legacy_api.py:4`): tested in `tests/test_legacy_api.py`");
  });

  it("leaves out functions that make the same mechanical edit as another (an unused parameter dropped from each), and says so", async () => {
    const units = UNITS.replace(/, \*\*options\)/g, ")").replace("round(length / 100, 2)", "round(length / 100, 3)");
    await openPullRequest(server, host, 13, "untested-mechanical", { "app/units.py": units });
    const body = server.loupe.services.reviews.record(orgId, await review(server, 13))!.body;
    const note = body.slice(body.indexOf("### Tests not updated")).split("\n\n###")[0]!;
    expect(note).toContain("- `to_metres()` (`app/units.py:9`): tested in `tests/test_units.py`");
    expect(note).not.toContain("to_cents");
    expect(note).not.toContain("to_grams");
    expect(body).toContain("- Tests of 2 changed functions left untouched: not listed, as each makes the same edit as another changed function (removes `options`), a mechanical change.");
    // The same call swapped for another in both is a change of behaviour: listed.
    await openPullRequest(server, host, 14, "untested-swapped-call", { "app/units.py": UNITS.replace(/int\(/g, "round(") });
    const swapped = server.loupe.services.reviews.record(orgId, await review(server, 14))!.body;
    expect(swapped).toContain("- `to_cents()` (`app/units.py:1`): tested in `tests/test_units.py`");
    expect(swapped).toContain("- `to_grams()` (`app/units.py:5`): tested in `tests/test_units.py`");
    expect(swapped).not.toContain("a mechanical change");
  });

  it("counts a touched test named for the changed function's module as its test, even when it does not name it; not a test of another module", async () => {
    const rounded = UNITS.replace(/int\(/g, "round(");
    const moduleTest = 'from app import units\n\n\ndef test_rounding():\n    assert units.to_grams(0.0004) == 0\n';
    await openPullRequest(server, host, 15, "untested-module-test", { "app/units.py": rounded, "tests/test_app_units.py": moduleTest });
    const body = server.loupe.services.reviews.record(orgId, await review(server, 15))!.body;
    expect(body).toContain("app/units.py");
    expect(body).not.toContain("### Tests not updated");
    await openPullRequest(server, host, 16, "untested-other-test", { "app/units.py": rounded, "tests/test_other.py": 'from app.other import greet\n\n\ndef test_greet():\n    assert greet("y") == "hello y"\n' });
    const other = server.loupe.services.reviews.record(orgId, await review(server, 16))!.body;
    expect(other).toContain("- `to_cents()` (`app/units.py:1`): tested in `tests/test_units.py`");
  });

  it("counts a rewritten assertion of a test importing the function's file through another module, for a function with no test file of its own (httpx d293374b)", async () => {
    const orders = ORDERS.replace('return {"customer": customer, "lines": list(cart)}', 'return {"customer": customer.strip(), "lines": list(cart)}');
    const shopTest = 'from app.shop import buy\n\n\ndef test_buy():\n    assert buy(["a"])["lines"] == ["a"]\n';
    await openPullRequest(server, host, 18, "untested-rewritten-user", { "app/orders.py": orders, "tests/test_shop.py": shopTest });
    const body = server.loupe.services.reviews.record(orgId, await review(server, 18))!.body;
    expect(body).toContain("app/orders.py");
    expect(body).not.toContain("### Tests not updated");
    // Only added to, not rewritten: the note stays.
    await openPullRequest(server, host, 19, "untested-added-user", { "app/orders.py": orders, "tests/test_shop.py": `${shopTest.replace('["lines"] == ["a"]', '["customer"] == "me"')}\n\ndef test_more():\n    assert buy([])\n` });
    const added = server.loupe.services.reviews.record(orgId, await review(server, 19))!.body;
    expect(added).toContain("- `place_order()` (`app/orders.py:1`): tested in `tests/test_checkout.py`");
  });

  it("is left out when the title declares a change that keeps behaviour (refactor:, perf:, chore: ...), and says so; not for a breaking one", async () => {
    await openPullRequest(server, host, 11, "untested-refactor-title", { "app/pricing.py": PRICING_CHANGED }, "refactor(pricing): compute the tax once");
    const body = server.loupe.services.reviews.record(orgId, await review(server, 11))!.body;
    expect(body).not.toContain("### Tests not updated");
    expect(body).toContain("- Tests of 1 changed function left untouched: not listed, as the title declares a change that keeps behaviour (`refactor`).");
    await openPullRequest(server, host, 12, "untested-breaking-title", { "app/pricing.py": PRICING_CHANGED }, "refactor!: tax applied per line");
    const breaking = server.loupe.services.reviews.record(orgId, await review(server, 12))!.body;
    expect(breaking).toContain("- `compute_total()` (`app/pricing.py:1`): tested in `tests/test_pricing.py`");
  });

  it("is left out below strictness 3", async () => {
    await openPullRequest(server, host, 5, "untested-strict", { "app/pricing.py": PRICING_CHANGED });
    const id = await review(server, 5, 2);
    expect(server.loupe.services.reviews.record(orgId, id)!.body).not.toContain("Tests not updated");
  });
});

describe("with a chat model", () => {
  let chatServer: TestServer;
  let chat: FakeChat;
  let chatHost: ReturnType<typeof createHostRepo>;
  let chatOrg: string;
  beforeAll(async () => {
    chatHost = createHostRepo(REPO);
    baseSha = seed(chatHost);
    chatHost.push("main");
    chat = await startFakeChat(() => '{"findings":[]}');
    chatServer = await startTestServer({ env: { LOUPE_WEBHOOK_SECRET_GITHUB: GITHUB_SECRET, LOUPE_GITHUB_URL: chatHost.url, LOUPE_CHAT_URL: chat.base, LOUPE_CHAT_MODEL: "m" } });
    chatOrg = chatServer.loupe.services.keys.organisations()[0]!.orgId;
    await indexMain(chatServer, chatOrg);
  });
  afterAll(async () => {
    await chatServer?.stop({ remove: true });
    await chat?.close();
    chatHost?.remove();
  });

  it("gives both findings to the model as context for the files they concern", async () => {
    await openPullRequest(chatServer, chatHost, 6, "both", { "app/headers.py": COPY("clean_header"), "app/pricing.py": PRICING_CHANGED });
    await review(chatServer, 6);
    const prompts = chat.prompts();
    const headers = prompts.find((p) => p.user.includes("File: app/headers.py"))!.user;
    expect(headers).toContain("Already found from the repository's code graph (do not repeat them):");
    expect(headers).toContain("`clean_header()` closely duplicates the existing `normalise_header()` at `app/textutil.py:4`");
    const pricing = prompts.find((p) => p.user.includes("File: app/pricing.py"))!.user;
    expect(pricing).toContain("`compute_total` (line 1) changed; its tests tests/test_pricing.py are not part of this pull request.");
    expect(pricing).not.toContain("closely duplicates");
    expect(inlineComments(chatServer, chatOrg, 6).map((c) => [c.filePath, c.lineStart])).toEqual([["app/headers.py", 1]]);
  });
});
