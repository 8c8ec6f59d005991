/**
 * Text a user sends (a search, a question) in the shapes that made a pattern backtrack: each runs through
 * the real function and completes (it took minutes, or for ever, before). No timing is asserted: a
 * hang fails by the test's timeout.
 */
import { describe, expect, it } from "vitest";
import { analyzeQuery } from "../../src/retrieval/query-analysis.ts";
import { questionTerms, wordsOf } from "../../src/retrieval/answer/terms.ts";
import { withoutCodeSpans } from "../../src/retrieval/query/extract.ts";

describe("long or odd input in a query", () => {
  it("reads a string literal full of backslashes in a pasted code line (each `\\\\` doubled the work)", () => {
    const literal = `x = "${"\\\\\u0000".repeat(40)}\\`;
    const analysis = analyzeQuery("```python\nimport os\n" + literal + "\nos.getcwd()\n```");
    expect(analysis.terms.map((t) => t.text)).toContain("getcwd");
    // A literal still names a column when it is one name, escapes or not.
    expect(analyzeQuery("```python\nrow = df.loc['user_name']\nx = 'a\\'b'\n```").terms.map((t) => t.text)).toContain("user_name");
  });

  it("reads a run of 400,000 backticks in prose, and code spans as before", () => {
    expect(analyzeQuery(`see ${"`".repeat(400_000)} here`).terms.length).toBeGreaterThanOrEqual(0);
    // Spans as the pattern `(`+)([^`]+?)\1(?!`)` read them (on short lines, where it was quick).
    const byPattern = (line: string) => {
      const spans: string[] = [];
      return { rest: line.replace(/(`+)([^`]+?)\1(?!`)/g, (_m, _t: string, inner: string) => (spans.push(inner), " ")), spans };
    };
    for (const line of ["call `parseConfig` or ``a`b`` then ```x`` and `y", "`a` `b` ``c``", "```` x `` y", "`", "no spans", "``a``b`c`", "` a `` b ``` c `"]) {
      const spans: string[] = [];
      const rest = withoutCodeSpans(line, (s) => spans.push(s));
      expect({ rest, spans }, line).toEqual(byPattern(line));
    }
  });

  it("splits 400,000 capitals as a word, and acronyms before a word as before", () => {
    expect(wordsOf("A".repeat(400_000))).toHaveLength(1);
    expect(wordsOf("HTTPServer parseJSONBody XMLHttpRequest")).toEqual(["http", "server", "parse", "json", "body", "xml", "http", "request"]);
    expect(questionTerms(`why ${"A".repeat(400_000)}`).length).toBe(1);
  });
});
