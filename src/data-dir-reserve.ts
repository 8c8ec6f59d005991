/**
 * A few megabytes the server keeps for itself on the data directory's file system
 * (`<dataDir>/space-reserve`, a file of zeros written at start-up when there is room).
 *
 * When a store finds the disk full, the write that found it is refused (a StorageFullError) and the
 * reserve is given back at once, so that what must still be written can be: an indexing job's
 * `RepositoryIndexingFailed` with its reason and the projections' catch-up that shows it to readers
 * (else the job would read "processing" until there is room again). While the reserve is not there
 * (given back, or no room for it at start-up), the server looks at the free space every few seconds and
 * takes the reserve again once the file system has room for it and as much again, so that the next
 * full disk finds it too, without a restart.
 */
import { closeSync, openSync, rmSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";
import { freeBytes } from "./storage-errors.ts";

const SPACE_RESERVE_FILE = "space-reserve";
const SPACE_RESERVE_BYTES = 8 * 1024 * 1024;
/** How often the free space is looked at while the reserve is not there. */
const CHECK_EVERY_MS = 2_000;
/** Releases remembered for givenBackSince (a write spans seconds at most). */
const RELEASES_KEPT = 16;

export type SpaceReserve = {
  readonly path: string;
  /**
   * Writes the reserve unless it is there; false when the file system has no room for it (it is then
   * taken once there is: see the header).
   */
  keep(): boolean;
  /**
   * Deletes the reserve (true if there was one to give back); it is taken again once there is room.
   * With `near` (the directory of the store that found the disk full), only if that directory is on the
   * reserve's file system (a store on a mount of its own gains nothing from it).
   */
  release(near?: string): boolean;
  /**
   * Bytes given back at or after `since` (ms since the epoch) on the file system holding `near`: room a
   * write refused in the meantime did not have.
   */
  givenBackSince(since: number, near: string): number;
  /** Stops watching for room (the server is closing). */
  stop(): void;
};

export type SpaceReserveOptions = {
  bytes?: number;
  checkEveryMs?: number;
  /** Told when the reserve is taken again after it was missing. */
  onKept?: () => void;
};

export function createSpaceReserve(dataDir: string, options: SpaceReserveOptions = {}): SpaceReserve {
  const bytes = options.bytes ?? SPACE_RESERVE_BYTES;
  const path = join(dataDir, SPACE_RESERVE_FILE);
  const releases: { at: number; bytes: number; dev: number }[] = [];
  let watch: ReturnType<typeof setInterval> | undefined;
  let stopped = false;
  const present = () => (statSync(path, { throwIfNoEntry: false })?.size ?? -1) === bytes;

  const write = (): boolean => {
    if (present()) return true;
    const chunk = Buffer.alloc(1024 * 1024);
    let fd: number | undefined;
    try {
      fd = openSync(path, "w", 0o600);
      for (let written = 0; written < bytes; ) written += writeSync(fd, chunk, 0, Math.min(chunk.length, bytes - written));
      return true;
    } catch {
      rmSync(path, { force: true }); // no room (or no right): run without it
      return false;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  };
  /** Until the reserve is back: take it once the file system has room for it and as much again. */
  const watchForRoom = () => {
    if (watch !== undefined || stopped) return;
    watch = setInterval(() => {
      if ((freeBytes(dataDir) ?? 0) < 2 * bytes || !write()) return;
      clearInterval(watch);
      watch = undefined;
      options.onKept?.();
    }, options.checkEveryMs ?? CHECK_EVERY_MS);
    watch.unref?.();
  };

  return {
    path,
    keep() {
      const kept = write();
      if (!kept) watchForRoom();
      return kept;
    },
    release(near) {
      try {
        const reserve = statSync(path, { throwIfNoEntry: false });
        if (reserve === undefined || (near !== undefined && statSync(near).dev !== reserve.dev)) return false;
        rmSync(path, { force: true });
        releases.push({ at: Date.now(), bytes, dev: reserve.dev });
      } catch {
        return false; // not ours to delete (another owner): nothing to give back
      }
      if (releases.length > RELEASES_KEPT) releases.shift();
      watchForRoom();
      return true;
    },
    givenBackSince(since, near) {
      const dev = statSync(near, { throwIfNoEntry: false })?.dev;
      return releases.reduce((sum, r) => (r.at >= since && r.dev === dev ? sum + r.bytes : sum), 0);
    },
    stop() {
      stopped = true;
      clearInterval(watch);
      watch = undefined;
    },
  };
}
