/**
 * The reader's cache of decoded documents: second chance (CLOCK), bounded by entries. A hit only sets a
 * flag, where LRU order costs two more map operations per hit; scripts/bench-libraries.ts measures it
 * against lru-cache (docs/dependencies.md). The scorer's impact lists use lru-cache itself.
 */

export type ClockCache<V> = {
  /** The entry, marked as used (it survives the clock hand's next pass); undefined when absent. */
  get(key: number): V | undefined;
  /** Adds the entry (evicting the first unmarked one under the hand), or replaces it in its place. */
  set(key: number, value: V): void;
  delete(key: number): void;
  clear(): void;
  readonly size: number;
};

export function createClockCache<V>(limit: number): ClockCache<V> {
  const entries = new Map<number, { value: V; used: boolean }>();
  const ring = new Int32Array(limit); // keys in insertion order, for the clock hand
  let ringSize = 0;
  let hand = 0;
  return {
    get(key) {
      const hit = entries.get(key);
      if (!hit) return undefined;
      hit.used = true;
      return hit.value;
    },
    set(key, value) {
      const entry = { value, used: false };
      if (entries.has(key)) {
        entries.set(key, entry); // replaced in its place on the ring
        return;
      }
      if (ringSize < limit) ring[ringSize++] = key;
      else {
        for (;;) {
          const victim = entries.get(ring[hand]!);
          if (victim?.used) {
            victim.used = false;
            hand = (hand + 1) % limit;
            continue;
          }
          entries.delete(ring[hand]!);
          ring[hand] = key;
          hand = (hand + 1) % limit;
          break;
        }
      }
      entries.set(key, entry);
    },
    delete(key) {
      entries.delete(key);
    },
    clear() {
      entries.clear();
      ringSize = 0;
      hand = 0;
    },
    get size() {
      return entries.size;
    },
  };
}
