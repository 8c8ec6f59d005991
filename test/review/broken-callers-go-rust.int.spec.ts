/**
 * Go and Rust in the broken-callers finding: calls read by the real tree-sitter parse
 * (src/review/graph/calls.ts), whether they still fit a changed parameter list
 * (src/review/graph/signature.ts), and which definitions are public (signature-changes.ts).
 */
import { describe, expect, it } from "vitest";
import { parseForCalls } from "../../src/review/graph/calls.ts";
import { canBreakCalls, shapeOf, staleReason } from "../../src/review/graph/signature.ts";
import { signatureChanges } from "../../src/review/graph/signature-changes.ts";

async function parsed(path: string, source: string, names: ReadonlySet<string> | null = null) {
  const p = await parseForCalls(path, source, names);
  expect(p, path).not.toBeNull();
  return p!;
}

async function defOf(path: string, source: string, name: string) {
  const def = (await parsed(path, source, new Set())).graph.definitions.find((d) => d.name === name);
  expect(def, name).toBeDefined();
  return def!;
}

/** Stale reasons of the calls of `f` in `calls` after `before` -> `after`. */
async function stale(language: "go" | "rust", before: string, after: string, calls: string) {
  const ext = language === "go" ? "go" : "rs";
  const b = await defOf(`m.${ext}`, before, "f");
  const a = await defOf(`m.${ext}`, after, "f");
  const sites = (await parsed(`c.${ext}`, calls, new Set(["f"]))).calls;
  return sites.map((c) => {
    const bound = language === "rust" && c.form === "member";
    return staleReason(shapeOf(b.params!, language, bound), shapeOf(a.params!, language, bound), c);
  });
}

describe("Go calls", () => {
  it("reads bare, package-qualified and method calls, generic calls and a variadic spread", async () => {
    const p = await parsed("a.go", 'package a\n\nimport (\n\tp "example.com/m/pricing"\n\t"gopkg.in/yaml.v2"\n\t_ "embed"\n)\n\nfunc g() {\n\tF(1)\n\tp.F(1, 2)\n\tx.y.F()\n\tF[int](xs...)\n}\n', new Set(["F"]));
    expect(p.calls.map((c) => [c.form, c.receiver, c.positional, c.splat, c.line])).toEqual([
      ["bare", null, 1, false, 10],
      ["member", "p", 2, false, 11],
      ["member", "x.y", 0, false, 12],
      ["bare", null, 0, true, 13],
    ]);
    expect(p.goImports).toEqual([
      { name: "p", path: "example.com/m/pricing" },
      { name: "yaml", path: "gopkg.in/yaml.v2" },
    ]);
  });

  it("every parameter must be passed; a variadic takes the rest; a spread fits any count; renamed in place fits", async () => {
    expect(await stale("go", "package m\nfunc f(a int) {}\n", "package m\nfunc f(a int, b string) {}\n", "package c\nfunc g() { f(1); f(1, \"x\") }\n")).toEqual(["does not pass `b`", undefined]);
    expect(await stale("go", "package m\nfunc f(a, b int) {}\n", "package m\nfunc f(a int) {}\n", "package c\nfunc g() { f(1, 2) }\n")).toEqual(["passes 2 positional arguments, the function takes 1"]);
    expect(await stale("go", "package m\nfunc f(a int, rest ...int) {}\n", "package m\nfunc f(a int, b bool, rest ...int) {}\n", "package c\nfunc g() { f(1); f(1, 2, 3); f(xs...) }\n")).toEqual([
      "does not pass `b`",
      "its argument 2 now goes to `b` (it went to the rest parameter)",
      null,
    ]);
    expect(await stale("go", "package m\nfunc f(a int) {}\n", "package m\nfunc f(count int) {}\n", "package c\nfunc g() { f(1) }\n")).toEqual([null]);
  });

  it("a parameter inserted before the last: the argument that now goes to it is named, and the last one missing", async () => {
    // gin-gonic/gin 3fe928994b: getValue(path, params, unescape) -> getValue(path, params, skippedNodes, unescape).
    const before = "package m\nfunc f(path string, params *Params, unescape bool) {}\n";
    const after = "package m\nfunc f(path string, params *Params, skippedNodes *[]skippedNode, unescape bool) {}\n";
    expect(await stale("go", before, after, "package c\nfunc g() { f(p, c.params, false) }\n")).toEqual([
      "its argument 3 now goes to `skippedNodes` (it went to `unescape`); `unescape` is not passed",
    ]);
  });

  it("a method's receiver is not a parameter; a type change alone cannot break a call's arity", async () => {
    const m = await defOf("m.go", "package m\ntype T struct{}\nfunc (t *T) f(a int) {}\n", "f");
    expect(m).toMatchObject({ kind: "method", parent: "T", paramsText: "(a int)" });
    const [b, a] = [await defOf("m.go", "package m\nfunc f(a int) {}\n", "f"), await defOf("m.go", "package m\nfunc f(a int64) {}\n", "f")];
    expect(canBreakCalls(shapeOf(b.params!, "go", false), shapeOf(a.params!, "go", false))).toBe(false);
  });

  it("only exported names are public: an unexported function renamed is not a public rename", async () => {
    const before = await parsed("m.go", "package m\nfunc Exported(a int) {}\nfunc hidden(b string) {}\n", new Set());
    const after = await parsed("m.go", "package m\nfunc Renamed(a int) {}\nfunc other(b string) {}\n", new Set());
    const changes = signatureChanges({ path: "m.go", oldPath: "m.go", language: "go" }, before.graph.definitions, after.graph.definitions);
    expect(changes.map((c) => [c.change, c.name, c.newName])).toEqual([["renamed", "Exported", "Renamed"]]);
  });
});

describe("Rust calls", () => {
  it("reads bare, method, module-path and Type:: calls, turbofish and qualified paths", async () => {
    const p = await parsed("src/a.rs", "fn g() {\n    f(1);\n    x.f(1, 2);\n    util::f::<u8>(3);\n    crate::a::util::f();\n    Vec::<u8>::f(1);\n    <T as Tr>::f(&t);\n    self.inner.f();\n}\n", new Set(["f"]));
    expect(p.calls.map((c) => [c.form, c.receiver, c.positional])).toEqual([
      ["bare", null, 1],
      ["member", "x", 2],
      ["path", "util", 1],
      ["path", "crate::a::util", 0],
      ["path", "Vec", 1],
      ["path", "Tr", 1],
      ["member", "self.inner", 0],
    ]);
  });

  it("`self` is the receiver of a method call and the first argument of a path call", async () => {
    const b = await defOf("m.rs", "impl T {\n    fn f(&self, a: u8) {}\n}\n", "f");
    const a = await defOf("m.rs", "impl T {\n    fn f(&mut self, a: u8, b: u8) {}\n}\n", "f");
    const calls = (await parsed("c.rs", "fn g() {\n    t.f(1);\n    T::f(&t, 1);\n    t.f(1, 2);\n}\n", new Set(["f"]))).calls;
    const out = calls.map((c) => staleReason(shapeOf(b.params!, "rust", c.form === "member"), shapeOf(a.params!, "rust", c.form === "member"), c));
    expect(out).toEqual(["does not pass `b`", "does not pass `b`", undefined]);
  });

  it("a parameter moved lands the arguments elsewhere; a pattern parameter counts as one", async () => {
    expect(await stale("rust", "fn f(a: u8, b: &str) {}\n", "fn f(b: &str, a: u8) {}\n", "fn g() { f(1, \"x\"); }\n")).toEqual(["its argument 1 now goes to `b` (it went to `a`)"]);
    expect(await stale("rust", "fn f((x, y): (u8, u8)) {}\n", "fn f((x, y): (u8, u8), z: u8) {}\n", "fn g() { f((1, 2)); }\n")).toEqual(["does not pass `z`"]);
  });

  it("public: `pub` (any `pub(...)`) or a method of a trait or a trait's impl; a private function removed is not reported", async () => {
    const source = "pub fn open(a: u8) {}\npub(crate) fn shut(a: u8) {}\nfn private(a: u8) {}\nimpl Display for T {\n    fn fmt(&self, f: &mut Formatter) {}\n}\nimpl T {\n    fn helper(&self) {}\n}\n";
    const before = await parsed("m.rs", source, new Set());
    expect([...before.publicLines!].sort((x, y) => x - y)).toEqual([1, 2, 5]);
    expect([...before.traitImplLines!]).toEqual([[5, "Display"]]);
    const after = await parsed("m.rs", "impl T {}\n", new Set());
    const changes = signatureChanges({ path: "m.rs", oldPath: "m.rs", language: "rust", publicLines: before.publicLines! }, before.graph.definitions, after.graph.definitions);
    expect(changes.map((c) => [c.change, c.name])).toEqual([["removed", "open"], ["removed", "shut"], ["removed", "fmt"]]);
  });
});
