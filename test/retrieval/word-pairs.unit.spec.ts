import { describe, expect, it } from "vitest";
import { eachPair, pairEvidence, queryPairs, wordPairScores } from "../../src/retrieval/word-pairs.ts";
import { analyzeQuery } from "../../src/retrieval/query-analysis.ts";
import type { ChunkDocument } from "../../src/codeindex/port.ts";

const pairsIn = (text: string): string[] => {
  const pairs: string[] = [];
  eachPair(text, (a, b) => pairs.push(`${a} ${b}`));
  return pairs;
};

const chunk = (text: string, path = "src/a.go"): ChunkDocument => ({
  id: `r|${path}|b|${text}`, orgId: "o", repoId: "r", path, blobId: "b", ordinal: 0, language: "go", kind: "function",
  symbol: null, parent: null, signature: null, doc: null, startLine: 1, endLine: 3, text, summary: "", fileSummary: "",
});

describe("word pairs", () => {
  it("pairs the parts of one name and words with only spaces between them", () => {
    expect(pairsIn("skipHealthCheck")).toEqual(["skip health", "health check"]);
    expect(pairsIn("health_check HTTPServer")).toEqual(["health check", "check http", "http server"]);
    expect(pairsIn('errors.New("type mismatch")')).toEqual(["type mismatch"]);
  });

  it("makes no pair across punctuation: a qualified name, a member access, a list", () => {
    expect(pairsIn("Jekyll::Renderer#layouts")).toEqual([]);
    expect(pairsIn("a.b")).toEqual([]);
    expect(pairsIn("Feb, Mar")).toEqual([]);
  });

  it("keeps a query's pairs of weighed words only, each as heavy as its lighter word", () => {
    const weights = new Map([["health", 1.2], ["check", 1], ["requests", 0.6]]);
    const pairs = queryPairs("the health check requests fail", weights);
    expect([...pairs]).toEqual([["health check", 1], ["check requests", 0.6]]);
  });

  it("weighs a chunk by the heaviest of the query's pairs it writes", () => {
    const pairs = new Map([["health check", 1], ["check requests", 0.6]]);
    expect(pairEvidence(chunk("if skipHealthCheck(path) {"), pairs)).toBe(1);
    expect(pairEvidence(chunk("// check requests: skipHealthCheck(path)"), pairs)).toBe(1);
    expect(pairEvidence(chunk("// check requests"), pairs)).toBe(0.6);
    expect(pairEvidence(chunk("check.requests; check 42 requests; check\nrequests"), pairs)).toBe(0);
    // The same pairs as eachPair reads.
    const text = "x = new HealthCheck(); /* check requests */ a.health check";
    const read = new Map(pairsIn(text).map((p) => [p, 1]));
    for (const [p] of read) expect(pairEvidence(chunk(text), new Map([[p, 1]]))).toBe(1);
    expect(pairEvidence(chunk(text), new Map([["new health", 1]]))).toBe(1);
    expect(pairEvidence(chunk(text), new Map([["a health", 1]]))).toBe(0);
    expect(pairEvidence(chunk("// check the health of each backend"), pairs)).toBe(0);
  });

  it("gives a source chunk writing a report's pair its share; not a doc, and nothing for a short question", () => {
    const code = chunk("func skipHealthCheck(path string) bool {");
    const doc = chunk("The health check endpoint answers 200.", "docs/health.md");
    const share = (query: string) => wordPairScores(query, analyzeQuery(query), [code, doc]);
    const report = share("Health check requests are traced");
    expect(report.get(code)).toBeGreaterThan(0.5);
    expect(report.has(doc)).toBe(false);
    expect(share("Where are health check requests traced?").size).toBe(0);
  });
});
