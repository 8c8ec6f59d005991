/**
 * The stores' writes on a full file system (a 16 MB tmpfs, so root only):
 * - LMDB reports a write that got only part of its pages onto the disk (a short write: what the last
 *   free blocks of a file system give) as an I/O error. That error is put down to the full disk even
 *   when the space reserve was given back while it was being looked at (another store's refusal gave it
 *   back); before, the reserve's 8 MB counted as free space and the write read as an I/O error, so an
 *   indexing job failed with "Input/output error" instead of "No space left on device".
 * - The code index's `flushed()` after a refused commit resolves once the commits that succeeded are
 *   synced; before, it waited for the refused commit's sync, which never comes (an indexing job's next
 *   batch, or another job's, would wait forever and read "processing").
 * - The space reserve is taken again once there is room, and is given back only for a store on its own
 *   file system.
 */
import { execFileSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, rmSync, statfsSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { open } from "lmdb";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createCommitGuard, StorageFullError } from "../../src/storage-errors.ts";
import { createSpaceReserve } from "../../src/data-dir-reserve.ts";
import { LMDB_MAP_BYTES, LMDB_WRITE_OPTIONS } from "../../src/lmdb-map.ts";
import { createEmbeddedCodeIndex } from "../../src/codeindex/embedded/code-index.ts";
import { chunk } from "../contract/codeindex.contract.ts";

const canMount = process.getuid?.() === 0;
const mount = mkdtempSync(join(tmpdir(), "loupe-full-stores-"));
const filler = join(mount, "filler");
const MB = 1024 * 1024;

const free = () => Number(statfsSync(mount).bavail) * Number(statfsSync(mount).bsize);
/** Writes zeros until `left` bytes are free (0: until the file system refuses). */
function fillUntil(left: number) {
  const fd = openSync(filler, "a");
  try {
    for (let room = free() - left; room > 0; room = free() - left) writeSync(fd, Buffer.alloc(Math.min(64 * 1024, room)));
  } catch (error) {
    expect((error as NodeJS.ErrnoException).code).toBe("ENOSPC");
  } finally {
    closeSync(fd);
  }
}

beforeAll(() => {
  if (canMount) execFileSync("mount", ["-t", "tmpfs", "-o", "size=16m", "tmpfs", mount]);
});
afterEach(() => {
  if (!canMount) return;
  for (const entry of ["filler", "store", "codeindex", "space-reserve"]) rmSync(join(mount, entry), { recursive: true, force: true });
});
afterAll(() => {
  if (canMount) execFileSync("umount", ["-l", mount]);
  rmSync(mount, { recursive: true, force: true });
});

describe.skipIf(!canMount)("the stores' writes on a full file system", () => {
  it("puts LMDB's short-write I/O error down to the full disk although the reserve was given back meanwhile", async () => {
    const reserve = createSpaceReserve(mount, { bytes: 8 * MB });
    expect(reserve.keep()).toBe(true);
    const dir = join(mount, "store");
    mkdirSync(dir);
    const root = open({ path: join(dir, "store.mdb"), mapSize: LMDB_MAP_BYTES, ...LMDB_WRITE_OPTIONS });
    const guard = createCommitGuard(dir, { full: (path) => void reserve.release(path), givenBackSince: reserve.givenBackSince });
    try {
      await guard(root.transaction(() => root.put("before", 1)));
      fillUntil(100 * 1024);
      const write = root.transaction(() => {
        for (let i = 0; i < 1000; i++) root.put(`key ${i}`, "v".repeat(1000));
      });
      // Another store's refusal gives the reserve back as this one's is being put down to its cause.
      write.catch(() => reserve.release());
      const refused = await guard(write).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(StorageFullError);
      expect((refused as StorageFullError).detail).toMatch(/Input\/output error/); // LMDB's short write
      expect(free()).toBeGreaterThanOrEqual(8 * MB); // the reserve's room, which the write did not have
      expect(root.get("before")).toBe(1);
    } finally {
      reserve.stop();
      await guard.settle(root);
      await root.close();
    }
  }, 60_000);

  it("resolves the code index's flushed() after a refused commit, once the commits before it are synced", async () => {
    const index = createEmbeddedCodeIndex({ dir: join(mount, "codeindex") });
    try {
      const doc = (path: string, text: string) => chunk({ repoId: "r", path, blobId: `blob-${path}`, text });
      await index.upsertChunks([doc("kept.ts", "export const kept = 1;")]);
      await index.flushed!();
      fillUntil(100 * 1024);
      const large = Array.from({ length: 400 }, (_, i) => doc(`file-${i}.ts`, `export const value${i} = "${"x".repeat(4000)}";`));
      await expect(index.upsertChunks(large)).rejects.toBeInstanceOf(StorageFullError);
      await index.flushed!(); // before: waited forever for the refused commit's sync
      expect(await index.hasBlob("r", "kept.ts", "blob-kept.ts")).toBe(true);
    } finally {
      await index.close();
    }
  }, 60_000);

  it("takes the reserve again once there is room, and gives it back only for a store on its file system", async () => {
    const reserve = createSpaceReserve(mount, { bytes: 1 * MB, checkEveryMs: 50 });
    try {
      expect(reserve.keep()).toBe(true);
      expect(reserve.release(tmpdir())).toBe(false); // a store on another file system gains nothing from it
      expect(existsSync(reserve.path)).toBe(true);
      fillUntil(0);
      const before = Date.now();
      expect(reserve.release(mount)).toBe(true);
      expect(existsSync(reserve.path)).toBe(false);
      expect(reserve.givenBackSince(before, mount)).toBe(1 * MB);
      expect(reserve.givenBackSince(before, tmpdir())).toBe(0);
      rmSync(filler); // room again
      for (let i = 0; i < 200 && !existsSync(reserve.path); i++) await new Promise((r) => setTimeout(r, 50));
      expect(existsSync(reserve.path)).toBe(true);
    } finally {
      reserve.stop();
    }
  }, 60_000);
});
