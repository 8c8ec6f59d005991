import { describe, expect, it } from "vitest";
import { createModelsFromEnv, llmEnvSchema } from "../../src/models/config.ts";
import { LlmError } from "../../src/models/errors.ts";

const SECRET = "sk-live-do-not-leak-4242";

/** A fetch that records the request and answers like the API would. */
function recordingFetch(reply: unknown) {
  const calls: { url: string; headers: Headers; body: unknown }[] = [];
  const fetchFn: typeof fetch = async (input, init) => {
    calls.push({ url: String(input), headers: new Headers(init?.headers), body: JSON.parse(String(init?.body)) });
    return new Response(JSON.stringify(reply), { status: 200, headers: { "content-type": "application/json" } });
  };
  return { calls, fetchFn };
}

describe("createModelsFromEnv", () => {
  it("builds no model when nothing is set (and blank values count as unset)", () => {
    expect(createModelsFromEnv({})).toEqual({ embedder: null, chat: null });
    expect(createModelsFromEnv({ LOUPE_EMBEDDINGS_URL: "", LOUPE_CHAT_MODEL: "  " })).toEqual({ embedder: null, chat: null });
  });

  it("builds an OpenAI-compatible embedder with batch and concurrency from the environment", async () => {
    const { calls, fetchFn } = recordingFetch({ data: [{ index: 0, embedding: [1, 2, 3] }] });
    const { embedder, chat } = createModelsFromEnv(
      {
        LOUPE_EMBEDDINGS_URL: "http://ollama:11434",
        LOUPE_EMBEDDINGS_MODEL: "nomic-embed-text",
        LOUPE_EMBEDDINGS_API_KEY: SECRET,
        LOUPE_EMBEDDINGS_BATCH: "16",
        LOUPE_EMBEDDINGS_CONCURRENCY: "2",
      },
      { fetch: fetchFn },
    );
    expect(chat).toBeNull();
    expect(embedder?.model).toBe("nomic-embed-text");
    await embedder!.embed(["x"]);
    expect(calls[0]?.url).toBe("http://ollama:11434/v1/embeddings");
    expect(calls[0]?.headers.get("authorization")).toBe(`Bearer ${SECRET}`);
    expect(llmEnvSchema.parse({ LOUPE_EMBEDDINGS_URL: "http://a", LOUPE_EMBEDDINGS_MODEL: "m" })).toMatchObject({
      LOUPE_EMBEDDINGS_BATCH: 64,
      LOUPE_EMBEDDINGS_CONCURRENCY: 4,
    });
  });

  it("builds an Anthropic chat model with the default URL", async () => {
    const { calls, fetchFn } = recordingFetch({ content: [{ type: "text", text: "hi" }] });
    const { chat, embedder } = createModelsFromEnv(
      { LOUPE_CHAT_PROVIDER: "Anthropic", LOUPE_CHAT_MODEL: "claude-sonnet-4-5", LOUPE_CHAT_API_KEY: SECRET },
      { fetch: fetchFn },
    );
    expect(embedder).toBeNull();
    expect(await chat!.complete({ messages: [{ role: "user", content: "hello" }] })).toBe("hi");
    expect(calls[0]?.url).toBe("https://api.anthropic.com/v1/messages");
    expect(calls[0]?.headers.get("x-api-key")).toBe(SECRET);
  });

  it("builds an OpenAI-compatible chat model by default", async () => {
    const { calls, fetchFn } = recordingFetch({ choices: [{ message: { content: "yo" } }] });
    const { chat } = createModelsFromEnv(
      { LOUPE_CHAT_URL: "http://vllm:8000/v1", LOUPE_CHAT_MODEL: "qwen" },
      { fetch: fetchFn },
    );
    expect(await chat!.complete({ messages: [{ role: "user", content: "hello" }] })).toBe("yo");
    expect(calls[0]?.url).toBe("http://vllm:8000/v1/chat/completions");
    expect(calls[0]?.headers.get("authorization")).toBeNull();
  });

  it("rejects half-configured models, naming every problem", () => {
    const err = (() => {
      try {
        createModelsFromEnv({ LOUPE_EMBEDDINGS_MODEL: "m", LOUPE_CHAT_API_KEY: SECRET });
      } catch (e) {
        return e as LlmError;
      }
      throw new Error("expected a config error");
    })();
    expect(err).toBeInstanceOf(LlmError);
    expect(err.kind).toBe("config");
    expect(err.message).toContain("LOUPE_EMBEDDINGS_URL");
    expect(err.message).toContain("LOUPE_CHAT_MODEL");
    expect(err.message).toContain("LOUPE_CHAT_URL"); // openai provider needs a URL: no silent default to a hosted API
    expect(err.message).not.toContain(SECRET);
  });

  it("rejects invalid values without echoing them", () => {
    expect(() =>
      createModelsFromEnv({ LOUPE_EMBEDDINGS_URL: `ftp://${SECRET}@host`, LOUPE_EMBEDDINGS_MODEL: "m" }),
    ).toThrow(/LOUPE_EMBEDDINGS_URL: must be an http\(s\) URL/);
    expect(() => createModelsFromEnv({ LOUPE_CHAT_PROVIDER: "bedrock", LOUPE_CHAT_MODEL: "m" })).toThrow(/LOUPE_CHAT_PROVIDER/);
    expect(() => createModelsFromEnv({ LOUPE_EMBEDDINGS_BATCH: "0" })).toThrow(/LOUPE_EMBEDDINGS_BATCH/);
    try {
      createModelsFromEnv({ LOUPE_EMBEDDINGS_URL: `ftp://${SECRET}@host`, LOUPE_EMBEDDINGS_MODEL: "m" });
    } catch (e) {
      expect(String((e as Error).message)).not.toContain(SECRET);
    }
  });
});
