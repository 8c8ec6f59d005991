/** Port: turns texts into vectors. Adapters: src/models/openai-embedder.ts. */
export type Embedder = {
  /** Model name as sent to the server. */
  model: string;
  /** Vector length; null until the first response has been seen. */
  readonly dimensions: number | null;
  /** One vector per input text, in input order. */
  embed(texts: string[], opts?: { signal?: AbortSignal }): Promise<number[][]>;
};
