/**
 * Decoded values of a read model, kept while its version (ReadStore.version) stays the same: a lookup
 * that every request makes (the caller's API key, the repositories it names) then decodes its record
 * once per change instead of once per request. Values are frozen (with their direct array and object
 * fields), since every caller shares them.
 */
export type ReadMemo<T> = { get(cacheKey: string, load: () => T | undefined): T | undefined };

export function createReadMemo<T>(version: () => number, limit = 1024): ReadMemo<T> {
  let cachedAt = -1;
  const values = new Map<string, T | undefined>();
  return {
    get(cacheKey, load) {
      const now = version();
      if (now !== cachedAt) {
        values.clear();
        cachedAt = now;
      }
      if (values.has(cacheKey)) return values.get(cacheKey);
      const value = load();
      if (value !== null && typeof value === "object") {
        for (const field of Object.values(value)) if (field !== null && typeof field === "object") Object.freeze(field);
        Object.freeze(value);
      }
      if (values.size >= limit) values.delete(values.keys().next().value!);
      values.set(cacheKey, value);
      return value;
    },
  };
}
