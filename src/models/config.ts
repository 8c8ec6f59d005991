/**
 * Model configuration from the environment. Nothing set means no model (the default: Loupe works
 * offline). Merge into the main config with `z.object({ ...mainShape, ...llmEnvShape }).superRefine(checkLlmEnv)`.
 *
 *   LOUPE_EMBEDDINGS_URL          OpenAI-compatible server, with or without /v1 (required to enable embeddings)
 *   LOUPE_EMBEDDINGS_MODEL        model name (required to enable embeddings)
 *   LOUPE_EMBEDDINGS_API_KEY      optional bearer token
 *   LOUPE_EMBEDDINGS_BATCH        texts per request, default 64
 *   LOUPE_EMBEDDINGS_CONCURRENCY  requests in flight, default 4
 *   LOUPE_CHAT_PROVIDER           openai (default; any OpenAI-compatible server) | anthropic
 *   LOUPE_CHAT_URL                required for openai; default https://api.anthropic.com for anthropic
 *   LOUPE_CHAT_MODEL              model name (required to enable chat)
 *   LOUPE_CHAT_API_KEY            bearer token (openai) or x-api-key (anthropic)
 *
 * There is deliberately no default URL for the openai provider: code must not leave the machine
 * for a hosted API unless someone configured it to.
 */
import { z } from "zod";
import { createAnthropicChat } from "./anthropic-chat.ts";
import type { ChatModel } from "./chat.ts";
import type { Embedder } from "./embedder.ts";
import { LlmError } from "./errors.ts";
import { createOpenAiChat } from "./openai-chat.ts";
import { createOpenAiEmbedder } from "./openai-embedder.ts";

/** Empty or blank environment values count as unset. */
const unsetIfBlank = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const text = z.preprocess(unsetIfBlank, z.string().trim().min(1).optional());
const httpUrl = z.preprocess(unsetIfBlank, z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional());
const positiveInt = (fallback: number, max: number) =>
  z.preprocess(unsetIfBlank, z.coerce.number().int().min(1).max(max).default(fallback));

export const llmEnvShape = {
  LOUPE_EMBEDDINGS_URL: httpUrl,
  LOUPE_EMBEDDINGS_MODEL: text,
  LOUPE_EMBEDDINGS_API_KEY: text,
  LOUPE_EMBEDDINGS_BATCH: positiveInt(64, 2048),
  LOUPE_EMBEDDINGS_CONCURRENCY: positiveInt(4, 64),
  LOUPE_CHAT_PROVIDER: z.preprocess(
    (v) => (typeof unsetIfBlank(v) === "string" ? (v as string).trim().toLowerCase() : undefined),
    z.enum(["openai", "anthropic"]).optional(),
  ),
  LOUPE_CHAT_URL: httpUrl,
  LOUPE_CHAT_MODEL: text,
  LOUPE_CHAT_API_KEY: text,
};

type LlmEnvFields = z.infer<z.ZodObject<typeof llmEnvShape>>;

/** Cross-field rules: a half-configured model is an error, not a silent "no model". */
export function checkLlmEnv(env: LlmEnvFields, ctx: z.RefinementCtx): void {
  const problem = (path: keyof LlmEnvFields, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
  const embeddingsTouched =
    env.LOUPE_EMBEDDINGS_URL !== undefined ||
    env.LOUPE_EMBEDDINGS_MODEL !== undefined ||
    env.LOUPE_EMBEDDINGS_API_KEY !== undefined;
  if (embeddingsTouched) {
    if (env.LOUPE_EMBEDDINGS_URL === undefined) problem("LOUPE_EMBEDDINGS_URL", "required when embeddings are configured");
    if (env.LOUPE_EMBEDDINGS_MODEL === undefined) problem("LOUPE_EMBEDDINGS_MODEL", "required when embeddings are configured");
  }
  const chatTouched =
    env.LOUPE_CHAT_PROVIDER !== undefined ||
    env.LOUPE_CHAT_URL !== undefined ||
    env.LOUPE_CHAT_MODEL !== undefined ||
    env.LOUPE_CHAT_API_KEY !== undefined;
  if (chatTouched) {
    const provider = env.LOUPE_CHAT_PROVIDER ?? "openai";
    if (env.LOUPE_CHAT_MODEL === undefined) problem("LOUPE_CHAT_MODEL", "required when chat is configured");
    if (provider === "openai" && env.LOUPE_CHAT_URL === undefined) {
      problem("LOUPE_CHAT_URL", "required for the openai provider (e.g. http://localhost:11434 for Ollama)");
    }
    if (provider === "anthropic" && env.LOUPE_CHAT_URL === undefined && env.LOUPE_CHAT_API_KEY === undefined) {
      problem("LOUPE_CHAT_API_KEY", "required for the anthropic provider unless LOUPE_CHAT_URL points at a proxy");
    }
  }
}

export const llmEnvSchema = z.object(llmEnvShape).superRefine(checkLlmEnv);

export type LlmEnv = z.infer<typeof llmEnvSchema>;

export type Models = { embedder: Embedder | null; chat: ChatModel | null };

/** Parses the environment and builds the models; throws LlmError (kind "config") listing every problem. */
export function createModelsFromEnv(
  env: Record<string, string | undefined>,
  deps: { fetch?: typeof fetch } = {},
): Models {
  const parsed = llmEnvSchema.safeParse(env);
  if (!parsed.success) {
    // Issue messages and paths only: zod 4 does not copy input values into issues, so keys stay out.
    const lines = parsed.error.issues.map((i) => `${i.path.join(".") || "(env)"}: ${i.message}`);
    throw new LlmError(`invalid model configuration:\n  ${lines.join("\n  ")}`, { kind: "config" });
  }
  return createModelsFromConfig(parsed.data, deps);
}

/** Builds the models from an already validated environment (for a merged main config). */
export function createModelsFromConfig(env: LlmEnv, deps: { fetch?: typeof fetch } = {}): Models {
  const fetchDep = deps.fetch ? { fetch: deps.fetch } : {};
  const embedder =
    env.LOUPE_EMBEDDINGS_URL !== undefined && env.LOUPE_EMBEDDINGS_MODEL !== undefined
      ? createOpenAiEmbedder({
          baseUrl: env.LOUPE_EMBEDDINGS_URL,
          model: env.LOUPE_EMBEDDINGS_MODEL,
          ...(env.LOUPE_EMBEDDINGS_API_KEY !== undefined ? { apiKey: env.LOUPE_EMBEDDINGS_API_KEY } : {}),
          batchSize: env.LOUPE_EMBEDDINGS_BATCH,
          concurrency: env.LOUPE_EMBEDDINGS_CONCURRENCY,
          ...fetchDep,
        })
      : null;

  let chat: ChatModel | null = null;
  if (env.LOUPE_CHAT_MODEL !== undefined) {
    const apiKey = env.LOUPE_CHAT_API_KEY !== undefined ? { apiKey: env.LOUPE_CHAT_API_KEY } : {};
    if ((env.LOUPE_CHAT_PROVIDER ?? "openai") === "anthropic") {
      chat = createAnthropicChat({
        model: env.LOUPE_CHAT_MODEL,
        ...(env.LOUPE_CHAT_URL !== undefined ? { baseUrl: env.LOUPE_CHAT_URL } : {}),
        ...apiKey,
        ...fetchDep,
      });
    } else if (env.LOUPE_CHAT_URL !== undefined) {
      chat = createOpenAiChat({ baseUrl: env.LOUPE_CHAT_URL, model: env.LOUPE_CHAT_MODEL, ...apiKey, ...fetchDep });
    }
  }
  return { embedder, chat };
}
