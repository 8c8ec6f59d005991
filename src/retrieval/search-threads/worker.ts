/**
 * Search worker thread: its own reader of the embedded code index (lmdb shares the memory map between
 * threads) and its own searcher, so searches run beside the thread that serves HTTP. The writer's
 * repository generations come with each task and key this thread's read caches.
 */
import { workerData } from "piscina";
import { createEmbeddedCodeIndex } from "../../codeindex/embedded/code-index.ts";
import { createModelsFromEnv } from "../../models/config.ts";
import { createSearcher, type SearchOutcome, type SearchRequest } from "../search.ts";

export type SearchWorkerData = {
  indexDir: string;
  /** The embedding settings (LOUPE_EMBEDDINGS_*): the worker builds the same embedder as the service. */
  env: Record<string, string | undefined>;
};

export type SearchTask = {
  request: Omit<SearchRequest, "signal">;
  generations: Record<string, number>;
  writeGeneration: number;
};

const { indexDir, env } = workerData as SearchWorkerData;
let current: Record<string, number> = {};
let currentWrite = 0;
const codeIndex = createEmbeddedCodeIndex({ dir: indexDir, generationOf: (repoId) => current[repoId] ?? 0, writeGeneration: () => currentWrite });
const searcher = createSearcher({ codeIndex, embedder: createModelsFromEnv(env).embedder });

export default async function runSearchTask(task: SearchTask): Promise<SearchOutcome> {
  current = task.generations; // one task at a time per thread
  currentWrite = task.writeGeneration;
  codeIndex.refresh();
  return searcher.search(task.request);
}
