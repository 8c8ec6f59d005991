import os from "node:os";
import { Piscina } from "piscina";
import type { ChunkedFile } from "../chunk.ts";
import { tuneWasmTiering } from "./wasm-tiering.ts";
import type { ParseTask, SourceFile } from "./worker.ts";
import { bundleParseWorker, type WorkerBundle } from "./worker-bundle.ts";

/** Files are sent to workers in batches of about this many bytes (or files), to amortize messaging. */
export const BATCH_MAX_BYTES = 256 * 1024;
export const BATCH_MAX_FILES = 64;
/** Idle worker threads exit after this long; grammars are reloaded by new threads. */
export const IDLE_TIMEOUT_MS = 5_000;
/**
 * Tasks handed to a thread at once. A thread runs them in order (worker.ts); holding a few means it
 * keeps working while the main thread is blocked in an index write and cannot hand out the next one
 * (measured: with one task per thread the threads sat idle a third of the time).
 */
export const TASKS_PER_THREAD = 4;
/**
 * V8 heap limits of a parse thread. A small young generation keeps each thread's footprint down (the
 * garbage of a parse dies young: measured ~60 MB less resident memory per thread, no CPU difference);
 * the old generation holds the grammars and the analysis caches (analysis.ts), far below the limit.
 */
export const THREAD_HEAP_LIMITS = { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 256 };

export type ParsePoolOptions = {
  /**
   * Worker threads; default: one per available core. The main thread's index writes wait on lmdb
   * commits part of the time, so cores-1 workers left a core idle (measured: 2 cores, 1 worker ->
   * the worker was the bottleneck while the main thread waited).
   */
  threads?: number;
  /**
   * What the threads load on Node: "bundle" (default) is worker.ts built into one ES module at start
   * (worker-bundle.ts), loaded without tsx; "source" is worker.ts through tsx (worker-entry.mjs), also
   * the fallback when the bundle cannot be built. Deno always loads worker.ts.
   */
  entry?: WorkerEntry;
  /** Directory for the bundle (e.g. under the data directory); default: a temporary one, removed by destroy. */
  bundleDir?: string;
};

export type WorkerEntry = "bundle" | "source";

export type ChunkOptions = {
  /** Also compute each file's index terms in the workers (ChunkedFile.terms). */
  terms?: boolean;
};

export type ParsePool = {
  /** Chunk files in parallel; results come back in the order of `files`. */
  chunkFiles(files: SourceFile[], options?: ChunkOptions): Promise<ChunkedFile[]>;
  /** Share of the pool's capacity in use, 0..1. */
  utilization(): number;
  /** Tasks waiting for a free thread. */
  queueSize(): number;
  /** What the threads load (known once the first files were sent), and why the bundle is not used if so. */
  entry(): { kind: WorkerEntry; fallbackReason?: string } | null;
  destroy(): Promise<void>;
};

const isDeno = typeof (globalThis as { Deno?: unknown }).Deno !== "undefined";

/** Deno runs worker.ts natively; Node goes through a small .mjs entry that registers tsx when needed. */
const sourceWorkerFile = (): string => new URL(isDeno ? "./worker.ts" : "./worker-entry.mjs", import.meta.url).href;

export const defaultThreadCount = (): number => Math.max(1, os.availableParallelism());

export const batchFiles = (files: readonly SourceFile[], maxBytes = BATCH_MAX_BYTES, maxFiles = BATCH_MAX_FILES): SourceFile[][] => {
  const batches: SourceFile[][] = [];
  let current: SourceFile[] = [];
  let bytes = 0;
  for (const file of files) {
    if (current.length && (bytes + file.content.length > maxBytes || current.length >= maxFiles)) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(file);
    bytes += file.content.length;
  }
  if (current.length) batches.push(current);
  return batches;
};

export const createParsePool = (options: ParsePoolOptions = {}): ParsePool => {
  const threads = options.threads ?? defaultThreadCount();
  tuneWasmTiering();
  let entry: { kind: WorkerEntry; fallbackReason?: string } | null = null;
  let bundle: WorkerBundle | null = null;
  let piscina: Piscina<ParseTask, ChunkedFile[]> | null = null;
  const start = (filename: string, inheritArgs: boolean) =>
    new Piscina<ParseTask, ChunkedFile[]>({
      filename,
      minThreads: Math.min(1, threads),
      maxThreads: threads,
      idleTimeout: IDLE_TIMEOUT_MS,
      concurrentTasksPerWorker: TASKS_PER_THREAD,
      resourceLimits: THREAD_HEAP_LIMITS,
      // A bundle needs none of the parent's options (under tsx, its loader would run again in each thread).
      ...(inheritArgs ? {} : { execArgv: [] }),
    });
  const ready: Promise<Piscina<ParseTask, ChunkedFile[]>> = (async () => {
    if (isDeno || options.entry === "source") {
      entry = { kind: "source" };
      return (piscina = start(sourceWorkerFile(), true));
    }
    try {
      bundle = await bundleParseWorker(options.bundleDir);
      entry = { kind: "bundle" };
      return (piscina = start(bundle.file, false));
    } catch (error) {
      entry = { kind: "source", fallbackReason: error instanceof Error ? error.message : String(error) };
      return (piscina = start(sourceWorkerFile(), true));
    }
  })();
  ready.catch(() => undefined); // surfaced by chunkFiles and destroy
  return {
    async chunkFiles(files, options = {}) {
      const pool = await ready;
      const terms = options.terms === true;
      const results = await Promise.all(batchFiles(files).map((batch) => pool.run(terms ? { files: batch, terms } : { files: batch })));
      return results.flat();
    },
    utilization: () => piscina?.utilization ?? 0,
    queueSize: () => piscina?.queueSize ?? 0,
    entry: () => entry,
    async destroy() {
      const pool = await ready;
      await pool.destroy();
      bundle?.dispose();
    },
  };
};
