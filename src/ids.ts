/**
 * ulid ids with their random part taken from a pooled crypto buffer: the ulid package's default PRNG
 * makes one crypto call per character (16 per id, several ids per request).
 */
import { randomBytes } from "node:crypto";
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
