import { describe, expect, it } from "vitest";
import { outlineChange, type FileVersions } from "../../src/review/change-outline.ts";

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
  });
});
