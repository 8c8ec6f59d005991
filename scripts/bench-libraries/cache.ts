/**
 * The embedded index's read caches against lru-cache, on the same access sequence (Zipf-distributed
 * keys, as query terms and hit documents are): operations per second and hit ratio.
 *
 * - Impact lists (src/codeindex/embedded/scoring.ts): a Map in LRU order bounded by bytes, entries over
 *   an eighth of the budget not kept; against `LRUCache({ maxSize, maxEntrySize, sizeCalculation })`.
 * - Documents (src/codeindex/embedded/reader.ts): a second-chance (CLOCK) ring of 16,384 entries;
 *   against `LRUCache({ max })`.
 *
 * `createClockCache` is the code the reader runs (src/codeindex/embedded/caches.ts); `createByteLru` below
 * is the scorer's own LRU that lru-cache replaced (the same logic, moved here for this comparison). A miss costs only the creation of a small value here, so the figures are the caches'
 * own costs, not the index's.
 */
import { LRUCache } from "lru-cache";
import { createClockCache } from "../../src/codeindex/embedded/caches.ts";
import { median, time } from "./timing.ts";

type Entry = { bytes: number; value: number };

/** The scorer's former cache: a Map in LRU order bounded by stated bytes. */
type ByteLru<V> = {
  /** The entry, now the most recently used; undefined when absent. */
  get(key: string): V | undefined;
  /** Keeps the entry unless it is over `maxEntryBytes`, then drops the least recently used down to `maxBytes`. */
  set(key: string, value: V, bytes: number): void;
  delete(key: string): void;
  clear(): void;
  readonly bytes: number;
};

function createByteLru<V>(options: { maxBytes: number; maxEntryBytes: number }): ByteLru<V> {
  const entries = new Map<string, { value: V; bytes: number }>();
  let total = 0;
  return {
    get(key) {
      const hit = entries.get(key);
      if (!hit) return undefined;
      entries.delete(key);
      entries.set(key, hit); // LRU order: a Map iterates in insertion order
      return hit.value;
    },
    set(key, value, bytes) {
      const old = entries.get(key);
      if (old) {
        entries.delete(key);
        total -= old.bytes;
      }
      if (bytes > options.maxEntryBytes) return;
      entries.set(key, { value, bytes });
      total += bytes;
      for (const [oldKey, entry] of entries) {
        if (total <= options.maxBytes) break;
        entries.delete(oldKey);
        total -= entry.bytes;
      }
    },
    delete(key) {
      const old = entries.get(key);
      if (!old) return;
      entries.delete(key);
      total -= old.bytes;
    },
    clear() {
      entries.clear();
      total = 0;
    },
    get bytes() {
      return total;
    },
  };
}



/** `count` keys drawn from `keys` distinct ones with Zipf weights (exponent s), deterministic. */
function zipfSequence(keys: number, count: number, s: number, seed = 7): Int32Array {
  const cumulative = new Float64Array(keys);
  let sum = 0;
  for (let k = 0; k < keys; k++) cumulative[k] = sum += 1 / Math.pow(k + 1, s);
  let x = seed >>> 0; // mulberry32
  const random = () => {
    x = (x + 0x6d2b79f5) >>> 0;
    let t = Math.imul(x ^ (x >>> 15), 1 | x);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (((t ^ (t >>> 14)) >>> 0) / 2 ** 32) * sum;
  };
  const out = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    const r = random();
    let lo = 0;
    let hi = keys - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < r) lo = mid + 1;
      else hi = mid;
    }
    out[i] = lo;
  }
  return out;
}

const sizeOf = (key: number) => 96 + 8 * (50 + ((key * 2654435761) % 20_000)); // 0.5 to 160 KB, as impact lists

function byteLruFigures(sequence: Int32Array, budget: number) {
  const terms = Array.from({ length: 1 + sequence.reduce((m, k) => Math.max(m, k), 0) }, (_, k) => `term${k}`);
  const runOwn = () => {
    const cache = createByteLru<Entry>({ maxBytes: budget, maxEntryBytes: budget / 8 });
    let hits = 0;
    for (const k of sequence) {
      const key = terms[k]!;
      if (cache.get(key)) hits++;
      else cache.set(key, { bytes: sizeOf(k), value: k }, sizeOf(k));
    }
    return hits;
  };
  const runLibrary = () => {
    const cache = new LRUCache<string, Entry>({ maxSize: budget, maxEntrySize: budget / 8, sizeCalculation: (e) => e.bytes });
    let hits = 0;
    for (const k of sequence) {
      const key = terms[k]!;
      if (cache.get(key)) hits++;
      else cache.set(key, { bytes: sizeOf(k), value: k });
    }
    return hits;
  };
  return compare(sequence.length, runOwn, runLibrary, "createByteLru", "lru-cache maxSize");
}

function clockFigures(sequence: Int32Array, entries: number) {
  const runOwn = () => {
    const cache = createClockCache<Entry>(entries);
    let hits = 0;
    for (const k of sequence) {
      if (cache.get(k)) hits++;
      else cache.set(k, { bytes: 0, value: k });
    }
    return hits;
  };
  const runLibrary = () => {
    const cache = new LRUCache<number, Entry>({ max: entries });
    let hits = 0;
    for (const k of sequence) {
      if (cache.get(k)) hits++;
      else cache.set(k, { bytes: 0, value: k });
    }
    return hits;
  };
  return compare(sequence.length, runOwn, runLibrary, "createClockCache", "lru-cache max");
}

/** Runs the two alternately (a loaded machine slows both alike), 11 times each after warm-up; medians. */
function compare(ops: number, own: () => number, library: () => number, ownName: string, libraryName: string) {
  for (let i = 0; i < 2; i++) {
    own();
    library();
  }
  const ownHits = own();
  const libraryHits = library();
  const ownMs: number[] = [];
  const libraryMs: number[] = [];
  for (let i = 0; i < 11; i++) {
    ownMs.push(time(own, 1));
    libraryMs.push(time(library, 1));
  }
  return {
    [ownName]: { opsPerSecond: Math.round(ops / (median(ownMs) / 1000)), hitRatio: +(ownHits / ops).toFixed(3) },
    [libraryName]: { opsPerSecond: Math.round(ops / (median(libraryMs) / 1000)), hitRatio: +(libraryHits / ops).toFixed(3) },
  };
}

/** Hits only: the keys all fit, the cache is filled first, then read. */
function hitPathFigures(ops: number) {
  const keys = 4096;
  const sequence = zipfSequence(keys, ops, 1.0, 5);
  const terms = Array.from({ length: keys }, (_, k) => `term${k}`);
  const byteLru = createByteLru<Entry>({ maxBytes: 2 ** 40, maxEntryBytes: 2 ** 40 });
  const lruBytes = new LRUCache<string, Entry>({ maxSize: 2 ** 40, sizeCalculation: (e) => e.bytes });
  const clock = createClockCache<Entry>(keys);
  const lruCount = new LRUCache<number, Entry>({ max: keys });
  for (let k = 0; k < keys; k++) {
    const entry = { bytes: sizeOf(k), value: k };
    byteLru.set(terms[k]!, entry, entry.bytes);
    lruBytes.set(terms[k]!, entry);
    clock.set(k, entry);
    lruCount.set(k, entry);
  }
  const reads = (get: (k: number) => Entry | undefined) => () => {
    let hits = 0;
    for (const k of sequence) if (get(k)) hits++;
    return hits;
  };
  return {
    byBytes: compare(ops, reads((k) => byteLru.get(terms[k]!)), reads((k) => lruBytes.get(terms[k]!)), "createByteLru", "lru-cache maxSize"),
    byEntries: compare(ops, reads((k) => clock.get(k)), reads((k) => lruCount.get(k)), "createClockCache", "lru-cache max"),
  };
}

export function benchCaches() {
  const OPS = 1_000_000;
  return {
    input: `${OPS} gets (a set after each miss), Zipf s=1.0 keys`,
    impactLists: { keys: 20_000, budgetBytes: 32 * 1024 * 1024, ...byteLruFigures(zipfSequence(20_000, OPS, 1.0), 32 * 1024 * 1024) },
    documents: { keys: 200_000, entries: 16_384, ...clockFigures(zipfSequence(200_000, OPS, 1.0, 11), 16_384) },
    hitPath: { keys: 4096, ...hitPathFigures(OPS) },
  };
}
