/**
 * Read-model storage for projections: ordered key/value spaces, one per projection, each with a
 * generation so a projection can be rebuilt into a fresh copy while readers keep using the old one.
 * A projection's writes and its checkpoint are committed in one transaction.
 */
export type Key = (string | number)[];

export type Entry<T> = { key: Key; value: T };

export type ReadView = {
  get<T>(key: Key): T | undefined;
  /** Entries whose key starts with `prefix`, in key order. */
  range<T>(prefix: Key, options?: { limit?: number; offset?: number; reverse?: boolean }): Entry<T>[];
  count(prefix: Key): number;
};

export type WriteView = ReadView & {
  put(key: Key, value: unknown): void;
  remove(key: Key): void;
};

export type ProjectionMeta = {
  name: string;
  version: number;
  generation: number;
  checkpoint: number;
  updatedAt: string;
};

export type ReadStore = {
  /** Read view of a projection's active generation (resolved on each call). */
  view(name: string): ReadView;
  meta(name: string): ProjectionMeta | undefined;
  /** Applies `fn` to a generation's space and stores the checkpoint in the same transaction. */
  commit(name: string, generation: number, checkpoint: number, version: number, fn: (tx: WriteView) => void): Promise<void>;
  /** Read view of a specific generation (used while rebuilding). */
  generationView(name: string, generation: number): ReadView;
  /** Empties a generation's space (before replaying into it). */
  clearGeneration(name: string, generation: number): Promise<void>;
  /** Points readers at `generation` and drops the previous one. */
  activate(name: string, generation: number, checkpoint: number, version: number): Promise<void>;
  /**
   * A number that changes whenever what `view(name)` reads may have changed (a commit to the read model,
   * an activation, a cleared generation): it keys caches of decoded values (./memo.ts).
   */
  version(name: string): number;
  /** sha256 over every entry of the active generation, in key order. */
  contentHash(name: string): string;
  close(): Promise<void>;
};
