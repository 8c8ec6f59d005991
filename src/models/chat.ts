/** Port: a chat/completion model. Adapters: src/models/openai-chat.ts, src/models/anthropic-chat.ts. */

export type ChatMessage = { role: "user" | "assistant"; content: string };

export type ChatRequest = {
  system?: string;
  messages: ChatMessage[];
  maxTokens?: number;
  temperature?: number;
  signal?: AbortSignal;
};

export type ChatModel = {
  /** Model name as sent to the server. */
  name: string;
  /** The whole answer text. */
  complete(req: ChatRequest): Promise<string>;
  /**
   * The answer as text deltas. The request is sent when iteration starts; retries and the timeout
   * cover the request up to the response headers, after which an idle stream fails with a timeout.
   * Breaking out of the loop cancels the request.
   */
  stream(req: ChatRequest): AsyncIterable<string>;
};
