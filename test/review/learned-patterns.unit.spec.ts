import { describe, expect, it } from "vitest";
import { jaccard, contentWords, learnPatterns, type HumanComment } from "../../src/review/learned-patterns.ts";

const comments: HumanComment[] = [
  { id: "c1", prNumber: 10, path: "src/a.ts", body: "Please add error handling for the network request here; the fetch can fail." },
  { id: "c2", prNumber: 12, path: "src/b.ts", body: "Missing error handling for the network request: fetch can fail and we crash." },
  { id: "c3", prNumber: 12, path: "src/b.ts", body: "LGTM" },
  { id: "c4", prNumber: 15, path: "lib/c.ts", body: "The fetch network request needs error handling, it can fail." },
  { id: "c5", prNumber: 11, path: "src/x.ts", body: "Rename this variable to something more descriptive." },
  { id: "c6", prNumber: 11, path: "src/y.ts", body: "Rename this variable to something descriptive please." },
  { id: "c7", prNumber: 13, path: "docs/r.md", body: "Typo in the changelog heading [here](https://example.com/x)." },
  { id: "c8", prNumber: 14, body: "Use `structuredClone` rather than JSON roundtrip for deep copies.\n```suggestion\nconst b = structuredClone(a);\n```" },
  { id: "c9", prNumber: 16, body: "Deep copies: use `structuredClone` instead of a JSON roundtrip." },
];

describe("learned patterns", () => {
  it("groups points repeated across different pull requests", () => {
    const learned = learnPatterns(comments);
    expect(learned.map((p) => [p.commentIds, p.evidenceCount])).toEqual([
      [["c1", "c2", "c4"], 3],
      [["c8", "c9"], 2],
    ]);
    expect(learned[0]!.prNumbers).toEqual([10, 12, 15]);
    expect(learned[0]!.paths).toEqual(["lib/c.ts", "src/a.ts", "src/b.ts"]);
    expect(learned[0]!.body).toMatch(/^[A-Z].*error handling.*\.$/);
    expect(learned[1]!.body).not.toContain("```");
  });

  it("needs two distinct pull requests (same-PR repeats do not count) and ignores trivial comments", () => {
    const learned = learnPatterns(comments);
    expect(learned.flatMap((p) => p.commentIds)).not.toContain("c5");
    expect(learned.flatMap((p) => p.commentIds)).not.toContain("c3");
    expect(learnPatterns(comments, { minPullRequests: 1 }).some((p) => p.commentIds.join() === "c5,c6")).toBe(true);
  });

  it("is deterministic regardless of input order", () => {
    const reversed = [...comments].reverse();
    expect(learnPatterns(reversed)).toEqual(learnPatterns(comments));
  });

  it("computes Jaccard over content words", () => {
    expect(jaccard(contentWords("add error handling"), contentWords("error handling added"))).toBe(1);
    expect(jaccard(contentWords("rename variable"), contentWords("fix typo"))).toBe(0);
  });
});

describe("opposite advice", () => {
  const opposed: HumanComment[] = [
    { id: "o1", prNumber: 20, body: "Return None instead of raising ValueError when the key is missing." },
    { id: "o2", prNumber: 21, body: "Raise ValueError instead of returning None when the key is missing." },
  ];

  it("is never merged into one pattern", () => {
    const learned = learnPatterns(opposed);
    expect(learned.some((p) => p.commentIds.includes("o1") && p.commentIds.includes("o2"))).toBe(false);
    expect(learned).toEqual([]); // each point was made on one pull request only
  });

  it("the same advice in other words still groups, and an opposite third comment stays out", () => {
    const learned = learnPatterns([
      ...opposed,
      { id: "o3", prNumber: 22, body: "Please return None rather than raising ValueError if the key is missing." },
    ]);
    expect(learned.map((p) => [p.commentIds, p.evidenceCount])).toEqual([[["o1", "o3"], 2]]);
  });
});
