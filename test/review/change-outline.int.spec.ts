import { describe, expect, it } from "vitest";
import { definitionsOf, outlineChange } from "../../src/review/change-outline.ts";

const BEFORE_PY = [
  "import os",
  "",
  "def load(path):",
  "    return open(path).read()",
  "",
  "def save(path, data):",
  "    open(path, 'w').write(data)",
  "",
  "class Store:",
  "    def get(self, key):",
  "        return self.items[key]",
  "",
  "    def put(self, key, value):",
  "        self.items[key] = value",
  "",
  "def unused():",
  "    pass",
  "",
].join("\n");

const AFTER_PY = [
  "import os",
  "",
  "def load(path):",
  "    # read it all",
  "    return open(path).read()",
  "",
  "def save(path, data, mode='w'):",
  "    open(path, mode).write(data)",
  "",
  "class Store:",
  "    def get(self, key, default=None):",
  "        return self.items.get(key, default)",
  "",
  "    def put(self, key, value):",
  "        self.items[key] = value",
  "",
  "    def clear(self):",
  "        self.items = {}",
  "",
].join("\n");

describe("the definitions a change adds, changes and removes", () => {
  it("parses a file's definitions with tree-sitter, members under their class", async () => {
    const defs = await definitionsOf("app/store.py", BEFORE_PY);
    expect(defs!.map((d) => [d.parent, d.kind, d.name, d.startLine])).toEqual([
      [null, "function", "load", 3],
      [null, "function", "save", 6],
      [null, "class", "Store", 9],
      ["Store", "method", "get", 10],
      ["Store", "method", "put", 13],
      [null, "function", "unused", 16],
    ]);
  });

  it("compares base and head: added, changed (with or without a new signature), removed; unchanged ones are left out", async () => {
    const [outline] = await outlineChange([{ path: "app/store.py", oldPath: "app/store.py", before: BEFORE_PY, after: AFTER_PY }]);
    expect(outline!.parsed).toBe(true);
    expect(outline!.changes.map((c) => [c.change, c.parent, c.name, c.line, c.signatureChanged])).toEqual([
      ["changed", null, "load", 3, false],
      ["changed", null, "save", 7, true],
      ["changed", "Store", "get", 11, true],
      ["added", "Store", "clear", 17, false],
      ["removed", null, "unused", 16, false],
    ]);
    const save = outline!.changes.find((c) => c.name === "save")!;
    expect(save.signatureBefore).toBe("def save(path, data):");
    expect(save.signatureAfter).toBe("def save(path, data, mode='w'):");
  });

  it("an added or deleted file adds or removes all its definitions; TypeScript parses too; unknown languages are not parsed", async () => {
    const [added, deleted, ts, text] = await outlineChange([
      { path: "src/new.ts", oldPath: null, before: null, after: "export function a(x: number) {\n  return x;\n}\nexport class B {\n  m() {}\n}\n" },
      { path: "src/old.ts", oldPath: "src/old.ts", before: "export const gone = () => 1;\n", after: null },
      { path: "src/m.ts", oldPath: "src/m.ts", before: "export function f(a: string) {\n  return a;\n}\n", after: "export function f(a: string, b = 1) {\n  return a + b;\n}\n" },
      { path: "notes.txt", oldPath: "notes.txt", before: "a", after: "b" },
    ]);
    expect(added!.changes.map((c) => [c.change, c.name])).toEqual([["added", "a"], ["added", "B"], ["added", "m"]]);
    expect(deleted!.changes.map((c) => [c.change, c.name])).toEqual([["removed", "gone"]]);
    expect(ts!.changes.map((c) => [c.change, c.name, c.signatureChanged])).toEqual([["changed", "f", true]]);
    expect(text).toEqual({ path: "notes.txt", parsed: false, changes: [] });
  });
});
