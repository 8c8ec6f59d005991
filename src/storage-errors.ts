/**
 * What a store says when the file system refuses a write (a full disk, an I/O error, a read-only
 * mount), as one typed error the faces can answer with (HTTP 507 for a full disk, a JSON-RPC error on
 * MCP) instead of a crash.
 *
 * lmdb-js rejects a failed commit's promises with `Commit failed (see commitError for details)` and
 * keeps the cause in `commitError`, a second promise that is rejected right after; left without a
 * handler, that promise is an unhandled rejection, which ends the process on Node and on Deno.
 * `guardCommit` handles it (every lmdb write of the embedded stores goes through it), reads the cause
 * and throws a StorageFullError (ENOSPC, EDQUOT) or a StorageWriteError. A failed commit writes nothing:
 * lmdb aborts the whole transaction, so what was committed before stays as it was.
 *
 * A commit's sync is awaited through the promise taken when the transaction was queued
 * (`CommitGuard.transaction`), never through `root.flushed` read after the commit: that one stands for
 * the newest commit queued by then, and when that later commit fails its sync never comes, so a writer
 * whose own commit succeeded would wait forever (an acknowledged append, an indexing job's batch).
 */
import { statfsSync } from "node:fs";

/** The file system holding a store has no space left: the write was refused, nothing of it was stored. */
export class StorageFullError extends Error {
  constructor(
    /** The store's directory (under the data directory). */
    readonly path: string,
    readonly detail: string,
  ) {
    super(`No space left on device: Loupe could not write to ${path}; nothing of this change was stored. Free space on that file system (or give Loupe a larger LOUPE_DATA_DIR), then retry.`);
    this.name = "StorageFullError";
  }
}

/** Any other refused write (an I/O error, a read-only file system, permissions). */
export class StorageWriteError extends Error {
  constructor(
    readonly path: string,
    readonly detail: string,
    readonly errno: string | undefined,
  ) {
    super(`Loupe could not write to ${path} (${detail}); nothing of this change was stored.`);
    this.name = "StorageWriteError";
  }
}

/** Errno values lmdb reports as numbers (its native code passes them through), by name. */
const ERRNO_NAMES: Record<number, string> = { 5: "EIO", 13: "EACCES", 28: "ENOSPC", 30: "EROFS", 122: "EDQUOT" };

/** The errno name of a file-system error from node:fs (a string code) or from lmdb (a numeric one), if any. */
function errnoOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string") return code;
  if (typeof code === "number") return ERRNO_NAMES[code] ?? String(code);
  const message = error instanceof Error ? error.message : "";
  if (/no space left on device/i.test(message)) return "ENOSPC";
  if (/disk quota exceeded/i.test(message)) return "EDQUOT";
  if (/read-only file system/i.test(message)) return "EROFS";
  return undefined;
}

/** Below this many free bytes, a failed write is put down to the full file system. */
const NEARLY_FULL_BYTES = 1024 * 1024;

/**
 * The data directory's space, as the stores see it (src/data-dir-reserve.ts keeps it): they say when a
 * write found the file system full, and ask how much room the server itself freed there since a time.
 */
export type StorageSpace = {
  /** A write under `path` found its file system full (called before the write's StorageFullError is thrown). */
  full(path: string): void;
  /** Bytes the server gave back on the file system holding `path` at or after `since` (ms since the epoch). */
  givenBackSince(since: number, path: string): number;
};

/** Free bytes for unprivileged writers on the file system holding `path` (undefined if unknown). */
export function freeBytes(path: string): number | undefined {
  try {
    const stats = statfsSync(path);
    return Number(stats.bavail) * Number(stats.bsize);
  } catch {
    return undefined;
  }
}

/**
 * ENOSPC and EDQUOT, and the EIO LMDB reports for a short write (its page flush got fewer bytes written
 * than it asked for: what a write into the last free blocks of a file system gets) when the file system
 * was indeed full while the write ran. A short write leaves the file system with next to nothing free;
 * what the server itself freed since the write began (the space reserve another store's refusal gave
 * back) is not counted, so that a concurrent release does not turn a full disk into an "I/O error".
 */
function isFull(errno: string | undefined, path: string, givenBack: number): boolean {
  if (errno === "ENOSPC" || errno === "EDQUOT") return true;
  if (errno !== "EIO") return false;
  const free = freeBytes(path);
  return free !== undefined && free - givenBack < NEARLY_FULL_BYTES;
}

/** Turns a file-system error from a write under `path` into a StorageFullError / StorageWriteError. */
function storageErrorOf(error: unknown, path: string, givenBack: number): StorageFullError | StorageWriteError {
  const errno = errnoOf(error);
  const detail = (error instanceof Error ? error.message : String(error)).split("\n")[0]!.slice(0, 300);
  return isFull(errno, path, givenBack) ? new StorageFullError(path, detail) : new StorageWriteError(path, detail, errno);
}

/** The part of an lmdb root database the guard uses. */
type LmdbRoot = {
  transaction<T>(fn: () => T): Promise<T>;
  /** lmdb-js: a thenable for the sync of the newest commit queued so far. */
  readonly flushed: PromiseLike<unknown>;
};

export type CommitGuard = {
  /** Awaits an lmdb write (a transaction, clearAsync) and turns a failed commit into a storage error. */
  <T>(write: Promise<T>): Promise<T>;
  /**
   * Runs `fn` in a write transaction of `root`: `committed` as the guard's call above, and `synced`,
   * which resolves once this commit is synced to disk (await it only after `committed` resolved: the
   * sync of a failed commit never comes).
   */
  transaction<T>(root: LmdbRoot, fn: () => T): { committed: Promise<T>; synced: Promise<void> };
  /**
   * Before closing the environment: after a failed commit, lmdb-js's close waits for that commit's sync,
   * which never comes; an empty transaction (it writes no page, so a full disk does not refuse it)
   * settles that wait.
   */
  settle(root: { transaction(fn: () => void): Promise<unknown> }): Promise<void>;
};

/**
 * A guard for the commits of the lmdb environment under `path`. `space.full()` runs (once per failure)
 * when the file system is full, before the error reaches the caller (the data directory's space reserve,
 * src/data-dir-reserve.ts, is given back then, so that failures can still be recorded).
 */
export function createCommitGuard(path: string, space?: StorageSpace): CommitGuard {
  let lastFailed = false;
  const guard = async <T>(write: Promise<T>): Promise<T> => {
    const began = Date.now();
    try {
      const result = await write;
      lastFailed = false;
      return result;
    } catch (error) {
      const pending = (error as { commitError?: unknown } | null)?.commitError;
      if (!(pending instanceof Promise)) throw error; // thrown by the transaction's own code
      lastFailed = true;
      // lmdb rejects it in the same callback as the write; the timer only covers a cause that never comes.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const cause: unknown = await Promise.race([
        pending.then(() => error, (reason: unknown) => reason),
        new Promise((resolve) => (timer = setTimeout(() => resolve(error), 1_000))),
      ]).finally(() => clearTimeout(timer));
      const translated = storageErrorOf(cause, path, space?.givenBackSince(began, path) ?? 0);
      if (translated instanceof StorageFullError) space?.full(path);
      throw translated;
    }
  };
  return Object.assign(guard, {
    transaction<T>(root: LmdbRoot, fn: () => T) {
      const write = root.transaction(fn);
      // Taken now, while lmdb-js's `flushed` is the sync of the batch this transaction joined.
      const synced = new Promise<void>((resolve, reject) => void root.flushed.then(() => resolve(), reject));
      synced.catch(() => {}); // a failed commit is reported through `committed`
      return { committed: guard(write), synced };
    },
    async settle(root: { transaction(fn: () => void): Promise<unknown> }) {
      if (lastFailed) await guard(root.transaction(() => {})).catch(() => {});
    },
  });
}
