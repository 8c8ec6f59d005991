import { describe, expect, it } from "vitest";
import { analyzeQuery } from "../../src/retrieval/query-analysis.ts";

const kindOf = (text: string, query: string) => analyzeQuery(query).terms.find((t) => t.text === text)?.kind ?? null;

describe("analyzeQuery: tokens glued to brackets, and other scripts", () => {
  it("a name right after a closing bracket is read as the name ('[Bug]customParseFormat')", () => {
    const report = "[Bug]customParseFormat Zone Error\n\nparse error\n\n```\ndayjs('2001 +08:00', 'YYYY Z').format()\n```\n";
    expect(kindOf("customParseFormat", report)).toBe("identifier");
    expect(analyzeQuery(report).symbols).toContain("customParseFormat");
    // Before, the bracketed tag swallowed it into one lowercased word.
    expect(kindOf("customparseformat", report)).toBeNull();
  });

  it("a query written only in another script still answers with no terms to crash on", () => {
    const a = analyzeQuery("如何过滤无效的链路追踪请求");
    expect(a.terms).toEqual([]);
  });
});
