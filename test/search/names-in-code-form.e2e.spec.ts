import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.ts";
import { createGitHostFixture, type GitHostFixture } from "../support/git-fixtures.ts";
import { indexRepository, withIndexedRepository, type SearchSource } from "./support.ts";

/**
 * Names that are also English words, written in code form: `c.Next()` (Go's exported method), `json!`
 * (a Rust macro named like the format). Each is a code name whatever the word means in English.
 */

/** Go: the context's `Next` and the handlers that call it; other code says "next" and "called" in words. */
const GO_CONTEXT = [
  "package gin",
  "",
  "// Context carries the handlers of a request.",
  "type Context struct {",
  "\thandlers []func(*Context)",
  "\tindex    int8",
  "}",
  "",
  "// Next should be used only inside middleware.",
  "// It executes the pending handlers in the chain inside the calling handler.",
  "func (c *Context) Next() {",
  "\tc.index++",
  "\tfor c.index < int8(len(c.handlers)) {",
  "\t\tc.handlers[c.index](c)",
  "\t\tc.index++",
  "\t}",
  "}",
  "",
  "// Abort prevents pending handlers from being called. Note that this will not stop the current handler.",
  "// If the authorization fails, call Abort to ensure the remaining handlers for this request are not called.",
  "func (c *Context) Abort() {",
  "\tc.index = 127",
  "}",
  "",
  "// IsAborted returns true if the current context was aborted.",
  "func (c *Context) IsAborted() bool {",
  "\treturn c.index >= 127",
  "}",
  "",
].join("\n");

/** A middleware calling `c.Next()` between its own statements (each file its own code: no two are copies). */
const caller = (fn: string, doc: string, before: string[], after: string[]) =>
  ["package gin", "", `// ${fn} ${doc}`, `func ${fn}() func(*Context) {`, "\treturn func(c *Context) {", ...before.map((l) => `\t\t${l}`), "\t\tc.Next()", ...after.map((l) => `\t\t${l}`), "\t}", "}", ""].join("\n");

describe("a question about where `c.Next()` is called gets its callers (e2e)", () => {
  const { search } = withIndexedRepository("acme/gin-like", {
    "context.go": GO_CONTEXT,
    "logger.go": caller("LoggerWithConfig", "writes one line per request with its latency.", ["start := time.Now()", "path := c.Request.URL.Path"], ["latency := time.Since(start)", "fmt.Fprintf(out, \"%s %v\\n\", path, latency)"]),
    "recovery.go": caller("CustomRecovery", "turns a panic into a 500 response.", ["defer func() {", "\tif err := recover(); err != nil {", "\t\thandle(c, err)", "\t}", "}()"], []),
    "auth.go": caller("BasicAuth", "checks the user and password of the Authorization header.", ["user, ok := accounts[c.GetHeader(\"Authorization\")]", "if !ok {", "\tc.Abort()", "\treturn", "}", "c.Set(\"user\", user)"], []),
    "tree.go": ["package gin", "", "// nextNode returns the node after n in the walk.", "func nextNode(n *node) *node {", "\treturn n.next", "}", ""].join("\n"),
  });
  const callers = ["auth.go", "logger.go", "recovery.go"];

  for (const query of ["Where is c.Next() called?", "Where is Next called?", "Which functions call c.Next?"]) {
    it(`'${query}' lists the three callers first`, async () => {
      const files = [...new Set((await search(query)).map((s) => s.filepath))];
      expect(files.slice(0, 3).sort()).toEqual(callers);
    });
  }
});

/** Rust: serde_json's `json!` macro. */
const MACROS_RS = [
  "/// Construct a `serde_json::Value` from a JSON literal.",
  "///",
  "/// ```",
  '/// let value = json!({ "code": 200 });',
  "/// ```",
  "#[macro_export]",
  "macro_rules! json {",
  "    ($($json:tt)+) => {",
  "        $crate::json_internal!($($json)+)",
  "    };",
  "}",
  "",
  "#[macro_export]",
  "#[doc(hidden)]",
  "macro_rules! json_internal {",
  "    (null) => {",
  "        $crate::Value::Null",
  "    };",
  "}",
  "",
].join("\n");

/** C: a bundled single-header number parser that says JSON in every part, with macros defined for it. */
const PARSER_H = Array.from({ length: 4 }, (_, i) =>
  [
    `/* Part ${i}: parse a JSON number. */`,
    `#if defined(FFC_JSON_MODE_${i})`,
    `#define FFC_JSON_NUMBER_${i}(x) ((x) + ${i})`,
    `#endif`,
    `static int ffc_json_parse_${i}(const char *json, int len) {`,
    `  int value = 0, sign = 1, at = 0;`,
    `  if (at < len && json[at] == '-') { sign = -1; at++; }`,
    `  while (at < len && json[at] >= '0' && json[at] <= '9') {`,
    `    value = value * 10 + (json[at] - '0');`,
    `    at++;`,
    `  }`,
    `  return FFC_JSON_NUMBER_${i}(sign * value);`,
    `}`,
    ``,
  ].join("\n"),
).join("\n");

describe("a macro asked for in its call form is found across repositories (e2e)", () => {
  let server: TestServer;
  let host: GitHostFixture;
  const rust = { remote: "github", repository: "acme/json-rs", branch: "main" };
  const c = { remote: "github", repository: "acme/redis-client", branch: "main" };
  beforeAll(async () => {
    host = createGitHostFixture();
    host.createRepo(rust.repository, { "src/macros.rs": MACROS_RS, "src/lib.rs": "//! JSON for Rust.\n#[macro_use]\nmod macros;\npub mod value;\n" });
    host.createRepo(c.repository, { "ffc.h": PARSER_H, "client.c": "#include \"ffc.h\"\nint client_connect(void) { return 0; }\n" });
    server = await startTestServer({ env: { LOUPE_GITHUB_URL: host.baseUrl } });
    await indexRepository(server, rust);
    await indexRepository(server, c);
  }, 120_000);
  afterAll(async () => {
    await server?.stop({ remove: true });
    host?.cleanup();
  });

  it("'Where is the json! macro defined?' puts the macro's definition first", async () => {
    const res = await server.api("/v2/search", { method: "POST", json: { query: "Where is the json! macro defined?", repositories: [c, rust] } });
    expect(res.status).toBe(200);
    const sources = (await res.json()) as SearchSource[];
    expect(sources[0]?.filepath).toBe("src/macros.rs");
    expect(sources[0]?.linestart).toBe(1);
  });
});
