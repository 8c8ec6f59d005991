import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { LlmError } from "../../src/models/errors.ts";
import { createOpenAiChat } from "../../src/models/openai-chat.ts";
import { delay, json, startServer, writeInPieces, type FakeServer } from "./fake-server.ts";

const KEY = "sk-proj-Zq81xNw0aa7";
const fast = { baseDelayMs: 1, maxDelayMs: 5 };

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const completion = (content: string) => ({
  id: "chatcmpl-1",
  object: "chat.completion",
  choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
});

/** An SSE body as vLLM / Ollama / OpenAI send it, with CRLF line ends for good measure. */
function sseBody(deltas: string[]): string {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    `data: ${JSON.stringify({ object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] })}\r\n\r\n`;
  return (
    ": keep-alive\r\n\r\n" +
    chunk({ role: "assistant", content: "" }) +
    deltas.map((d) => chunk({ content: d })).join("") +
    chunk({}, "stop") +
    "data: [DONE]\r\n\r\n"
  );
}

function startSse(res: ServerResponse) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
}

describe("createOpenAiChat", () => {
  it("completes: system prompt first, options mapped, bearer key sent", async () => {
    server = await startServer((_req, res) => json(res, 200, completion("The retry policy lives in src/models/http.ts.")));
    const chat = createOpenAiChat({ baseUrl: server.url, model: "qwen2.5-coder", apiKey: KEY });
    const answer = await chat.complete({
      system: "You answer questions about code.",
      messages: [
        { role: "user", content: "Where is the retry policy?" },
        { role: "assistant", content: "Which service?" },
        { role: "user", content: "Loupe" },
      ],
      maxTokens: 200,
      temperature: 0.1,
    });

    expect(answer).toBe("The retry policy lives in src/models/http.ts.");
    const req = server.requests[0]!;
    expect(req.path).toBe("/v1/chat/completions");
    expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req.body).toEqual({
      model: "qwen2.5-coder",
      messages: [
        { role: "system", content: "You answer questions about code." },
        { role: "user", content: "Where is the retry policy?" },
        { role: "assistant", content: "Which service?" },
        { role: "user", content: "Loupe" },
      ],
      max_tokens: 200,
      temperature: 0.1,
    });
  });

  it("streams deltas from SSE chunks split at awkward byte boundaries", async () => {
    const deltas = ["Hé", "llo ", "wörld ", "😀", " — done"];
    server = await startServer(async (_req, res) => {
      startSse(res);
      await writeInPieces(res, sseBody(deltas), 7); // splits "\r\n", "data:", and multi-byte characters
      res.end();
    });
    const chat = createOpenAiChat({ baseUrl: `${server.url}/v1`, model: "m" });
    const got: string[] = [];
    for await (const d of chat.stream({ messages: [{ role: "user", content: "hi" }] })) got.push(d);

    expect(got).toEqual(deltas);
    expect(server.requests[0]?.body.stream).toBe(true);
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });

  it("retries the initial stream request on 429 and then streams", async () => {
    server = await startServer(async (_req, res) => {
      if (server!.requests.length === 1) return json(res, 429, { error: { message: "rate limited" } }, { "retry-after-ms": "20" });
      startSse(res);
      res.end(sseBody(["ok"]));
    });
    const chat = createOpenAiChat({ baseUrl: server.url, model: "m", retry: fast });
    const got: string[] = [];
    for await (const d of chat.stream({ messages: [{ role: "user", content: "hi" }] })) got.push(d);
    expect(got).toEqual(["ok"]);
    expect(server.requests).toHaveLength(2);
  });

  it("does not retry a 400 and keeps the key out of the error", async () => {
    server = await startServer((_req, res) =>
      json(res, 400, { error: { message: `model not found (key ${KEY})`, type: "invalid_request_error" } }),
    );
    const chat = createOpenAiChat({ baseUrl: server.url, model: "nope", apiKey: KEY, retry: fast });
    const err = (await chat.complete({ messages: [{ role: "user", content: "hi" }] }).catch((e: unknown) => e)) as LlmError;
    expect(err).toBeInstanceOf(LlmError);
    expect(err).toMatchObject({ status: 400, attempts: 1 });
    expect(err.message).toContain("model not found");
    expect(`${err.message} ${err.stack}`).not.toContain(KEY);
    expect(server.requests).toHaveLength(1);
  });

  it("retries a 500 for complete()", async () => {
    server = await startServer((_req, res) => {
      if (server!.requests.length === 1) return json(res, 500, { error: "upstream" });
      json(res, 200, completion("fine"));
    });
    const chat = createOpenAiChat({ baseUrl: server.url, model: "m", retry: fast });
    expect(await chat.complete({ messages: [{ role: "user", content: "hi" }] })).toBe("fine");
    expect(server.requests).toHaveLength(2);
  });

  it("fails with a stream error sent inside the stream", async () => {
    server = await startServer((_req, res) => {
      startSse(res);
      res.end(`data: {"choices":[{"index":0,"delta":{"content":"par"}}]}\n\ndata: {"error":{"message":"out of memory"}}\n\n`);
    });
    const chat = createOpenAiChat({ baseUrl: server.url, model: "m" });
    const got: string[] = [];
    const err = await (async () => {
      for await (const d of chat.stream({ messages: [{ role: "user", content: "hi" }] })) got.push(d);
    })().catch((e: unknown) => e);
    expect(got).toEqual(["par"]);
    expect(err).toMatchObject({ kind: "stream" });
    expect((err as Error).message).toContain("out of memory");
  });

  it("fails when the stream ends before [DONE] or a finish_reason", async () => {
    server = await startServer((_req, res) => {
      startSse(res);
      res.end(`data: {"choices":[{"index":0,"delta":{"content":"half an ans"}}]}\n\n`);
    });
    const chat = createOpenAiChat({ baseUrl: server.url, model: "m" });
    const err = await (async () => {
      for await (const _ of chat.stream({ messages: [{ role: "user", content: "hi" }] })) void _;
    })().catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: "response" });
  });

  it("times out a stream that goes idle", async () => {
    server = await startServer((_req, res) => {
      startSse(res);
      res.write(`data: {"choices":[{"index":0,"delta":{"content":"thinking"}}]}\n\n`); // then silence
    });
    const chat = createOpenAiChat({ baseUrl: server.url, model: "m", timeoutMs: 200 });
    const got: string[] = [];
    const err = await (async () => {
      for await (const d of chat.stream({ messages: [{ role: "user", content: "hi" }] })) got.push(d);
    })().catch((e: unknown) => e);
    expect(got).toEqual(["thinking"]);
    expect(err).toMatchObject({ kind: "timeout" });
  });

  it("cancels the request when the consumer stops early", async () => {
    let closed = false;
    server = await startServer(async (_req, res) => {
      startSse(res);
      res.on("close", () => {
        closed = true;
      });
      for (let i = 0; i < 100 && !closed; i++) {
        res.write(`data: {"choices":[{"index":0,"delta":{"content":"w${i} "}}]}\n\n`);
        await delay(10);
      }
      res.end();
    });
    const chat = createOpenAiChat({ baseUrl: server.url, model: "m" });
    const got: string[] = [];
    for await (const d of chat.stream({ messages: [{ role: "user", content: "hi" }] })) {
      got.push(d);
      if (got.length === 3) break;
    }
    await delay(100);
    expect(got).toEqual(["w0 ", "w1 ", "w2 "]);
    expect(closed).toBe(true);
  });
});
