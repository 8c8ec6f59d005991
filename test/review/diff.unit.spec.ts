import { describe, expect, it } from "vitest";
import { parseGitDiff, unquoteGitPath } from "../../src/review/diff.ts";

describe("parseGitDiff edge cases", () => {
  it("parses a pure rename, a mode change and an empty new file (no ---/+++ lines)", () => {
    const text = [
      "diff --git a/x/old.txt b/y/new.txt",
      "similarity index 100%",
      "rename from x/old.txt",
      "rename to y/new.txt",
      "diff --git a/run.sh b/run.sh",
      "old mode 100644",
      "new mode 100755",
      "diff --git a/empty b/empty",
      "new file mode 100644",
      "index 0000000..e69de29",
      "",
    ].join("\n");
    const files = parseGitDiff(text);
    expect(files.map((f) => [f.path, f.status, f.oldPath])).toEqual([
      ["y/new.txt", "renamed", "x/old.txt"],
      ["run.sh", "modified", "run.sh"],
      ["empty", "added", null],
    ]);
    expect(files[0]!.similarity).toBe(100);
  });

  it("decodes C-style quoted paths, including on ---/+++ and rename lines", () => {
    expect(unquoteGitPath('"a/tab\\there"')).toBe("a/tab\there");
    expect(unquoteGitPath('"caf\\303\\251 \\"q\\".txt"')).toBe('café "q".txt');
    const text = [
      'diff --git "a/caf\\303\\251.txt" "b/caf\\303\\251.txt"',
      '--- "a/caf\\303\\251.txt"',
      '+++ "b/caf\\303\\251.txt"',
      "@@ -1 +1 @@",
      "-a",
      "+b",
      "",
    ].join("\n");
    const [f] = parseGitDiff(text);
    expect(f!.path).toBe("café.txt");
    expect(f!.hunks[0]!.lines.map((l) => [l.kind, l.text, l.oldLine, l.newLine])).toEqual([
      ["del", "a", 1, null],
      ["add", "b", null, 1],
    ]);
  });

  it("strips the tab git appends to names with spaces, and CRLF from line text", () => {
    const text = ["diff --git a/a b.txt b/a b.txt", "--- a/a b.txt\t", "+++ b/a b.txt\t", "@@ -1,0 +1,1 @@", "+hello\r", ""].join("\n");
    const [f] = parseGitDiff(text);
    expect(f!.path).toBe("a b.txt");
    expect(f!.hunks[0]!.lines[0]!.text).toBe("hello");
  });

  it("stops a truncated hunk without throwing and ignores preamble text", () => {
    const text = ["commit abc", "", "diff --git a/f b/f", "--- a/f", "+++ b/f", "@@ -1,3 +1,3 @@", " a", "-b", ""].join("\n");
    const [f] = parseGitDiff(text);
    expect(f!.hunks[0]!.lines).toHaveLength(2);
  });
});
