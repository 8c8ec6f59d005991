/**
 * The address space every lmdb environment of Loupe reserves when it opens (32 GiB of virtual memory:
 * nothing is allocated and the file is not grown to it; it only grows with the data).
 *
 * lmdb-js otherwise starts with a 128 KB map and doubles it whenever a write fills it, and it keeps each
 * earlier, smaller mapping of the same file while buffers may still point into it. Pages read through
 * several of those mappings were resident once per mapping: measured with `npm run bench` (1M lines),
 * the code index file (224 MB) stood for 475 MB of the service's RSS in 11 mappings; with the map
 * reserved at open, 208 MB in one. A database larger than this still grows the lmdb-js way.
 */
export const LMDB_MAP_BYTES = 2 ** 35;

/**
 * lmdb-js's "event turn batching" (its default) opens a batch for the writes of one event turn with an
 * internal commit promise nobody awaits: when that commit fails (a full disk), the promise's rejection
 * is unhandled and ends the process (Node and Deno alike). Every write of Loupe's stores is an explicit
 * `transaction()` awaited through src/storage-errors.ts, so the stores open without it: transactions
 * queued before the commit starts still share it (lmdb starts it on the next turn, `setImmediate`).
 */
export const LMDB_WRITE_OPTIONS = { eventTurnBatching: false } as const;
