/**
 * A few megabytes the server keeps for itself on the data directory's file system
 * (`<dataDir>/space-reserve`, a file of zeros written at start-up when there is room).
 *
 * When a store finds the disk full, the write that found it is refused (a StorageFullError) and the
 * reserve is given back at once, so that what must still be written can be: an indexing job's
 * `RepositoryIndexingFailed` with its reason (else the job would stay "processing" and be resumed, and
 * fail again, at every start), and the projections' catch-up. The next start writes the reserve again
 * if there is room by then; while there is none, the server runs without it.
 */
import { closeSync, openSync, rmSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";

const SPACE_RESERVE_FILE = "space-reserve";
const SPACE_RESERVE_BYTES = 8 * 1024 * 1024;

export type SpaceReserve = {
  readonly path: string;
  /** Writes the reserve unless it is there; false when the file system has no room for it. */
  keep(): boolean;
  /** Deletes the reserve (true if there was one to give back). */
  release(): boolean;
};

export function createSpaceReserve(dataDir: string, bytes = SPACE_RESERVE_BYTES): SpaceReserve {
  const path = join(dataDir, SPACE_RESERVE_FILE);
  const present = () => (statSync(path, { throwIfNoEntry: false })?.size ?? -1) === bytes;
  return {
    path,
    keep() {
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
    },
    release() {
      try {
        if (statSync(path, { throwIfNoEntry: false }) === undefined) return false;
        rmSync(path, { force: true });
        return true;
      } catch {
        return false; // not ours to delete (another owner): nothing to give back
      }
    },
  };
}
