import { describe, expect, it } from "vitest";
import { cutMarkdown, findingLine } from "../../src/review/finding-line.ts";
import { renderSummary } from "../../src/review/summary.ts";
import type { Finding } from "../../src/review/findings.ts";
import { diffOf } from "./helpers.ts";

/** Whether every code span of a line is closed: its backtick runs pair up. */
const closed = (line: string) => {
  const runs = line.match(/`+/g) ?? [];
  const open: number[] = [];
  for (const r of runs) open.length > 0 && open[open.length - 1] === r.length ? open.pop() : open.push(r.length);
  return open.length === 0;
};

// As src/review/graph/broken-callers.ts writes it (flask 6a64p: a signature written over lines).
const BROKEN = [
  "**Broken callers**: this changes the parameters of `Flask.update_template_context` from `(self, context: dict[str, t.Any])` to `(",
  "        self, ctx: AppContext, context: dict[str, t.Any]",
  "    )`, but 7 call sites still call it the old way:",
  "- `src/flask/templating.py:130`: does not pass `context`",
  "- `src/flask/templating.py:157`: does not pass `context`",
  "- `tests/test_templating.py:12`: does not pass `context`",
  "- `tests/test_templating.py:40`: does not pass `context`",
  "- `tests/test_templating.py:52`: does not pass `context`",
  "- and 2 more",
  "",
  "<details><summary>The other call sites</summary>",
  "",
  "- `tests/test_templating.py:60`: does not pass `context`",
  "- `tests/test_templating.py:71`: does not pass `context`",
  "",
  "</details>",
  "",
  "Update these callers in this pull request, or give the new parameters defaults.",
].join("\n");

describe("a finding as one line of the summary", () => {
  it("a list after a colon gives its first item and how many more; the signature's whitespace collapsed", () => {
    expect(findingLine(BROKEN)).toBe(
      "**Broken callers**: this changes the parameters of `Flask.update_template_context` from `(self, context: dict[str, t.Any])` to `(self, ctx: AppContext, context: dict[str, t.Any])`, but 7 call sites still call it the old way: `src/flask/templating.py:130` (does not pass `context`) and 6 more.",
    );
  });

  it("a quote after a colon is quoted in the line (a team pattern's rule)", () => {
    expect(findingLine("This line matches the team pattern `os.path.isdir`:\n\n> Do not call `os.path.isdir` directly;\n> use `_is_dir()`.")).toBe(
      "This line matches the team pattern `os.path.isdir`: Do not call `os.path.isdir` directly; use `_is_dir()`.",
    );
    expect(findingLine("Hard-coded token.\nMore detail.")).toBe("Hard-coded token.");
  });

  it("a line too long is cut at a word or inside a code span, which is closed", () => {
    const long = `this changes \`locate_app\` from \`(${"p, ".repeat(80)}q)\` to \`(q)\`, but it is ${"very ".repeat(60)}long`;
    for (const max of [60, 120, 160, 240]) {
      const cut = cutMarkdown(long, max);
      expect(cut.length).toBeLessThanOrEqual(max);
      expect(closed(cut)).toBe(true);
      expect(cut).toMatch(/…`?$/);
    }
    expect(cutMarkdown("to `( self, ctx: AppContext, context )`", 160)).toBe("to `(self, ctx: AppContext, context)`");
  });

  it("the summary's Findings list uses it", () => {
    const finding: Finding = { ruleId: "graph/broken-callers", severity: "high", path: "src/flask/app.py", lineStart: 589, lineEnd: 589, message: BROKEN };
    const md = renderSummary({ files: [diffOf("src/flask/app.py", ["a"], ["b"])], findings: [finding] });
    const line = md.split("\n").find((l) => l.startsWith("- **high**"))!;
    expect(line).toContain("still call it the old way: `src/flask/templating.py:130` (does not pass `context`) and 6 more.");
    expect(closed(line)).toBe(true);
  });
});
