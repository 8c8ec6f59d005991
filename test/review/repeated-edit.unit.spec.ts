/** The same edit made to several functions by one change (src/review/graph/repeated-edit.ts). */
import { describe, expect, it } from "vitest";
import { boundNames, namesOf, repeatedEdits, type ChangedFunction } from "../../src/review/graph/repeated-edit.ts";

const fn = (id: string, path: string, name: string, before: string, after: string): ChangedFunction => ({ id, path, name, before, after });
const NONE = new Set<string>();

/** express dfa7ee4: `var self = this` dropped, the callbacks given `this` as forEach's thisArg. */
const USE_BEFORE = `app.use = function use(fns) {
  var self = this;
  fns.forEach(function (fn) {
    fn.parent = self;
    fn.emit('mount', self);
  });
  return this;
};`;
const USE_AFTER = `app.use = function use(fns) {
  fns.forEach(function (fn) {
    fn.parent = this;
    fn.emit('mount', this);
  }, this);
  return this;
};`;
const PARAM_BEFORE = `app.param = function param(names, fn) {
  var self = this;
  names.forEach(function (key) {
    self.param(key, fn);
  });
  return self;
};`;
const PARAM_AFTER = `app.param = function param(names, fn) {
  names.forEach(function (key) {
    this.param(key, fn);
  }, this);
  return this;
};`;

describe("repeated edits", () => {
  it("finds a local alias inlined the same way in two functions, with the names it removes and adds", () => {
    const found = repeatedEdits([fn("use", "lib/app.js", "use", USE_BEFORE, USE_AFTER), fn("param", "lib/app.js", "param", PARAM_BEFORE, PARAM_AFTER)], NONE);
    expect([...found.keys()].sort()).toEqual(["param", "use"]);
    expect(namesOf([...found.values()])).toEqual({ removed: ["self"], added: ["this"] });
  });

  it("needs a second function making the same edit", () => {
    expect(repeatedEdits([fn("use", "lib/app.js", "use", USE_BEFORE, USE_AFTER)], NONE).size).toBe(0);
  });

  it("finds a parameter nobody passed dropped from two signatures and the call that forwarded it", () => {
    const infer = fn("infer", "pkg/bases.py", "infer", "def infer(self, context=None, **kwargs):\n    yield self\n", "def infer(self, context=None):\n    yield self\n");
    const wrapper = fn(
      "wrap", "pkg/decorators.py", "path_wrapper",
      "def path_wrapper(func):\n    def wrapped(node, context=None, **kwargs):\n        for res in func(node, context, **kwargs):\n            yield res\n    return wrapped\n",
      "def path_wrapper(func):\n    def wrapped(node, context=None):\n        for res in func(node, context):\n            yield res\n    return wrapped\n",
    );
    expect([...repeatedEdits([infer, wrapper], NONE).keys()].sort()).toEqual(["infer", "wrap"]);
  });

  it("finds callers moved off a helper the change removes, and not a caller whose edit does more", () => {
    const route = fn("route", "lib/app.js", "route", "function route(path) {\n  this.lazyrouter();\n  return this._router.route(path);\n}", "function route(path) {\n  return this.router.route(path);\n}");
    const use = fn("use", "lib/app.js", "use", "function use(fn) {\n  this.lazyrouter();\n  var router = this._router;\n  router.use(fn);\n}", "function use(fn) {\n  var router = this.router;\n  router.use(fn);\n}");
    const handle = fn(
      "handle", "lib/app.js", "handle",
      "function handle(req) {\n  this.lazyrouter();\n  if (!this._router) return;\n  this._router.handle(req);\n}",
      "function handle(req) {\n  this.router.handle(req);\n}",
    );
    expect([...repeatedEdits([route, use, handle], new Set(["lazyrouter"])).keys()].sort()).toEqual(["route", "use"]);
    // Without the helper's removal, the callers merely call something else: a change of behaviour.
    expect(repeatedEdits([route, use], NONE).size).toBe(0);
  });

  it("does not count a string's quotes where both mean the same string (Python, JavaScript, TypeScript)", () => {
    const run = fn(
      "run", "app/app.py", "run",
      'def run(self, debug=None):\n    if debug is not None:\n        self._reconfigure(bool(debug))\n    name = self.config.get("SERVER_NAME")\n    return name\n',
      "def run(self, debug=None):\n    if debug is not None:\n        self.debug = bool(debug)\n    name = self.config.get('SERVER_NAME')\n    return name\n",
    );
    const load = fn("load", "app/cli.py", "load_app", "def load_app(app, debug):\n    app._reconfigure(debug)\n    return app\n", "def load_app(app, debug):\n    app.debug = debug\n    return app\n");
    expect([...repeatedEdits([run, load], new Set(["_reconfigure"])).keys()].sort()).toEqual(["load", "run"]);
    // In C a character in single quotes is no string: a literal changed.
    const c = (id: string, from: string, to: string) => fn(id, `src/${id}.c`, id, `int ${id}(void) {\n  old_fill(${from});\n}\n`, `int ${id}(void) {\n  new_fill(${to});\n}\n`);
    expect(repeatedEdits([c("a", '"x"', "'x'"), c("b", '"x"', "'x'")], new Set(["old_fill"])).size).toBe(0);
  });

  it("is not one edit: the same call swapped for another existing one, the same literal changed, or names swapped in opposite directions", () => {
    const cents = fn("cents", "app/units.py", "to_cents", "def to_cents(amount):\n    return int(amount * 100)\n", "def to_cents(amount):\n    return round(amount * 100)\n");
    const grams = fn("grams", "app/units.py", "to_grams", "def to_grams(weight):\n    return int(weight * 1000)\n", "def to_grams(weight):\n    return round(weight * 1000)\n");
    expect(repeatedEdits([cents, grams], NONE).size).toBe(0);
    const a = fn("a", "app/t.py", "a", "def a(x, timeout=30):\n    return x.get(timeout=timeout)\n", "def a(x, timeout=60):\n    return x.get(timeout=timeout)\n");
    const b = fn("b", "app/t.py", "b", "def b(y, timeout=30):\n    return y.put(timeout=timeout)\n", "def b(y, timeout=60):\n    return y.put(timeout=timeout)\n");
    expect(repeatedEdits([a, b], NONE).size).toBe(0);
    const request = fn("r", "app/ctx.py", "has_request_context", "def has_request_context():\n    ctx = _cv_app.get(None)\n    return ctx is not None\n", "def has_request_context():\n    ctx = _cv_request.get(None)\n    return ctx is not None\n");
    const app = fn("p", "app/ctx.py", "has_app_context", "def has_app_context():\n    ctx = _cv_request.get(None)\n    return ctx is not None\n", "def has_app_context():\n    ctx = _cv_app.get(None)\n    return ctx is not None\n");
    expect(repeatedEdits([request, app], new Set(["_cv_app"])).size).toBe(0);
  });

  it("reads the names code binds: declarations, assignment targets, starred and header parameters", () => {
    const tokens = "def f ( a , b = 1 , * args , ** kw ) : x = a == b ; var y ; g ( c )".split(" ");
    expect([...boundNames(tokens)].sort()).toEqual(["a", "args", "b", "f", "kw", "x", "y"]);
  });
});
