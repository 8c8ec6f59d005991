import { describe, expect, it } from "vitest";
import { createTopK } from "../../src/codeindex/embedded/topk.ts";

describe("top-k selection", () => {
  it("keeps the k best, best first, ties by lower id, and reports the lowest score that can still enter", () => {
    const top = createTopK(3);
    expect(top.offer(10, 1)).toBe(-Infinity); // not full: anything enters
    expect(top.offer(11, 5)).toBe(-Infinity);
    expect(top.offer(12, 3)).toBe(1); // full: the third best is the floor
    expect(top.offer(13, 0.5)).toBe(1); // below the floor: refused
    expect(top.offer(14, 4)).toBe(3);
    expect(top.offer(9, 3)).toBe(3); // a tie with a lower id enters in place of id 12
    expect(top.results()).toEqual([
      { id: 11, score: 5 },
      { id: 14, score: 4 },
      { id: 9, score: 3 },
    ]);
  });

  it("holds nothing when k is 0", () => {
    const top = createTopK(0);
    expect(top.offer(1, 10)).toBe(Infinity);
    expect(top.results()).toEqual([]);
  });
});
