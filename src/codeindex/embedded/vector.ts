/**
 * Chunk vectors of the embedded code index: stored as Float32 [norm, ...values] per ordinal, searched by
 * an exact cosine scan over the chunks a filter allows.
 */
import type { Database } from "lmdb";
import { createTopK } from "./topk.ts";

export function encodeVector(values: number[]): Uint8Array {
  const out = new Float32Array(values.length + 1);
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    out[i + 1] = values[i]!;
    sum += out[i + 1]! * out[i + 1]!;
  }
  out[0] = Math.sqrt(sum);
  return new Uint8Array(out.buffer);
}

export function sameVector(stored: Uint8Array | undefined, values: number[] | undefined): boolean {
  if (!stored || !values) return !stored && !values;
  if (stored.byteLength !== (values.length + 1) * 4) return false;
  const view = new DataView(stored.buffer, stored.byteOffset, stored.byteLength);
  for (let i = 0; i < values.length; i++) {
    if (view.getFloat32((i + 1) * 4, true) !== Math.fround(values[i]!)) return false;
  }
  return true;
}

export function decodeVector(stored: Uint8Array): number[] {
  const view = new DataView(stored.buffer, stored.byteOffset, stored.byteLength);
  const out: number[] = [];
  for (let at = 4; at < stored.byteLength; at += 4) out.push(view.getFloat32(at, true));
  return out;
}

/** The `limit` chunks most similar to `vector` among those `allowed` (ordinal -> non-zero), best first. */
export function nearestVectors(vectors: Database<Uint8Array, number>, allowed: Uint8Array, vector: number[], limit: number): { id: number; score: number }[] {
  const query = Float32Array.from(vector);
  let qnorm = 0;
  for (const v of query) qnorm += v * v;
  qnorm = Math.sqrt(qnorm);
  if (qnorm === 0) return [];
  const dims = query.length;
  const aligned = new Float32Array(dims + 1);
  const alignedBytes = new Uint8Array(aligned.buffer);
  const top = createTopK(limit);
  for (let ordinal = 0; ordinal < allowed.length; ordinal++) {
    if (allowed[ordinal] === 0) continue;
    const bytes = vectors.getBinary(ordinal);
    if (!bytes || bytes.byteLength !== (dims + 1) * 4) continue;
    alignedBytes.set(bytes);
    const dnorm = aligned[0]!;
    if (dnorm === 0) continue;
    let dot = 0;
    for (let i = 0; i < dims; i++) dot += aligned[i + 1]! * query[i]!;
    top.offer(ordinal, dot / (dnorm * qnorm));
  }
  return top.results();
}
