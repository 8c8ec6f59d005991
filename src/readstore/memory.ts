import { createHash } from "node:crypto";
import type { Entry, Key, ProjectionMeta, ReadStore, ReadView, WriteView } from "./port.ts";

/**
 * In-memory ReadStore: the same port as the lmdb store, for temporary models (audit "as of" replays)
 * and tests. Keys are ordered like lmdb's ordered-binary keys: element by element, numbers before
 * strings, numbers numerically, strings by code point (= UTF-8 byte order), a shorter key before any
 * longer key it is a prefix of. So `range`, and `contentHash` for equal contents, match the lmdb store.
 */
export function compareKeyElements(a: string | number, b: string | number): number {
  if (typeof a === "number" && typeof b === "number") return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === "number") return -1;
  if (typeof b === "number") return 1;
  if (a === b) return 0;
  // Code point order (UTF-16 code unit order differs for astral characters vs U+E000..U+FFFF).
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done) return y.done ? 0 : -1;
    if (y.done) return 1;
    const cx = x.value.codePointAt(0)!;
    const cy = y.value.codePointAt(0)!;
    if (cx !== cy) return cx < cy ? -1 : 1;
  }
}

export function compareKeys(a: Key, b: Key): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const c = compareKeyElements(a[i]!, b[i]!);
    if (c !== 0) return c;
  }
  return a.length - b.length;
}

/**
 * lmdb's ordered-binary encoding stores a one-element key exactly like its element, so lmdb hands
 * `["a"]` back as `"a"` (in range results and contentHash). Mirror that so both stores agree.
 */
const asLmdbReturnsIt = (key: Key): Key => (key.length === 1 ? (key[0] as unknown as Key) : [...key]);

const startsWith = (key: Key, prefix: Key) =>
  key.length >= prefix.length && prefix.every((element, i) => compareKeyElements(element, key[i]!) === 0);

/** A sorted key/value space: binary search over a sorted array of entries. */
function createSpace() {
  let entries: Entry<unknown>[] = [];
  /** Index of the first entry whose key is >= key. */
  const lowerBound = (key: Key) => {
    let lo = 0;
    let hi = entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareKeys(entries[mid]!.key, key) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const find = (key: Key) => {
    const i = lowerBound(key);
    return i < entries.length && compareKeys(entries[i]!.key, key) === 0 ? i : -1;
  };
  const prefixBounds = (prefix: Key) => {
    const start = lowerBound(prefix);
    let end = start;
    while (end < entries.length && startsWith(entries[end]!.key, prefix)) end++;
    return [start, end] as const;
  };

  const view: ReadView = {
    get<T>(key: Key) {
      const i = find(key);
      return i < 0 ? undefined : (structuredClone(entries[i]!.value) as T);
    },
    range<T>(prefix: Key, options: { limit?: number; offset?: number; reverse?: boolean } = {}) {
      const [start, end] = prefixBounds(prefix);
      let slice = entries.slice(start, end);
      if (options.reverse) slice = slice.reverse();
      const offset = options.offset ?? 0;
      slice = slice.slice(offset, options.limit === undefined ? undefined : offset + options.limit);
      return slice.map((e) => ({ key: asLmdbReturnsIt(e.key), value: structuredClone(e.value) as T }));
    },
    count(prefix: Key) {
      const [start, end] = prefixBounds(prefix);
      return end - start;
    },
  };

  return {
    view,
    put(key: Key, value: unknown) {
      const stored = { key: [...key], value: structuredClone(value) };
      const i = lowerBound(key);
      if (i < entries.length && compareKeys(entries[i]!.key, key) === 0) entries[i] = stored;
      else entries.splice(i, 0, stored);
    },
    remove(key: Key) {
      const i = find(key);
      if (i >= 0) entries.splice(i, 1);
    },
    has: (key: Key) => find(key) >= 0,
    all: () => entries,
    clear() {
      entries = [];
    },
  };
}

export function createMemoryReadStore(): ReadStore {
  const spaces = new Map<string, ReturnType<typeof createSpace>>();
  const metas = new Map<string, ProjectionMeta>();
  const space = (name: string, generation: number) => {
    const id = `${name}:${generation}`;
    let s = spaces.get(id);
    if (!s) spaces.set(id, (s = createSpace()));
    return s;
  };
  const activeGeneration = (name: string) => metas.get(name)?.generation ?? 0;
  const meta = (name: string, version: number, generation: number, checkpoint: number): ProjectionMeta => ({
    name,
    version,
    generation,
    checkpoint,
    updatedAt: new Date().toISOString(),
  });

  const versions = new Map<string, number>();
  const bump = (name: string) => void versions.set(name, (versions.get(name) ?? 0) + 1);

  return {
    view: (name) => space(name, activeGeneration(name)).view,
    version: (name) => versions.get(name) ?? 0,
    meta: (name) => metas.get(name),
    generationView: (name, generation) => space(name, generation).view,
    async commit(name, generation, checkpoint, version, fn) {
      bump(name);
      const target = space(name, generation);
      // All or nothing, like a transaction: writes apply at once, and an undo log reverts them if fn throws.
      const undo: { key: Key; previous: unknown; existed: boolean }[] = [];
      const remember = (key: Key) => {
        const previous = target.view.get<unknown>(key);
        undo.push({ key: [...key], previous, existed: target.has(key) });
      };
      const tx: WriteView = {
        ...target.view,
        put(key, value) {
          remember(key);
          target.put(key, value);
        },
        remove(key) {
          remember(key);
          target.remove(key);
        },
      };
      try {
        fn(tx);
      } catch (error) {
        for (const step of undo.reverse()) {
          if (step.existed) target.put(step.key, step.previous);
          else target.remove(step.key);
        }
        throw error;
      }
      const isActive = (metas.get(name)?.generation ?? generation) === generation;
      metas.set(isActive ? name : `${name}#building`, meta(name, version, generation, checkpoint));
    },
    async clearGeneration(name, generation) {
      bump(name);
      space(name, generation).clear();
    },
    async activate(name, generation, checkpoint, version) {
      bump(name);
      const previous = metas.get(name)?.generation;
      metas.set(name, meta(name, version, generation, checkpoint));
      metas.delete(`${name}#building`);
      if (previous !== undefined && previous !== generation) space(name, previous).clear();
    },
    contentHash(name) {
      const hash = createHash("sha256");
      for (const { key, value } of space(name, activeGeneration(name)).all()) {
        hash.update(JSON.stringify(asLmdbReturnsIt(key)));
        hash.update("\u0000");
        hash.update(JSON.stringify(value));
        hash.update("\u0001");
      }
      return hash.digest("hex");
    },
    async close() {
      spaces.clear();
      metas.clear();
    },
  };
}
