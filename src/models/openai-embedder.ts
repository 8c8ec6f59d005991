/**
 * Embedder over the OpenAI-compatible `POST /v1/embeddings` API (OpenAI, Ollama, vLLM, llama.cpp
 * server, text-embeddings-inference, LiteLLM, ...).
 */
import type { Embedder } from "./embedder.ts";
import { LlmError } from "./errors.ts";
import { apiUrl, postJson, retryPolicy, type HttpTarget, type RetryPolicy } from "./http.ts";
import { createLimiter } from "./limiter.ts";

export type OpenAiEmbedderOptions = {
  /** e.g. "http://localhost:11434" or "https://api.openai.com/v1". */
  baseUrl: string;
  model: string;
  /** Sent as `Authorization: Bearer ...` when set. */
  apiKey?: string;
  /** Texts per request. Default 64. */
  batchSize?: number;
  /** Requests in flight at once, across all concurrent `embed` calls on this embedder. Default 4. */
  concurrency?: number;
  /** Retries after a 429 / 5xx / network error / timeout. Default 4. */
  maxRetries?: number;
  /** Per request attempt. Default 60 000. */
  timeoutMs?: number;
  /** Inputs longer than this many characters are cut (servers reject over-long inputs). Default 8 000. */
  maxInputChars?: number;
  /** Backoff tuning (mostly for tests). */
  retry?: Partial<Omit<RetryPolicy, "maxRetries">>;
  /** Defaults to the global fetch. */
  fetch?: typeof fetch;
};

export function createOpenAiEmbedder(options: OpenAiEmbedderOptions): Embedder {
  const batchSize = options.batchSize ?? 64;
  const maxInputChars = options.maxInputChars ?? 8_000;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError("batchSize must be a positive integer");
  if (!Number.isInteger(maxInputChars) || maxInputChars < 1) {
    throw new RangeError("maxInputChars must be a positive integer");
  }
  const limiter = createLimiter(options.concurrency ?? 4);
  const target: HttpTarget = {
    label: `embeddings (${options.model})`,
    url: apiUrl(options.baseUrl, "/embeddings"),
    headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
    secrets: [options.apiKey],
    timeoutMs: options.timeoutMs ?? 60_000,
    retry: retryPolicy({ ...options.retry, maxRetries: options.maxRetries ?? 4 }),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  };
  let dimensions: number | null = null;

  const embedBatch = async (input: string[], signal: AbortSignal): Promise<number[][]> => {
    const doc = await postJson(target, { model: options.model, input }, signal);
    const vectors = parseEmbeddings(doc, input.length, target.label);
    const width = vectors[0]?.length ?? 0;
    if (dimensions === null) dimensions = width;
    else if (width !== dimensions) {
      throw new LlmError(`${target.label}: vectors changed length from ${dimensions} to ${width}`, { kind: "response" });
    }
    return vectors;
  };

  return {
    model: options.model,
    get dimensions() {
      return dimensions;
    },
    async embed(texts, opts = {}) {
      if (texts.length === 0) return [];
      const inputs = texts.map((t) => prepareInput(t, maxInputChars));
      // One controller per call: the first failing batch cancels its siblings.
      const ctl = new AbortController();
      const parent = opts.signal;
      const onAbort = () => ctl.abort(parent?.reason);
      if (parent?.aborted) throw parent.reason;
      parent?.addEventListener("abort", onAbort, { once: true });
      try {
        const batches: Promise<number[][]>[] = [];
        for (let i = 0; i < inputs.length; i += batchSize) {
          const batch = inputs.slice(i, i + batchSize);
          const p = limiter.run(() => embedBatch(batch, ctl.signal), ctl.signal);
          p.catch(() => ctl.abort(new Error("sibling batch failed")));
          batches.push(p);
        }
        const settled = await Promise.allSettled(batches);
        const failed = settled.find((s): s is PromiseRejectedResult => s.status === "rejected" && !isSiblingAbort(s, ctl));
        if (parent?.aborted) throw parent.reason;
        if (failed) throw failed.reason;
        return settled.flatMap((s) => (s.status === "fulfilled" ? s.value : []));
      } finally {
        parent?.removeEventListener("abort", onAbort);
      }
    },
  };
}

function isSiblingAbort(s: PromiseRejectedResult, ctl: AbortController): boolean {
  return ctl.signal.aborted && s.reason === ctl.signal.reason;
}

/** Cuts to `max` characters without splitting a surrogate pair; empty strings become " " (rejected by OpenAI). */
export function prepareInput(text: string, max: number): string {
  let out = text.length > max ? text.slice(0, max) : text;
  const last = out.charCodeAt(out.length - 1);
  if (out.length < text.length && last >= 0xd800 && last <= 0xdbff) out = out.slice(0, -1);
  return out === "" ? " " : out;
}

function parseEmbeddings(doc: unknown, expected: number, label: string): number[][] {
  const bad = (why: string) => new LlmError(`${label}: unexpected response: ${why}`, { kind: "response" });
  const data = typeof doc === "object" && doc !== null ? (doc as { data?: unknown }).data : undefined;
  if (!Array.isArray(data)) throw bad("no data array");
  if (data.length !== expected) throw bad(`${data.length} embeddings for ${expected} inputs`);
  const out: (number[] | undefined)[] = new Array(expected);
  let width: number | null = null;
  data.forEach((item: unknown, position) => {
    const rec = (typeof item === "object" && item !== null ? item : {}) as { index?: unknown; embedding?: unknown };
    const index = rec.index === undefined ? position : rec.index;
    if (typeof index !== "number" || !Number.isInteger(index) || index < 0 || index >= expected) {
      throw bad(`index ${String(index)} out of range`);
    }
    if (out[index] !== undefined) throw bad(`index ${index} repeated`);
    const v = rec.embedding;
    if (!Array.isArray(v) || v.length === 0 || !v.every((x) => typeof x === "number" && Number.isFinite(x))) {
      throw bad(`embedding ${index} is not a list of numbers (base64 encoding is not supported)`);
    }
    if (width !== null && v.length !== width) throw bad("embeddings of different lengths");
    width = v.length;
    out[index] = v as number[];
  });
  return out as number[][];
}
