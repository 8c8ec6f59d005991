import { describe, expect, it } from "vitest";
import { createChunker } from "../../src/indexing/chunking/chunker.ts";
import { detectLanguageOf } from "../../src/indexing/chunking/languages.ts";
import { keepOneBranch, withoutLoneMacros } from "../../src/indexing/chunking/preprocessor.ts";

const chunker = createChunker();

/** A `main` whose first line depends on the platform: each branch opens half a function. */
const PLATFORM_MAIN = `#include <stdio.h>

static int helper(int x) {
  int y = x;
  y += 1;
  return y;
}

#ifdef WIN32
int umain(int argc, char* argv[]);

int wmain(int argc, wchar_t* wargv[]) {
  return umain(argc, 0);
}

int umain(int argc, char* argv[]) {
#else
int main(int argc, char* argv[]) {
#endif
  int total = 0;
${Array.from({ length: 40 }, (_, i) => `  total += helper(${i});`).join("\n")}
  return total;
}

static int after_main(void) {
  struct point p = {
#ifdef USE_DOUBLE
    1.0,
#else
    1,
#endif
    2 };
  return p.y;
}

static int last_function(int y) {
  return y * 2;
}
`;

describe("C preprocessor conditionals", () => {
  it("keeps one branch of each conditional, blanking the others without moving a line or a column", () => {
    const first = keepOneBranch(PLATFORM_MAIN, "first", false)!;
    const last = keepOneBranch(PLATFORM_MAIN, "last", false)!;
    expect(first.length).toBe(PLATFORM_MAIN.length);
    expect(last.length).toBe(PLATFORM_MAIN.length);
    expect(first.split("\n").length).toBe(PLATFORM_MAIN.split("\n").length);
    expect(first).toContain("int umain(int argc, char* argv[]) {");
    expect(first).not.toContain("int main(");
    expect(first).not.toContain("#ifdef");
    expect(last).toContain("int main(int argc, char* argv[]) {");
    expect(last).not.toContain("int wmain(");
    expect(keepOneBranch("int f(void) { return 1; }\n#ifndef X_H\n#define X_H\n#endif\n", "first", false)).toBeNull();
  });

  it("takes the branch of a __cplusplus test that the language takes, and blanks lone macro lines", () => {
    const header = `#ifdef __cplusplus\nextern "C" {\n#endif\nint f(void);\n#ifdef __cplusplus\n}\n#endif\n`;
    const asC = keepOneBranch(header, "first", false)!;
    expect(asC).not.toContain("extern");
    expect(asC).toContain("int f(void);");
    expect(keepOneBranch(header, "first", true)).toContain('extern "C" {');
    const macros = withoutLoneMacros("FMT_BEGIN_NAMESPACE\nint f();\n  Q_OBJECT\nFMT_END_NAMESPACE\nint x = MAX;\n")!;
    expect(macros.split("\n").map((l) => l.trim())).toEqual(["", "int f();", "", "", "int x = MAX;", ""]);
  });

  it("chunks a C file whose conditionals split a function's first line into function chunks, not line windows", async () => {
    const file = await chunker.chunkFile("src/main.c", PLATFORM_MAIN);
    expect(file.parseError).toBeUndefined();
    const lines = PLATFORM_MAIN.split("\n");
    const at = (name: string) => file.chunks.find((c) => c.symbol === name);
    expect(at("helper")).toMatchObject({ kind: "function", startLine: 3, endLine: 7 });
    const umain = at("umain")!;
    expect(umain.kind).toBe("function");
    expect(lines[umain.startLine - 1]).toBe("int umain(int argc, char* argv[]) {");
    expect(lines[umain.endLine - 1]).toBe("}");
    expect(at("after_main")).toMatchObject({ kind: "function" });
    expect(at("last_function")).toMatchObject({ kind: "function" });
    // Chunks hold the original text: the branch left out of the parse is still searchable.
    expect(file.chunks.map((c) => c.text).join("\n")).toContain("int main(int argc, char* argv[]) {");
  });

  it("reads the functions inside a file-long #ifdef as definitions", async () => {
    const body = Array.from({ length: 12 }, (_, i) => `static int feature_${i}(int x) {\n  int y = x * ${i};\n  y += ${i};\n  y -= 1;\n  return y;\n}\n`).join("\n");
    const file = await chunker.chunkFile("src/feature.c", `#include "feature.h"\n\n#ifdef USE_FEATURE\n${body}#endif\n`);
    const names = file.chunks.filter((c) => c.kind === "function").map((c) => c.symbol);
    expect(names).toEqual(Array.from({ length: 12 }, (_, i) => `feature_${i}`));
  });

  it("reads a .h header written in C++ as C++ (namespaces, templates, classes), and a C header as C", async () => {
    const cppHeader = `#ifndef LIB_FORMAT_H_
#define LIB_FORMAT_H_
#include <string>

LIB_BEGIN_NAMESPACE
namespace detail {
template <typename T> class buffer {
 public:
  buffer() = default;
  auto size() const -> size_t { return size_; }
  void push_back(const T& value) {
    if (size_ == capacity_) grow(size_ + 1);
    ptr_[size_++] = value;
  }
 private:
  T* ptr_;
  size_t size_;
  size_t capacity_;
};

template <typename Char> auto count_digits(Char* begin, Char* end) -> int {
  int n = 0;
  for (; begin != end; ++begin) ++n;
  return n;
}
}  // namespace detail
LIB_END_NAMESPACE
#endif
`;
    expect(detectLanguageOf("include/lib/format.h", cppHeader)?.id).toBe("cpp");
    expect(detectLanguageOf("src/jv.h", "#ifndef JV_H\nstruct jv {\n  int kind;\n};\nint jv_kind(struct jv);\n#endif\n")?.id).toBe("c");
    const file = await chunker.chunkFile("include/lib/format.h", cppHeader);
    expect(file.language).toBe("cpp");
    expect(file.parseError).toBeUndefined();
    const symbols = file.symbols.map((s) => s.name);
    expect(symbols).toEqual(expect.arrayContaining(["detail", "buffer", "push_back", "count_digits"]));
    const counting = file.symbols.find((s) => s.name === "count_digits")!;
    expect(counting).toMatchObject({ kind: "function", parent: "detail" });
    expect(counting.startLine).toBe(cppHeader.split("\n").findIndex((l) => l.includes("auto count_digits")) + 1);
    expect(file.chunks.find((c) => c.symbol === "detail")).toMatchObject({ kind: "module", startLine: 6 });
  });
});
