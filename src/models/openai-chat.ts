/**
 * ChatModel over the OpenAI-compatible `POST /v1/chat/completions` API: hosted APIs, Ollama, vLLM,
 * llama.cpp server, LiteLLM.
 */
import type { ChatModel, ChatRequest } from "./chat.ts";
import { LlmError } from "./errors.ts";
import { apiUrl, postJson, postStream, retryPolicy, snippet, type HttpTarget, type RetryPolicy } from "./http.ts";
import { readSse } from "./sse.ts";

export type OpenAiChatOptions = {
  /** e.g. "http://localhost:11434", "http://vllm:8000/v1", "https://api.openai.com/v1". */
  baseUrl: string;
  model: string;
  /** Sent as `Authorization: Bearer ...` when set. */
  apiKey?: string;
  /** Used when a request has no maxTokens; omitted from the request when undefined. */
  defaultMaxTokens?: number;
  /** Retries of the initial request after a 429 / 5xx / network error / timeout. Default 4. */
  maxRetries?: number;
  /** Per attempt for complete(); up to the headers and then between chunks for stream(). Default 120 000. */
  timeoutMs?: number;
  retry?: Partial<Omit<RetryPolicy, "maxRetries">>;
  fetch?: typeof fetch;
};

export function createOpenAiChat(options: OpenAiChatOptions): ChatModel {
  const target: HttpTarget = {
    label: `chat (${options.model})`,
    url: apiUrl(options.baseUrl, "/chat/completions"),
    headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
    secrets: [options.apiKey],
    timeoutMs: options.timeoutMs ?? 120_000,
    retry: retryPolicy({ ...options.retry, maxRetries: options.maxRetries ?? 4 }),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  };

  const body = (req: ChatRequest, stream: boolean) => {
    const messages = [
      ...(req.system !== undefined && req.system !== "" ? [{ role: "system", content: req.system }] : []),
      ...req.messages.map((m) => ({ role: m.role, content: m.content })),
    ];
    const maxTokens = req.maxTokens ?? options.defaultMaxTokens;
    return {
      model: options.model,
      messages,
      ...(maxTokens !== undefined ? { max_tokens: maxTokens } : {}),
      ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
      ...(stream ? { stream: true } : {}),
    };
  };

  const bad = (why: string) => new LlmError(`${target.label}: unexpected response: ${why}`, { kind: "response" });

  return {
    name: options.model,
    async complete(req) {
      const doc = await postJson(target, body(req, false), req.signal);
      const choice = firstChoice(doc);
      if (choice === undefined) throw bad("no choices");
      const message = (choice as { message?: { content?: unknown } }).message;
      const content = message?.content;
      if (content === null || content === undefined) return "";
      if (typeof content === "string") return content;
      // Some servers return content parts: [{ type: "text", text }]
      if (Array.isArray(content)) {
        return content.map((p: unknown) => (typeof p === "object" && p !== null && typeof (p as { text?: unknown }).text === "string" ? (p as { text: string }).text : "")).join("");
      }
      throw bad("message content is not text");
    },
    async *stream(req) {
      const chunks = await postStream(target, body(req, true), req.signal);
      let finished = false;
      for await (const ev of readSse(chunks)) {
        const data = ev.data.trim();
        if (data === "[DONE]") return;
        if (data === "") continue;
        let doc: unknown;
        try {
          doc = JSON.parse(data);
        } catch {
          throw bad(`stream event is not JSON: ${snippet(data, target.secrets, 120)}`);
        }
        const error = (doc as { error?: unknown }).error;
        if (error !== undefined && error !== null) {
          const msg = typeof error === "string" ? error : (error as { message?: unknown }).message;
          throw new LlmError(`${target.label}: error in stream: ${snippet(String(msg ?? JSON.stringify(error)), target.secrets)}`, {
            kind: "stream",
          });
        }
        const choice = firstChoice(doc) as { delta?: { content?: unknown }; finish_reason?: unknown } | undefined;
        const delta = choice?.delta?.content;
        if (typeof delta === "string" && delta !== "") yield delta;
        if (typeof choice?.finish_reason === "string") finished = true;
      }
      // Servers that omit [DONE] still send a finish_reason; without either the answer was cut off.
      if (!finished) throw bad("stream ended before [DONE]");
    },
  };
}

function firstChoice(doc: unknown): unknown {
  if (typeof doc !== "object" || doc === null) return undefined;
  const choices = (doc as { choices?: unknown }).choices;
  return Array.isArray(choices) ? (choices[0] as unknown) : undefined;
}
