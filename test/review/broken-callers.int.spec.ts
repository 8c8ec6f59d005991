/**
 * Whether a call still fits a changed parameter list (src/review/graph/signature.ts), on definitions
 * and calls read by the real tree-sitter parse (src/review/graph/calls.ts).
 */
import { describe, expect, it } from "vitest";
import { parseForCalls, type CallSite } from "../../src/review/graph/calls.ts";
import { canBreakCalls, shapeOf, staleReason } from "../../src/review/graph/signature.ts";
import { signatureChanges } from "../../src/review/graph/signature-changes.ts";
import { moduleImportOf } from "../../src/review/graph/module-imports.ts";

async function defOf(path: string, source: string, name: string) {
  const parsed = await parseForCalls(path, source, new Set());
  const def = parsed!.graph.definitions.find((d) => d.name === name);
  expect(def, `definition ${name}`).toBeDefined();
  return def!;
}

async function callsOf(path: string, source: string, name: string): Promise<CallSite[]> {
  return (await parseForCalls(path, source, new Set([name])))!.calls;
}

/** The stale reason of each call of `name` in `calls` after `before` -> `after` (Python functions). */
async function py(before: string, after: string, calls: string, bound = false) {
  const b = await defOf("m.py", before, "f");
  const a = await defOf("m.py", after, "f");
  const sites = await callsOf("c.py", calls, "f");
  return sites.map((c) => staleReason(shapeOf(b.params!, "python", bound), shapeOf(a.params!, "python", bound), c));
}

async function js(before: string, after: string, calls: string) {
  const b = await defOf("m.js", before, "f");
  const a = await defOf("m.js", after, "f");
  const sites = await callsOf("c.js", calls, "f");
  return sites.map((c) => staleReason(shapeOf(b.params!, "javascript", false), shapeOf(a.params!, "javascript", false), c));
}

describe("Python calls against a changed parameter list", () => {
  it("a required parameter added: positional and keyword callers that do not pass it are stale; *args / **kwargs callers fit", async () => {
    const out = await py("def f(a, b):\n    pass\n", "def f(a, b, c):\n    pass\n", "f(1, 2)\nf(1, b=2)\nf(1, 2, 3)\nf(*xs)\nf(1, 2, **kw)\n");
    expect(out).toEqual(["does not pass `c`", "does not pass `c`", undefined, null, null]);
  });

  it("keyword-only and defaults: a new keyword-only parameter without a default breaks, with one it does not", async () => {
    expect(await py("def f(a, *, b=1):\n    pass\n", "def f(a, *, b=1, c):\n    pass\n", "f(1)\nf(1, b=2, c=3)\n")).toEqual(["does not pass `c`", undefined]);
    const grow = [await defOf("m.py", "def f(a, *, b=1):\n    pass\n", "f"), await defOf("m.py", "def f(a, *, b=1, c=2):\n    pass\n", "f")];
    expect(canBreakCalls(shapeOf(grow[0]!.params!, "python", false), shapeOf(grow[1]!.params!, "python", false))).toBe(false);
  });

  it("a parameter removed: keyword callers passing it are stale unless the function takes **kwargs", async () => {
    expect(await py("def f(a, b=None):\n    pass\n", "def f(a):\n    pass\n", "f(1)\nf(1, b=2)\nf(1, 2)\n")).toEqual([
      null,
      "passes `b=`, which the function no longer takes",
      "passes 2 positional arguments, the function takes 1",
    ]);
    expect(await py("def f(a, b=None):\n    pass\n", "def f(a, **kw):\n    pass\n", "f(1, b=2)\n")).toEqual([null]);
  });

  it("a parameter renamed in place: positional callers fit, keyword callers are stale", async () => {
    expect(await py("def f(a, old):\n    pass\n", "def f(a, new):\n    pass\n", "f(1, 2)\nf(1, old=2)\n")).toEqual([null, "passes `old=`, which the function no longer takes"]);
  });

  it("parameters reordered or one inserted before another: positional arguments land elsewhere", async () => {
    expect(await py("def f(a, b):\n    pass\n", "def f(b, a):\n    pass\n", "f(1, 2)\nf(a=1, b=2)\n")).toEqual(["its argument 1 now goes to `b` (it went to `a`)", null]);
    expect(await py("def f(a, b=1):\n    pass\n", "def f(a, x=None, b=1):\n    pass\n", "f(1)\nf(1, 2)\n")).toEqual([null, "its argument 2 now goes to `x` (it went to `b`)"]);
    // Inserted without a default: the argument moves and the last parameter is left without one.
    expect(await py("def f(a, b):\n    pass\n", "def f(a, x, b):\n    pass\n", "f(1, 2)\nf(1, b=2)\n")).toEqual(["its argument 2 now goes to `x` (it went to `b`); `b` is not passed", "does not pass `x`"]);
  });

  it("a method called on an object: `self` is not an argument", async () => {
    const b = await defOf("m.py", "class A:\n    def f(self, a):\n        pass\n", "f");
    const a = await defOf("m.py", "class A:\n    def f(self, a, b):\n        pass\n", "f");
    const [call] = await callsOf("c.py", "obj.f(1)\n", "f");
    expect(call).toMatchObject({ form: "member", receiver: "obj", positional: 1 });
    expect(staleReason(shapeOf(b.params!, "python", true), shapeOf(a.params!, "python", true), call!)).toBe("does not pass `b`");
  });
});

describe("JavaScript calls against a changed parameter list", () => {
  it("left-out parameters are fine; more arguments than the function takes, or arguments that move, are stale; a spread fits", async () => {
    expect(await js("function f(a, b, c) {}\n", "function f(a, c) {}\n", "f(1)\nf(1, 2, 3)\nf(1, 2)\nf(...xs)\n")).toEqual([
      null,
      "passes 3 positional arguments, the function takes 2",
      "its argument 2 now goes to `c` (it went to `b`)",
      null,
    ]);
    expect(await js("function f(a) {}\n", "function f(a, b) {}\n", "f(1)\n")).toEqual([null]);
    expect(await js("function f(a, ...rest) {}\n", "function f(a, b, ...rest) {}\n", "f(1, 2, 3)\n")).toEqual(["its argument 2 now goes to `b` (it went to the rest parameter)"]);
  });

  it("functions assigned to a member carry their parameters in the code graph", async () => {
    const def = await defOf("lib/utils.js", "exports.f = function (body, encoding) {\n  return body;\n};\n", "f");
    expect(def.paramsText).toBe("(body, encoding)");
    expect(def.params!.map((p) => p.name)).toEqual(["body", "encoding"]);
  });
});

describe("signature changes of a file", () => {
  it("finds changed parameters, renames (same parameters, new name) and removals of public definitions", async () => {
    const before = (await parseForCalls("m.py", "def keep(a):\n    pass\n\n\ndef old_name(a, b):\n    pass\n\n\ndef gone(x):\n    pass\n\n\ndef _private(y):\n    pass\n", new Set()))!;
    const after = (await parseForCalls("m.py", "def keep(a, b):\n    pass\n\n\ndef new_name(a, b):\n    pass\n", new Set()))!;
    const changes = signatureChanges({ path: "m.py", oldPath: "m.py", language: "python" }, before.graph.definitions, after.graph.definitions);
    expect(changes.map((c) => [c.change, c.name, c.newName])).toEqual([
      ["signature", "keep", null],
      ["renamed", "old_name", "new_name"],
      ["removed", "gone", null],
    ]);
  });
});

describe("which files import the defining module (their own import statements)", () => {
  const importsOf = async (callerPath: string, source: string, definingPath: string) => {
    const parsed = (await parseForCalls(callerPath, source, new Set()))!;
    const { imports, bindings } = moduleImportOf(callerPath, parsed.graph.imports, definingPath, parsed.language === "python" ? "python" : "javascript");
    return { imports, bindings: [...bindings].sort() };
  };

  it("Python: absolute, from- and relative imports; a one-part spec is not a tail match (import json is the standard library's)", async () => {
    expect(await importsOf("tests/t.py", "from marshmallow import utils\n", "src/marshmallow/utils.py")).toEqual({ imports: true, bindings: ["utils"] });
    expect(await importsOf("tests/t.py", "import flask.json\n", "src/flask/json/__init__.py")).toEqual({ imports: true, bindings: ["flask.json"] });
    expect(await importsOf("src/pkg/a.py", "from .utils import helper\n", "src/pkg/utils.py")).toEqual({ imports: true, bindings: [] });
    expect(await importsOf("src/pkg/sub/a.py", "from .. import utils\n", "src/pkg/utils.py")).toEqual({ imports: true, bindings: ["utils"] });
    expect(await importsOf("tests/t.py", "import json\n", "src/flask/json/__init__.py")).toEqual({ imports: false, bindings: [] });
    expect(await importsOf("tests/t.py", "from other import utils\n", "src/marshmallow/utils.py")).toEqual({ imports: false, bindings: [] });
  });

  it("JavaScript: relative require and import specs, a folder's index", async () => {
    expect((await importsOf("test/utils.js", "var utils = require('../lib/utils');\n", "lib/utils.js")).imports).toBe(true);
    expect((await importsOf("lib/app.js", "import { f } from './router';\n", "lib/router/index.js")).imports).toBe(true);
    expect((await importsOf("lib/app.js", "const x = require('utils');\n", "lib/utils.js")).imports).toBe(false);
  });
});
