import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { open, type Database, type RootDatabase } from "lmdb";
import { LMDB_MAP_BYTES, LMDB_WRITE_OPTIONS } from "../lmdb-map.ts";
import { createCommitGuard, type StorageSpace } from "../storage-errors.ts";
import type { Entry, Key, ProjectionMeta, ReadStore, ReadView, WriteView } from "./port.ts";

/**
 * Upper bound for a key prefix: lmdb orders strings after numbers and compares strings by their UTF-8
 * bytes; U+10FFFF encodes as F4 8F BF BF, above the first bytes of every other valid character.
 */
const KEY_END = "\u{10FFFF}\u{10FFFF}";

/** `storageSpace`: told when a commit finds the file system full (before its StorageFullError is thrown). */
export function createLmdbReadStore({ dir, storageSpace }: { dir: string; storageSpace?: StorageSpace }): ReadStore {
  mkdirSync(dir, { recursive: true });
  // Synced after each commit, outside the writer lock (lmdb-js's overlappingSync): a read model can always
  // be rebuilt from the log, and its data and checkpoint commit together, so a crash only sets it back.
  const env: RootDatabase = open({ path: join(dir, "readmodels.lmdb"), maxDbs: 512, overlappingSync: true, mapSize: LMDB_MAP_BYTES, ...LMDB_WRITE_OPTIONS });
  // A refused commit (a full disk) throws a StorageFullError and writes nothing; the projection runner
  // keeps the previous checkpoint and tries again.
  const guardCommit = createCommitGuard(dir, storageSpace);
  const metaDb: Database<ProjectionMeta, string> = env.openDB("projection-meta", {});
  const spaces = new Map<string, Database<unknown, Key>>();

  const space = (name: string, generation: number) => {
    const dbName = `rm:${name}:${generation}`;
    let db = spaces.get(dbName);
    if (!db) {
      db = env.openDB<unknown, Key>(dbName, {});
      spaces.set(dbName, db);
    }
    return db;
  };

  const readView = (db: Database<unknown, Key>): ReadView => ({
    get: <T>(key: Key) => db.get(key) as T | undefined,
    range<T>(prefix: Key, options: { limit?: number; offset?: number; reverse?: boolean } = {}) {
      const bounds = { start: prefix, end: [...prefix, KEY_END] };
      const range = db.getRange({
        start: options.reverse ? bounds.end : bounds.start,
        end: options.reverse ? bounds.start : bounds.end,
        reverse: options.reverse ?? false,
        limit: options.limit,
        offset: options.offset,
      });
      const out: Entry<T>[] = [];
      for (const { key, value } of range) out.push({ key: key as Key, value: value as T });
      return out;
    },
    count: (prefix: Key) => db.getKeysCount({ start: prefix, end: [...prefix, KEY_END] }),
  });

  // The active generation of each read model, kept in memory (every reader asks for it): this store is
  // the only writer of its meta database, and activate() is the only thing that changes it.
  const activeGenerations = new Map<string, number>();
  const activeGeneration = (name: string) => {
    let generation = activeGenerations.get(name);
    if (generation === undefined) activeGenerations.set(name, (generation = metaDb.get(name)?.generation ?? 0));
    return generation;
  };

  // Bumped before a write (a reader between the bump and the commit caches the old value under the new
  // number) and again after it, once readers see the new data.
  const versions = new Map<string, number>();
  const bump = (name: string) => void versions.set(name, (versions.get(name) ?? 0) + 1);

  return {
    view: (name) => readView(space(name, activeGeneration(name))),
    version: (name) => versions.get(name) ?? 0,
    meta: (name) => metaDb.get(name),
    generationView: (name, generation) => readView(space(name, generation)),
    async commit(name, generation, checkpoint, version, fn) {
      const db = space(name, generation);
      const isActive = (metaDb.get(name)?.generation ?? generation) === generation;
      bump(name);
      await guardCommit(env.transaction(() => {
        const tx: WriteView = {
          ...readView(db),
          put: (key, value) => void db.put(key, value),
          remove: (key) => void db.remove(key),
        };
        fn(tx);
        const metaKey = isActive ? name : `${name}#building`;
        metaDb.put(metaKey, { name, version, generation, checkpoint, updatedAt: new Date().toISOString() });
      }));
      if (isActive) activeGenerations.set(name, generation);
      bump(name);
    },
    async clearGeneration(name, generation) {
      bump(name);
      await guardCommit(space(name, generation).clearAsync());
      bump(name);
    },
    async activate(name, generation, checkpoint, version) {
      const previous = metaDb.get(name)?.generation;
      bump(name);
      await guardCommit(env.transaction(() => {
        metaDb.put(name, { name, version, generation, checkpoint, updatedAt: new Date().toISOString() });
        metaDb.remove(`${name}#building`);
      }));
      activeGenerations.set(name, generation);
      bump(name);
      if (previous !== undefined && previous !== generation) await guardCommit(space(name, previous).clearAsync());
    },
    contentHash(name) {
      const hash = createHash("sha256");
      for (const { key, value } of space(name, activeGeneration(name)).getRange({})) {
        hash.update(JSON.stringify(key));
        hash.update("\u0000");
        hash.update(JSON.stringify(value));
        hash.update("\u0001");
      }
      return hash.digest("hex");
    },
    async close() {
      await guardCommit.settle(env);
      await env.close();
    },
  };
}
