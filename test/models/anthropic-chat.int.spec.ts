import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { createAnthropicChat } from "../../src/models/anthropic-chat.ts";
import { LlmError } from "../../src/models/errors.ts";
import { json, startServer, writeInPieces, type FakeServer } from "./fake-server.ts";

const KEY = "sk-ant-api03-Qm4rT9vX2kL8";
const fast = { baseDelayMs: 1, maxDelayMs: 5 };

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The event sequence of the Messages API streaming format. */
function sseBody(deltas: string[]): string {
  const ev = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  return (
    ev("message_start", { message: { id: "msg_1", type: "message", role: "assistant", content: [], usage: { input_tokens: 10, output_tokens: 1 } } }) +
    ev("content_block_start", { index: 0, content_block: { type: "text", text: "" } }) +
    ev("ping", {}) +
    deltas.map((text) => ev("content_block_delta", { index: 0, delta: { type: "text_delta", text } })).join("") +
    ev("content_block_stop", { index: 0 }) +
    ev("message_delta", { delta: { stop_reason: "end_turn" }, usage: { output_tokens: 15 } }) +
    ev("message_stop", {})
  );
}

function startSse(res: ServerResponse) {
  res.writeHead(200, { "content-type": "text/event-stream" });
}

describe("createAnthropicChat", () => {
  it("completes: Messages API body, x-api-key and anthropic-version headers", async () => {
    server = await startServer((_req, res) =>
      json(res, 200, {
        id: "msg_1",
        type: "message",
        role: "assistant",
        content: [
          { type: "text", text: "It is configured in " },
          { type: "text", text: "src/models/http.ts." },
        ],
        stop_reason: "end_turn",
      }),
    );
    const chat = createAnthropicChat({ baseUrl: server.url, model: "claude-sonnet-4-5", apiKey: KEY });
    const answer = await chat.complete({
      system: "Answer briefly.",
      messages: [{ role: "user", content: "Where is the retry policy configured?" }],
      temperature: 0,
    });

    expect(answer).toBe("It is configured in src/models/http.ts.");
    const req = server.requests[0]!;
    expect(req.path).toBe("/v1/messages");
    expect(req.headers["x-api-key"]).toBe(KEY);
    expect(req.headers["anthropic-version"]).toBe("2023-06-01");
    expect(req.headers.authorization).toBeUndefined();
    expect(req.body).toEqual({
      model: "claude-sonnet-4-5",
      max_tokens: 1024,
      system: "Answer briefly.",
      messages: [{ role: "user", content: "Where is the retry policy configured?" }],
      temperature: 0,
    });
  });

  it("streams text deltas from SSE chunks split at awkward byte boundaries", async () => {
    const deltas = ["Ça ", "marche", " 🚀", "\n\nline two"];
    server = await startServer(async (_req, res) => {
      startSse(res);
      await writeInPieces(res, sseBody(deltas), 5);
      res.end();
    });
    const chat = createAnthropicChat({ baseUrl: `${server.url}/v1/`, model: "m", apiKey: KEY });
    const got: string[] = [];
    for await (const d of chat.stream({ messages: [{ role: "user", content: "hi" }], maxTokens: 50 })) got.push(d);

    expect(got).toEqual(deltas);
    expect(server.requests[0]?.body).toMatchObject({ stream: true, max_tokens: 50 });
  });

  it("retries 529 overloaded on the initial request, honouring Retry-After", async () => {
    server = await startServer((_req, res) => {
      if (server!.requests.length === 1) {
        return json(res, 529, { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }, { "retry-after": "0.3" });
      }
      startSse(res);
      res.end(sseBody(["fine"]));
    });
    const chat = createAnthropicChat({ baseUrl: server.url, model: "m", apiKey: KEY, retry: fast });
    const got: string[] = [];
    for await (const d of chat.stream({ messages: [{ role: "user", content: "hi" }] })) got.push(d);
    expect(got).toEqual(["fine"]);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.at - server.requests[0]!.at).toBeGreaterThanOrEqual(280);
  });

  it("does not retry 400 and keeps the key out of the error", async () => {
    server = await startServer((_req, res) =>
      json(res, 400, { type: "error", error: { type: "invalid_request_error", message: `bad key ${KEY}` } }),
    );
    const chat = createAnthropicChat({ baseUrl: server.url, model: "m", apiKey: KEY, retry: fast });
    const err = (await chat.complete({ messages: [{ role: "user", content: "hi" }] }).catch((e: unknown) => e)) as LlmError;
    expect(err).toBeInstanceOf(LlmError);
    expect(err).toMatchObject({ status: 400, attempts: 1 });
    expect(err.message).toContain("invalid_request_error: bad key [redacted]");
    expect(`${err.message} ${err.stack}`).not.toContain(KEY);
    expect(server.requests).toHaveLength(1);
  });

  it("surfaces an error event inside the stream", async () => {
    server = await startServer((_req, res) => {
      startSse(res);
      res.end(
        `event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hel"}}\n\n` +
          `event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n`,
      );
    });
    const chat = createAnthropicChat({ baseUrl: server.url, model: "m", apiKey: KEY });
    const got: string[] = [];
    const err = await (async () => {
      for await (const d of chat.stream({ messages: [{ role: "user", content: "hi" }] })) got.push(d);
    })().catch((e: unknown) => e);
    expect(got).toEqual(["Hel"]);
    expect(err).toMatchObject({ kind: "stream", retryable: true });
    expect((err as Error).message).toContain("overloaded_error: Overloaded");
  });

  it("fails when the stream ends without message_stop", async () => {
    server = await startServer((_req, res) => {
      startSse(res);
      res.end(`event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"cut"}}\n\n`);
    });
    const chat = createAnthropicChat({ baseUrl: server.url, model: "m", apiKey: KEY });
    const err = await (async () => {
      for await (const _ of chat.stream({ messages: [{ role: "user", content: "hi" }] })) void _;
    })().catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: "response" });
  });

  it("times out the initial request", async () => {
    server = await startServer(() => undefined);
    const chat = createAnthropicChat({ baseUrl: server.url, model: "m", apiKey: KEY, timeoutMs: 150, maxRetries: 0 });
    const err = await chat.complete({ messages: [{ role: "user", content: "hi" }] }).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: "timeout", attempts: 1 });
    expect(server.requests).toHaveLength(1);
  });
});
