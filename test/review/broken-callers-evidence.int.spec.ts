/**
 * Which calls the broken-callers finding names (src/review/graph/broken-callers.ts with
 * call-evidence.ts), on small repositories held in memory: every file parsed by the real tree-sitter
 * reading, and the branch's graph (callers, definitions) computed from those parses.
 */
import { describe, expect, it } from "vitest";
import { named } from "./broken-callers-support.ts";

describe("which calls are named", () => {
  it("JavaScript: a function that read `arguments` before took any call; one passing more than it now takes is stale", async () => {
    const files = {
      "lib/router.js": "exports.route = function (method, path) {\n  var callbacks = [].slice.call(arguments, 2);\n  return callbacks;\n};\n",
      "lib/app.js": "var router = require('./router');\nrouter.route('get', '/a', f, g);\nrouter.route('get', '/b');\n",
    };
    const out = await named(files, { "lib/router.js": "exports.route = function (path) {\n  return path;\n};\n" }, { "lib/app.js": ["lib/router.js"] });
    expect(out).toEqual(["route lib/app.js:2", "route lib/app.js:3"]);
  });

  it("JavaScript: a function that read `arguments` before took any call; a call that fits its new parameters is not stale", async () => {
    const files = {
      "lib/router.js": "function Router() {}\n\nRouter.prototype.all = function (path) {\n  var args = [].slice.call(arguments);\n  return args;\n};\n\nmodule.exports = Router;\n",
      "test/router.js": "var Router = require('../lib/router');\nvar router = new Router();\nrouter.all('/foo', function () {});\nrouter.all('/bar', f, g);\n",
    };
    const changed = { "lib/router.js": files["lib/router.js"].replace("function (path) {\n  var args = [].slice.call(arguments);\n  return args;", "function (path, fn) {\n  return [path, fn];") };
    // Its argument 2 went to `arguments[1]` and now goes to `fn`: the same place. A third argument is one too many.
    expect(await named(files, changed, { "test/router.js": ["lib/router.js"] })).toEqual(["all test/router.js:4"]);
  });

  it("JavaScript: a caller that binds the name from a package calls the package's function, not the changed one", async () => {
    const files = {
      "lib/utils.js": "exports.contentDisposition = function (filename, type) {\n  return type + '; filename=' + filename;\n};\nexports.etag = function (body) {\n  return body.length;\n};\n",
      "lib/response.js": "var contentDisposition = require('content-disposition');\nvar utils = require('./utils');\nres.attachment = function (filename) {\n  this.set('Content-Disposition', contentDisposition(filename, 'inline'));\n  return utils.etag(filename);\n};\n",
      "lib/download.js": "var utils = require('./utils');\nmodule.exports = function (res, name) {\n  res.set('Content-Disposition', utils.contentDisposition(name, 'inline'));\n};\n",
    };
    const changed = { "lib/utils.js": "exports.contentDisposition = function (filename) {\n  return 'attachment; filename=' + filename;\n};\nexports.etag = function (body) {\n  return body.length;\n};\n" };
    const imports = { "lib/response.js": ["lib/utils.js"], "lib/download.js": ["lib/utils.js"] };
    expect(await named(files, changed, imports)).toEqual(["contentDisposition lib/download.js:3"]);
  });

  it("JavaScript: a call on a runtime global the caller neither declares nor imports (`Response.redirect`) is not the repository's method (koa d601d7ba)", async () => {
    const files = {
      "lib/response.js": "module.exports = {\n  redirect (url, alt) {\n    this.set('Location', url || alt)\n  }\n}\n",
      "test/body.js": "const response = require('../lib/response')\nconst res = Object.create(response)\nres.body = Response.redirect('https://example.com/', 301)\nres.redirect('/a', '/b')\n",
      "test/own.js": "const { Response } = require('./helpers')\nResponse.redirect('/c', '/d')\n",
    };
    const changed = { "lib/response.js": "module.exports = {\n  redirect (url) {\n    this.set('Location', url)\n  }\n}\n" };
    const out = await named(files, changed, { "test/body.js": ["lib/response.js"], "test/own.js": [] });
    expect(out).toEqual(["redirect test/body.js:4", "redirect test/own.js:2"]);
  });

  it("TypeScript: an exported function of the repository's own workspace package, imported by the package's name, is named", async () => {
    const files = {
      "package.json": JSON.stringify({ name: "acme-monorepo", private: true, workspaces: ["packages/*"] }),
      "packages/core/package.json": JSON.stringify({ name: "@acme/core", exports: { ".": "./src/index.ts", "./url": "./src/url.ts" } }),
      "packages/core/src/index.ts": 'export * from "./url.js";\n',
      "packages/core/src/url.ts": "export function parseUrl(input: string, strict: boolean) {\n  return new URL(input);\n}\n\nexport function isUrl(input: string) {\n  return input.includes(\"://\");\n}\n",
      "packages/bench/url.bench.ts": 'import { isUrl, parseUrl } from "@acme/core/url";\n\nfor (const d of DATA) parseUrl(d, true);\n',
      "packages/bench/all.bench.ts": 'import * as core from "@acme/core";\n\ncore.parseUrl("https://a", false);\n',
      "packages/docs/demo.ts": 'import { parseUrl } from "url-kit";\n\nparseUrl("https://b", true);\n',
    };
    const changed = { "packages/core/src/url.ts": "export function isUrl(input: string) {\n  return input.includes(\"://\");\n}\n" };
    expect((await named(files, changed)).sort()).toEqual(["parseUrl packages/bench/all.bench.ts:3", "parseUrl packages/bench/url.bench.ts:3"]);
    // The package defines the name in another file too: an import by the package's name may be of that one.
    const twice = { ...files, "packages/core/src/legacy.ts": "export function parseUrl(input: string, strict: boolean) {\n  return input;\n}\n" };
    expect(await named(twice, changed)).toEqual([]);
  });

  it("Go: `pkg.F()` of another package and a method `x.F()` are not calls of the changed function; a package-qualified one is", async () => {
    const files = {
      "go.mod": "module example.com/m\n",
      "a/a.go": "package a\n\nfunc Open(name string) error { return nil }\n",
      "b/b.go": 'package b\n\nimport (\n\t"os"\n\n\t"example.com/m/a"\n)\n\nfunc g(f *os.File) {\n\tos.Open("x")\n\ta.Open("y")\n\tf.Open("z")\n}\n',
    };
    const out = await named(files, { "a/a.go": "package a\n\nfunc Open(name string, flags int) error { return nil }\n" }, { "b/b.go": ["a/a.go"] });
    expect(out).toEqual(["Open b/b.go:11"]);
  });

  it("Go: a method with the old arity is named unless another definition of the name fits the call too", async () => {
    const files = {
      "s/store.go": "package s\n\ntype Store struct{}\n\nfunc (s *Store) Lookup(key string) string { return key }\n",
      "c/c.go": "package c\n\nfunc g(st *s.Store, q *Queue) {\n\tst.Lookup(\"k\")\n\tq.Lookup(\"k\", 2)\n}\n",
      "c/queue.go": "package c\n\ntype Queue struct{}\n\nfunc (q *Queue) Lookup(key string, n int) string { return key }\n",
    };
    const out = await named(files, { "s/store.go": "package s\n\ntype Store struct{}\n\nfunc (s *Store) Lookup(key string, fresh bool) string { return key }\n" });
    expect(out).toEqual(["Lookup c/c.go:4"]);
  });

  it("Rust: `Type::f()` of the changed type is named, another type's `Other::f()` is not; a `use`d function called bare is", async () => {
    const files = {
      "src/lib.rs": "pub mod conn;\npub mod pool;\npub mod app;\n",
      "src/conn.rs": "pub struct Conn;\n\nimpl Conn {\n    pub fn open(addr: &str) -> Conn {\n        Conn\n    }\n}\n\npub fn connect(addr: &str) -> Conn {\n    Conn::open(addr)\n}\n",
      "src/pool.rs": "pub struct Pool;\n\nimpl Pool {\n    pub fn open(addr: &str) -> Pool {\n        Pool\n    }\n}\n",
      "src/app.rs": "use crate::conn::{connect, Conn};\nuse crate::pool::Pool;\n\npub fn run() {\n    let _c = Conn::open(\"a\");\n    let _p = Pool::open(\"b\");\n    let _d = connect(\"c\");\n}\n",
    };
    const out = await named(
      files,
      { "src/conn.rs": files["src/conn.rs"].replace("pub fn open(addr: &str)", "pub fn open(addr: &str, timeout: u64)").replace("pub fn connect(addr: &str)", "pub fn connect(addr: &str, retries: u8)") },
      { "src/app.rs": ["src/conn.rs", "src/pool.rs"] },
    );
    expect(out.sort()).toEqual(["connect src/app.rs:7", "open src/app.rs:5", "open src/conn.rs:10"]);
  });

  it("a receiver evidently of the method's type (`x = new T`, Go `x *pkg.T`) names the call even for a common name or another definition of the same arity", async () => {
    const js = {
      "lib/router.js": "function Router() {}\n\nRouter.prototype.match = function (req, i) {\n  return i;\n};\n\nmodule.exports = Router;\n",
      "lib/route.js": "function Route() {}\n\nRoute.prototype.match = function (path, strict) {\n  return path;\n};\n",
      "test/router.js": "var Router = require('../lib/router');\nvar router = new Router();\nrouter.match(req, 0);\nother.match(req, 0);\n",
    };
    const changedJs = { "lib/router.js": js["lib/router.js"].replace("function (req, i)", "function (method, url, i)") };
    expect(await named(js, changedJs)).toEqual(["match test/router.js:3"]);
    const go = {
      "s/store.go": "package s\n\ntype Store struct{}\n\nfunc (s *Store) Fetch(key string) string { return key }\n",
      "c/c.go": 'package c\n\nimport "example.com/m/s"\n\nfunc g(st *s.Store, h *Other) {\n\tst.Fetch("k")\n\th.Fetch("k")\n}\n',
    };
    const changedGo = { "s/store.go": go["s/store.go"].replace("Fetch(key string)", "Fetch(key string, fresh bool)") };
    expect(await named(go, changedGo)).toEqual(["Fetch c/c.go:6"]);
  });

  it("Rust: a trait's method is called through its implementations (`impl Trait for T`); another type's method of the same name and arity makes a call ambiguous", async () => {
    const files = {
      "src/lib.rs": "pub mod sub;\npub mod fmt_layer;\npub mod dispatch;\n",
      "src/sub.rs": "pub trait Subscriber {\n    fn exit(&self, id: u64);\n}\n",
      "src/fmt_layer.rs": "use crate::sub::Subscriber;\n\npub struct Fmt;\n\nimpl Subscriber for Fmt {\n    fn exit(&self, id: u64) {}\n}\n\npub struct Door;\n\nimpl Door {\n    pub fn exit(&self, a: u8, b: u8) {}\n}\n",
      "src/dispatch.rs": "pub struct Dispatch {\n    sub: Box<dyn crate::sub::Subscriber>,\n}\n\nimpl Dispatch {\n    pub fn leave(&self, door: &crate::fmt_layer::Door) {\n        self.sub.exit(7);\n        door.exit(1, 2);\n    }\n}\n",
    };
    const change = { "src/sub.rs": "pub trait Subscriber {\n    fn exit(&self, id: u64, parent: u64);\n}\n" };
    expect(await named(files, change)).toEqual(["exit src/dispatch.rs:7"]);
    // Another type's own method taking as many arguments is not an implementation: the call is ambiguous.
    const inherent = { ...files, "src/fmt_layer.rs": files["src/fmt_layer.rs"].replace("pub fn exit(&self, a: u8, b: u8)", "pub fn exit(&self, a: u64)") };
    expect(await named(inherent, change)).toEqual([]);
  });

  it("Go: the defining package's own files call its methods without an import, common names too", async () => {
    const files = {
      "h/writer.go": "package h\n\ntype writer struct{}\n\nfunc (w *writer) flush(key []byte) {}\n",
      "h/writer_test.go": "package h\n\nfunc TestFlush() {\n\tw := newWriter()\n\tw.flush(nil)\n}\n",
      "x/x.go": "package x\n\nfunc g(b *bufio.Writer) {\n\tb.flush(nil)\n}\n",
    };
    const out = await named(files, { "h/writer.go": "package h\n\ntype writer struct{}\n\nfunc (w *writer) flush(ctx context.Context, key []byte) {}\n" });
    expect(out).toEqual(["flush h/writer_test.go:5"]);
  });
});
