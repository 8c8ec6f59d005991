import { describe, expect, it } from "vitest";
import { outlineChange, type FileVersions } from "../../src/review/change-outline.ts";
import { renderSummary } from "../../src/review/summary.ts";
import { diffOf } from "./helpers.ts";

const lines = (...l: string[]) => `${l.join("\n")}\n`;
const changesOf = async (file: FileVersions) => (await outlineChange([file]))[0]!.changes.map((c) => [c.change, c.parent, c.name, ...(c.renamedFrom ? [c.renamedFrom] : []), c.signatureChanged]);

// gin-gonic/gin errors.go before and after 8e07d37c: the const block loses its last constant.
const GIN_BEFORE = lines(
  "package gin",
  "",
  "type ErrorType uint64",
  "",
  "const (",
  "\t// ErrorTypeBind is used when Context.Bind() fails.",
  "\tErrorTypeBind ErrorType = 1 << 63",
  "\t// ErrorTypeRender is used when Context.Render() fails.",
  "\tErrorTypeRender ErrorType = 1 << 62",
  "\t// ErrorTypeAny indicates any other error.",
  "\tErrorTypeAny ErrorType = 1<<64 - 1",
  "\t// ErrorTypeNu indicates any other error.",
  "\tErrorTypeNu = 2",
  ")",
  "",
  "var (",
  "\tlow, high = 1, 2",
  ")",
);
const GIN_AFTER = lines(
  "package gin",
  "",
  "type ErrorType uint64",
  "",
  "const (",
  "\t// ErrorTypeBind is used when Context.Bind() fails.",
  "\tErrorTypeBind ErrorType = 1 << 63",
  "\t// ErrorTypeRender is used when Context.Render() fails.",
  "\tErrorTypeRender ErrorType = 1 << 62",
  "\t// ErrorTypeAny indicates any other error.",
  "\tErrorTypeAny ErrorType = 1<<64 - 1",
  ")",
  "",
  "var (",
  "\tlow, high = 1, 3",
  ")",
);

// encode/httpx httpx/_compat.py (deleted by 8e36f2bc), shortened: definitions inside try/except and if/else.
const COMPAT = lines(
  "import ssl",
  "import sys",
  "",
  "try:",
  "    import brotlicffi as brotli",
  "except ImportError:  # pragma: no cover",
  "    try:",
  "        import brotli",
  "    except ImportError:",
  "        brotli = None",
  "",
  "if sys.version_info >= (3, 10):",
  "",
  "    def set_minimum_tls_version_1_2(context: ssl.SSLContext) -> None:",
  "        context.minimum_version = ssl.TLSVersion.TLSv1_2",
  "",
  "else:",
  "",
  "    def set_minimum_tls_version_1_2(context: ssl.SSLContext) -> None:",
  "        context.options |= ssl.OP_NO_SSLv2",
  "",
  '__all__ = ["brotli", "set_minimum_tls_version_1_2"]',
);

describe("the outline reads every declared name", () => {
  it("a Go const or var block is one definition per declared name, not one named by its first constant", async () => {
    expect(await changesOf({ path: "errors.go", oldPath: "errors.go", before: GIN_BEFORE, after: GIN_AFTER })).toEqual([
      ["changed", null, "low", false],
      ["changed", null, "high", false],
      ["removed", null, "ErrorTypeNu", false],
    ]);
  });

  it("C: a function after a conditional the grammar cannot place is a definition of the outline (jq src/util.c, src/main.c)", async () => {
    // autoconf's alloca lines make the grammar wrap the rest of the file in one error; the functions in it
    // are still parsed whole, and a change to one is a change to that function.
    const c = (ret: string) =>
      lines(
        "#ifdef HAVE_ALLOCA_H",
        "# include <alloca.h>",
        "#elif !defined alloca",
        "# ifdef  __cplusplus",
        'extern "C"',
        "# endif",
        "void *alloca (size_t);",
        "#endif",
        "",
        "static int parse_option(const char *text, int at) {",
        `  return ${ret};`,
        "}",
        "",
        "#ifdef WIN32",
        "int umain(int argc, char* argv[]) {",
        "#else",
        "int main(int argc, char* argv[]) {",
        "#endif",
        "  return parse_option(argv[0], argc);",
        "}",
      );
    expect(await changesOf({ path: "src/util.c", oldPath: "src/util.c", before: c("text[0] == '-' ? at : 0"), after: c("text[0] == '-' ? at : -1") })).toEqual([
      ["changed", null, "parse_option", false],
    ]);
  });

  it("a JavaScript declaration of several names is one definition per name", async () => {
    const before = lines("const a = 1, b = 2;", "export const c = 3, d = () => 4;");
    const after = lines("const a = 1, b = 5;", "export const c = 3;");
    expect(await changesOf({ path: "x.js", oldPath: "x.js", before, after })).toEqual([
      ["changed", null, "b", false],
      ["removed", null, "d", false],
    ]);
  });

  it("definitions inside top-level if/else and try/except are the module's (Python and JavaScript)", async () => {
    expect(await changesOf({ path: "httpx/_compat.py", oldPath: "httpx/_compat.py", before: COMPAT, after: null })).toEqual([
      ["removed", null, "brotli", false],
      ["removed", null, "set_minimum_tls_version_1_2", false],
      ["removed", null, "set_minimum_tls_version_1_2", false],
      ["removed", null, "__all__", false],
    ]);
    const js = lines("if (typeof window !== 'undefined') {", "  function onLoad(event) {", "    return event;", "  }", "} else {", "  var fallback = 1;", "}");
    expect(await changesOf({ path: "x.js", oldPath: "x.js", before: js, after: null })).toEqual([
      ["removed", null, "onLoad", false],
      ["removed", null, "fallback", false],
    ]);
  });

  it("a function in an `export default` expression is a definition (axios d032edda)", async () => {
    const before = lines("export default function httpAdapter(config) {", "  return dispatch(config);", "}");
    const after = lines("const isHttpAdapterSupported = typeof process !== 'undefined';", "", "export default isHttpAdapterSupported && function httpAdapter(config) {", "  return dispatch(config);", "}");
    expect(await changesOf({ path: "lib/adapters/http.js", oldPath: "lib/adapters/http.js", before, after })).toEqual([
      ["added", null, "isHttpAdapterSupported", false],
      ["changed", null, "httpAdapter", true],
    ]);
    // Anonymous, it is the default export, still the same function.
    const xhr = lines("const isXHRAdapterSupported = typeof XMLHttpRequest !== 'undefined';", "", "export default isXHRAdapterSupported && function (config) {", "  return dispatch(config);", "}");
    expect(await changesOf({ path: "lib/adapters/xhr.js", oldPath: "lib/adapters/xhr.js", before: before.replace("httpAdapter", "xhrAdapter"), after: xhr })).toEqual([
      ["added", null, "isXHRAdapterSupported", false],
      ["renamed", null, "default", "xhrAdapter", true],
    ]);
  });
});

describe("a variable's value is no signature, and a rename is one change", () => {
  it("a version bump or a new `__slots__` changes a variable, not a signature, and does not cap the confidence", async () => {
    const [version, slots] = await outlineChange([
      { path: "httpx/__version__.py", oldPath: "httpx/__version__.py", before: lines('__title__ = "httpx"', '__version__ = "0.27.2"'), after: lines('__title__ = "httpx"', '__version__ = "0.28.0"') },
      {
        path: "astroid/context.py",
        oldPath: "astroid/context.py",
        before: lines("class CallContext:", '    __slots__ = ("args", "keywords", "callee")', "", "    def __init__(self, args):", "        self.args = args"),
        after: lines("class CallContext:", '    __slots__ = ("args", "keywords")', "", "    def __init__(self, args):", "        self.args = args"),
      },
    ]);
    expect(version!.changes.map((c) => [c.change, c.name, c.signatureChanged])).toEqual([["changed", "__version__", false]]);
    expect(slots!.changes.map((c) => [c.change, c.parent, c.name, c.signatureChanged])).toEqual([["changed", "CallContext", "__slots__", false]]);
    const md = renderSummary({ files: [diffOf("httpx/__version__.py", ["a"], ["b"])], findings: [], outline: [version!, slots!], checks: { reviewedFiles: 2, patterns: 0, model: "none" } });
    expect(md).toContain("- `httpx/__version__.py`: changes `__version__`\n");
    expect(md).toContain("- `astroid/context.py`: changes `CallContext.__slots__`\n");
    expect(md).not.toContain("Not checked: the callers");
    expect(md).toContain("**Confidence score: 4/5**");
  });

  it("a class renamed (pallets/click 7a0a3447) is one rename, its members going with it; a renamed function with a new docstring too", async () => {
    const before = lines(
      "def safecall(func):",
      '    """Wraps a function so that it swallows exceptions."""',
      "    def wrapper(*args, **kwargs):",
      "        try:",
      "            return func(*args, **kwargs)",
      "        except Exception:",
      "            pass",
      "    return wrapper",
      "",
      "class LazyFile:",
      '    """A lazy file."""',
      "",
      "    def __init__(self, filename):",
      "        self.name = filename",
      "",
      "    def __enter__(self) -> LazyFile:",
      "        return self",
      "",
      "    def close(self):",
      "        self._f.close()",
    );
    const after = lines(
      "def _safecall(func):",
      '    """',
      "    Wraps a function so that it swallows exceptions.",
      "",
      "    :meta private:",
      '    """',
      "    def wrapper(*args, **kwargs):",
      "        try:",
      "            return func(*args, **kwargs)",
      "        except Exception:",
      "            pass",
      "    return wrapper",
      "",
      "class _LazyFile:",
      '    """A lazy file."""',
      "",
      "    def __init__(self, filename):",
      "        self.name = filename",
      "",
      "    def __enter__(self) -> _LazyFile:",
      "        return self",
      "",
      "    def close(self, force=False):",
      "        self._f.close()",
    );
    const [outline] = await outlineChange([{ path: "src/click/utils.py", oldPath: "src/click/utils.py", before, after }]);
    expect(outline!.changes.map((c) => [c.change, c.parent, c.name, c.renamedFrom ?? null, c.signatureChanged])).toEqual([
      ["renamed", null, "_safecall", "safecall", false],
      ["renamed", null, "_LazyFile", "LazyFile", false],
      ["changed", "_LazyFile", "close", null, true],
    ]);
    const md = renderSummary({ files: [diffOf("src/click/utils.py", ["a"], ["b"])], findings: [], outline: [outline!], checks: { reviewedFiles: 1, patterns: 0, model: "none" } });
    expect(md).toContain("- `src/click/utils.py`: changes `_LazyFile.close()` (signature); renames `safecall()` → `_safecall()`, `LazyFile` → `_LazyFile`\n");
    expect(md).toContain("3 definitions changed signature or were renamed or removed, and their callers elsewhere were not checked");
  });

  it("overloads (or a getter with its setter) are listed once (iamkun/dayjs 28a2207e)", async () => {
    const after = lines("declare module 'dayjs' {", "  interface Dayjs {", "    isoWeek(): number", "    isoWeek(value: number): Dayjs", "  }", "}");
    const [outline] = await outlineChange([{ path: "types/plugin/isoWeek.d.ts", oldPath: null, before: null, after }]);
    const md = renderSummary({ files: [diffOf("types/plugin/isoWeek.d.ts", ["a"], ["b"])], findings: [], outline: [outline!] });
    expect(md).toContain("- `types/plugin/isoWeek.d.ts`: adds `dayjs`, `dayjs.Dayjs`, `Dayjs.isoWeek()`\n");
  });
});
