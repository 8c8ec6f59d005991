import { describe, expect, it } from "vitest";
import { definitionSpan, definitionsIn } from "../../src/retrieval/definition-span.ts";

const at = (lines: string[]) => lines.join("\n");

describe("definitionSpan: a named definition's lines inside a chunk", () => {
  it("Python: a method of a class, to the end of its indented body, with its decorator", () => {
    const text = at([
      "class SecureCookieSessionInterface(SessionInterface):",
      '    salt = "cookie-session"',
      "",
      "    @staticmethod",
      "    def get_signing_serializer(self, app):",
      "        if not app.secret_key:",
      "            return None",
      "        return URLSafeTimedSerializer(",
      "            app.secret_key,",
      "        )",
      "",
      "    def open_session(self, app, request):",
      "        return None",
    ]);
    expect(definitionSpan(text, 100, "get_signing_serializer", "python")).toEqual({ startLine: 103, endLine: 109 });
    expect(definitionSpan(text, 100, "open_session", "python")).toEqual({ startLine: 111, endLine: 112 });
    expect(definitionSpan(text, 100, "URLSafeTimedSerializer", "python")).toBeNull(); // called, not defined here
  });

  it("JavaScript: a method, a function and a function bound to a name", () => {
    const text = at([
      "class Router {",
      "  handle(req, res, out) {",
      "    const stack = this.stack;",
      "    if (!stack) { return out(); }",
      "  }",
      "",
      "  static route(path) {",
      "    return new Route(path);",
      "  }",
      "}",
      "function compose(fns) {",
      "  return fns.reduce((a, b) => (x) => b(a(x)));",
      "}",
      "const trim = (s) => s.trim();",
      "proto.param = function param(name, fn) {",
      "  this.params[name] = fn;",
      "};",
    ]);
    expect(definitionSpan(text, 1, "handle", "javascript")).toEqual({ startLine: 2, endLine: 5 });
    expect(definitionSpan(text, 1, "route", "javascript")).toEqual({ startLine: 7, endLine: 9 });
    expect(definitionSpan(text, 1, "compose", "javascript")).toEqual({ startLine: 11, endLine: 13 });
    expect(definitionSpan(text, 1, "trim", "javascript")).toEqual({ startLine: 14, endLine: 14 });
    expect(definitionSpan(text, 1, "param", "javascript")).toEqual({ startLine: 15, endLine: 17 });
  });

  it("Go, Rust, Java and C++: functions and methods by their braces", () => {
    const go = at(["type Server struct{}", "", "func (s *Server) Start(ctx context.Context) error {", "\tif s == nil {", "\t\treturn nil", "\t}", "\treturn nil", "}"]);
    expect(definitionSpan(go, 10, "Start", "go")).toEqual({ startLine: 12, endLine: 17 });
    const rust = at(["impl Searcher {", "    pub fn search_path<P: AsRef<Path>>(&mut self, path: P) -> io::Result<()> {", "        let file = File::open(path)?;", "        Ok(())", "    }", "}"]);
    expect(definitionSpan(rust, 1, "search_path", "rust")).toEqual({ startLine: 2, endLine: 5 });
    const java = at(["public class JsonFactory {", "  @Override", "  public JsonParser createParser(String content) throws IOException {", "    return _createParser(content);", "  }", "}"]);
    expect(definitionSpan(java, 1, "createParser", "java")).toEqual({ startLine: 2, endLine: 5 });
    const cpp = at(["namespace fmt {", "template <typename T>", "auto format_to(T out, string_view fmt) -> T {", "  return vformat_to(out, fmt);", "}", "}"]);
    expect(definitionSpan(cpp, 1, "format_to", "cpp")).toEqual({ startLine: 3, endLine: 5 });
  });

  it("of a name defined several times (overloads), the definition holding the query's words", () => {
    const java = at([
      "public final class StringUtils {",
      "  public static String join(Object[] array, char separator) {",
      "    return join(array, separator, 0, array.length);",
      "  }",
      "",
      "  public static String join(Iterable<?> iterable, String separator) {",
      "    if (iterable == null) {",
      "      return null;",
      "    }",
      "    return join(iterable.iterator(), separator);",
      "  }",
      "}",
    ]);
    expect(definitionSpan(java, 1, "join", "java", ["join", "iterable", "separator"])).toEqual({ startLine: 6, endLine: 11 });
    expect(definitionSpan(java, 1, "join", "java", ["join", "array"])).toEqual({ startLine: 2, endLine: 4 });
    // Without words, or with none any of them holds: the first.
    expect(definitionSpan(java, 1, "join", "java")).toEqual({ startLine: 2, endLine: 4 });
    expect(definitionSpan(java, 1, "join", "java", ["unrelated"])).toEqual({ startLine: 2, endLine: 4 });
    const cpp = at([
      "struct ordered_map : std::vector<std::pair<const Key, T>, Allocator> {",
      "    ordered_map(const Allocator& alloc = Allocator()) : Container{alloc} {}",
      "    ordered_map(std::initializer_list<T> init, const Allocator& alloc = Allocator())",
      "        : Container{init, alloc} {}",
      "    size_type erase(const Key& key) { return 0; }",
      "};",
    ]);
    expect(definitionSpan(cpp, 1, "ordered_map", "cpp", ["ordered_map", "initializer_list"])).toEqual({ startLine: 3, endLine: 4 });
  });

  it("gives nothing when the chunk is the definition itself, or the name is only called", () => {
    const whole = at(["def apply_discount(amount, coupon):", "    return amount"]);
    expect(definitionSpan(whole, 1, "apply_discount", "python")).toBeNull();
    const call = at(["function main() {", "  return compose([a, b]);", "}"]);
    expect(definitionSpan(call, 1, "compose", "javascript")).toBeNull();
  });
});

describe("definitionsIn: the definitions inside a chunk", () => {
  it("lists a Python class's methods with their lines, not the calls in their bodies", () => {
    const text = at([
      "class Interface:",
      "    @staticmethod",
      "    def sign(app):",
      "        print(app)",
      "        return make(app)",
      "",
      "    def open(self, request):",
      "        return None",
    ]);
    expect(definitionsIn(text, 10, "python")).toEqual([
      { name: "sign", startLine: 11, endLine: 14 },
      { name: "open", startLine: 16, endLine: 17 },
    ]);
  });

  it("lists JavaScript methods, assigned functions and C-family functions with bodies", () => {
    const text = at([
      "// helpers",
      "res.cookie = function (name, value) {",
      "  sign(value);",
      "};",
      "class Router {",
      "  route(path) {",
      "    return path;",
      "  }",
      "}",
      "static int parse(const char *s) {",
      "  return atoi(s);",
      "}",
    ]);
    expect(definitionsIn(text, 1, "javascript").map((d) => [d.name, d.startLine, d.endLine])).toEqual([
      ["cookie", 2, 4],
      ["Router", 5, 9],
      ["route", 6, 8],
      ["parse", 10, 12],
    ]);
  });
});

describe("definitionsIn: calls that take a function are not definitions", () => {
  it("skips test blocks and route handlers", () => {
    const text = at(["describe('res', function () {", "  it('sends', function () {", "    send();", "  });", "  app.get('/', (req, res) => {", "  });", "});"]);
    expect(definitionsIn("\n" + text, 0, "javascript")).toEqual([]);
  });
});

describe("definitionsIn: named function expressions", () => {
  it("finds a getter defined through a call", () => {
    const text = at(["", "defineGetter(req, 'ip', function ip(){", "  return this.socket.remoteAddress;", "});"]);
    expect(definitionsIn(text, 339, "javascript")).toEqual([{ name: "ip", startLine: 340, endLine: 342 }]);
  });

  it("finds the property a define... call names, with an anonymous function or a descriptor", () => {
    const text = at(["", "defineGetter(req, 'fresh', function(){", "  return fresh(this.headers);", "});", "Object.defineProperty(exports, 'version', {", "  enumerable: true,", "});"]);
    expect(definitionsIn(text, 468, "javascript")).toEqual([
      { name: "fresh", startLine: 469, endLine: 471 },
      { name: "version", startLine: 472, endLine: 474 },
    ]);
    // A call that is no define... names nothing.
    expect(definitionsIn(at(["", "register(app, 'fresh', function(){", "});"]), 0, "javascript")).toEqual([]);
  });
});

describe("definitionsIn: C and C++ functions whose header spans lines", () => {
  it("finds a function after its specifier macros and return type, its parameters on the next lines", () => {
    const text = at([
      "",
      "FMT_FUNC void format_error_code(detail::buffer<char>& out, int error_code,",
      "                                string_view message) noexcept {",
      "  out.try_resize(0);",
      "}",
      "",
      "template <typename Char>",
      "FMT_CONSTEXPR auto parse_align(const Char* begin, const Char* end,",
      "                               format_specs& specs) -> const Char* {",
      "  return begin;",
      "}",
    ]);
    expect(definitionsIn(text, 90, "cpp")).toEqual([
      { name: "format_error_code", startLine: 91, endLine: 94 },
      { name: "parse_align", startLine: 97, endLine: 100 },
    ]);
  });

  it("takes no declaration, call, macro use or statement for a definition", () => {
    const text = at([
      "",
      "void report_error(const char* message,", // a declaration: `;` before any `{`
      "                  int code);",
      "static int width = compute(a,", // an initialisation
      "                           b) + 1;",
      "FMT_PRAGMA_GCC(optimize(\"-O3\"))", // an all-capitals name is a macro's use
      "TEST(chrono_test, units) {",
      "}",
      "int main(void) {",
      "  if FMT_CONSTEXPR20 (factor::num != 1) {",
      "    return write(out,",
      "                 value);",
      "  }",
      "}",
    ]);
    expect(definitionsIn(text, 0, "c").map((d) => d.name)).toEqual(["main"]);
  });
});

describe("definitionsIn: one-line declarations and uses of a type", () => {
  it("ends a one-line type alias on its line, and takes a C variable of a struct type for no definition", () => {
    const rust = at(["impl Add for Stats {", "    type Output = Stats;", "", "    fn add(self, rhs: Stats) -> Stats {", "        rhs", "    }", "}"]);
    expect(definitionsIn(rust, 114, "rust")).toEqual([
      { name: "Output", startLine: 115, endLine: 115 },
      { name: "add", startLine: 117, endLine: 119 },
    ]);
    const c = at(["", "jv jv_sort(jv objects, jv keys) {", "  struct sort_entry* entries = sort_items(objects, keys);", "  return objects;", "}", "struct sort_entry {", "  int index;", "};"]);
    expect(definitionsIn(c, 0, "c").map((d) => d.name)).toEqual(["jv_sort", "sort_entry"]);
  });
});
