import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.ts";
import { createGitHostFixture, type GitHostFixture } from "../support/git-fixtures.ts";
import { indexRepository, parseStream } from "./support.ts";
import { newEvent } from "../../src/eventstore/new-event.ts";

type Source = { repository: string; remote: string; branch: string; filepath: string; linestart: number | null; lineend: number | null; summary: string; distance: number | null };

const SHOP = {
  "shop/cart.py": [
    '"""Shopping cart: line items and totals."""',
    "from shop.pricing import apply_discount",
    "",
    "",
    "class Cart:",
    '    """A customer\'s cart of line items."""',
    "",
    "    def __init__(self):",
    "        self.items = []",
    "",
    "    def add_item(self, sku, quantity, unit_price):",
    '        """Adds a line item to the cart."""',
    "        self.items.append((sku, quantity, unit_price))",
    "",
    "    def total(self, coupon=None):",
    '        """Sum of the line items after the coupon discount."""',
    "        subtotal = sum(q * p for _, q, p in self.items)",
    "        return apply_discount(subtotal, coupon)",
    "",
  ].join("\n"),
  "shop/pricing.py": [
    '"""Prices, coupons and discounts."""',
    "",
    "",
    "def apply_discount(amount, coupon):",
    '    """Applies a percentage coupon to an amount; unknown coupons leave it unchanged."""',
    "    if coupon is None:",
    "        return amount",
    "    rate = COUPONS.get(coupon, 0)",
    "    return round(amount * (1 - rate), 2)",
    "",
    "",
    'COUPONS = {"SPRING10": 0.10, "VIP25": 0.25}',
    "",
  ].join("\n"),
  "tests/test_pricing.py": [
    "from shop.pricing import apply_discount",
    "",
    "",
    "def test_apply_discount():",
    '    assert apply_discount(100, "SPRING10") == 90',
    "    assert apply_discount(100, None) == 100",
    "    assert apply_discount(100, 'nope') == 100",
    "",
  ].join("\n"),
  "docs/pricing.md": "# Pricing\n\nCoupons are applied with apply_discount. A coupon gives a percentage discount.\n",
};

const BILLING = {
  "billing/invoice.py": [
    '"""Invoices for orders."""',
    "",
    "",
    "class InvoiceRenderer:",
    '    """Renders an invoice as plain text."""',
    "",
    "    def render(self, order):",
    '        lines = [f"Invoice {order.number}"]',
    "        for sku, quantity, price in order.items:",
    '            lines.append(f"{sku} x{quantity} {price}")',
    '        return "\\n".join(lines)',
    "",
  ].join("\n"),
};

describe("POST /v2/search and /v2/query (e2e)", () => {
  let server: TestServer;
  let host: GitHostFixture;
  const shop = { remote: "github", repository: "acme/shop", branch: "main" };
  const billing = { remote: "github", repository: "acme/billing" };

  beforeAll(async () => {
    host = createGitHostFixture();
    host.createRepo("acme/shop", SHOP);
    host.createRepo("acme/billing", BILLING);
    server = await startTestServer({ env: { LOUPE_GITHUB_URL: host.baseUrl } });
    await indexRepository(server, shop);
    await indexRepository(server, billing);
  }, 120_000);

  afterAll(async () => {
    await server?.stop({ remove: true });
    host?.cleanup();
  });

  const search = (json: unknown, headers: Record<string, string> = {}) => server.api("/v2/search", { method: "POST", json, headers });

  it("returns the defining source file first, with a span, a summary and a distance", async () => {
    const res = await search({ query: "where is apply_discount defined?", repositories: [shop] });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-session-id")).toMatch(/^[0-9A-Z]{26}$/);
    const results = (await res.json()) as Source[];
    expect(results[0]).toMatchObject({ repository: "acme/shop", remote: "github", branch: "main", filepath: "shop/pricing.py", linestart: 4, lineend: 9 });
    expect(results[0]!.summary).toContain("apply_discount");
    expect(results[0]!.distance).toBe(0);
    for (const r of results) expect(r.distance).toBeGreaterThanOrEqual(0);
    // Source beats the test and the docs that mention the same name.
    const paths = results.map((r) => r.filepath);
    expect(paths.indexOf("shop/pricing.py")).toBeLessThan(paths.indexOf("tests/test_pricing.py"));
  });

  it("a search naming a method gives that method's lines, not its class's", async () => {
    const res = await search({ query: "add_item", repositories: [shop] });
    const results = (await res.json()) as Source[];
    expect(results[0]).toMatchObject({ filepath: "shop/cart.py", linestart: 11, lineend: 13 });
  });

  it("searches several repositories in one request; branch omitted = the default branch indexed", async () => {
    const res = await search({ query: "InvoiceRenderer render and the Cart total", repositories: [shop, billing] });
    expect(res.status).toBe(200);
    const results = (await res.json()) as Source[];
    const repos = new Set(results.map((r) => r.repository));
    expect(repos).toEqual(new Set(["acme/shop", "acme/billing"]));
    expect(results.find((r) => r.repository === "acme/billing")).toMatchObject({ branch: "main", filepath: "billing/invoice.py" });
  });

  it("streams NDJSON: status lines, the sources, then an empty status", async () => {
    const res = await search({ query: "apply_discount", repositories: [shop], stream: true });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/x-ndjson");
    const lines = parseStream(await res.text(), false);
    expect(lines[0]!.type).toBe("status");
    const sources = lines.find((l) => l.type === "sources")!.message as Source[];
    expect(sources[0]!.filepath).toBe("shop/pricing.py");
    expect(lines[lines.length - 1]).toEqual({ type: "status", message: "" });
  });

  it("streams Server-Sent Events when the client accepts text/event-stream", async () => {
    const res = await search({ query: "apply_discount", repositories: [shop], stream: true }, { accept: "text/event-stream" });
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const lines = parseStream(await res.text(), true);
    expect(lines.some((l) => l.type === "sources")).toBe(true);
    expect(lines[lines.length - 1]).toEqual({ type: "status", message: "" });
  });

  it("answers a query offline with an extractive markdown answer citing files and lines; unknown fields are ignored", async () => {
    const res = await server.api("/v2/query", {
      method: "POST",
      json: { messages: [{ id: "1", role: "user", content: "How are coupons applied to the cart total?" }], repositories: [shop], jsonMode: true, genius: true },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { message: string; sources: Source[] };
    expect(body.message).toContain("shop/pricing.py");
    expect(body.message).toMatch(/lines \d+–\d+/);
    expect(body.message).toContain("apply_discount");
    expect(body.sources.map((s) => s.filepath)).toContain("shop/cart.py");
  });

  it("streams a query: message deltas that add up to the answer, sources, final empty status", async () => {
    const res = await server.api("/v2/query", { method: "POST", json: { messages: [{ role: "user", content: "What does Cart.total return?" }], repositories: [shop], stream: true } });
    const lines = parseStream(await res.text(), false);
    const answer = lines.filter((l) => l.type === "message").map((l) => l.message as string).join("");
    expect(answer).toContain("shop/cart.py");
    expect(lines.find((l) => l.type === "sources")).toBeTruthy();
    expect(lines[lines.length - 1]).toEqual({ type: "status", message: "" });
  });

  it("records sessions: follow-ups share the session, GET returns the turns, other organisations see nothing", async () => {
    const first = await server.api("/v2/query", { method: "POST", json: { messages: [{ role: "user", content: "Where are coupons defined?" }], repositories: [shop] } });
    const sessionId = first.headers.get("x-session-id")!;
    expect(sessionId).toBeTruthy();
    const second = await server.api("/v2/query", { method: "POST", json: { sessionId, messages: [{ role: "user", content: "and which function uses them?" }], repositories: [shop] } });
    expect(second.headers.get("x-session-id")).toBe(sessionId);
    const followUp = (await second.json()) as { sources: Source[] };
    // The earlier question (coupons) carries into the retrieval of the vague follow-up.
    expect(followUp.sources[0]!.filepath).toBe("shop/pricing.py");

    const session = (await (await server.api(`/v2/query/${sessionId}`)).json()) as { sessionId: string; turns: { question: string; answer: { message: string; sources: Source[] } | null }[] };
    expect(session.sessionId).toBe(sessionId);
    expect(session.turns.map((t) => t.question)).toEqual(["Where are coupons defined?", "and which function uses them?"]);
    expect(session.turns[1]!.answer!.sources.length).toBeGreaterThan(0);

    const org = (await (await server.api("/v2/organisations", { method: "POST", json: { name: "other" } })).json()) as { adminKey: { key: string } };
    expect((await server.api(`/v2/query/${sessionId}`, { key: org.adminKey.key })).status).toBe(404);
    // Their searches cannot reach this organisation's repositories either.
    const foreign = await server.api("/v2/search", { method: "POST", key: org.adminKey.key, json: { query: "apply_discount", repositories: [shop] } });
    expect(foreign.status).toBe(404);
  });

  it("a search session records the search with its sources", async () => {
    const res = await search({ query: "InvoiceRenderer", repositories: [billing], sessionId: "my-session-1" });
    expect(res.headers.get("x-session-id")).toBe("my-session-1");
    const answered = (await res.json()) as Source[];
    const session = (await (await server.api("/v2/query/my-session-1")).json()) as { turns: { kind: string; answer: { sources: Source[] } }[] };
    expect(session.turns[0]!.kind).toBe("search");
    expect(session.turns[0]!.answer.sources[0]!.filepath).toBe("billing/invoice.py");
    // The session gives back the references as answered, summaries included...
    expect(session.turns[0]!.answer.sources).toEqual(answered);
    expect(answered[0]!.summary).toContain("InvoiceRenderer");
    // ...although the log keeps only where they point: the summaries are the code index's.
    const events = await server.loupe.services.eventStore.readAll({ fromPosition: 0, maxCount: 100_000 });
    const searched = events.filter((e) => e.type === "QuerySessionSearched" && e.data.sessionId === "my-session-1");
    expect(searched).toHaveLength(1);
    expect(searched[0]!.schemaVersion).toBe(2);
    const recorded = searched[0]!.data.sources as Record<string, unknown>[];
    expect(recorded.map((r) => r.filepath)).toEqual(answered.map((a) => a.filepath));
    for (const r of recorded) expect(r).not.toHaveProperty("summary");
  });

  it("a search turn recorded before v2 keeps the summaries it was answered with", async () => {
    const { eventStore, keys, runner } = server.loupe.services;
    const orgId = keys.organisations()[0]!.orgId;
    const ctx = { orgId, actor: "test", correlationId: "v1-turn" };
    const reference = { repository: "acme/billing", remote: "github", branch: "main", filepath: "billing/invoice.py", linestart: 1, lineend: 3, distance: 0 };
    const data = { sessionId: "v1-session", turnId: "01J00000000000000000000000", question: "invoices", repositories: [{ ...billing, branch: "main" }], genius: false, notes: [], ms: 3 };
    const { lastPosition } = await eventStore.appendToStream(`querysession-${orgId}-v1-session`, [
      newEvent("QuerySessionSearched", { ...data, sources: [{ ...reference, summary: "as answered then" }] }, ctx, 1),
    ]);
    await runner.waitForPosition(lastPosition, 10_000);
    const session = (await (await server.api("/v2/query/v1-session")).json()) as { turns: { answer: { sources: Source[] } }[] };
    expect(session.turns[0]!.answer.sources).toEqual([{ ...reference, summary: "as answered then" }]);
    // v2 has no summary field: one given is not recorded.
    await eventStore.appendToStream(`querysession-${orgId}-v1-session`, [
      newEvent("QuerySessionSearched", { ...data, turnId: "01J00000000000000000000001", sources: [{ ...reference, summary: "dropped" }] }, ctx, 2),
    ]);
    expect(JSON.stringify((await eventStore.readAll({ fromPosition: lastPosition + 1 })).map((e) => e.data))).not.toContain("dropped");
  });

  it("keeps an acknowledged search session across an immediate restart", async () => {
    const res = await search({ query: "apply_discount", repositories: [shop], sessionId: "durable-session" });
    expect(res.status).toBe(200);
    // Stop right after the response: what was acknowledged must already be in the log.
    await server.stop();
    server = await startTestServer({ dataDir: server.dataDir, env: { LOUPE_GITHUB_URL: host.baseUrl } });
    const session = (await (await server.api("/v2/query/durable-session")).json()) as { turns: { kind: string; question: string }[] };
    expect(session.turns.map((t) => [t.kind, t.question])).toEqual([["search", "apply_discount"]]);
  });

  it("refuses bad input with 4xx and clear messages", async () => {
    const cases: [unknown, number, RegExp][] = [
      [{ query: "", repositories: [shop] }, 400, /query: must not be empty/],
      [{ query: "   ", repositories: [shop] }, 400, /query: must not be empty/],
      [{ query: "x", repositories: [] }, 400, /repositories: name at least one repository/],
      [{ query: "x" }, 400, /repositories/],
      [{ query: 42, repositories: [shop] }, 400, /query: must be a string/],
      [{ query: "x", repositories: [{ remote: "sourceforge", repository: "a/b" }] }, 400, /remote: must be one of/],
      [{ query: "x", repositories: [{ remote: "github", repository: "no-slash" }] }, 400, /owner\/repo/],
      [{ query: "x", repositories: [shop], stream: "yes" }, 400, /stream: must be a boolean/],
    ];
    for (const [json, status, message] of cases) {
      const res = await search(json);
      expect(res.status, JSON.stringify(json)).toBe(status);
      expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(message);
    }
    const badJson = await server.api("/v2/search", { method: "POST", body: "{nope", headers: { "content-type": "application/json" } });
    expect(badJson.status).toBe(400);
    const huge = await search({ query: "x".repeat(10 * 1024 * 1024), repositories: [shop] });
    expect(huge.status).toBe(413);
    const noUser = await server.api("/v2/query", { method: "POST", json: { messages: [{ role: "assistant", content: "hi" }], repositories: [shop] } });
    expect(noUser.status).toBe(400);
    expect(((await noUser.json()) as { error: { message: string } }).error.message).toMatch(/user message/);
  });

  it("answers a 20,000-character word (a pasted hex dump, a token) and keeps serving meanwhile", async () => {
    // Shapes that made a file-name pattern backtrack (cubically in the word's length) and froze the server.
    const hex = Array.from({ length: 20_000 }, (_, i) => "0123456789abcdef"[(i * 7) % 16]).join("");
    const words = ["a".repeat(20_000), "a/".repeat(10_000), "a-".repeat(10_000), hex];
    for (const word of words) {
      const health = (async () => {
        await new Promise((r) => setTimeout(r, 50));
        return (await server.api("/healthz")).status;
      })();
      const res = await search({ query: `crash when parsing ${word} in the shop`, repositories: [shop] });
      expect(res.status, word.slice(0, 12)).toBe(200);
      expect(Array.isArray(await res.json())).toBe(true);
      expect(await health).toBe(200);
      const query = await server.api("/v2/query", { method: "POST", json: { messages: [{ role: "user", content: word }], repositories: [shop] } });
      expect(query.status).toBe(200);
      await query.text();
    }
  });

  it("answers a pasted literal full of backslashes, a run of backticks and a question of 99,000 capitals, and keeps serving", async () => {
    // Shapes that made a pattern of the query analysis or of the offline answer backtrack: the literal
    // exponentially (minutes for 20 `\\`), the others quadratically (20 s for the question).
    const literal = "```python\nx = \"" + "\\\\\u0000".repeat(40) + "\\\n```";
    const queries = [`why does this crash\n${literal}`, `see ${"`".repeat(20_000)} in the shop`];
    for (const query of queries) {
      const health = (async () => {
        await new Promise((r) => setTimeout(r, 50));
        return (await server.api("/healthz")).status;
      })();
      const res = await search({ query, repositories: [shop] });
      expect(res.status, query.slice(0, 20)).toBe(200);
      expect(Array.isArray(await res.json())).toBe(true);
      expect(await health).toBe(200);
    }
    const question = await server.api("/v2/query", { method: "POST", json: { messages: [{ role: "user", content: `what is ${"A".repeat(99_000)}` }], repositories: [shop] } });
    expect(question.status).toBe(200);
    await question.text();
  });

  it("reports unknown repositories and branches with 404 naming them", async () => {
    const unknown = await search({ query: "x", repositories: [shop, { remote: "github", repository: "acme/nothing" }] });
    expect(unknown.status).toBe(404);
    const body = (await unknown.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("repository_not_found");
    expect(body.error.message).toContain("github:(default branch):acme/nothing");
    const branch = await search({ query: "x", repositories: [{ ...shop, branch: "nope" }] });
    expect(branch.status).toBe(404);
    expect(((await branch.json()) as { error: { message: string } }).error.message).toContain("github:nope:acme/shop");
  });
});
