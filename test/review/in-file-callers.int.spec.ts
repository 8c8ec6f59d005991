import { describe, expect, it } from "vitest";
import { outlineChange } from "../../src/review/change-outline.ts";

const lines = (...l: string[]) => `${l.join("\n")}\n`;

describe("a private definition's callers, checked in its own file", () => {
  it("counts a private function checked when its calls in the file fit the new signature, or none of a removed one is left", async () => {
    const before = lines("def _pager(gen, cmd):", "    return cmd", "", "def _gone():", "    pass", "", "def show(gen):", "    _gone()", '    return _pager(gen, "less")');
    const fits = lines("def _pager(gen, cmd, args):", "    return cmd", "", "def show(gen):", '    return _pager(gen, "less", [])');
    const stale = lines("def _pager(gen, cmd, args):", "    return cmd", "", "def show(gen):", "    _gone()", '    return _pager(gen, "less")');
    const [ok, bad] = await outlineChange([
      { path: "pkg/a.py", oldPath: "pkg/a.py", before, after: fits },
      { path: "pkg/b.py", oldPath: "pkg/b.py", before, after: stale },
    ]);
    expect(ok!.changes.filter((c) => c.name.startsWith("_")).map((c) => [c.change, c.name, c.callersCheckedInFile ?? false])).toEqual([
      ["changed", "_pager", true],
      ["removed", "_gone", true],
    ]);
    expect(bad!.changes.filter((c) => c.name.startsWith("_")).map((c) => [c.change, c.name, c.callersCheckedInFile ?? false])).toEqual([
      ["changed", "_pager", false],
      ["removed", "_gone", false],
    ]);
  });

  it("a public or exported definition is not: other files may call it", async () => {
    const [py, js] = await outlineChange([
      { path: "pkg/c.py", oldPath: "pkg/c.py", before: lines("def pager(gen):", "    return gen"), after: lines("def pager(gen, cmd):", "    return gen") },
      { path: "lib/d.js", oldPath: "lib/d.js", before: lines("export function pager(gen) {", "  return gen;", "}"), after: lines("export function pager(gen, cmd) {", "  return gen;", "}") },
    ]);
    expect(py!.changes.map((c) => c.callersCheckedInFile ?? false)).toEqual([false]);
    expect(js!.changes.map((c) => c.callersCheckedInFile ?? false)).toEqual([false]);
  });
});
