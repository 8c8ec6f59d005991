import { afterEach, describe, expect, it } from "vitest";
import { LlmError } from "../../src/models/errors.ts";
import { createOpenAiEmbedder } from "../../src/models/openai-embedder.ts";
import { closedPortUrl, delay, json, startServer, type FakeServer, type RecordedRequest } from "./fake-server.ts";

const KEY = "sk-test-7f3a9c1e5b2d4f6a8c0e";
const fast = { baseDelayMs: 1, maxDelayMs: 5 };

/** Embedding of "t<n>" is [n, batch size]; data returned in reverse order to test index ordering. */
function embeddingsReply(req: RecordedRequest) {
  const input = req.body.input as string[];
  const data = input.map((t, index) => ({ object: "embedding", index, embedding: [Number(t.slice(1)), input.length] }));
  return { object: "list", model: req.body.model, data: data.reverse() };
}

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("createOpenAiEmbedder", () => {
  it("sends batches of at most batchSize and returns vectors in input order", async () => {
    server = await startServer((req, res) => json(res, 200, embeddingsReply(req)));
    const embedder = createOpenAiEmbedder({ baseUrl: server.url, model: "nomic-embed-text", batchSize: 64 });
    expect(embedder.dimensions).toBeNull();
    const texts = Array.from({ length: 150 }, (_, i) => `t${i}`);
    const vectors = await embedder.embed(texts);

    expect(vectors.map((v) => v[0])).toEqual(texts.map((_, i) => i));
    expect(server.requests.map((r) => r.body.input.length).sort((a, b) => b - a)).toEqual([64, 64, 22]);
    expect(server.requests.every((r) => r.path === "/v1/embeddings" && r.method === "POST")).toBe(true);
    expect(server.requests[0]?.body.model).toBe("nomic-embed-text");
    expect(embedder.dimensions).toBe(2);
  });

  it("accepts a base URL that already ends in /v1", async () => {
    server = await startServer((req, res) => json(res, 200, embeddingsReply(req)));
    const embedder = createOpenAiEmbedder({ baseUrl: `${server.url}/v1/`, model: "m" });
    await embedder.embed(["t1"]);
    expect(server.requests[0]?.path).toBe("/v1/embeddings");
  });

  it("keeps at most `concurrency` requests in flight, across concurrent embed calls", async () => {
    server = await startServer(async (req, res) => {
      await delay(40);
      json(res, 200, embeddingsReply(req));
    });
    const embedder = createOpenAiEmbedder({ baseUrl: server.url, model: "m", batchSize: 5, concurrency: 3 });
    const a = Array.from({ length: 40 }, (_, i) => `t${i}`);
    const b = Array.from({ length: 40 }, (_, i) => `t${i + 1000}`);
    const [va, vb] = await Promise.all([embedder.embed(a), embedder.embed(b)]);

    expect(server.requests).toHaveLength(16);
    expect(server.inFlight.max).toBe(3);
    expect(va.map((v) => v[0])).toEqual(a.map((_, i) => i));
    expect(vb.map((v) => v[0])).toEqual(b.map((_, i) => i + 1000));
  });

  it("retries a 429 after the Retry-After delay", async () => {
    server = await startServer((req, res) => {
      if (server!.requests.length === 1) return json(res, 429, { error: { message: "slow down" } }, { "retry-after": "1" });
      json(res, 200, embeddingsReply(req));
    });
    const embedder = createOpenAiEmbedder({ baseUrl: server.url, model: "m", retry: fast });
    const vectors = await embedder.embed(["t7"]);

    expect(vectors).toEqual([[7, 1]]);
    expect(server.requests).toHaveLength(2);
    const waited = server.requests[1]!.at - server.requests[0]!.at;
    expect(waited).toBeGreaterThanOrEqual(950);
  });

  it("retries 500s with backoff and succeeds", async () => {
    server = await startServer((req, res) => {
      if (server!.requests.length <= 2) return json(res, 500, { error: { message: "boom" } });
      json(res, 200, embeddingsReply(req));
    });
    const embedder = createOpenAiEmbedder({ baseUrl: server.url, model: "m", retry: fast });
    expect(await embedder.embed(["t3"])).toEqual([[3, 1]]);
    expect(server.requests).toHaveLength(3);
  });

  it("gives up after maxRetries retries with the last status", async () => {
    server = await startServer((_req, res) => json(res, 503, { error: { message: "overloaded" } }));
    const embedder = createOpenAiEmbedder({ baseUrl: server.url, model: "m", maxRetries: 2, retry: fast });
    const err = await embedder.embed(["t1"]).catch((e: unknown) => e);

    expect(err).toBeInstanceOf(LlmError);
    expect(err).toMatchObject({ kind: "http", status: 503, attempts: 3, retryable: true });
    expect(server.requests).toHaveLength(3);
  });

  it("does not retry a 400 and reports the server's message", async () => {
    server = await startServer((_req, res) =>
      json(res, 400, { error: { message: "input is too long", type: "invalid_request_error" } }),
    );
    const embedder = createOpenAiEmbedder({ baseUrl: server.url, model: "m", retry: fast });
    const err = await embedder.embed(["t1"]).catch((e: unknown) => e);

    expect(err).toMatchObject({ kind: "http", status: 400, attempts: 1, retryable: false });
    expect((err as Error).message).toContain("input is too long");
    expect(server.requests).toHaveLength(1);
  });

  it("retries a dropped connection", async () => {
    server = await startServer((req, res, raw) => {
      if (server!.requests.length === 1) return void raw.socket.destroy();
      json(res, 200, embeddingsReply(req));
    });
    const embedder = createOpenAiEmbedder({ baseUrl: server.url, model: "m", retry: fast });
    expect(await embedder.embed(["t5"])).toEqual([[5, 1]]);
    expect(server.requests).toHaveLength(2);
  });

  it("times out a request that gets no answer, retrying timeouts", async () => {
    server = await startServer(() => undefined); // never answers
    const embedder = createOpenAiEmbedder({ baseUrl: server.url, model: "m", timeoutMs: 150, maxRetries: 1, retry: fast });
    const started = Date.now();
    const err = await embedder.embed(["t1"]).catch((e: unknown) => e);

    expect(err).toBeInstanceOf(LlmError);
    expect(err).toMatchObject({ kind: "timeout", attempts: 2 });
    expect(server.requests).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("stops at once when the caller aborts", async () => {
    server = await startServer(() => undefined);
    const embedder = createOpenAiEmbedder({ baseUrl: server.url, model: "m", timeoutMs: 10_000 });
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(new Error("caller gave up")), 100);
    const err = await embedder.embed(["t1"], { signal: ctl.signal }).catch((e: unknown) => e);
    expect((err as Error).message).toBe("caller gave up");
    expect(server.requests).toHaveLength(1);
  });

  it("sends the API key as a bearer token and keeps it out of errors", async () => {
    server = await startServer((_req, res) =>
      json(res, 401, { error: { message: `Incorrect API key provided: ${KEY}` } }),
    );
    const embedder = createOpenAiEmbedder({ baseUrl: server.url, model: "m", apiKey: KEY });
    const err = (await embedder.embed(["t1"]).catch((e: unknown) => e)) as LlmError;

    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(err.status).toBe(401);
    expect(err.message).toContain("Incorrect API key provided: [redacted]");
    expect(`${err.message} ${err.stack} ${JSON.stringify(err)}`).not.toContain(KEY);
  });

  it("keeps the API key out of network errors, even when it is in the URL", async () => {
    const url = await closedPortUrl();
    const embedder = createOpenAiEmbedder({ baseUrl: `${url}/v1?key=${KEY}`, model: "m", apiKey: KEY, maxRetries: 1, retry: fast });
    const err = (await embedder.embed(["t1"]).catch((e: unknown) => e)) as LlmError;
    expect(err.kind).toBe("network");
    expect(err.attempts).toBe(2);
    expect(`${err.message} ${err.stack}`).not.toContain(KEY);
  });

  it("truncates long inputs and replaces empty ones", async () => {
    server = await startServer((req, res) =>
      json(res, 200, { data: (req.body.input as string[]).map((_t, index) => ({ index, embedding: [0.5] })) }),
    );
    const embedder = createOpenAiEmbedder({ baseUrl: server.url, model: "m", maxInputChars: 10 });
    await embedder.embed(["x".repeat(50), "", "short", `${"a".repeat(9)}😀tail`]);
    expect(server.requests[0]?.body.input).toEqual(["x".repeat(10), " ", "short", "a".repeat(9)]);
  });

  it("rejects a response with the wrong number of vectors without retrying", async () => {
    server = await startServer((_req, res) => json(res, 200, { data: [{ index: 0, embedding: [1, 2] }] }));
    const embedder = createOpenAiEmbedder({ baseUrl: server.url, model: "m", retry: fast });
    const err = await embedder.embed(["t1", "t2"]).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: "response" });
    expect(server.requests).toHaveLength(1);
  });

  it("returns [] for no texts without calling the server", async () => {
    server = await startServer((req, res) => json(res, 200, embeddingsReply(req)));
    const embedder = createOpenAiEmbedder({ baseUrl: server.url, model: "m" });
    expect(await embedder.embed([])).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });
});
