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

describe("definition ends across languages' shapes", () => {
  it("reads a parameter list over several lines as the header, not a declaration ending in `,`", () => {
    const kotlin = at([
      "class Parser {",
      "    fun other() {}",
      "    fun parse(",
      "        text: String,",
      "        strict: Boolean,",
      "    ): Node {",
      "        return Node(text)",
      "    }",
      "}",
    ]);
    expect(definitionSpan(kotlin, 10, "parse", "kotlin")).toEqual({ startLine: 12, endLine: 17 });
    const php = at(["class A", "{", "    public function handle(", "        Request $request,", "        array $options,", "        int $retries", "    )", "    {", "        return 1;", "    }", "}"]);
    expect(definitionSpan(php, 1, "handle", "php")).toEqual({ startLine: 3, endLine: 10 });
    const rust = at(["impl Dispatch {", "    pub fn from_subscriber<S>(", "        subscriber: S,", "    ) -> Self", "    where", "        S: Subscriber + Send,", "        S: Sync,", "    {", "        Dispatch(subscriber)", "    }", "}"]);
    expect(definitionSpan(rust, 1, "from_subscriber", "rust")).toEqual({ startLine: 2, endLine: 10 });
    expect(definitionsIn(rust, 1, "rust").map((d) => d.name)).toEqual(["from_subscriber"]); // `S: Sync,` before `{` defines no `Sync`
    const c = at(["", "static int parse_args(int argc,", "                      char **argv,", "                      struct options *opts)", "{", "  return 0;", "}"]);
    expect(definitionsIn(c, 0, "c")).toEqual([{ name: "parse_args", startLine: 1, endLine: 6 }]);
  });

  it("ends an expression body with its indented lines, not at the next brace", () => {
    const kotlin = at(["class Bag {", "    fun size(): Int = items.size", "    fun names() = items", "        .map { it.name }", "        .sorted()", "    fun clear() {", "        items.clear()", "    }", "}"]);
    expect(definitionsIn(kotlin, 1, "kotlin")).toEqual([
      { name: "size", startLine: 2, endLine: 2 },
      { name: "names", startLine: 3, endLine: 5 },
      { name: "clear", startLine: 6, endLine: 8 },
    ]);
  });

  it("finds Kotlin extension functions by their name, not their receiver's", () => {
    const kotlin = at(["object Ext {", "    fun String.slug(): String {", "        return lowercase()", "    }", "    fun <T> List<T>.second(): T {", "        return this[1]", "    }", "}"]);
    expect(definitionSpan(kotlin, 1, "slug", "kotlin")).toEqual({ startLine: 2, endLine: 4 });
    expect(definitionsIn(kotlin, 1, "kotlin").map((d) => d.name)).toEqual(["slug", "second"]);
  });

  it("Ruby and Elixir: a definition ends at its own `end`, blocks and `{}` inside it", () => {
    const ruby = at([
      "module PostBeforeFilter",
      "  def version",
      "    env[:version]",
      "  end",
      "",
      "  def declared_hash_attr(passed_params, options)",
      "    renamed = route_setting(:renamed) || {}",
      "    passed_params.each do |key|",
      "      renamed[key] = 1 if key",
      "    end",
      "  rescue NoMethodError",
      "    {}",
      "  end",
      "",
      "  def self.build; new; end",
      "  def name = @name",
      "end",
    ]);
    expect(definitionSpan(ruby, 20, "declared_hash_attr", "ruby")).toEqual({ startLine: 25, endLine: 32 });
    // A call opening a line before the definition is no definition where `def` opens every one.
    const calling = at(["module M", "  def declared(params)", "    declared_hash_attr(params, {})", "  end", "", "  def declared_hash_attr(params, options)", "    params", "  end", "end"]);
    expect(definitionSpan(calling, 1, "declared_hash_attr", "ruby")).toEqual({ startLine: 6, endLine: 8 });
    const python = at(["class Loader:", "    def load(self):", "        parse_all(self.paths,", "                  strict=True)", "", "    def parse_all(self, paths):", "        return paths"]);
    expect(definitionSpan(python, 1, "parse_all", "python")).toEqual({ startLine: 6, endLine: 7 });
    expect(definitionSpan(ruby, 20, "version", "ruby")).toEqual({ startLine: 21, endLine: 23 });
    expect(definitionsIn(ruby, 20, "ruby")).toEqual([
      { name: "version", startLine: 21, endLine: 23 },
      { name: "declared_hash_attr", startLine: 25, endLine: 32 },
      { name: "build", startLine: 34, endLine: 34 },
      { name: "name", startLine: 35, endLine: 35 },
    ]);
    const privateDef = at(["class Router", "  private def compile", "    @routes.map(&:compile)", "  end", "end"]);
    expect(definitionSpan(privateDef, 1, "compile", "ruby")).toEqual({ startLine: 2, endLine: 4 });
    const elixir = at(["defmodule Plug.Conn do", "  def put_status(conn, status) do", "    %{conn | status: status}", "  end", "", "  defp check(conn), do: conn", "end"]);
    expect(definitionSpan(elixir, 1, "put_status", "elixir")).toEqual({ startLine: 2, endLine: 4 });
    expect(definitionSpan(elixir, 1, "check", "elixir")).toEqual({ startLine: 6, endLine: 6 });
  });
});

describe("C# and generic methods", () => {
  it("finds methods whose body's brace opens the next line, and generic methods, by their names", () => {
    const cs = at([
      "public class JsonReader",
      "{",
      "    public JsonReader(TextReader reader)",
      "    {",
      "        _reader = reader;",
      "    }",
      "",
      "    public static T Deserialize<T>(string json) where T : class",
      "    {",
      "        using (var r = Open(json))",
      "        {",
      "            return null;",
      "        }",
      "    }",
      "}",
    ]);
    expect(definitionsIn(cs, 1, "csharp")).toEqual([
      { name: "JsonReader", startLine: 3, endLine: 6 },
      { name: "Deserialize", startLine: 8, endLine: 14 },
    ]);
    expect(definitionSpan(cs, 1, "Deserialize", "csharp")).toEqual({ startLine: 8, endLine: 14 });
    const ts = at(["class QueryClient {", "  fetchQuery<TData>(key: string): Promise<TData> {", "    return this.cache.fetch(key)", "  }", "}"]);
    expect(definitionSpan(ts, 1, "fetchQuery", "typescript")).toEqual({ startLine: 2, endLine: 4 });
    expect(definitionsIn(ts, 1, "typescript").map((d) => d.name)).toEqual(["fetchQuery"]);
  });
});

describe("definitionsIn: names after a definition's keyword, modifiers, bodies without braces", () => {
  it("takes any name after a definition keyword (Rust's `fn new`), Kotlin's operator and Swift's attributed and class functions", () => {
    const rust = at(["impl Callsite {", "    pub(super) const fn new() -> Self {", "        Self { next: None }", "    }", "}"]);
    expect(definitionsIn(rust, 1, "rust")).toEqual([{ name: "new", startLine: 2, endLine: 4 }]);
    const kotlin = at(["class Names {", "    operator fun get(index: String): Name {", "        return names[index]", "    }", "}"]);
    expect(definitionsIn(kotlin, 1, "kotlin")).toEqual([{ name: "get", startLine: 2, endLine: 4 }]);
    const swift = at(["final class DetailViewController {", "    @IBAction func refresh() {", "        reload()", "    }", "    class func make() -> Self {", "        Self()", "    }", "}"]);
    expect(definitionsIn(swift, 1, "swift")).toEqual([
      { name: "refresh", startLine: 2, endLine: 4 },
      { name: "make", startLine: 5, endLine: 7 },
    ]);
  });

  it("reads Java's generic methods and wildcard types (`public <T> TypeAdapter<T> create(`, `Class<?> getDeclaringClass()`)", () => {
    const java = at(["public final class InterceptorFactory implements TypeAdapterFactory {", "  @Override", "  public <T> TypeAdapter<T> create(Gson gson, TypeToken<T> type) {", "    return null;", "  }", "  public Class<?> getDeclaringClass() {", "    return field.getDeclaringClass();", "  }", "}"]);
    expect(definitionsIn(java, 1, "java")).toEqual([
      { name: "create", startLine: 2, endLine: 5 },
      { name: "getDeclaringClass", startLine: 6, endLine: 8 },
    ]);
  });

  it("reads a method whose parameters go on over the next lines, braces of their types and defaults inside the header", () => {
    const ts = at([
      "export class MutationCache extends Subscribable {",
      "  constructor(public config: MutationCacheConfig = {}) {",
      "    super()",
      "  }",
      "",
      "  build<TData, TError>(",
      "    client: QueryClient,",
      "    pairs: { key: string; value: TData }[],",
      "  ): Mutation<TData, TError> {",
      "    return new Mutation(client, pairs)",
      "  }",
      "}",
    ]);
    expect(definitionsIn(ts, 1, "typescript")).toEqual([
      { name: "constructor", startLine: 2, endLine: 4 },
      { name: "build", startLine: 6, endLine: 11 },
    ]);
    const swift = at(["public struct DataResponse {", "    public init(request: URLRequest?,", "                response: HTTPURLResponse?,", "                result: Result<Success, Failure>) {", "        self.request = request", "    }", "}"]);
    expect(definitionsIn(swift, 1, "swift")).toEqual([{ name: "init", startLine: 2, endLine: 6 }]);
  });

  it("ends a member declared without a body on its own line, and reads a body closed on its line", () => {
    const kotlin = at(["interface Invokable {", "    fun setAccessible()", "    fun defaultsSignature(): String", "    fun invoke(args: Array<Any?>): Any? {", "        return null", "    }", "}"]);
    expect(definitionsIn(kotlin, 1, "kotlin")).toEqual([
      { name: "setAccessible", startLine: 2, endLine: 2 },
      { name: "defaultsSignature", startLine: 3, endLine: 3 },
      { name: "invoke", startLine: 4, endLine: 6 },
    ]);
    const cpp = at(["struct format_specs {", "  int width;", "  constexpr format_specs() : width(0) {}", "  int size() const { return width; }", "};"]);
    expect(definitionsIn(cpp, 1, "cpp")).toEqual([
      { name: "format_specs", startLine: 3, endLine: 3 },
      { name: "size", startLine: 4, endLine: 4 },
    ]);
  });
});
