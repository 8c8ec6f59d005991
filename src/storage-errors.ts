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

/** Free bytes for unprivileged writers on the file system holding `path` (undefined if unknown). */
function freeBytes(path: string): number | undefined {
  try {
    const stats = statfsSync(path);
    return Number(stats.bavail) * Number(stats.bsize);
  } catch {
    return undefined;
  }
}

/**
 * ENOSPC and EDQUOT, and the EIO LMDB reports for a short write (a page written in part: what a write
 * into the last free blocks of a disk gets) when the file system is indeed (nearly) full.
 */
const isFull = (errno: string | undefined, path: string) =>
  errno === "ENOSPC" || errno === "EDQUOT" || (errno === "EIO" && (freeBytes(path) ?? Infinity) < NEARLY_FULL_BYTES);

/** Turns a file-system error from a write under `path` into a StorageFullError / StorageWriteError. */
function storageErrorOf(error: unknown, path: string): StorageFullError | StorageWriteError {
  const errno = errnoOf(error);
  const detail = (error instanceof Error ? error.message : String(error)).split("\n")[0]!.slice(0, 300);
  return isFull(errno, path) ? new StorageFullError(path, detail) : new StorageWriteError(path, detail, errno);
}

export type CommitGuard = {
  /** Awaits an lmdb write (a transaction, clearAsync) and turns a failed commit into a storage error. */
  <T>(write: Promise<T>): Promise<T>;
  /**
   * Before closing the environment: after a failed commit, lmdb-js's close waits for that commit's sync,
   * which never comes; an empty transaction (it writes no page, so a full disk does not refuse it)
   * settles that wait.
   */
  settle(root: { transaction(fn: () => void): Promise<unknown> }): Promise<void>;
};

/**
 * A guard for the commits of the lmdb environment under `path`. `onFull` runs (once per failure) when
 * the file system is full, before the error reaches the caller (the data directory's space reserve,
 * src/data-dir-reserve.ts, is given back then, so that failures can still be recorded).
 */
export function createCommitGuard(path: string, onFull?: () => void): CommitGuard {
  let lastFailed = false;
  const guard = async <T>(write: Promise<T>): Promise<T> => {
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
      const translated = storageErrorOf(cause, path);
      if (translated instanceof StorageFullError) onFull?.();
      throw translated;
    }
  };
  return Object.assign(guard, {
    async settle(root: { transaction(fn: () => void): Promise<unknown> }) {
      if (lastFailed) await guard(root.transaction(() => {})).catch(() => {});
    },
  });
}
