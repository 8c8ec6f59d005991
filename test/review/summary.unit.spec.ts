import { describe, expect, it } from "vitest";
import type { Finding } from "../../src/review/findings.ts";
import { confidenceFor, parseSuggestion, renderInlineComment, renderSummary, suggestionBlock } from "../../src/review/summary.ts";
import { added, diffOf } from "./helpers.ts";

const finding = (over: Partial<Finding>): Finding => ({ ruleId: "r", severity: "medium", path: "src/a.ts", lineStart: 2, lineEnd: 2, message: "Do the thing.", ...over });

describe("summary comment", () => {
  it("lists files with +/-, findings by severity, and a confidence line", () => {
    const files = [diffOf("src/a.ts", ["a", "b"], ["a", "B", "c"]), added("src/p|q.ts", ["x"])];
    const md = renderSummary({
      files,
      findings: [finding({ severity: "high", message: "Hard-coded token.\nMore detail." }), finding({ severity: "low", lineStart: 3, lineEnd: 3 })],
      strictness: 4,
      title: "Add things",
    });
    expect(md).toContain("## Review: Add things");
    expect(md).toContain("**2 files changed** (+3 / -1)");
    expect(md).toContain("**2 findings**: 1 high, 1 low.");
    expect(md).toContain("- **high** `src/a.ts:2`: Hard-coded token.");
    expect(md).not.toContain("More detail.");
    expect(md).toContain("| `src/a.ts` | modified | 2 | 1 | 2 |");
    expect(md).toContain("| `src/p\\|q.ts` | added | 1 | 0 | 0 |");
    expect(md).toContain("**Confidence score: 3/5**");
    expect(md).toContain("Strictness 4: showing low and above.");
  });

  it("says so when there is nothing to report", () => {
    const md = renderSummary({ files: [added("a.md", ["x"])], findings: [] });
    expect(md).toContain("**No findings.**");
    expect(md).toContain("**Confidence score: 5/5**");
    expect(md).toContain("Strictness 3: showing medium and above.");
  });

  it("scores confidence from the most severe findings", () => {
    expect(confidenceFor([{ severity: "critical" }]).score).toBe(1);
    expect(confidenceFor([{ severity: "high" }, { severity: "high" }]).score).toBe(2);
    expect(confidenceFor([{ severity: "medium" }]).score).toBe(4);
    expect(confidenceFor([{ severity: "low" }, { severity: "info" }]).score).toBe(5);
  });
});

describe("inline comments", () => {
  it("adds a suggestion block and derives hasSuggestion/suggestedCode", () => {
    const c = renderInlineComment(finding({ suggestion: "except Exception:" }));
    expect(c.body).toBe("Do the thing.\n\n```suggestion\nexcept Exception:\n```");
    expect(c).toMatchObject({ hasSuggestion: true, suggestedCode: "except Exception:", lineStart: 2, lineEnd: 2 });
    expect(parseSuggestion(c.body)).toBe("except Exception:");
  });

  it("an empty suggestion deletes the lines; no suggestion means no block", () => {
    const del = renderInlineComment(finding({ suggestion: "" }));
    expect(del.body).toBe("Do the thing.\n\n```suggestion\n```");
    expect(parseSuggestion(del.body)).toBe("");
    const none = renderInlineComment(finding({}));
    expect(none).toMatchObject({ body: "Do the thing.", hasSuggestion: false, suggestedCode: null });
    expect(parseSuggestion(none.body)).toBeNull();
  });

  it("uses a longer fence when the code contains backtick fences", () => {
    const code = "const md = `\n```js\nx\n```\n`;";
    const block = suggestionBlock(code);
    expect(block.startsWith("````suggestion\n")).toBe(true);
    expect(parseSuggestion(`Fix:\n\n${block}`)).toBe(code);
  });
});
