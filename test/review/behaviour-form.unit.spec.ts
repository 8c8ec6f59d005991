/**
 * Changes that keep what a function does, read from its code (src/review/graph/behaviour-form.ts through
 * sameBehaviour): the before and after texts are the judged functions of "Tests not updated" notes on
 * repositories the check was never tuned on (scripts/results/bench-review-noise-judgements.json), each
 * marked with its commit; the changes that must stay changes are beside them.
 */
import { describe, expect, it } from "vitest";
import { sameBehaviour } from "../../src/review/graph/same-behaviour.ts";

const lines = (...l: string[]) => l.join("\n");
const same = (before: string, after: string, path: string) => sameBehaviour(before, after, path, []);

describe("declarations that never run", () => {
  it("an @abstractmethod stub for `raise NotImplementedError()`, `pass` for `return None` (click ddede214)", () => {
    const raising = lines("    def add_to_parser(self, parser: _OptionParser, ctx: Context) -> None:", "        raise NotImplementedError()");
    const abstract = lines("    @abstractmethod", "    def add_to_parser(self, parser: _OptionParser, ctx: Context) -> None: ...");
    expect(same(raising, abstract, "src/click/core.py")).toBe(true);
    const passing = lines("    def get_help_record(self, ctx: Context) -> tuple[str, str] | None:", "        pass");
    expect(same(passing, passing.replace("pass", "return None"), "src/click/core.py")).toBe(true);
    // A stub given a body, or a body returning something else, is a change.
    expect(same(passing, passing.replace("pass", "return self.name, ''"), "src/click/core.py")).toBe(false);
    expect(same(raising, raising.replace("raise NotImplementedError()", "raise ValueError()"), "src/click/core.py")).toBe(false);
  });

  it("an @t.overload stub's types (click 4ffa1ef3 edit)", () => {
    // The old AnyStr stub and the new bytes one (its default differs: a stub's defaults are never used).
    const stub = (text: string, returns: string, save: string) =>
      lines("@t.overload", "def edit(", `    text: ${text},`, "    editor: str | None = None,", `    require_save: bool = ${save},`, `) -> ${returns}: ...`);
    expect(same(stub("t.AnyStr", "t.AnyStr", "True"), stub("bytes | bytearray", "bytes | None", "False"), "src/click/termui.py")).toBe(true);
    // A TypeScript overload signature has no body either.
    expect(same("export function isoWeek(): number;", "export function isoWeek(value?: number): number;", "src/plugin.ts")).toBe(true);
    // The implementation's default is a change.
    const impl = (save: string) => lines(`def edit(text=None, require_save=${save}):`, "    return Editor().edit(text, require_save)");
    expect(same(impl("True"), impl("False"), "src/click/termui.py")).toBe(false);
  });
});

describe("types, casts and modifiers", () => {
  it("a local variable's annotation (click d1a80aa9 Editor.edit, echo)", () => {
    const edit = (annotation: string) =>
      lines(
        "    def edit(self, text: t.AnyStr | None) -> t.AnyStr | None:",
        "        import tempfile",
        "",
        "        if text is None:",
        `            data${annotation} = b""`,
        "        elif isinstance(text, (bytes, bytearray)):",
        "            data = text",
        "        else:",
        '            data = text.encode("utf-8-sig")',
        "        return self.run(data)",
      );
    expect(same(edit(""), edit(": bytes | bytearray"), "src/click/_termui_impl.py")).toBe(true);
    const echo = (annotation: string) =>
      lines(
        "def echo(message: t.Any | None = None, nl: bool = True) -> None:",
        "    if message is not None and not isinstance(message, (str, bytes, bytearray)):",
        `        out: ${annotation} = str(message)`,
        "    else:",
        "        out = message",
        "    return out",
      );
    expect(same(echo("str | bytes | None"), echo("str | bytes | bytearray | None"), "src/click/utils.py")).toBe(true);
    // The value is still read: a new value is a change.
    expect(same(echo("str | bytes | None"), echo("str | bytes | None").replace("str(message)", "repr(message)"), "src/click/utils.py")).toBe(false);
  });

  it("a bare annotation dropped and `t.cast(T, x)` for x (click 45f89cd5 getchar)", () => {
    const before = lines(
      "    def getchar(echo: bool) -> str:",
      "        func: t.Callable[[], str]",
      "",
      "        if echo:",
      "            func = msvcrt.getwche  # type: ignore",
      "        else:",
      "            func = msvcrt.getwch  # type: ignore",
      "",
      "        rv = func()",
      "        return rv",
    );
    const after = lines(
      "    def getchar(echo: bool) -> str:",
      "        if echo:",
      "            func = t.cast(t.Callable[[], str], msvcrt.getwche)",
      "        else:",
      "            func = t.cast(t.Callable[[], str], msvcrt.getwch)",
      "",
      "        rv = func()",
      "        return rv",
    );
    expect(same(before, after, "src/click/_termui_impl.py")).toBe(true);
    // Another callee in the cast is a change.
    expect(same(before, after.replace("msvcrt.getwch)", "msvcrt.getch)"), "src/click/_termui_impl.py")).toBe(false);
  });

  it("visibility and constexpr in the header (commons-lang 7e5906fb getForceAccessible, fmt a823ba06 format)", () => {
    const java = (modifiers: string) =>
      lines(`    ${modifiers} boolean getForceAccessible() {`, '        return SystemProperties.getBoolean(AbstractReflection.class, "forceAccessible", () -> true);', "    }");
    expect(same(java("static"), java("public static"), "src/main/java/org/apache/commons/lang3/builder/AbstractReflection.java")).toBe(true);
    const format = (specifier: string) =>
      lines(
        "  template <typename Context>",
        `  ${specifier}auto format(const std::exception& ex, Context& ctx) const`,
        "      -> decltype(ctx.out()) {",
        "    auto out = ctx.out();",
        "    return detail::write_bytes<char>(out, string_view(ex.what()));",
        "  }",
      );
    expect(same(format("FMT_CONSTEXPR "), format(""), "include/fmt/std.h")).toBe(true);
    // `synchronized` and a new return type are changes.
    expect(same(java("static"), java("static synchronized"), "src/main/java/A.java")).toBe(false);
    expect(same(format(""), format("").replace("auto format", "void format"), "include/fmt/std.h")).toBe(false);
  });

  it("C++ static_asserts (leveldb 302786e2 NoDestructor) and TypeScript `as` and local annotations", () => {
    const ctor = (asserts: string[]) =>
      lines(
        "  template <typename... ConstructorArgTypes>",
        "  explicit NoDestructor(ConstructorArgTypes&&... constructor_args) {",
        ...asserts,
        "    new (&instance_storage_)",
        "        InstanceType(std::forward<ConstructorArgTypes>(constructor_args)...);",
        "  }",
      );
    const before = ctor([
      "    static_assert(sizeof(instance_storage_) >= sizeof(InstanceType),",
      '                  "instance_storage_ is not large enough to hold the instance");',
      "    static_assert(",
      "        alignof(decltype(instance_storage_)) >= alignof(InstanceType),",
      '        "instance_storage_ does not meet the instance\'s alignment requirement");',
    ]);
    const after = ctor([
      "    static_assert(sizeof(instance_storage_) >= sizeof(InstanceType),",
      '                  "instance_storage_ is not large enough to hold the instance");',
      "    static_assert(std::is_standard_layout_v<NoDestructor<InstanceType>>);",
      "    static_assert(",
      "        offsetof(NoDestructor, instance_storage_) % alignof(InstanceType) == 0,",
      '        "instance_storage_ does not meet the instance\'s alignment requirement");',
    ]);
    expect(same(before, after, "util/no_destructor.h")).toBe(true);
    expect(same(before, after.replace("new (&instance_storage_)", "new (instance_storage_ + 1)"), "util/no_destructor.h")).toBe(false);
    const ts = (body: string) => lines("export function sizeOf(value: unknown): number {", body, "}");
    expect(same(ts("  const list = value as unknown[];\n  return list.length;"), ts("  const list: unknown[] = value;\n  return list.length;"), "src/size.ts")).toBe(true);
    expect(same(ts("  const list = value as unknown[];\n  return list.length;"), ts("  const list = value as unknown[];\n  return list.length + 1;"), "src/size.ts")).toBe(false);
  });
});

describe("formatting, renames and one control flow written two ways", () => {
  it("braces around a one-statement body in JavaScript without semicolons (koa 2f6e8147 use, onerror)", () => {
    const use = (check: string) =>
      lines("  use (fn) {", `    ${check}`, "    debug('use %s', fn._name || fn.name || '-')", "    this.middleware.push(fn)", "    return this", "  }");
    const plain = "if (typeof fn !== 'function') throw new TypeError('middleware must be a function!')";
    const braced = "if (typeof fn !== 'function') { throw new TypeError('middleware must be a function!') }";
    expect(same(use(plain), use(braced), "lib/application.js")).toBe(true);
    // The statement moved out of the `if` is a change.
    expect(same(use(plain), use("if (typeof fn !== 'function') { }\n    throw new TypeError('middleware must be a function!')"), "lib/application.js")).toBe(false);
    // Parentheses around an assigned value or one arrow parameter (koa's createContext, handleRequest).
    const ctx = (line: string) => lines("  createContext (req, res) {", `    ${line}`, "    return request", "  }");
    expect(same(ctx("const request = context.request = Object.create(this.request)"), ctx("const request = (context.request = Object.create(this.request))"), "lib/application.js")).toBe(true);
    expect(same(ctx("const onerror = err => ctx.onerror(err)"), ctx("const onerror = (err) => ctx.onerror(err)"), "lib/application.js")).toBe(true);
    expect(same(ctx("const x = (a + b) * c"), ctx("const x = a + b * c"), "lib/application.js")).toBe(false);
  });

  it("if/else as an early return in a void function (fmt cd67635a and b54093c6 print)", () => {
    const before = lines(
      "template <typename... T>",
      "FMT_INLINE void print(format_string<T...> fmt, T&&... args) {",
      "  vargs<T...> va = {{args...}};",
      "  if FMT_CONSTEXPR20 (!detail::use_utf8) {",
      "    detail::vprint_mojibake(stdout, fmt.str, va, false);",
      "  } else {",
      "    detail::is_locking<T...>() ? vprint_buffered(stdout, fmt.str, va)",
      "                               : vprint(fmt.str, va);",
      "  }",
      "}",
    );
    const after = lines(
      "template <typename... T>",
      "FMT_INLINE void print(format_string<T...> fmt, T&&... args) {",
      "  vargs<T...> va = {{args...}};",
      "  if FMT_CONSTEXPR20 (!detail::use_utf8)",
      "    return detail::vprint_mojibake(stdout, fmt.str, va, false);",
      "  detail::is_locking<T...>() ? vprint_buffered(stdout, fmt.str, va)",
      "                             : vprint(fmt.str, va);",
      "}",
    );
    expect(same(before, after, "include/fmt/base.h")).toBe(true);
    expect(same(after, before, "include/fmt/base.h")).toBe(true);
    // Without the `return` the else branch runs after the if branch: a change. A function returning a
    // value may not be read that way either.
    expect(same(before, after.replace("    return detail::", "    detail::"), "include/fmt/base.h")).toBe(false);
    expect(same(before.replace("void print", "int print"), after.replace("void print", "int print"), "include/fmt/base.h")).toBe(false);
  });

  it("a parameter renamed with its uses in a language without keyword arguments (leveldb e0d5f83a DeleteFile)", () => {
    const del = (name: string) =>
      lines(
        `  Status DeleteFile(const std::string& ${name}) override {`,
        `    if (!::DeleteFileA(${name}.c_str())) {`,
        `      return WindowsError(${name}, ::GetLastError());`,
        "    }",
        "    return Status::OK();",
        "  }",
      );
    expect(same(del("fname"), del("filename"), "util/env_windows.cc")).toBe(true);
    // Renamed to another parameter's name, or in Python (callers may pass it by name): a change.
    expect(same(del("fname"), del("fname").replace("DeleteFileA(fname", "DeleteFileA(other"), "util/env_windows.cc")).toBe(false);
    const py = (name: string) => lines(`def delete_file(${name}):`, `    return os.remove(${name})`);
    expect(same(py("fname"), py("filename"), "src/files.py")).toBe(false);
  });
});

describe("messages", () => {
  it("an old literal wrapped for localisation (click 5b9630f5 confirmation_option)", () => {
    const option = (prompt: string, help: string) =>
      lines(
        "def confirmation_option(*param_decls: str, **kwargs: t.Any) -> t.Callable[[FC], FC]:",
        '    kwargs.setdefault("is_flag", True)',
        `    kwargs.setdefault("prompt", ${prompt})`,
        `    kwargs.setdefault("help", ${help})`,
        "    return option(*param_decls, **kwargs)",
      );
    const before = option('"Do you want to continue?"', '"Confirm the action without prompting."');
    expect(same(before, option('_("Do you want to continue?")', '_("Confirm the action without prompting.")'), "src/click/decorators.py")).toBe(true);
    // Another text, or another call of the old literal, is a change.
    expect(same(before, option('_("Continue?")', '_("Confirm the action without prompting.")'), "src/click/decorators.py")).toBe(false);
    expect(same(before, option('"Do you want to continue?"', 'str.upper("Confirm the action without prompting.")'), "src/click/decorators.py")).toBe(false);
    expect(same(before, option('"Do you want to continue?"', 'Markup("Confirm the action without prompting.")'), "src/click/decorators.py")).toBe(false);
  });
});
