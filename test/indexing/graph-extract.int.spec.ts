/**
 * The code graph the chunker makes from its parse (tree-sitter grammars loaded from their packages), per
 * language: definitions with parents and parameters, references with lines and call flags, raw imports.
 */
import { describe, expect, it } from "vitest";
import { createChunker } from "../../src/indexing/chunking/chunker.ts";
import { decodeGraph, encodeGraph } from "../../src/codeindex/graph/codec.ts";
import { fileGraphOf } from "../../src/review/graph/file-graph.ts";
import type { FileGraphContent } from "../../src/codeindex/port.ts";

const chunker = createChunker();

async function graphOf(path: string, lines: string[]): Promise<FileGraphContent> {
  const file = await chunker.chunkFile(path, lines.join("\n") + "\n");
  expect(file.parseError, "parsed").toBeUndefined();
  expect(file.graph, `a graph for ${path}`).toBeDefined();
  return decodeGraph(file.graph!);
}

const defs = (g: FileGraphContent) => g.definitions.map((d) => [d.name, d.kind, d.parent, d.startLine, d.endLine]);
const params = (g: FileGraphContent, name: string) => g.definitions.find((d) => d.name === name)?.params?.map((p) => (p.hasDefault ? `${p.name}=` : p.name));
const refs = (g: FileGraphContent) => g.references.map((r) => `${r.name}@${r.line}${r.call ? "()" : ""}`);
const imports = (g: FileGraphContent) => g.imports.map((i) => [i.spec, i.kind, i.line, ...(i.names ? [i.names] : [])]);

describe("code graph extraction", () => {
  it("Python: classes, methods with parameters and defaults, calls, members, annotations, imports", async () => {
    const g = await graphOf("pkg/mod.py", [
      "from ..base import Base as B, helper",
      "import os.path",
      "from . import sibling",
      "class Parser(B):",
      "    @cached",
      "    def parse(self, text: str, strict=False, *args, limit: int = 3, **kw) -> Node:",
      "        node = helper(text)",
      "        return node.children",
      "def top(a, /, b, *, c):",
      "    return Parser().parse(a)",
    ]);
    expect(defs(g)).toEqual([
      ["Parser", "class", null, 4, 8],
      ["parse", "method", "Parser", 6, 8],
      ["top", "function", null, 9, 10],
    ]);
    expect(params(g, "parse")).toEqual(["self", "text", "strict=", "*args", "limit=", "**kw"]);
    expect(params(g, "top")).toEqual(["a", "/", "b", "*", "c"]);
    expect(g.definitions.find((d) => d.name === "parse")!.paramsText).toBe("(self, text: str, strict=False, *args, limit: int = 3, **kw)");
    expect(refs(g)).toEqual(["B@4", "cached@5()", "Node@6", "int@6", "str@6", "helper@7()", "children@8", "Parser@10()", "parse@10()"]);
    expect(imports(g)).toEqual([
      ["..base", "import", 1, ["Base", "helper"]],
      ["os.path", "import", 2],
      [".", "import", 3, ["sibling"]],
    ]);
  });

  it("TypeScript: functions, classes, interfaces, types, arrow functions; type uses; import, export-from, require, dynamic import", async () => {
    const g = await graphOf("src/a.ts", [
      'import { x } from "./x.js";',
      'export * from "../lib";',
      'import fs = require("fs");',
      'const r = require("./r");',
      "export function run(a: number, b = 2, c?: Opts, ...rest: Item[]): Result<Item> {",
      "  return new Runner(a).start(b);",
      "}",
      "export class Runner<T> extends Base implements Startable {",
      "  start(n: number) { return this.loop(n); }",
      "}",
      "interface Startable { start(n: number): void }",
      "type Alias = Runner<string>;",
      "export const go = async ({ id }, [first]) => import('./lazy');",
    ]);
    expect(defs(g)).toEqual([
      ["run", "function", null, 5, 7],
      ["Runner", "class", null, 8, 10],
      ["start", "method", "Runner", 9, 9],
      ["Startable", "interface", null, 11, 11],
      ["start", "method", "Startable", 11, 11],
      ["Alias", "type", null, 12, 12],
      ["go", "function", null, 13, 13],
    ]);
    expect(params(g, "run")).toEqual(["a", "b=", "c=", "...rest"]);
    expect(params(g, "go")).toEqual(["{ id }", "[first]"]);
    expect(refs(g)).toContain("Runner@6()");
    expect(refs(g)).toContain("start@6()");
    expect(refs(g)).toContain("Base@8");
    expect(refs(g)).toContain("Startable@8");
    expect(refs(g)).toContain("loop@9()");
    expect(refs(g)).toContain("Result@5");
    expect(refs(g)).not.toContain("Runner@8"); // the class's own name is a definition, not a use
    expect(refs(g)).not.toContain("T@8");
    expect(imports(g)).toEqual([
      ["./x.js", "import", 1],
      ["../lib", "import", 2],
      ["fs", "import", 3],
      ["./r", "import", 4],
      ["./lazy", "import", 13],
    ]);
  });

  it("JavaScript and TypeScript: a class field holding a function is a method with its parameters; other fields are not definitions", async () => {
    const ts = await graphOf("src/store.ts", [
      "export class Store {",
      "  count: number = 0;",
      "  private readonly handle = async (event: Event, retries = 3): Promise<void> => { await this.save(event); };",
      "  static parse = function (text: string) { return JSON.parse(text); };",
      "}",
    ]);
    expect(defs(ts)).toEqual([
      ["Store", "class", null, 1, 5],
      ["handle", "method", "Store", 3, 3],
      ["parse", "method", "Store", 4, 4],
    ]);
    expect(params(ts, "handle")).toEqual(["event", "retries="]);
    const js = await graphOf("src/store.js", ["class Store {", "  count = 0;", "  #flush = () => this.save();", "  onChange = (value) => { this.value = value; };", "}"]);
    expect(defs(js)).toEqual([
      ["Store", "class", null, 1, 5],
      ["#flush", "method", "Store", 3, 3],
      ["onChange", "method", "Store", 4, 4],
    ]);
    expect(params(js, "onChange")).toEqual(["value"]);
  });

  it("Go, Python, Rust, C++ and Java: a name bound to a function literal is a function with its parameters; other bindings are not definitions", async () => {
    const go = await graphOf("server/handler.go", [
      "package server",
      "var handler = func(w Writer, r *Request) error { return serve(w, r) }",
      "var (",
      "\tparse = func(text string) int { return len(text) }",
      ")",
      "var a, b = func() {}, 2",
      "var limit = 3",
    ]);
    expect(defs(go)).toEqual([
      ["handler", "function", null, 2, 2],
      ["parse", "function", null, 3, 5],
    ]);
    expect(params(go, "handler")).toEqual(["w", "r"]);
    const py = await graphOf("pkg/text.py", ["normalize = lambda s, strip=True: s.strip() if strip else s", "LIMIT = 3", "class K:", "    key = staticmethod(lambda x: x)"]);
    expect(defs(py)).toEqual([
      ["normalize", "function", null, 1, 1],
      ["K", "class", null, 3, 4],
    ]);
    expect(params(py, "normalize")).toEqual(["s", "strip="]);
    const rs = await graphOf("src/lib.rs", ["static HANDLER: fn(i32) -> i32 = |x| { x + 1 };", "const CHECK: fn(&str) -> bool = |s: &str| s.is_empty();", "const LIMIT: usize = 3;"]);
    expect(defs(rs)).toEqual([
      ["HANDLER", "function", null, 1, 1],
      ["CHECK", "function", null, 2, 2],
    ]);
    expect(params(rs, "CHECK")).toEqual(["s"]);
    const cpp = await graphOf("src/text.cpp", ["namespace text {", "static const auto trim = [](const std::string& s, int from = 0) { return s.substr(from); };", "int limit = 3;", "}"]);
    expect(defs(cpp)).toEqual([["trim", "function", "text", 2, 2]]);
    expect(params(cpp, "trim")).toEqual(["s", "from="]);
    const java = await graphOf("src/main/java/x/Sizes.java", [
      "class Sizes {",
      "  static final Comparator<String> BY_LENGTH = (a, b) -> { return a.length() - b.length(); };",
      "  private final Runnable flush = () -> save();",
      "  private int count = 0;",
      "}",
    ]);
    expect(defs(java)).toEqual([
      ["Sizes", "class", null, 1, 5],
      ["BY_LENGTH", "method", "Sizes", 2, 2],
      ["flush", "method", "Sizes", 3, 3],
    ]);
    expect(params(java, "BY_LENGTH")).toEqual(["a", "b"]);
  });

  it("JavaScript and TSX: JSX components are calls, lowercase elements are not references", async () => {
    const js = await graphOf("web/app.jsx", ['import React from "react";', "export default function App({ user }, opts = {}) {", "  return <Layout><div>{format(user)}</div></Layout>;", "}"]);
    expect(defs(js)).toEqual([["App", "function", null, 2, 4]]);
    expect(params(js, "App")).toEqual(["{ user }", "opts="]);
    expect(refs(js)).toEqual(["Layout@3()", "format@3()"]);
    const tsx = await graphOf("web/card.tsx", ['import { Box } from "./box";', "export const Card = (p: CardProps) => <Box title={p.title} />;"]);
    expect(refs(tsx)).toEqual(["Box@2()", "CardProps@2", "title@2"]);
    expect(imports(tsx)).toEqual([["./box", "import", 1]]);
  });

  it("Go: functions, methods with receivers, structs and interfaces, selector calls, imports and package", async () => {
    const g = await graphOf("svc/server.go", [
      "package svc",
      'import (\n\tlog "log"\n\t"example.com/app/store"\n)',
      "type Server struct { db store.DB }",
      "type Handler interface { Serve() error }",
      "func (s *Server) Run(addr, name string, opts ...Option) error {",
      "\tlog.Printf(addr)",
      "\treturn s.db.Open()",
      "}",
    ]);
    expect(g.package).toBe("svc");
    expect(defs(g)).toEqual([
      ["Server", "class", null, 6, 6],
      ["Handler", "interface", null, 7, 7],
      ["Run", "method", "Server", 8, 11],
    ]);
    expect(params(g, "Run")).toEqual(["addr", "name", "...opts"]);
    expect(refs(g)).toEqual(["DB@6", "Option@8", "Server@8", "Printf@9()", "Open@10()", "db@10"]);
    expect(imports(g)).toEqual([
      ["log", "import", 3],
      ["example.com/app/store", "import", 4],
    ]);
  });

  it("Rust: impl methods with their type as parent, traits, structs, mod and use declarations", async () => {
    const g = await graphOf("src/lib.rs", [
      "mod parser;",
      "mod inline { fn hidden() {} }",
      "use crate::net::{Client, tls::Config as Tls};",
      "pub struct Engine<T> { items: Vec<T> }",
      "pub trait Run { fn run(&mut self, n: usize); }",
      "impl<T> Run for Engine<T> {",
      "    fn run(&mut self, n: usize) { let c = Client::new(); self.items.push(c.get(n)); helper::<T>(n); }",
      "}",
    ]);
    expect(defs(g)).toEqual([
      ["hidden", "function", "inline", 2, 2],
      ["Engine", "class", null, 4, 4],
      ["Run", "interface", null, 5, 5],
      ["run", "method", "Run", 5, 5],
      ["run", "method", "Engine", 7, 7],
    ]);
    expect(params(g, "run")).toEqual(["&mut self", "n"]);
    expect(refs(g)).toEqual(expect.arrayContaining(["Client@7", "new@7()", "push@7()", "get@7()", "items@7", "helper@7()", "Vec@4", "Engine@6", "Run@6"]));
    expect(refs(g)).not.toContain("Engine@4");
    expect(imports(g)).toEqual([
      ["parser", "module", 1],
      ["crate::net::{Client, tls::Config as Tls}", "import", 3],
    ]);
  });

  it("Java: package, classes, constructors and methods with varargs, calls and constructions, imports", async () => {
    const g = await graphOf("src/main/java/com/acme/Shop.java", [
      "package com.acme;",
      "import java.util.List;",
      "import static com.acme.util.Money.add;",
      "import com.acme.model.*;",
      "public class Shop extends Store {",
      "  public Shop(String name) { super(name); }",
      "  @Override public Order place(Item item, String... notes) { Order o = new Order(item); o.submit(); return o; }",
      "}",
    ]);
    expect(g.package).toBe("com.acme");
    expect(defs(g)).toEqual([
      ["Shop", "class", null, 5, 8],
      ["Shop", "method", "Shop", 6, 6],
      ["place", "method", "Shop", 7, 7],
    ]);
    expect(params(g, "place")).toEqual(["item", "...notes"]);
    expect(refs(g)).toEqual(expect.arrayContaining(["Store@5", "Order@7()", "Order@7", "submit@7()", "Item@7"]));
    expect(imports(g)).toEqual([
      ["java.util.List", "import", 2],
      ["static com.acme.util.Money.add", "import", 3],
      ["com.acme.model.*", "import", 4],
    ]);
  });

  it("C and C++: functions, structs, classes in namespaces, out-of-class methods, default arguments, includes", async () => {
    const c = await graphOf("src/io.c", ['#include "io.h"', "#include <stdio.h>", "struct buf { int len; };", "static int flush(struct buf *b, int fd) { return write_all(fd, b->len); }", "void reset(void) {}"]);
    expect(defs(c)).toEqual([
      ["buf", "class", null, 3, 3],
      ["flush", "function", null, 4, 4],
      ["reset", "function", null, 5, 5],
    ]);
    expect(params(c, "flush")).toEqual(["b", "fd"]);
    expect(params(c, "reset")).toEqual([]);
    expect(refs(c)).toEqual(["buf@4", "len@4", "write_all@4()"]); // `struct buf *b` uses the type
    expect(imports(c)).toEqual([
      ["io.h", "include", 1],
      ["stdio.h", "system-include", 2],
    ]);
    const cpp = await graphOf("src/shape.cpp", [
      '#include "geo/shape.h"',
      "namespace geo {",
      "class Shape : public Base {",
      " public:",
      "  double area(int scale = 1) const { return compute(scale); }",
      "};",
      "}",
      "double Circle::area(int scale, ...) { auto p = new Point(); return std::sqrt(p->x); }",
    ]);
    expect(defs(cpp)).toEqual([
      ["Shape", "class", "geo", 3, 6],
      ["area", "method", "Shape", 5, 5],
      ["area", "method", "Circle", 8, 8],
    ]);
    expect(cpp.definitions[1]!.params).toEqual([{ name: "scale", hasDefault: true }]);
    expect(params(cpp, "area")).toEqual(["scale="]);
    expect(cpp.definitions[2]!.params!.map((p) => p.name)).toEqual(["scale", "..."]);
    expect(refs(cpp)).toEqual(expect.arrayContaining(["Base@3", "compute@5()", "Point@8()", "sqrt@8()", "x@8"]));
    expect(imports(cpp)).toEqual([["geo/shape.h", "include", 1]]);
  });

  it("C and C++: functions returning references or function pointers, conversion operators and friend functions are definitions", async () => {
    const cpp = await graphOf("src/pointer.hpp", [
      "class Pointer {",
      " public:",
      "  template <typename J> J& get_and_create(J& j) const { return j; }",
      "  explicit operator bool() const { return true; }",
      "  friend bool operator==(const Pointer& a, const Pointer& b) { return true; }",
      "};",
      "const Pointer& root(int depth) { return *make(depth); }",
    ]);
    expect(defs(cpp)).toEqual([
      ["Pointer", "class", null, 1, 6],
      ["get_and_create", "method", "Pointer", 3, 3],
      ["operator bool", "method", "Pointer", 4, 4],
      ["operator==", "method", "Pointer", 5, 5],
      ["root", "function", null, 7, 7],
    ]);
    expect(params(cpp, "root")).toEqual(["depth"]);
    const c = await graphOf("src/signals.c", ["static void (*handler_for(int sig))(int) { return table[sig]; }"]);
    expect(defs(c)).toEqual([["handler_for", "function", null, 1, 1]]);
  });

  it("a generated chain of 50,000 calls is chunked, without a graph (its query grew with the square of the depth: minutes)", async () => {
    const content = "export const routes = router" + ".get(f)".repeat(50_000) + ";\n";
    const file = await chunker.chunkFile("src/routes.js", content);
    expect(file.chunks.length).toBeGreaterThan(0);
    expect(file.graph).toBeUndefined();
    // A short chain keeps its graph.
    expect(refs(await graphOf("src/short.js", ["router.get(f).get(g).post(h);"]))).toEqual(["get@1()", "post@1()"]);
  });

  it("other languages and unparsable files have no graph", async () => {
    expect((await chunker.chunkFile("README.md", "# Title\n\ntext\n")).graph).toBeUndefined();
    expect((await chunker.chunkFile("lib/a.rb", "def x; end\n")).graph).toBeUndefined();
  });
});

describe("the indexed graph and the review's graph", () => {
  // The chunker encodes the graph as it extracts it (references grouped by name, extractEncodedGraph); the
  // review reads extractGraph's references. Both must be the same graph: the same string once encoded.
  const samples: [string, string[]][] = [
    ["a.py", ["import os", "class A(B):", "    def f(self, x=1):", "        self.g(x).g(x); h(h(x)); x.y.z = os.path.join(x, x)", "        return A"]],
    ["a.tsx", ["import React from 'react';", "class C extends Base { m(a: T) { this.m(a); return <Item x={a.b} />; } }", "const d = <div>{f(f(1))}</div>;"]],
    ["a.go", ["package p", "type T struct{}", "func (t T) M(a, b int) error { return t.M(a, b) }", "func g() { h(T{}); h(T{}).k() }"]],
    ["a.c", ["#include <stdio.h>", "struct s { int a; };", "int f(struct s *p) { return g(p->a) + g(p->a); }"]],
  ];
  for (const [path, lines] of samples) {
    it(`${path}: the chunker's encoded graph is encodeGraph(extractGraph(...))`, async () => {
      const content = lines.join("\n") + "\n";
      const file = await chunker.chunkFile(path, content);
      const reviewed = await fileGraphOf(path, content);
      expect(reviewed, "a graph").not.toBeNull();
      expect(reviewed!.graph.references.length, "references").toBeGreaterThan(2);
      expect(file.graph).toBe(encodeGraph(reviewed!.graph));
    });
  }
});
