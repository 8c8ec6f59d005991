/** Which base definition a head definition is compared with (src/review/change-outline.ts): overloads, and spans the parse recovered badly. */
import { describe, expect, it } from "vitest";
import { outlineChange } from "../../src/review/change-outline.ts";

const lines = (...l: string[]) => `${l.join("\n")}\n`;
const changed = async (path: string, before: string, after: string) =>
  (await outlineChange([{ path, oldPath: path, before, after }]))[0]!.changes.map((c) => [c.change, c.name, c.line, c.baseLine ?? null]);

// fmtlib/fmt 7b4ef1c8 include/fmt/format.h (shortened): the native_uint128 overload of count_digits moves
// below the uint64_t one and is rewritten; the uint64_t overload is the same text.
const FMT_BEFORE = lines(
  "namespace detail {",
  "#if FMT_USE_INT128",
  "FMT_CONSTEXPR inline auto count_digits(native_uint128 n) -> int {",
  "  return count_digits_fallback(n);",
  "}",
  "#endif",
  "",
  "FMT_CONSTEXPR20 inline auto count_digits(uint64_t n) -> int {",
  "  return count_digits_fallback(n);",
  "}",
  "}  // namespace detail",
);
const FMT_AFTER = lines(
  "namespace detail {",
  "FMT_CONSTEXPR20 inline auto count_digits(uint64_t n) -> int {",
  "  return count_digits_fallback(n);",
  "}",
  "",
  "#if FMT_USE_INT128",
  "FMT_CONSTEXPR20 inline auto count_digits(native_uint128 n) -> int {",
  "  if (is_constant_evaluated()) return count_digits_fallback(n);",
  "  const uint64_t pow10_19 = 10000000000000000000ULL;",
  "  if ((n >> 64) == 0) return count_digits(static_cast<uint64_t>(n));",
  "  n /= pow10_19;",
  "  return count_digits(static_cast<uint64_t>(n)) + 19;",
  "}",
  "#endif",
  "}  // namespace detail",
);

// pallets/click 4ffa1ef3 src/click/termui.py (shortened): an @t.overload stub inserted before the others;
// the `text: None` stub is the same text, shifted.
const stub = (text: string, returns: string, save = "True") =>
  lines("@t.overload", "def edit(", `    text: ${text},`, "    editor: str | None = None,", `    require_save: bool = ${save},`, `) -> ${returns}: ...`, "", "");
const CLICK_BEFORE = stub("t.AnyStr", "t.AnyStr") + stub("None = None", "None") + lines("def edit(text=None, editor=None, require_save=True):", "    return Editor(editor).edit(text)");
const CLICK_AFTER =
  stub("bytes | bytearray", "bytes | None", "False") + stub("str", "str | None") + stub("None = None", "None") + lines("def edit(text=None, editor=None, require_save=True):", "    return Editor(editor).edit(text)");

describe("overloads are paired by text, then signature, then order", () => {
  it("an overload moved below an unchanged one: the unchanged one is not changed (fmt 7b4ef1c8 count_digits)", async () => {
    // Before: the n-th with the n-th paired the uint64_t overload (now first) with the old native_uint128 one.
    expect(await changed("include/fmt/format.h", FMT_BEFORE, FMT_AFTER)).toEqual([["changed", "count_digits", 7, 3]]);
  });

  it("an overload inserted before the others: the shifted one is not changed (click 4ffa1ef3 edit)", async () => {
    // The `None` stub and the implementation are the same text; the old AnyStr stub pairs with the new stub
    // most like it (the `str` one, `require_save` kept); the `bytes` stub is new.
    expect(await changed("src/click/termui.py", CLICK_BEFORE, CLICK_AFTER)).toEqual([
      ["added", "edit", 1, null],
      ["changed", "edit", 9, 1],
    ]);
    // With the implementation's annotations changed too (as in the commit), it still pairs with the old
    // implementation, not with a stub.
    const impl = (a: string) => lines(`def edit(text: ${a} = None, editor=None, require_save=True):`, "    ed = Editor(editor)", "    return ed.edit(text)");
    expect(await changed("src/click/termui.py", CLICK_BEFORE.replace(/def edit\(text=None[^]*$/, impl("t.AnyStr | None")), CLICK_AFTER.replace(/def edit\(text=None[^]*$/, impl("str | bytes | None")))).toEqual([
      ["added", "edit", 1, null],
      ["changed", "edit", 9, 1],
      ["changed", "edit", 25, 17],
    ]);
  });

  it("a signature kept pairs before order: an overload's body edited while another is inserted before it", async () => {
    const before = lines("int parse(const char* s) {", "  return atoi(s);", "}");
    const after = lines("int parse(std::string_view s) {", "  return parse(s.data());", "}", "", "int parse(const char* s) {", "  return s ? atoi(s) : 0;", "}");
    expect(await changed("src/parse.cc", before, after)).toEqual([
      ["added", "parse", 1, null],
      ["changed", "parse", 5, 1],
    ]);
  });
});

// google/leveldb util/env_windows.cc (shortened) before and after e829478c: a conditional opens
// Limiter's member initializer list; the commit changes SingletonEnv's constructor only.
const envWindows = (placement: string) =>
  lines(
    "namespace leveldb {",
    "namespace {",
    "",
    "// Helper class to limit resource usage to avoid exhaustion.",
    "class Limiter {",
    " public:",
    "  // Limit maximum number of resources to |max_acquires|.",
    "  Limiter(int max_acquires)",
    "      :",
    "#if !defined(NDEBUG)",
    "        max_acquires_(max_acquires),",
    "#endif  // !defined(NDEBUG)",
    "        acquires_allowed_(max_acquires) {",
    "    assert(max_acquires >= 0);",
    "  }",
    "",
    "  bool Acquire() {",
    "    int old_acquires_allowed = acquires_allowed_.fetch_sub(1, std::memory_order_relaxed);",
    "    if (old_acquires_allowed > 0) return true;",
    "    acquires_allowed_.fetch_add(1, std::memory_order_relaxed);",
    "    return false;",
    "  }",
    "",
    " private:",
    "#if !defined(NDEBUG)",
    "  const int max_acquires_;",
    "#endif  // !defined(NDEBUG)",
    "  std::atomic<int> acquires_allowed_;",
    "};",
    "",
    "template <typename EnvType>",
    "class SingletonEnv {",
    " public:",
    "  SingletonEnv() {",
    `    new (${placement}) EnvType();`,
    "  }",
    "",
    " private:",
    "  alignas(EnvType) char env_storage_[sizeof(EnvType)];",
    "};",
    "",
    "}  // namespace",
    "",
    "void EnvWindowsTestHelper::SetReadOnlyMMapLimit(int limit) {",
    "  WindowsDefaultEnv::AssertEnvNotInitialized();",
    "  g_mmap_limit = limit;",
    "}",
    "",
    "}  // namespace leveldb",
  );

describe("a definition's span is its own", () => {
  it("a conditional opening a constructor's initializer list leaves the classes after it whole (leveldb e829478c, 302786e2, 335876a1)", async () => {
    // Before: the grammar read Limiter and the rest of the namespace as the return type of
    // SetReadOnlyMMapLimit, reported changed at Limiter's comment for any change in between.
    expect(await changed("util/env_windows.cc", envWindows("&env_storage_"), envWindows("env_storage_"))).toEqual([["changed", "SingletonEnv", 34, 34]]);
  });

  it("a function the parse recovery gives the code above it as a return type starts at its own header", async () => {
    // A brace opened under a conditional (no reading as blank repairs it) swallows Limiter into the function after it.
    const file = (limit: string) =>
      lines(
        "namespace {",
        "",
        "// Limits things.",
        "class Limiter {",
        " public:",
        "  Limiter(int max_acquires)",
        "      : acquires_allowed_(max_acquires) {",
        "#if !defined(NDEBUG) {",
        `    assert(max_acquires >= ${limit});`,
        "#endif",
        "  }",
        "",
        "  bool Acquire() { return true; }",
        "};",
        "",
        "}  // namespace",
        "",
        "void Helper::SetLimit(int limit) {",
        "  g_limit = limit;",
        "}",
      );
    const [outline] = await outlineChange([{ path: "src/limiter.cc", oldPath: "src/limiter.cc", before: file("0"), after: file("1") }]);
    // Nothing is known of Limiter's members; SetLimit itself is the same.
    expect(outline!.changes).toEqual([]);
    const [added] = await outlineChange([{ path: "src/limiter.cc", oldPath: null, before: null, after: file("0") }]);
    expect(added!.changes.map((c) => [c.name, c.line, c.signatureAfter])).toEqual([["SetLimit", 18, "void Helper::SetLimit(int limit)"]]);
  });
});
