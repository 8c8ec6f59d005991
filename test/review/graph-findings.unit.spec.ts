/** The pure parts of the "existing helper" and "untested change" findings (src/review/graph/). */
import { describe, expect, it } from "vitest";
import { codeOnly, codeTokens, codeWithoutAnnotations, similarity } from "../../src/review/graph/similarity.ts";
import { alike, existingHelperFindings, identifiersOf, variantsOfOneRole, type HelperLookup, type NewFunction } from "../../src/review/graph/existing-helper.ts";
import { classNamesOf, conventionTestsOf, exercises, isDataDrivenTest, declaredSameBehaviour, isBenchmarkPath, isPublicDefinition, isTestSupportPath, isTypeTest, labelOf, mentions, namedAsTest, namedForModuleOf, namesClass, rewrittenTestsOf, untestedChanges, untestedSection } from "../../src/review/graph/untested-change.ts";
import type { DiffFile } from "../../src/review/diff.ts";

const fn = (path: string, text: string, name: string, kind = "function"): NewFunction => ({ path, name, parent: null, kind, startLine: 1, endLine: text.split("\n").length, text, tokens: codeTokens(text, path) });

const PY = `def merge_settings(base, extra, strict=False):
    result = dict(base)
    for key, value in extra.items():
        if strict and key not in result:
            raise KeyError(key)
        if isinstance(value, dict) and isinstance(result.get(key), dict):
            result[key] = merge_settings(result[key], value, strict)
        else:
            result[key] = value
    return result`;

describe("similarity", () => {
  it("ignores names, comments, docstrings and literal values", () => {
    const renamed = PY.replace(/merge_settings/g, "combine").replace(/result/g, "out").replace(/value/g, "v").replace("def combine(base, extra, strict=False):", 'def combine(a, extra, strict=False):\n    """Combines two mappings."""  # docs');
    const s = similarity(codeTokens(PY, "a.py"), codeTokens(renamed, "b.py"), ["merge_settings", "combine"]);
    expect(s.structure).toBeGreaterThan(0.95);
    expect(s.api).toBe(1);
  });

  it("tells apart code of the same size and other shape, and the same shape calling other APIs", () => {
    const other = `def load_rows(path, limit=10):
    rows = []
    with open(path) as handle:
        for line in handle:
            if len(rows) >= limit:
                break
            rows.append(line.rstrip().split(","))
    return rows`;
    expect(similarity(codeTokens(PY, "a.py"), codeTokens(other, "b.py")).structure).toBeLessThan(0.3);
    const otherApis = PY.replace(/items\(\)/, "entries()").replace(/isinstance/g, "is_type").replace(/result.get/, "result.lookup").replace(/KeyError/, "Missing");
    const s = similarity(codeTokens(PY, "a.py"), codeTokens(otherApis, "b.py"), ["merge_settings"]);
    expect(s.structure).toBeGreaterThan(0.9);
    expect(s.api).toBeLessThan(0.5);
  });

  it("paths count as APIs: constructors of one family differ by the constant they pass", () => {
    const ctor = (name: string, c: string) => `pub fn ${name}(directory: impl AsRef<Path>, prefix: impl AsRef<Path>) -> RollingFileAppender {\n    RollingFileAppender::new(Rotation::${c}, directory, prefix)\n}`;
    const s = similarity(codeTokens(ctor("daily", "DAILY"), "a.rs"), codeTokens(ctor("weekly", "WEEKLY"), "a.rs"), ["daily", "weekly"]);
    expect(s.structure).toBe(1);
    expect(s.api).toBeLessThan(0.5);
  });

  it("setters of one family delegating to same-named members of another object are not copies; recursion by own name is", () => {
    const setter = (name: string) =>
      `pub fn ${name}(self, value: bool) -> SubscriberBuilder<N, F, W> {\n    SubscriberBuilder {\n        inner: self.inner.${name}(value),\n        ..self\n    }\n}`;
    const s = similarity(codeTokens(setter("with_target"), "a.rs"), codeTokens(setter("with_ansi_sanitization"), "b.rs"), ["with_target", "with_ansi_sanitization"]);
    expect(s.structure).toBe(1);
    expect(s.api).toBeLessThan(0.5);
    // With a path in the return type both share (`format::Format`), the APIs alone reach 0.5: the wrapper rule decides.
    const real = (name: string) =>
      `pub fn ${name}(\n    self,\n    v: bool,\n) -> SubscriberBuilder<N, format::Format<L, T>, F, W> {\n    SubscriberBuilder {\n        inner: self.inner.${name}(v),\n        ..self\n    }\n}`;
    const wrapper = fn("src/fmt/mod2.rs", real("with_ansi_sanitization"), "with_ansi_sanitization", "method");
    expect(alike(wrapper, { name: "with_target", parent: "SubscriberBuilder", kind: "method", path: "src/fmt/mod.rs" }, real("with_target"))).toBeNull();
    // A copy of with_target under another name still delegates to with_target: a copy.
    const copied = fn("src/fmt/mod2.rs", real("with_target").replace("fn with_target", "fn with_target_alt"), "with_target_alt", "method");
    expect(alike(copied, { name: "with_target", parent: "SubscriberBuilder", kind: "method", path: "src/fmt/mod.rs" }, real("with_target"))).not.toBeNull();
    // A JavaScript method assigned to an object (`res.x = function x(...)`) writes its own name as a
    // member: no delegation, so a renamed copy is still a copy.
    const send = (name: string) =>
      `res.${name} = function ${name}(statusCode) {\n  var body = http.STATUS_CODES[statusCode] || String(statusCode);\n\n  this.statusCode = statusCode;\n  this.type('txt');\n\n  return this.send(body);\n};`;
    expect(codeTokens(send("sendStatus"), "lib/response.js").foreignMembers.has("sendStatus")).toBe(false);
    const jsCopy = fn("lib/benchAdded1.js", send("sendStatusCopy"), "sendStatusCopy", "method");
    expect(alike(jsCopy, { name: "sendStatus", parent: "res", kind: "method", path: "lib/response.js" }, send("sendStatus"))).not.toBeNull();
    // A recursive method calling itself on self: its own name, stripped.
    const walk = (name: string) => `def ${name}(self, node, depth=0):\n    for child in node.children:\n        self.${name}(child, depth + 1)\n    self.visit(node)\n    return depth`;
    expect(similarity(codeTokens(walk("walk"), "a.py"), codeTokens(walk("traverse"), "b.py"), ["walk", "traverse"]).api).toBe(1);
  });

  it("a candidate must pass structure and APIs; methods of one name on two types are never a copy", () => {
    const copy = fn("app/new.py", PY.replace(/merge_settings/g, "deep_merge"), "deep_merge");
    expect(alike(copy, { name: "merge_settings", parent: null, kind: "function", path: "app/old.py" }, PY)).toBeGreaterThan(0.95);
    const method = fn("app/new.py", PY, "merge_settings", "method");
    expect(alike(method, { name: "merge_settings", parent: "Other", kind: "method", path: "app/old.py" }, PY)).toBeNull();
    expect(alike(copy, { name: "tiny", parent: null, kind: "function", path: "app/old.py" }, "def tiny(a):\n    return a\n")).toBeNull();
  });

  it("a keyword of one language is a name in the others: a copy renaming a JavaScript `fn` or a Python `func` is alike (express app.engine)", () => {
    const engine = `app.engine = function(ext, fn){
  if ('function' != typeof fn) throw new Error('callback function required');
  if ('.' != ext[0]) ext = '.' + ext;
  this.engines[ext] = fn;
  return this;
};`;
    const copy = fn("lib/added.js", engine.replace("app.engine", "app.register").replace(/\bfn\b/g, "callback").replace(/\bext\b/g, "extension"), "register", "method");
    expect(alike(copy, { name: "engine", parent: "app", kind: "method", path: "lib/application.js" }, engine)).toBeGreaterThan(0.95);
    const register = `def register(func, name=None, replace=False):
    key = name or func.__name__
    if key in REGISTRY and not replace:
        raise KeyError(key)
    REGISTRY[key] = func
    return func`;
    const python = fn("app/added.py", register.replace("def register", "def add_handler").replace(/\bfunc\b/g, "handler"), "add_handler");
    expect(alike(python, { name: "register", parent: null, kind: "function", path: "app/old.py" }, register)).toBeGreaterThan(0.95);
    // In its own language it stays a keyword.
    expect(codeTokens("fn main() { let fn_ = 1; }", "src/main.rs").tokens).toContain("fn");
    expect(codeTokens("func main() { x := 1 }", "main.go").tokens).toContain("func");
  });

  it("codeOnly is equal when only comments or whitespace change, not when a literal does", () => {
    const a = "def f(x):\n    # double it\n    return x * 2\n";
    expect(codeOnly(a, "a.py")).toBe(codeOnly("def f(x):\n    return  x * 2  # twice\n", "a.py"));
    expect(codeOnly(a, "a.py")).not.toBe(codeOnly("def f(x):\n    return x * 3\n", "a.py"));
    expect(codeOnly("function f() { /* c */ return '#'; } // d", "a.js")).toBe("function f ( ) { return '#' ; }");
    // A line wrapped differently is the same code.
    expect(codeOnly("if x and not isinstance(\n    size, int\n):  # guard\n    raise E()\n", "a.py")).toBe(codeOnly("if x and not isinstance(size, int):\n    raise E()\n", "a.py"));
  });
});

describe("a change of type annotations alone", () => {
  it("reads the same in Python, TypeScript and Rust; a default, a parameter or the body changing does not", () => {
    const py = (sig: string) => codeWithoutAnnotations(`@app.route("/x")\ndef request(self, url: str, headers: Mapping[str, str | bytes] | None = None${sig}\n    return self.send(url, headers)\n`, "a.py");
    expect(py(") -> Response:")).toBe(py(") -> _t.Resp:").replace("x", "x"));
    expect(codeWithoutAnnotations("def f(a: int = 1) -> str:\n    return a\n", "a.py")).toBe(codeWithoutAnnotations("def f(a: _t.Num = 1):\n    return a\n", "a.py"));
    expect(codeWithoutAnnotations("def f(a: int = 1):\n    return a\n", "a.py")).not.toBe(codeWithoutAnnotations("def f(a: int = 2):\n    return a\n", "a.py"));
    expect(codeWithoutAnnotations("def f(a: int, b: int):\n    return a\n", "a.py")).not.toBe(codeWithoutAnnotations("def f(a: int):\n    return a\n", "a.py"));
    const ts = (t: string, body = "return a > 1;") => codeWithoutAnnotations(`export function f(a: ${t}, b?: Map<string, number>): Promise<${t}> { ${body} }`, "a.ts");
    expect(ts("number")).toBe(ts("Num"));
    expect(ts("number")).not.toBe(ts("number", "return a >= 1;"));
    const rs = (t: string) => codeWithoutAnnotations(`pub fn f(a: ${t}, b: Vec<u8>) -> Result<${t}, E> { a + 1 }`, "a.rs");
    expect(rs("u32")).toBe(rs("u64"));
    expect(codeWithoutAnnotations("func F(a int) int { return a }", "a.go")).not.toBe(codeWithoutAnnotations("func F(a int64) int { return a }", "a.go"));
  });
});

describe("a change of annotations in nested functions, or of a trailing comma", () => {
  it("reads the same; a nested default, a one-element tuple or a call's arguments changing do not", () => {
    // flask 9b44bf2: the decorator a method returns gets its own annotations changed.
    const deco = (t: string) => codeWithoutAnnotations(`def app_template_filter(\n    self, name: t.Optional[str] = None\n) -> t.Callable[[${t}], ${t}]:\n    def decorator(f: ${t}) -> ${t}:\n        self.add_app_template_filter(f, name=name)\n        return f\n\n    return decorator\n`, "src/flask/blueprints.py");
    expect(deco("ft.TemplateFilterCallable")).toBe(deco("T_template_filter"));
    const nestedDefault = (d: string) => codeWithoutAnnotations(`def outer(self):\n    def inner(f: int = ${d}) -> int:\n        return f\n    return inner\n`, "a.py");
    expect(nestedDefault("1")).not.toBe(nestedDefault("2"));
    const rsNested = (t: string) => codeWithoutAnnotations(`pub fn outer(a: u8) -> u8 {\n    fn inner(x: ${t}) -> ${t} { x }\n    inner(a)\n}`, "a.rs");
    expect(rsNested("u8")).toBe(rsNested("u16"));
    // flask aa040c0: black adds a trailing comma after **context.
    const render = (comma: string) => codeWithoutAnnotations(`def render_template(\n    template_name_or_list: t.Union[str, Template],\n    **context: t.Any${comma}\n) -> str:\n    return _render(app, template, context)\n`, "src/flask/templating.py");
    expect(render("")).toBe(render(","));
    const py = (code: string) => codeWithoutAnnotations(`def f(a, b):\n    ${code}\n`, "a.py");
    expect(py("return g(a, b,)")).toBe(py("return g(a, b)"));
    expect(py("return g(a,)")).toBe(py("return g(a)"));
    expect(py("return [a, b,]")).toBe(py("return [a, b]"));
    expect(py("return {'a': a,}")).toBe(py("return {'a': a}"));
    expect(py("return (a, b,)")).toBe(py("return (a, b)"));
    // A one-element tuple is not its element.
    expect(py("return (a,)")).not.toBe(py("return (a)"));
    expect(py("x = (a,)\n    return x")).not.toBe(py("x = (a)\n    return x"));
    expect(py("return g(a, b,)")).not.toBe(py("return g(a, b, c)"));
    const js = (code: string) => codeWithoutAnnotations(`function f(a, b) {\n  ${code}\n}`, "a.js");
    expect(js("return g(a, b,);")).toBe(js("return g(a, b);"));
    expect(js("return { a, b, };")).toBe(js("return { a, b };"));
  });
});

describe("existing helper candidates", () => {
  it("are searched by the identifiers of the code, not of its comments or strings", () => {
    const text = '/// Resolves the binary. Returns the path found on the search path.\nfn resolve_bin(name: &str) -> Option<PathBuf> {\n    let dirs = env::var_os("PATH zzz")?;\n    which(name, dirs)\n}';
    expect(identifiersOf(fn("src/a.rs", text, "resolve_bin"))).toEqual(["resolve_bin", "name", "str", "Option", "PathBuf", "let", "dirs", "env", "var_os", "which"]);
  });

  const lookup = (candidates: { path: string; name: string; parent: string | null; kind: string }[]): HelperLookup => ({
    candidates: async () => candidates.map((c) => ({ ...c, text: PY.replace(/merge_settings/g, c.name) })),
    atHead: async (c) => ({ text: PY.replace(/merge_settings/g, c.name), startLine: 40, endLine: 49 }),
  });

  it("names a copy elsewhere with its file:line, never a function of the same file (a family of setters or constructors)", async () => {
    const method = { ...fn("app/config.py", PY.replace(/merge_settings/g, "merge_extra"), "merge_extra", "method"), parent: "Config", startLine: 60, endLine: 69 };
    const sibling = await existingHelperFindings([method], lookup([{ path: "app/config.py", name: "merge_base", parent: "Config", kind: "method" }]));
    expect(sibling).toEqual([]);
    expect(await existingHelperFindings([method], lookup([{ path: "app/config.py", name: "merge_any", parent: null, kind: "function" }]))).toEqual([]);
    const [found] = await existingHelperFindings([method], lookup([{ path: "app/util.py", name: "merge_settings", parent: null, kind: "function" }]));
    expect(found).toMatchObject({ ruleId: "graph/existing-helper", path: "app/config.py", lineStart: 60, lineEnd: 69, severity: "medium" });
    expect(found!.message).toContain("`Config.merge_extra()` closely duplicates the existing `merge_settings()` at `app/util.py:40`");
  });

  it("variants of one role, each named for its own file, are not copies (hiredis 3fa9b694: redisModuleAttach beside redisAeAttach)", async () => {
    const adapter = { ...fn("adapters/redismoduleapi.h", PY.replace(/merge_settings/g, "redisModuleAttach"), "redisModuleAttach"), startLine: 113, endLine: 122 };
    expect(await existingHelperFindings([adapter], lookup([{ path: "adapters/ae.h", name: "redisAeAttach", parent: null, kind: "function" }]))).toEqual([]);
    expect(variantsOfOneRole({ name: "newEpollPoller", path: "poll_epoll.go" }, { name: "newKqueuePoller", path: "poll_kqueue.go" })).toBe(true);
    expect(variantsOfOneRole({ name: "parse_yaml", path: "loaders/yaml.py" }, { name: "parse_json", path: "loaders/json.py" })).toBe(true);
    // A copy under another name in another file is still named: the names' own words are not their files'.
    const [copy] = await existingHelperFindings([adapter], lookup([{ path: "adapters/util.h", name: "redisUtilAttach2", parent: null, kind: "function" }]));
    expect(copy?.message).toContain("`redisUtilAttach2()` at `adapters/util.h:40`");
    expect(variantsOfOneRole({ name: "merge_settings_alt", path: "app/bench_added_1.py" }, { name: "merge_settings", path: "app/util.py" })).toBe(false);
    expect(variantsOfOneRole({ name: "loadConfig", path: "src/load.ts" }, { name: "readConfig", path: "src/config.ts" })).toBe(false);
    expect(variantsOfOneRole({ name: "jsonDecode", path: "codec/json.go" }, { name: "yamlDecode", path: "codec/yaml_json.go" })).toBe(false);
  });
});

describe("untested change", () => {
  const change = { change: "changed" as const, path: "lib/response.js", name: "send", kind: "function", parent: "res", line: 120, signatureBefore: null, signatureAfter: null, signatureChanged: false };
  const files: Record<string, string> = {
    "test/Router.js": "res.send('x')",
    "test/res.send.js": "describe('res.send()', () => { res.send(1) })",
    "test/app.js": "app.listen()",
  };
  const lookupOf = (graph: string[]) => ({ headPaths: Object.keys(files), readHead: async (p: string) => files[p] ?? null, graphTests: async () => graph });

  it("is quiet when the pull request touches any test naming the function, wherever the graph lists it", async () => {
    const many = [...Array.from({ length: 30 }, (_, i) => `test/t${i}.js`), "test/res.send.js"];
    expect(await untestedChanges({ changed: [change], touched: new Set(["lib/response.js", "test/res.send.js"]), lookup: lookupOf(many) })).toEqual([]);
    // Even when the lookup did not list it (a common name's references cut short).
    expect(await untestedChanges({ changed: [change], touched: new Set(["lib/response.js", "test/res.send.js"]), lookup: lookupOf(["test/Router.js"]) })).toEqual([]);
  });

  it("names the test files named after the function first", async () => {
    const [u] = await untestedChanges({ changed: [change], touched: new Set(["lib/response.js"]), lookup: lookupOf(["test/Router.js", "test/app.js", "test/res.send.js"]) });
    expect(u!.tests).toEqual(["test/res.send.js", "test/Router.js"]);
  });

  it("is quiet when the pull request touches a test named for the function's module, even one not naming it", async () => {
    const layer: Record<string, string> = { "test/Router.js": "router.handle({ url: '', method: 'GET' }, {}, done)", "test/app.router.js": "layer.match('/')" };
    const lookup = { headPaths: Object.keys(layer), readHead: async (p: string) => layer[p] ?? null, graphTests: async () => ["test/app.router.js"] };
    const match = { ...change, path: "lib/router/layer.js", name: "match", parent: "Layer" };
    // The change's own test drives Layer.match through the router: test/Router.js is named for lib/router/.
    expect(await untestedChanges({ changed: [match], touched: new Set([match.path, "test/Router.js"]), lookup })).toEqual([]);
    // Without it, the test that names the function is listed.
    const [u] = await untestedChanges({ changed: [match], touched: new Set([match.path]), lookup });
    expect(u!.tests).toEqual(["test/app.router.js"]);
    // A touched test of another module does not count, nor a type test of this one.
    const [v] = await untestedChanges({ changed: [match], touched: new Set([match.path, "test/utils.js", "test/router.test-d.ts"]), lookup });
    expect(v!.tests).toEqual(["test/app.router.js"]);
    expect(namedForModuleOf("tests/brain/test_typing.py", "astroid/brain/brain_typing.py")).toBe(true);
    expect(namedForModuleOf("test/Router.js", "lib/router/layer.js")).toBe(true);
    expect(namedForModuleOf("pkg/util/strings_test.go", "pkg/util/strings.go")).toBe(true);
    expect(namedForModuleOf("src/test/java/a/FooBarTest.java", "src/main/java/a/FooBar.java")).toBe(true);
    for (const [t, s] of [["tests/test_json.py", "src/flask/testing.py"], ["test/utils.js", "lib/response.js"], ["tests/typing/typing_route.py", "src/flask/blueprints.py"], ["test/app.router.js", "lib/router/layer.js"], ["tests/test.py", "src/test/x.py"], ["tests/test_io.py", "src/io/x.py"]]) {
      expect(namedForModuleOf(t!, s!)).toBe(false);
    }
  });

  it("a type test (index.d.test.ts, *.test-d.ts) is no function's test: it only checks types", async () => {
    const typed: Record<string, string> = { "test/index.d.test.ts": "dayjs().add(1, 'day')", "test/display.test.js": "expect(dayjs().add(1, 'day').format()).toBe(x)" };
    const lookup = { headPaths: Object.keys(typed), readHead: async (p: string) => typed[p] ?? null, graphTests: async () => Object.keys(typed) };
    const add = { ...change, path: "src/index.js", name: "add", parent: "Dayjs" };
    const [u] = await untestedChanges({ changed: [add], touched: new Set([add.path]), lookup });
    expect(u!.tests).toEqual(["test/display.test.js"]);
    for (const p of ["test/index.d.test.ts", "index.test-d.ts", "test-d/index.ts", "type-tests/api.ts"]) expect(isTypeTest(p)).toBe(true);
    for (const p of ["test/display.test.js", "test/types.test.ts", "src/index.d.ts"]) expect(isTypeTest(p)).toBe(false);
  });

  it("a test helper's users are not its tests: only its own tests by convention count", async () => {
    const users: Record<string, string> = { "tests/span.rs": "subscriber.enter(expect::span())", "tests/event.rs": "subscriber.enter(span)" };
    const lookup = { headPaths: Object.keys(users), readHead: async (p: string) => users[p] ?? null, graphTests: async () => Object.keys(users) };
    const mockEnter = { ...change, path: "tracing-mock/src/subscriber.rs", name: "enter", parent: "MockSubscriber" };
    expect(await untestedChanges({ changed: [mockEnter], touched: new Set([mockEnter.path]), lookup })).toEqual([]);
    // The same function in the library itself: the tests that call it are its tests.
    const libEnter = { ...mockEnter, path: "tracing/src/subscriber.rs" };
    const [u] = await untestedChanges({ changed: [libEnter], touched: new Set([libEnter.path]), lookup });
    expect(u!.tests).toEqual(["tests/span.rs", "tests/event.rs"]);
    // A helper's own tests by convention still count.
    const own = { ...lookup, headPaths: [...lookup.headPaths, "mocks/store_test.go"], readHead: async (p: string) => (p === "mocks/store_test.go" ? "s.Put(1)" : null) };
    const [m] = await untestedChanges({ changed: [{ ...change, path: "mocks/store.go", name: "Put", parent: null }], touched: new Set(["mocks/store.go"]), lookup: own });
    expect(m!.tests).toEqual(["mocks/store_test.go"]);
    for (const p of ["tracing-mock/src/layer.rs", "mocks/store.go", "internal/testutil/db.go", "pkg/fake_client.go", "test-support/index.js"]) expect(isTestSupportPath(p)).toBe(true);
    for (const p of ["tracing/src/span.rs", "src/mockery.ts", "src/flask/helpers.py", "src/mock-server/index.js"]) expect(isTestSupportPath(p)).toBe(false);
  });

  const paths = ["src/flask/helpers.py", "tests/test_helpers.py", "tests/test_app.py", "pkg/util/strings.go", "pkg/util/strings_test.go", "pkg/util/other_test.go", "pkg/db/db_test.go", "lib/router/index.js", "test/router.js", "lib/router/index.test.js", "src/main/java/a/Foo.java", "src/test/java/a/FooTest.java", "tracing/src/span.rs", "tracing/tests/span.rs"];

  it("finds a file's tests by the language's conventions", () => {
    expect(conventionTestsOf("src/flask/helpers.py", paths)).toEqual(["tests/test_helpers.py"]);
    expect(conventionTestsOf("pkg/util/strings.go", paths)).toEqual(["pkg/util/strings_test.go", "pkg/util/other_test.go"]);
    expect(conventionTestsOf("lib/router/index.js", paths)).toEqual(["lib/router/index.test.js"]);
    expect(conventionTestsOf("src/main/java/a/Foo.java", paths)).toEqual(["src/test/java/a/FooTest.java"]);
    expect(conventionTestsOf("tracing/src/span.rs", paths)).toEqual(["tracing/tests/span.rs"]);
  });

  it("public means not _private, exported in Go, pub in Rust, not private elsewhere", () => {
    const d = (path: string, name: string, signatureAfter: string, kind = "function") => isPublicDefinition({ path, name, signatureAfter, kind });
    expect(d("a.py", "get_root_path", "def get_root_path(import_name)")).toBe(true);
    expect(d("a.py", "_split", "def _split(x)")).toBe(false);
    expect(d("a.py", "__init__", "def __init__(self)", "method")).toBe(false);
    expect(d("a.go", "Parse", "func Parse(s string) error")).toBe(true);
    expect(d("a.go", "parse", "func parse(s string) error")).toBe(false);
    expect(d("a.rs", "enter", "pub fn enter(&self)")).toBe(true);
    expect(d("a.rs", "enter", "fn enter(&self)")).toBe(false);
    // Visible in the crate only: its integration tests (crate/tests/) cannot call it.
    expect(d("a.rs", "callsite", "pub(crate) const fn callsite(&self) -> callsite::Identifier")).toBe(false);
    expect(d("a.rs", "walk", "pub(super) fn walk(&self)")).toBe(false);
    expect(d("a.rs", "walk", "pub(in crate::field) fn walk(&self)")).toBe(false);
    expect(d("A.java", "run", "private void run()", "method")).toBe(false);
    expect(d("a.py", "Config", "class Config", "class")).toBe(false);
    // Hooks only tests call, by their naming conventions: their users are tests, not their tests.
    expect(d("db/db_impl.cc", "TEST_CompactRange", "void DBImpl::TEST_CompactRange(int level)", "method")).toBe(false);
    expect(d("Clock.java", "setNowForTesting", "public void setNowForTesting(long now)", "method")).toBe(false);
    expect(d("a.py", "reset_for_testing", "def reset_for_testing()")).toBe(false);
    expect(d("a.go", "ResetForTest", "func ResetForTest()")).toBe(false);
    expect(d("a.py", "testing_mode", "def testing_mode()")).toBe(true);
    expect(d("a.go", "Test", "func Test(x int) bool")).toBe(true);
  });

  it("a title declares a change that keeps behaviour by its Conventional Commits type, or by starting with Refactor; a breaking one does not", () => {
    expect(declaredSameBehaviour("refactor: use cached slice in app.listen (#6897)")).toBe("refactor");
    expect(declaredSameBehaviour("perf(format): reuse matches instead of created when replacing (#441)")).toBe("perf");
    expect(declaredSameBehaviour("chore: extendable wrapper function (#421)")).toBe("chore");
    expect(declaredSameBehaviour("Refactor away init middleware")).toBe("refactor");
    expect(declaredSameBehaviour("Refactor: simplify `acceptsLanguages`")).toBe("refactor");
    expect(declaredSameBehaviour("refactor!: drop the callback form")).toBeNull();
    expect(declaredSameBehaviour("refactor(router)!: drop the callback form")).toBeNull();
    expect(declaredSameBehaviour("fix: has_app_context and has_request_context")).toBeNull();
    expect(declaredSameBehaviour("feat: do not modify the Content-Type twice")).toBeNull();
    expect(declaredSameBehaviour("Refactoring notes for the router")).toBe("refactor");
    expect(declaredSameBehaviour("Refactored")).toBe("refactor");
    expect(declaredSameBehaviour("Refactorize everything")).toBeNull();
    expect(declaredSameBehaviour(undefined)).toBeNull();
  });

  it("a test that only swaps the function for a fake is not its test; one that also calls it is", async () => {
    const swapped: Record<string, string> = {
      "tests/test_requests.py": "old_auth = requests.sessions.get_netrc_auth\nrequests.sessions.get_netrc_auth = get_netrc_auth_mock\ns.get(url)\nrequests.sessions.get_netrc_auth = old_auth\n",
      "tests/test_sessions.py": "@mock.patch('requests.sessions.get_netrc_auth')\ndef test_x(m):\n    s.get(url)\n",
      "test/client.test.js": "jest.spyOn(utils, 'getNetrcAuth').mockReturnValue(null)\nclient.get(url)\n",
      "tests/test_utils.py": "monkeypatch.setattr(utils, 'get_netrc_auth', fake)\nassert get_netrc_auth('http://h') is None\n",
    };
    expect(exercises(swapped["tests/test_requests.py"]!, "get_netrc_auth")).toBe(false);
    expect(exercises(swapped["tests/test_sessions.py"]!, "get_netrc_auth")).toBe(false);
    expect(exercises(swapped["test/client.test.js"]!, "getNetrcAuth")).toBe(false);
    expect(exercises(swapped["tests/test_utils.py"]!, "get_netrc_auth")).toBe(true);
    expect(exercises("assert get_netrc_auth(url) == ('u', 'p')", "get_netrc_auth")).toBe(true);
    expect(exercises("if auth == get_netrc_auth: pass", "get_netrc_auth")).toBe(true);
    const netrc = { ...change, path: "src/requests/utils.py", name: "get_netrc_auth", parent: null };
    const lookup = { headPaths: Object.keys(swapped), readHead: async (p: string) => swapped[p] ?? null, graphTests: async () => Object.keys(swapped) };
    const [u] = await untestedChanges({ changed: [netrc], touched: new Set([netrc.path]), lookup });
    expect(u!.tests).toEqual(["tests/test_utils.py"]);
  });

  it("a mention is a whole word", () => {
    expect(mentions("assert get_root_path(x)", "get_root_path")).toBe(true);
    expect(mentions("assert get_root_path_v2(x)", "get_root_path")).toBe(false);
    expect(mentions("$.ajax()", "$")).toBe(true);
  });

  it("renders one note, nothing when the list is empty", () => {
    expect(untestedSection([])).toEqual([]);
    expect(untestedSection([{ path: "a.py", name: "f", parent: "C", line: 3, tests: ["tests/test_a.py"] }]).join("\n")).toContain("- `C.f()` (`a.py:3`): tested in `tests/test_a.py`");
  });
});

describe("untested change: which tests cover a changed function (judged notes of unseen repositories)", () => {
  const changeOf = (path: string, name: string, parent: string | null, kind = "function") => ({ change: "changed" as const, path, name, kind, parent, line: 10, signatureBefore: null, signatureAfter: null, signatureChanged: false });
  const lookupOf = (files: Record<string, string>, graph: string[] = Object.keys(files).filter((p) => p.includes("test"))) => ({ headPaths: Object.keys(files), readHead: async (p: string) => files[p] ?? null, graphTests: async () => graph });

  it("Go: a touched test file of the function's package covers it, naming it or not (cobra 24ada7fe: completions_test.go runs ExecuteC through Execute)", async () => {
    const files = { "command.go": "type Command struct{}\nfunc (c *Command) ExecuteC() {}", "command_test.go": "func executeCommand(root *Command) { root.ExecuteC() }", "completions_test.go": "rootCmd := &Command{}\nrootCmd.Execute()" };
    const executeC = changeOf("command.go", "ExecuteC", "Command", "method");
    expect(await untestedChanges({ changed: [executeC], touched: new Set(["command.go", "completions_test.go"]), lookup: lookupOf(files) })).toEqual([]);
    // A test of another package does not.
    const other = { ...files, "doc/doc_test.go": "cmd.Execute()" };
    const [u] = await untestedChanges({ changed: [executeC], touched: new Set(["command.go", "doc/doc_test.go"]), lookup: lookupOf(other) });
    expect(u!.tests).toEqual(["command_test.go"]);
  });

  it("a pull request that rewrites assertions of a test importing the function's file covers a function whose tests are other modules' (httpx d293374b), not one with a test file of its own (flask 7a444c5d)", async () => {
    const files = { "httpx/_urlparse.py": "def urlparse(url): ...", "tests/models/test_whatwg.py": "from httpx._urlparse import urlparse\nurlparse(x)", "tests/models/test_url.py": "assert httpx.URL('https://u%40:p@h').userinfo == b'u%40:p'", "src/flask/testing.py": "class FlaskClient(Client):\n    def open(self): ...", "tests/test_testing.py": "client.open('/', environ_base={})", "tests/test_json.py": "rv = client.get('/', query_string={'foo': 'x'})" };
    const urlparse = changeOf("httpx/_urlparse.py", "urlparse", null);
    const rewritten = new Set(["tests/models/test_url.py"]);
    const [before] = await untestedChanges({ changed: [urlparse], touched: new Set(["httpx/_urlparse.py", "tests/models/test_url.py"]), lookup: lookupOf(files) });
    expect(before!.tests).toEqual(["tests/models/test_whatwg.py"]);
    // test_url.py imports httpx, whose __init__.py imports _urls.py, which imports _urlparse.py.
    const imports: Record<string, string[]> = { "tests/models/test_url.py": ["httpx/__init__.py"], "httpx/__init__.py": ["httpx/_urls.py", "httpx/_client.py"], "httpx/_urls.py": ["httpx/_urlparse.py"], "tests/test_json.py": ["src/flask/__init__.py"], "src/flask/__init__.py": ["src/flask/testing.py"] };
    const reaches = async (test: string, source: string) => {
      const seen = new Set<string>();
      const walk = (p: string): boolean => (imports[p] ?? []).some((i) => i === source || (!seen.has(i) && (seen.add(i), walk(i))));
      return walk(test);
    };
    expect(await untestedChanges({ changed: [urlparse], touched: new Set(["httpx/_urlparse.py", "tests/models/test_url.py"]), rewrittenTests: rewritten, lookup: { ...lookupOf(files), reaches } })).toEqual([]);
    // A rewritten test that imports none of it (another module's test updated beside the change) does not cover it.
    const [v] = await untestedChanges({ changed: [urlparse], touched: new Set(["httpx/_urlparse.py", "tests/test_json.py"]), rewrittenTests: new Set(["tests/test_json.py"]), lookup: { ...lookupOf(files), reaches } });
    expect(v!.tests).toEqual(["tests/models/test_whatwg.py"]);
    const open = changeOf("src/flask/testing.py", "open", "FlaskClient", "method");
    const [u] = await untestedChanges({ changed: [open], touched: new Set(["src/flask/testing.py", "tests/test_json.py"]), rewrittenTests: new Set(["tests/test_json.py"]), lookup: { ...lookupOf(files), reaches } });
    expect(u!.tests).toEqual(["tests/test_testing.py"]);
  });

  it("a touched data-driven test (cases the runner feeds to the program) covers a function tested only through the program (jq 7122866: tests/jq.test gains cases for jv_equal)", async () => {
    const files = { "src/jv.c": "int jv_equal(jv a, jv b) { return 0; }", "src/jq_test.c": "static void jv_test() { assert(jv_equal(a, b)); }", "src/jv_print.c": "void jv_dumpf(jv x) {}", "src/jv_print_test.c": "jv_dumpf(jv_null());", "tests/jq.test": "[1,[2]] == [1,[2]]\nnull\ntrue", "tests/jqtest": "$JQ --run-tests $JQTESTDIR/jq.test", "tests/fixtures/data.json": "{}" };
    const jvEqual = changeOf("src/jv.c", "jv_equal", null);
    const [before] = await untestedChanges({ changed: [jvEqual], touched: new Set(["src/jv.c"]), lookup: lookupOf(files) });
    expect(before!.tests).toEqual(["src/jq_test.c"]);
    expect(await untestedChanges({ changed: [jvEqual], touched: new Set(["src/jv.c", "tests/jq.test"]), lookup: lookupOf(files) })).toEqual([]);
    // A fixture (data, not named as a test) is no test run on its own.
    const [fixture] = await untestedChanges({ changed: [jvEqual], touched: new Set(["src/jv.c", "tests/fixtures/data.json"]), lookup: lookupOf(files) });
    expect(fixture!.tests).toEqual(["src/jq_test.c"]);
    // A function with a test file of its own by convention keeps its note: that test was not updated.
    const dump = changeOf("src/jv_print.c", "jv_dumpf", null);
    const [own] = await untestedChanges({ changed: [dump], touched: new Set(["src/jv_print.c", "tests/jq.test"]), lookup: lookupOf(files) });
    expect(own!.tests).toEqual(["src/jv_print_test.c"]);
    for (const p of ["tests/jq.test", "tests/utf8test", "test/cli-test.sh", "tests/shtest"]) expect(isDataDrivenTest(p)).toBe(true);
    for (const p of ["tests/fixtures/data.json", "tests/test_app.py", "src/jq.test", "tests/modules/lib.jq", "test/expected.txt"]) expect(isDataDrivenTest(p)).toBe(false);
  });

  it("rewritten tests are test files with a hunk that removes lines and adds others; not tests only added or deleted (express 694869d2), nor type tests", () => {
    const line = (kind: "add" | "del" | "context", text: string) => ({ kind, text, oldLine: kind === "add" ? null : 1, newLine: kind === "del" ? null : 1 });
    const file = (path: string, lines: ReturnType<typeof line>[], status: DiffFile["status"] = "modified"): DiffFile => ({ oldPath: path, newPath: path, path, status, binary: false, similarity: null, hunks: [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, section: "", lines }], additions: 1, deletions: 1 });
    const rewritten = rewrittenTestsOf([
      file("tests/models/test_url.py", [line("del", "assert url.userinfo == b'u@:p'"), line("add", "assert url.userinfo == b'u%40:p'")]),
      file("test/utils.js", [line("context", "})"), line("del", "describe('utils.isAbsolute()', function(){")]),
      file("tests/test_basic.py", [line("add", "def test_help(runner): ...")]),
      file("tests/typing/typing_route.py", [line("del", "x"), line("add", "y")]),
      file("src/flask/app.py", [line("del", "x"), line("add", "y")]),
      file("tests/jq.test", [line("del", "\"jq: error: cannot be parsed\""), line("add", "\"jq: error: cannot be parsed as a number\"")]),
    ]);
    expect([...rewritten]).toEqual(["tests/models/test_url.py", "tests/jq.test"]);
  });

  it("benchmarks and type-check folders are no function's tests; files named as tests come before files that are tests by folder only (libuv 5098fa2a, 6179e7af; click 5b9630f5)", async () => {
    const files = { "src/uv-common.c": "int uv_read_start(uv_stream_t* s) {}", "test/benchmark-pound.c": "uv_read_start(s, alloc, read)", "test/echo-server.c": "uv_read_start(s, alloc, read)", "test/test-tcp-read-stop.c": "uv_read_start(s, alloc, read)" };
    const [u] = await untestedChanges({ changed: [changeOf("src/uv-common.c", "uv_read_start", null)], touched: new Set(["src/uv-common.c"]), lookup: lookupOf(files, ["test/benchmark-pound.c", "test/echo-server.c", "test/test-tcp-read-stop.c"]) });
    expect(u!.tests).toEqual(["test/test-tcp-read-stop.c", "test/echo-server.c"]);
    for (const p of ["test/benchmark-pound.c", "benches/parse.rs", "benchmarks/test_speed.py", "pkg/bench_test.go", "src/test/java/a/FooBenchmark.java"]) expect(isBenchmarkPath(p)).toBe(true);
    for (const p of ["test/test-tty.c", "tests/test_config.py", "src/benchling/x.py", "test/workbench.js"]) expect(isBenchmarkPath(p)).toBe(false);
    for (const p of ["test/test-tty.c", "tests/test_url.py", "command_test.go", "test/res.send.test.js", "src/test/java/a/FooTest.java", "__tests__/request/ips.test.js", "spec/foo_spec.rb"]) expect(namedAsTest(p)).toBe(true);
    for (const p of ["test/echo-server.c", "tests/conftest.py", "test/Router.js", "tests/contest.py"]) expect(namedAsTest(p)).toBe(false);
    const typing = { "src/click/decorators.py": "def confirmation_option(*d): ...", "tests/typing/typing_confirmation_option.py": "@click.confirmation_option()\ndef cli(): ..." };
    expect(isTypeTest("tests/typing/typing_confirmation_option.py")).toBe(true);
    expect(isTypeTest("tests/test_typing.py")).toBe(false);
    expect(await untestedChanges({ changed: [changeOf("src/click/decorators.py", "confirmation_option", null)], touched: new Set(["src/click/decorators.py"]), lookup: lookupOf(typing) })).toEqual([]);
    // A type test the pull request touches that names the function still covers it: a typing change's test (click 2cabbe31).
    const progress = { "src/click/termui.py": "def progressbar(length): ...", "tests/test_termui.py": "with click.progressbar(length=3) as bar: pass", "tests/typing/typing_progressbar.py": "with click.progressbar(length=5) as bar:\n    assert_type(bar, ProgressBar[int])" };
    const bar = changeOf("src/click/termui.py", "progressbar", null);
    expect(await untestedChanges({ changed: [bar], touched: new Set(["src/click/termui.py", "tests/typing/typing_progressbar.py"]), lookup: lookupOf(progress) })).toEqual([]);
  });

  it("a method's test names its class, a superclass or an obvious instance (leveldb e0d5f83a, flask a411a243, koa 2f6e8147)", async () => {
    const env = "class WindowsSequentialFile : public SequentialFile {\n Status Read(size_t n) {}\n};\nclass WindowsEnv : public Env {\n Status NewRandomAccessFile(const std::string& f) {}\n};";
    const files = {
      "util/env_windows.cc": env,
      "util/env_windows_test.cc": "Env* env_ = Env::Default();\nRandomAccessFile* file = nullptr;\nenv_->NewRandomAccessFile(name, &file);\nfile->Read(0, 1, &result, scratch);",
      "src/flask/ctx.py": "class AppContext:\n    def push(self): ...",
      "tests/test_reqctx.py": "with app.app_context():\n    ctx.push()",
      "lib/application.js": "module.exports = class Application extends Emitter {\n  use (fn) {}\n}",
      "__tests__/application/use.test.js": "const app = new Koa()\napp.use((ctx, next) => next())",
    };
    const found = await untestedChanges({
      changed: [changeOf("util/env_windows.cc", "Read", "WindowsSequentialFile", "method"), changeOf("util/env_windows.cc", "NewRandomAccessFile", "WindowsEnv", "method"), changeOf("src/flask/ctx.py", "push", "AppContext", "method"), changeOf("lib/application.js", "use", "Application", "method")],
      touched: new Set(["util/env_windows.cc", "src/flask/ctx.py", "lib/application.js"]),
      lookup: lookupOf(files),
    });
    expect(found.map((u) => `${u.parent}.${u.name}`)).toEqual(["WindowsEnv.NewRandomAccessFile", "AppContext.push"]);
    expect(classNamesOf("FlaskClient", "class FlaskClient(Client):\n    pass")).toEqual(["FlaskClient", "Client"]);
    expect(classNamesOf("JsonGenerator", "public abstract class JsonGenerator\n    implements Closeable, Flushable, Versioned\n{")).toEqual(["JsonGenerator", "Closeable", "Flushable", "Versioned"]);
    expect(classNamesOf("formatter<T, char>", null)).toEqual(["formatter"]);
    expect(classNamesOf("module.exports", "module.exports = {}")).toEqual([]);
    expect(namesClass("const d = dayjs()", ["Dayjs"])).toBe(true);
  });

  it("names a repeated name once with all its lines, and a multi-line parent on one line (click 4ffa1ef3, fmt a823ba06)", () => {
    const u = (name: string, parent: string | null, line: number, tests: string[]) => ({ path: "src/click/termui.py", name, parent, line, tests });
    const note = untestedSection([u("edit", null, 707, ["tests/test_termui.py"]), u("edit", null, 687, ["tests/test_termui.py"]), u("edit", null, 697, ["tests/test_termui.py"]), u("echo", null, 222, ["tests/test_utils.py"])]).join("\n");
    expect(note).toContain("these 2 functions");
    expect(note).toContain("- `edit()` (`src/click/termui.py:687, 697, 707`): tested in `tests/test_termui.py`");
    const parent = "formatter<\n    T, char,\n    typename std::enable_if<std::is_base_of<std::exception, T>::value>::type>";
    expect(labelOf({ parent, name: "format" })).toBe("formatter<T, char, typename std::enable_if<std::is_base_of<std::exception, T>::value>::type>.format()");
    expect(untestedSection([{ path: "include/fmt/std.h", name: "format", parent, line: 637, tests: ["test/std-test.cc"] }]).join("\n")).toContain("- `formatter<T, char, typename std::enable_if<std::is_base_of<std::exception, T>::value>::type>.format()` (`include/fmt/std.h:637`)");
  });
});
