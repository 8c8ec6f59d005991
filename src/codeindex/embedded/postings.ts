/**
 * Compact posting blocks for the embedded code index.
 *
 * A term's postings are split into blocks of BLOCK_SIZE document ordinals (key `${term}\x1f${block}`), so
 * indexing new documents rewrites only the last, small block of each term, never a whole list.
 *
 * Block layout: u32 count, u32 last ordinal (little endian), then `count` entries sorted by ordinal:
 *   varint ordinal delta (from the previous entry, or from the block's first ordinal)
 *   u8 field mask (bit f set when the term occurs in field f)
 *   per set bit, in field order: varint term frequency, u8 quantised field length (see quantiseLength)
 */

export const BLOCK_SIZE = 4096;
const HEADER = 8;

/** Field length quantised to one byte: exact up to 32 tokens, then logarithmic (3.5% steps, up to ~68k). */
export function quantiseLength(length: number): number {
  if (length <= 32) return length;
  return Math.min(255, 32 + Math.round(Math.log(length / 32) / Math.log(1.035)));
}

export function dequantiseLength(q: number): number {
  return q <= 32 ? q : 32 * Math.pow(1.035, q - 32);
}

/** A posting without its ordinal delta: mask + (tf, length) pairs. */
export function encodePayload(tfs: ArrayLike<number>, lengths: ArrayLike<number>): Uint8Array {
  const bytes: number[] = [0];
  let mask = 0;
  for (let f = 0; f < tfs.length; f++) {
    const tf = tfs[f]!;
    if (tf === 0) continue;
    mask |= 1 << f;
    writeVarint(bytes, tf);
    bytes.push(quantiseLength(lengths[f]!));
  }
  bytes[0] = mask;
  return Uint8Array.from(bytes);
}

export type Posting = { ordinal: number; payload: Uint8Array };

export function blockOf(ordinal: number): number {
  return Math.floor(ordinal / BLOCK_SIZE);
}

export function postingKey(term: string, block: number): string {
  return `${term}\x1f${block.toString(36)}`;
}

export function postingKeyPrefix(term: string): string {
  return `${term}\x1f`;
}

function writeVarint(out: number[], value: number): void {
  while (value >= 0x80) {
    out.push((value & 0x7f) | 0x80);
    value >>>= 7;
  }
  out.push(value);
}

function payloadLength(buf: Uint8Array, at: number): number {
  const mask = buf[at]!;
  let p = at + 1;
  for (let f = 0; f < 8; f++) {
    if ((mask & (1 << f)) === 0) continue;
    while (buf[p++]! & 0x80);
    p++;
  }
  return p - at;
}

/** Decodes a block into its postings (payloads are views into `block`). */
export function decodeBlock(block: Uint8Array, blockNumber: number): Posting[] {
  const view = new DataView(block.buffer, block.byteOffset, block.byteLength);
  const count = view.getUint32(0, true);
  const out: Posting[] = new Array(count);
  let p = HEADER;
  let ordinal = blockNumber * BLOCK_SIZE;
  for (let i = 0; i < count; i++) {
    let delta = 0;
    let shift = 0;
    let b: number;
    do {
      b = block[p++]!;
      delta |= (b & 0x7f) << shift;
      shift += 7;
    } while (b & 0x80);
    ordinal += delta;
    const len = payloadLength(block, p);
    out[i] = { ordinal, payload: block.subarray(p, p + len) };
    p += len;
  }
  return out;
}

/** Encodes postings (sorted by ordinal, all within `blockNumber`). */
export function encodeBlock(postings: Posting[], blockNumber: number): Uint8Array {
  const bytes: number[] = [0, 0, 0, 0, 0, 0, 0, 0];
  let previous = blockNumber * BLOCK_SIZE;
  for (const posting of postings) {
    writeVarint(bytes, posting.ordinal - previous);
    for (const b of posting.payload) bytes.push(b);
    previous = posting.ordinal;
  }
  const out = Uint8Array.from(bytes);
  const view = new DataView(out.buffer);
  view.setUint32(0, postings.length, true);
  view.setUint32(4, postings.length ? postings[postings.length - 1]!.ordinal : 0, true);
  return out;
}

/**
 * Applies removals and additions to a block (or creates it). Appends without decoding when every added
 * ordinal follows the block's last one and nothing is removed: the common case while indexing.
 * Returns null when the block ends up empty.
 */
export function updateBlock(
  existing: Uint8Array | undefined,
  blockNumber: number,
  remove: ReadonlySet<number> | undefined,
  add: Posting[],
): Uint8Array | null {
  add.sort((a, b) => a.ordinal - b.ordinal);
  if (existing && existing.byteLength >= HEADER) {
    const view = new DataView(existing.buffer, existing.byteOffset, existing.byteLength);
    const count = view.getUint32(0, true);
    const last = view.getUint32(4, true);
    if ((!remove || remove.size === 0) && count > 0 && add.length > 0 && add[0]!.ordinal > last) {
      const tail: number[] = [];
      let previous = last;
      for (const posting of add) {
        writeVarint(tail, posting.ordinal - previous);
        for (const b of posting.payload) tail.push(b);
        previous = posting.ordinal;
      }
      const out = new Uint8Array(existing.byteLength + tail.length);
      out.set(existing, 0);
      out.set(tail, existing.byteLength);
      const outView = new DataView(out.buffer);
      outView.setUint32(0, count + add.length, true);
      outView.setUint32(4, previous, true);
      return out;
    }
  }
  const added = new Set(add.map((p) => p.ordinal));
  const kept = existing
    ? decodeBlock(existing, blockNumber).filter((p) => !remove?.has(p.ordinal) && !added.has(p.ordinal))
    : [];
  const merged = kept.concat(add).sort((a, b) => a.ordinal - b.ordinal);
  return merged.length === 0 ? null : encodeBlock(merged, blockNumber);
}

/**
 * Postings of new documents gathered during one write batch for one (term, block):
 * `arena.bytes[start, start + length)` holds the first entry's payload, then (varint delta, payload)
 * for each further entry. The first entry's delta depends on the block it is appended to, so it is
 * written by appendSegmentInto.
 */
export type AppendSegment = {
  block: number;
  first: number;
  last: number;
  count: number;
  arena: SegmentArena;
  start: number;
  capacity: number;
  length: number;
};

/**
 * The bytes of a write batch's segments, in one buffer: a segment that outgrows its region moves to the
 * end (or grows in place when it is the last region). One typed array per segment, grown by doubling,
 * was the largest share of the writer's garbage (~150 MB while indexing CPython's Lib, most of it
 * surviving into the old generation because a batch's segments live until the batch is written).
 */
export type SegmentArena = { bytes: Uint8Array; used: number };

export function newSegmentArena(size = 64 * 1024): SegmentArena {
  return { bytes: new Uint8Array(size), used: 0 };
}

/** Forgets every segment of the arena (their bytes are overwritten from now on). */
export function resetSegmentArena(arena: SegmentArena): void {
  arena.used = 0;
}

function allocate(arena: SegmentArena, size: number): number {
  if (arena.used + size > arena.bytes.length) {
    const grown = new Uint8Array(Math.max(arena.bytes.length * 2, arena.used + size));
    grown.set(arena.bytes.subarray(0, arena.used));
    arena.bytes = grown;
  }
  const start = arena.used;
  arena.used += size;
  return start;
}

const FIRST_CAPACITY = 32;

export function newSegment(block: number, ordinal: number, arena: SegmentArena): AppendSegment {
  return { block, first: ordinal, last: ordinal, count: 0, arena, start: allocate(arena, FIRST_CAPACITY), capacity: FIRST_CAPACITY, length: 0 };
}

/** Reads a varint at `at`; the position after it is left in `varintEnd` (no result object per read). */
let varintEnd = 0;
function readVarint(bytes: Uint8Array, at: number): number {
  let b = bytes[at++]!;
  let value = b & 0x7f;
  for (let shift = 7; b & 0x80; shift += 7) {
    b = bytes[at++]!;
    value |= (b & 0x7f) << shift;
  }
  varintEnd = at;
  return value;
}

/** Room for `bytes` more bytes in the segment's region; returns the arena's buffer (it may have grown). */
function reserve(seg: AppendSegment, bytes: number): Uint8Array {
  const needed = seg.length + bytes;
  if (needed > seg.capacity) {
    const arena = seg.arena;
    const capacity = Math.max(seg.capacity * 2, needed);
    if (seg.start + seg.capacity === arena.used) {
      allocate(arena, capacity - seg.capacity); // the last region grows in place
    } else {
      const start = allocate(arena, capacity);
      arena.bytes.copyWithin(start, seg.start, seg.start + seg.length);
      seg.start = start;
    }
    seg.capacity = capacity;
  }
  return seg.arena.bytes;
}

/** Writes the delta (unless it is the segment's first entry) and the payload bytes of one or more entries. */
function appendEntries(seg: AppendSegment, firstOrdinal: number, bytes: Uint8Array, from: number, to: number, lastOrdinal: number, count: number): void {
  const out = reserve(seg, 5 + (to - from));
  let p = seg.start + seg.length;
  if (seg.count > 0) {
    let delta = firstOrdinal - seg.last;
    while (delta >= 0x80) {
      out[p++] = (delta & 0x7f) | 0x80;
      delta >>>= 7;
    }
    out[p++] = delta;
  }
  // Copied in a loop: runs are short, and a subarray view per run was ~60 MB of garbage on the writer
  // while indexing CPython's Lib.
  for (let i = from; i < to; i++) out[p++] = bytes[i]!;
  seg.length = p - seg.start;
  seg.last = lastOrdinal;
  seg.count += count;
}

function segmentFor(segments: AppendSegment[], ordinal: number, arena: SegmentArena): AppendSegment {
  const block = blockOf(ordinal);
  let seg = segments[segments.length - 1];
  if (!seg || seg.block !== block) segments.push((seg = newSegment(block, ordinal, arena)));
  return seg;
}

/**
 * Appends one term's entries of a DocumentTerms run (analysis.ts: `bytes[from, to)`, `count` entries
 * whose deltas are between local document indexes, the first being the index itself) for documents
 * stored from ordinal `base` on. Every ordinal must follow those already in `segments`. The run is
 * copied as is, but for its first delta; a run crossing a block boundary is split entry by entry. New
 * segments take their bytes from `arena`.
 */
export function appendRun(
  segments: AppendSegment[],
  base: number,
  bytes: Uint8Array,
  from: number,
  to: number,
  lastLocal: number,
  count: number,
  arena: SegmentArena,
): void {
  const firstOrdinal = base + readVarint(bytes, from);
  const firstPayload = varintEnd;
  const lastOrdinal = base + lastLocal;
  if (blockOf(firstOrdinal) === blockOf(lastOrdinal)) {
    appendEntries(segmentFor(segments, firstOrdinal, arena), firstOrdinal, bytes, firstPayload, to, lastOrdinal, count);
    return;
  }
  let ordinal = base;
  let p = from;
  for (let i = 0; i < count; i++) {
    ordinal += readVarint(bytes, p);
    const payload = varintEnd;
    const end = payload + payloadLength(bytes, payload);
    appendEntries(segmentFor(segments, ordinal, arena), ordinal, bytes, payload, end, ordinal, 1);
    p = end;
  }
}

/** Little-endian u32 (no DataView per block read). */
function readUint32(bytes: Uint8Array, at: number): number {
  return (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0;
}

/** Bytes `appendSegmentInto` writes for `seg` after a block of `existingLength` bytes (at most). */
export function appendedLength(existingLength: number, seg: AppendSegment): number {
  return Math.max(existingLength, HEADER) + 5 + seg.length;
}

/**
 * Writes a block (or a new one) extended by a segment into `out` (at least appendedLength bytes) and
 * returns its length. Every ordinal of the segment must follow the block's last ordinal (new documents
 * get new, higher ordinals), so the block is extended without decoding.
 */
export function appendSegmentInto(existing: Uint8Array | undefined, seg: AppendSegment, out: Uint8Array): number {
  let count = 0;
  let base = seg.block * BLOCK_SIZE;
  let head = HEADER;
  if (existing && existing.byteLength >= HEADER) {
    count = readUint32(existing, 0);
    if (count > 0) {
      base = readUint32(existing, 4);
      head = existing.byteLength;
    }
  }
  if (head > HEADER) out.set(existing!, 0);
  let delta = seg.first - base;
  let p = head;
  while (delta >= 0x80) {
    out[p++] = (delta & 0x7f) | 0x80;
    delta >>>= 7;
  }
  out[p++] = delta;
  const bytes = seg.arena.bytes;
  for (let i = seg.start, end = seg.start + seg.length; i < end; i++) out[p++] = bytes[i]!;
  const total = count + seg.count;
  out[0] = total & 0xff;
  out[1] = (total >>> 8) & 0xff;
  out[2] = (total >>> 16) & 0xff;
  out[3] = total >>> 24;
  out[4] = seg.last & 0xff;
  out[5] = (seg.last >>> 8) & 0xff;
  out[6] = (seg.last >>> 16) & 0xff;
  out[7] = seg.last >>> 24;
  return p;
}

/** appendSegmentInto into a new array of the exact size. */
export function appendSegment(existing: Uint8Array | undefined, seg: AppendSegment): Uint8Array {
  const out = new Uint8Array(appendedLength(existing?.byteLength ?? 0, seg));
  return out.slice(0, appendSegmentInto(existing, seg, out));
}
