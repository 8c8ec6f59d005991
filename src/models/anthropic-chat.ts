/** ChatModel over the Anthropic Messages API (`POST /v1/messages`, anthropic-version 2023-06-01). */
import type { ChatModel, ChatRequest } from "./chat.ts";
import { LlmError } from "./errors.ts";
import { apiUrl, postJson, postStream, retryPolicy, snippet, type HttpTarget, type RetryPolicy } from "./http.ts";
import { readSse } from "./sse.ts";

export const ANTHROPIC_VERSION = "2023-06-01";
export const ANTHROPIC_DEFAULT_URL = "https://api.anthropic.com";

export type AnthropicChatOptions = {
  /** Default https://api.anthropic.com. */
  baseUrl?: string;
  model: string;
  /** Sent as `x-api-key`. */
  apiKey?: string;
  /** max_tokens is required by the API; used when a request has none. Default 1024. */
  defaultMaxTokens?: number;
  /** Retries of the initial request after a 429 / 5xx (including 529 overloaded) / network error / timeout. Default 4. */
  maxRetries?: number;
  /** Per attempt for complete(); up to the headers and then between events for stream(). Default 120 000. */
  timeoutMs?: number;
  retry?: Partial<Omit<RetryPolicy, "maxRetries">>;
  fetch?: typeof fetch;
};

export function createAnthropicChat(options: AnthropicChatOptions): ChatModel {
  const target: HttpTarget = {
    label: `chat (${options.model})`,
    url: apiUrl(options.baseUrl ?? ANTHROPIC_DEFAULT_URL, "/messages"),
    headers: {
      "anthropic-version": ANTHROPIC_VERSION,
      ...(options.apiKey ? { "x-api-key": options.apiKey } : {}),
    },
    secrets: [options.apiKey],
    timeoutMs: options.timeoutMs ?? 120_000,
    retry: retryPolicy({ ...options.retry, maxRetries: options.maxRetries ?? 4 }),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  };

  const body = (req: ChatRequest, stream: boolean) => ({
    model: options.model,
    max_tokens: req.maxTokens ?? options.defaultMaxTokens ?? 1024,
    ...(req.system !== undefined && req.system !== "" ? { system: req.system } : {}),
    messages: req.messages.map((m) => ({ role: m.role, content: m.content })),
    ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
    ...(stream ? { stream: true } : {}),
  });

  const bad = (why: string) => new LlmError(`${target.label}: unexpected response: ${why}`, { kind: "response" });

  return {
    name: options.model,
    async complete(req) {
      const doc = await postJson(target, body(req, false), req.signal);
      const content = typeof doc === "object" && doc !== null ? (doc as { content?: unknown }).content : undefined;
      if (!Array.isArray(content)) throw bad("no content array");
      return content
        .map((block: unknown) => {
          const b = block as { type?: unknown; text?: unknown };
          return b.type === "text" && typeof b.text === "string" ? b.text : "";
        })
        .join("");
    },
    async *stream(req) {
      const chunks = await postStream(target, body(req, true), req.signal);
      for await (const ev of readSse(chunks)) {
        let doc: { type?: unknown; delta?: { type?: unknown; text?: unknown }; error?: { type?: unknown; message?: unknown } };
        try {
          doc = JSON.parse(ev.data) as typeof doc;
        } catch {
          throw bad(`stream event is not JSON: ${snippet(ev.data, target.secrets, 120)}`);
        }
        const type = typeof doc.type === "string" ? doc.type : ev.event;
        if (type === "content_block_delta") {
          if (doc.delta?.type === "text_delta" && typeof doc.delta.text === "string" && doc.delta.text !== "") {
            yield doc.delta.text;
          }
        } else if (type === "message_stop") {
          return;
        } else if (type === "error") {
          const detail = [doc.error?.type, doc.error?.message].filter((x) => typeof x === "string").join(": ");
          throw new LlmError(`${target.label}: error in stream: ${snippet(detail || ev.data, target.secrets)}`, {
            kind: "stream",
            retryable: doc.error?.type === "overloaded_error",
          });
        }
        // message_start, content_block_start/stop, message_delta, ping: nothing to yield
      }
      throw bad("stream ended before message_stop");
    },
  };
}
