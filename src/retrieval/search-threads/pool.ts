/**
 * Searches on worker threads over the embedded code index, so one process uses every core for search
 * while its main thread serves HTTP, records sessions and indexes. A drop-in Searcher.
 *
 * Consistency: a worker reads the same lmdb files, so it sees every committed write; its read caches
 * are keyed by the writer's repository generations, sent with each search.
 */
import os from "node:os";
import { Piscina } from "piscina";
import type { EmbeddedCodeIndex } from "../../codeindex/embedded/code-index.ts";
import type { Searcher, SearchOutcome } from "../search.ts";
import type { SearchTask, SearchWorkerData } from "./worker.ts";

const isDeno = typeof (globalThis as { Deno?: unknown }).Deno !== "undefined";

export type SearchPool = Searcher & { close(): Promise<void> };

/**
 * Search threads beside the serving thread when there are cores to spare: cores - 1 (at most 4) on
 * machines of 4 cores or more. On 2 cores, measured with `npm run bench`, searching on the serving
 * thread used less CPU per request and gave an equal p50 and a lower p99 (the serving thread, the
 * search threads and their garbage collection compete for the same two cores). Deno: 0 (its worker
 * threads have not been measured with lmdb's native module here).
 */
export const defaultSearchThreads = (): number => {
  const cores = os.availableParallelism();
  return isDeno || cores < 4 ? 0 : Math.min(4, cores - 1);
};

const workerFile = (): string => new URL(isDeno ? "./worker.ts" : "./worker-entry.mjs", import.meta.url).href;

export function createSearchPool(options: {
  indexDir: string;
  index: EmbeddedCodeIndex;
  threads: number;
  env: Record<string, string | undefined>;
}): SearchPool {
  // Only the embedding settings travel to the workers, never the rest of the environment.
  const env = Object.fromEntries(Object.entries(options.env).filter(([k]) => k.startsWith("LOUPE_EMBEDDINGS_")));
  const workerData: SearchWorkerData = { indexDir: options.indexDir, env };
  const piscina = new Piscina<SearchTask, SearchOutcome>({
    filename: workerFile(),
    workerData,
    minThreads: options.threads,
    maxThreads: options.threads,
    idleTimeout: Number.POSITIVE_INFINITY,
  });
  return {
    async search(request) {
      const { signal, ...rest } = request;
      const generations: Record<string, number> = {};
      for (const t of rest.targets) generations[t.repoId] = options.index.generationOf(t.repoId);
      return piscina.run({ request: rest, generations, writeGeneration: options.index.writeGeneration() }, signal ? { signal } : {});
    },
    close: () => piscina.destroy(),
  };
}
