/**
 * The custom-context limits hold at every face: a body over the limit, or a PATTERN with a regex over
 * the review engine's cost limit, is refused up front, naming `body` and the limit (HTTP 400, MCP
 * -32602, GraphQL error, a console page that keeps the text), and nothing is appended to the log. The limits are declared once (events.ts) and shared by the event
 * schemas and the faces' schemas.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startTestServer, type TestServer } from "../support/server.ts";
import { launchChromium, chromiumAvailable, type Browser } from "../support/browser.ts";
import { CUSTOM_CONTEXT_LIMITS } from "../../src/features/custom-context/events.ts";
import { MAX_NFA_STATES } from "../../src/review/safe-regex.ts";

let server: TestServer;
const LIMIT = CUSTOM_CONTEXT_LIMITS.body;
const tooLong = "x ".repeat(30_000); // 60,000 characters

beforeAll(async () => {
  server = await startTestServer();
}, 60_000);

afterAll(async () => {
  await server?.stop({ remove: true });
});

const head = () => server.loupe.services.eventStore.headPosition();

describe("custom context over the limit", () => {
  it("is the 50,000 characters the event schema holds", () => {
    expect(LIMIT).toBe(50_000);
  });

  it("HTTP: POST /v2/custom-context answers 400 naming body and the limit, and records nothing", async () => {
    const before = await head();
    const res = await server.api("/v2/custom-context", { method: "POST", json: { body: tooLong } });
    expect(res.status).toBe(400);
    const text = await res.text();
    expect(text).toContain("body");
    expect(text).toContain(String(LIMIT));
    expect(await head()).toBe(before);
    // At the limit it is accepted.
    const ok = await server.api("/v2/custom-context", { method: "POST", json: { body: "y".repeat(LIMIT) } });
    expect(ok.status).toBe(201);
  });

  it("MCP: create_custom_context is refused with -32602 naming body and the limit, and records nothing", async () => {
    const client = new Client({ name: "loupe-limits-test", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${server.adminKey}` } } });
    await client.connect(transport);
    try {
      const before = await head();
      const error = await client.callTool({ name: "create_custom_context", arguments: { body: tooLong } }).then(
        () => null,
        (e: unknown) => e as Error & { code?: number },
      );
      expect(error).not.toBeNull();
      expect(error!.code).toBe(-32602);
      expect(error!.message).toContain("body");
      expect(error!.message).toContain(String(LIMIT));
      expect(await head()).toBe(before);
    } finally {
      await client.close();
    }
  });

  it("GraphQL: createCustomContext is refused naming body and the limit, and records nothing", async () => {
    const before = await head();
    const res = await server.api("/graphql", {
      method: "POST",
      json: { query: "mutation($body: String!) { createCustomContext(body: $body) { id } }", variables: { body: tooLong } },
    });
    const json = (await res.json()) as { data?: unknown; errors?: { message: string }[] };
    expect(json.errors?.length).toBeGreaterThan(0);
    expect(json.errors![0]!.message).toContain("body");
    expect(json.errors![0]!.message).toContain(String(LIMIT));
    expect(await head()).toBe(before);
    // The same limit as the other faces: a body between 20,000 and 50,000 characters is accepted.
    const ok = (await (
      await server.api("/graphql", { method: "POST", json: { query: "mutation($body: String!) { createCustomContext(body: $body) { id } }", variables: { body: "z".repeat(30_000) } } })
    ).json()) as { data?: { createCustomContext: { id: string } }; errors?: unknown };
    expect(ok.errors).toBeUndefined();
    expect(ok.data?.createCustomContext.id).toBeTruthy();
  });

  it("the service refuses an update over the limit as invalid input (no 500, nothing appended)", async () => {
    const orgId = server.loupe.services.keys.organisations()[0]!.orgId;
    const ctx = { orgId, actor: "test", correlationId: "limits", causationId: null };
    const { customContext } = await server.loupe.services.customContext.create(orgId, { body: "short" }, ctx);
    const before = await head();
    await expect(server.loupe.services.customContext.update(orgId, customContext.id, { body: tooLong }, ctx)).rejects.toMatchObject({
      code: "invalid",
      message: expect.stringContaining(`body: must be at most ${LIMIT} characters`),
    });
    expect(await head()).toBe(before);
  });
});

describe("a PATTERN whose regex costs more than the review engine's budget per line", () => {
  // About 4,800 automaton states: 0.5 s per 4,000-character line with the old limit of 5,000 states.
  const costly = "Never write /[a-z]{0,2400}y/ in a handler.";
  const limitNamed = (text: string) => {
    expect(text).toContain("body");
    expect(text).toContain(`over the limit of ${MAX_NFA_STATES}`);
  };

  it("HTTP: POST /v2/custom-context answers 400 naming body and the limit, and records nothing", async () => {
    const before = await head();
    const res = await server.api("/v2/custom-context", { method: "POST", json: { type: "PATTERN", body: costly } });
    expect(res.status).toBe(400);
    limitNamed(await res.text());
    expect(await head()).toBe(before);
    // The same text as an instruction is no pattern, and a regex within the limit is accepted.
    expect((await server.api("/v2/custom-context", { method: "POST", json: { type: "CUSTOM_INSTRUCTION", body: costly } })).status).toBe(201);
    expect((await server.api("/v2/custom-context", { method: "POST", json: { type: "PATTERN", body: "Never write /[a-z]{0,40}y/ in a handler." } })).status).toBe(201);
  });

  it("MCP: create_custom_context is refused with -32602 naming body and the limit, and records nothing", async () => {
    const client = new Client({ name: "loupe-limits-test", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${server.adminKey}` } } });
    await client.connect(transport);
    try {
      const before = await head();
      const error = await client.callTool({ name: "create_custom_context", arguments: { type: "PATTERN", body: costly } }).then(
        () => null,
        (e: unknown) => e as Error & { code?: number },
      );
      expect(error?.code).toBe(-32602);
      limitNamed(error!.message);
      expect(await head()).toBe(before);
    } finally {
      await client.close();
    }
  });

  it("GraphQL: createCustomContext is refused naming body and the limit, and records nothing", async () => {
    const before = await head();
    const res = await server.api("/graphql", {
      method: "POST",
      json: { query: "mutation($body: String!) { createCustomContext(body: $body, type: PATTERN) { id } }", variables: { body: costly } },
    });
    const json = (await res.json()) as { data?: unknown; errors?: { message: string; extensions?: { code?: string; details?: { issues?: { path: string }[] } } }[] };
    expect(json.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(json.errors?.[0]?.extensions?.details?.issues?.map((i) => i.path)).toEqual(["body"]);
    limitNamed(json.errors![0]!.message);
    expect(await head()).toBe(before);
  });

  it("an edit of a PATTERN's body to such a regex is refused too (nothing appended)", async () => {
    const orgId = server.loupe.services.keys.organisations()[0]!.orgId;
    const ctx = { orgId, actor: "test", correlationId: "costly", causationId: null };
    const { customContext } = await server.loupe.services.customContext.create(orgId, { type: "PATTERN", body: "Avoid `eval`." }, ctx);
    const before = await head();
    await expect(server.loupe.services.customContext.update(orgId, customContext.id, { body: costly }, ctx)).rejects.toMatchObject({
      code: "invalid",
      message: expect.stringContaining(`over the limit of ${MAX_NFA_STATES}`),
    });
    expect(await head()).toBe(before);
  });
});

describe.skipIf(!chromiumAvailable())("console: custom context over the limit", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it("keeps the typed text in the form with the error shown, on create and on edit", async () => {
    const page = await browser.context.newPage();
    await page.goto(`${server.baseUrl}/console/sign-in`);
    await page.getByLabel("API key").fill(server.adminKey);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/console\/repositories/);

    await page.goto(`${server.baseUrl}/console/custom-context`);
    const before = await head();
    await page.locator("#body").fill(tooLong);
    await page.locator("#create-context").getByRole("button", { name: "Create" }).click();
    await page.waitForLoadState();
    expect(await page.locator("h1").first().textContent()).toBe("Custom context");
    await expect.poll(() => page.getByRole("alert").first().textContent()).toContain(`body: must be at most ${LIMIT} characters`);
    expect(await page.locator("#body").inputValue()).toBe(tooLong);
    expect(await head()).toBe(before);

    // A PATTERN whose regex is over the review engine's cost limit: refused the same way.
    const costly = "Never write /[a-z]{0,2400}y/ in a handler.";
    await page.locator("#create-context").locator('select[name="type"]').selectOption("PATTERN");
    await page.locator("#body").fill(costly);
    await page.locator("#create-context").getByRole("button", { name: "Create" }).click();
    await page.waitForLoadState();
    await expect.poll(() => page.getByRole("alert").first().textContent()).toContain(`over the limit of ${MAX_NFA_STATES}`);
    expect(await page.locator("#body").inputValue()).toBe(costly);
    expect(await head()).toBe(before);
    await page.locator("#create-context").locator('select[name="type"]').selectOption("CUSTOM_INSTRUCTION");

    await page.locator("#body").fill("Name the unit in every duration");
    await page.locator("#create-context").getByRole("button", { name: "Create" }).click();
    await page.waitForURL(/\/console\/custom-context\/[0-9a-f-]{36}/);
    const pasted = "y".repeat(250_000);
    const beforeEdit = await head();
    await page.locator("#edit-body").fill(pasted);
    await page.locator("#edit-context").getByRole("button", { name: "Save" }).click();
    await page.waitForLoadState();
    await expect.poll(() => page.getByRole("alert").first().textContent()).toContain(`body: must be at most ${LIMIT} characters`);
    expect(await page.locator("#edit-body").inputValue()).toBe(pasted);
    expect(await head()).toBe(beforeEdit);
    await page.close();
  }, 60_000);
});
