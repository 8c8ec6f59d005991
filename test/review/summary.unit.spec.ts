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

  it("says so when there is nothing to report, without claiming 5/5 for what was not checked", () => {
    const md = renderSummary({ files: [added("a.md", ["x"])], findings: [] });
    expect(md).toContain("**No findings.**");
    expect(md).toContain("**Confidence score: 4/5**: no issues above low severity found; no chat model read the change, so its logic was not reviewed.");
    expect(md).not.toContain("5/5");
    expect(md).toContain("### What was checked");
    expect(md).toContain("- Not reviewed: the change's logic and behaviour (no chat model is configured).");
    expect(md).toContain("Strictness 3: showing medium and above.");
  });

  it("scores confidence from the most severe findings, capped by what could not be checked", () => {
    const all = { model: "all" as const, humanChecks: 0, interfaceChanges: 0 };
    expect(confidenceFor([{ severity: "critical" }]).score).toBe(1);
    expect(confidenceFor([{ severity: "high" }, { severity: "high" }]).score).toBe(2);
    expect(confidenceFor([{ severity: "medium" }]).score).toBe(4);
    // Nothing found: 5 only when a model read every file and nothing is left unchecked.
    expect(confidenceFor([{ severity: "low" }, { severity: "info" }]).score).toBe(4);
    expect(confidenceFor([], all).score).toBe(5);
    expect(confidenceFor([], { ...all, model: "some" }).score).toBe(4);
    expect(confidenceFor([], { ...all, humanChecks: 2 })).toEqual({ score: 3, reason: "no issues above low severity found; 2 team instructions can only be checked by a human here" });
    expect(confidenceFor([], { ...all, interfaceChanges: 1 }).reason).toContain("1 definition changed signature or was renamed or removed, and its callers elsewhere were not checked");
    expect(confidenceFor([{ severity: "critical" }], { ...all, humanChecks: 1 }).score).toBe(1);
  });

  it("says what the change does, what was checked and what a human should check", () => {
    const md = renderSummary({
      files: [diffOf("app/store.py", ["a"], ["b"]), added("notes.txt", ["x"])],
      findings: [],
      outline: [
        {
          path: "app/store.py",
          parsed: true,
          changes: [
            { change: "added", path: "app/store.py", name: "clear", kind: "method", parent: "Store", line: 17, signatureBefore: null, signatureAfter: "def clear(self):", signatureChanged: false },
            { change: "changed", path: "app/store.py", name: "save", kind: "function", parent: null, line: 7, signatureBefore: "def save(p):", signatureAfter: "def save(p, m):", signatureChanged: true },
            { change: "removed", path: "app/store.py", name: "unused", kind: "function", parent: null, line: 16, signatureBefore: "def unused():", signatureAfter: null, signatureChanged: false },
          ],
        },
        { path: "notes.txt", parsed: false, changes: [] },
      ],
      checks: { reviewedFiles: 2, patterns: 1, model: "none" },
      humanChecks: [{ id: "i1", body: "Handlers must validate input with zod.\nMore.", files: ["app/store.py"] }],
    });
    expect(md).toContain("### What the change does");
    expect(md).toContain("- `app/store.py`: adds `Store.clear()`; changes `save()` (signature); removes `unused()`");
    expect(md).toContain("- Not parsed (no grammar for the language, or too large): `notes.txt`.");
    expect(md).toContain("on the added lines of 2 files.");
    expect(md).toContain("- 1 team pattern checked against the added lines.");
    expect(md).toContain("- Not checked: the callers elsewhere in the repository of the definitions whose signature changed or that were renamed or removed (the repository is not indexed).");
    expect(md).toContain("### For a human to check");
    expect(md).toContain("- Handlers must validate input with zod. (in `app/store.py`)");
    expect(md).toContain("**Confidence score: 3/5**");
  });

  it("with the callers looked up in the code graph, the changed signatures no longer cap the confidence", () => {
    const outline = [
      {
        path: "app/store.py",
        parsed: true,
        changes: [{ change: "changed" as const, path: "app/store.py", name: "save", kind: "function", parent: null, line: 7, signatureBefore: "def save(p):", signatureAfter: "def save(p, m):", signatureChanged: true }],
      },
      { path: "app/Store.kt", parsed: true, changes: [{ change: "removed" as const, path: "app/Store.kt", name: "drop", kind: "function", parent: null, line: 3, signatureBefore: "fun drop()", signatureAfter: null, signatureChanged: false }] },
    ];
    const checked = renderSummary({ files: [diffOf("app/store.py", ["a"], ["b"])], findings: [], outline: outline.slice(0, 1), checks: { reviewedFiles: 1, patterns: 0, model: "none", callersBranch: "main" } });
    expect(checked).toContain("from the code graph of `main` as indexed");
    expect(checked).not.toContain("Not checked: the callers");
    expect(checked).toContain("**Confidence score: 4/5**");
    // A language the callers check does not read is still left unchecked.
    const kotlin = renderSummary({ files: [diffOf("app/store.py", ["a"], ["b"])], findings: [], outline, checks: { reviewedFiles: 1, patterns: 0, model: "none", callersBranch: "main" } });
    expect(kotlin).toContain("- Not checked: the callers elsewhere in the repository of the definitions whose signature changed or that were renamed or removed in languages the callers check does not read.");
    expect(kotlin).toContain("**Confidence score: 3/5**");
  });
});

describe("rules skipped for their cost", () => {
  it("names each rule, its file, its regex and why, under what was checked", () => {
    const md = renderSummary({
      files: [diffOf("app/store.py", ["a"], ["b"])],
      findings: [],
      checks: { reviewedFiles: 1, patterns: 0, model: "none" },
      skippedRules: [
        { id: "no-long-words", source: "app/.loupe/words.md", regex: "/[a-z]{0,2400}y/", reason: "pattern is too large: it compiles to 4,801 states, over the limit of 500", files: ["app/store.py"] },
        { id: "0b6c", source: null, regex: "/x{0,900}/i", reason: "pattern is too large", files: ["app/store.py"] },
      ],
    });
    expect(md).toContain(
      "- Not applied: the rule `no-long-words` of `app/.loupe/words.md` (in `app/store.py`), whose regex `/[a-z]{0,2400}y/` is refused: pattern is too large: it compiles to 4,801 states, over the limit of 500.",
    );
    expect(md).toContain("- Not applied: the custom context `0b6c` (in `app/store.py`), whose regex `/x{0,900}/i` is refused: pattern is too large.");
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
