/**
 * ulid ids with their random part taken from a pooled crypto buffer: the ulid package's default PRNG
 * makes one crypto call per character (16 per id, several ids per request).
 */
import { createHash, randomBytes } from "node:crypto";
import { ulid as ulidWith } from "ulid";

let entropy = randomBytes(4096);
let entropyAt = 0;
const pooledPrng = (): number => {
  if (entropyAt >= entropy.length) {
    entropy = randomBytes(4096);
    entropyAt = 0;
  }
  return entropy[entropyAt++]! / 256;
};

export const ulid = (): string => ulidWith(undefined, pooledPrng);

/** A deterministic UUID (v4 layout) from text, for ids that must be UUIDs yet stable. */
export function uuidFrom(text: string): string {
  const h = createHash("sha256").update(text, "utf8").digest("hex");
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
