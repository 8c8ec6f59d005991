import { describe, expect, it } from "vitest";
import { preprocessedReading, readings } from "../../src/indexing/chunking/c-family.ts";

const sameShape = (a: string, b: string) => {
  expect(b.length).toBe(a.length);
  expect(b.split("\n").map((l) => l.length)).toEqual(a.split("\n").map((l) => l.length));
};

describe("C and C++ read without the preprocessor", () => {
  it("keeps the first branch of each conditional (the second of #if 0) and blanks the directives", () => {
    const src = ["#ifdef A", "int a;", "#elif B", "int b;", "#else", "int c;", "#endif", "#if 0", "int dead;", "#else", "int live;", "#endif"].join("\n");
    const out = preprocessedReading(src)!;
    sameShape(src, out);
    expect(out.split("\n").map((l) => l.trim())).toEqual(["", "int a;", "", "", "", "", "", "", "", "", "int live;", ""]);
  });

  it("follows nested conditionals and leaves #include, #define and their continuation lines", () => {
    const src = ["#ifdef A", "#ifdef B", "int ab;", "#else", "int a_only;", "#endif", "#else", "int none;", "#endif", "#define TWICE(x) \\", "  ((x) + (x))", "#include <stdio.h>"].join("\n");
    const out = preprocessedReading(src)!.split("\n").map((l) => l.trim());
    expect(out).toEqual(["", "", "int ab;", "", "", "", "", "", "", "#define TWICE(x) \\", "((x) + (x))", "#include <stdio.h>"]);
  });

  it("blanks macros that stand for specifiers or open a region, not names in expressions, strings or comments", () => {
    const src = [
      "LIB_BEGIN_NAMESPACE",
      "LIB_API void f(int x) LIB_NOEXCEPT {",
      "  int y = MAX_SIZE + x;  // LIB_API stays in a comment",
      '  puts("LIB_API void");',
      "  return g(x, DEFAULT_FLAGS);",
      "}",
      "auto h() const LIB_NOEXCEPT -> int;",
      "LIB_END_NAMESPACE",
    ].join("\n");
    const out = preprocessedReading(src)!;
    sameShape(src, out);
    expect(out.split("\n")).toEqual([
      "                   ",
      "        void f(int x)              {",
      "  int y = MAX_SIZE + x;  // LIB_API stays in a comment",
      '  puts("LIB_API void");',
      "  return g(x, DEFAULT_FLAGS);",
      "}",
      "auto h() const              -> int;",
      "                 ",
    ]);
  });

  it("is null when nothing changes", () => {
    expect(preprocessedReading("int add(int a, int b) {\n  return a + b;\n}\n")).toBeNull();
  });

  it("offers C++ for a .h read as C, and nothing for other languages", () => {
    expect(readings("x.h", "c", "class A {};").map((r) => r.languageId)).toEqual(["cpp"]);
    expect(readings("x.c", "c", "#ifdef A\nint a;\n#endif\n").map((r) => r.languageId)).toEqual(["c"]);
    expect(readings("x.h", "c", "#ifdef A\nint a;\n#endif\n").map((r) => r.languageId)).toEqual(["c", "cpp", "cpp"]);
    expect(readings("x.py", "python", "#ifdef A\n")).toEqual([]);
  });
});
