/**
 * Definitions a change removes from a file (src/review/graph/broken-callers.ts with still-defined.ts):
 * which removals the callers see, and where the finding sits. Small repositories held in memory, every
 * file parsed by the real tree-sitter reading, the diff from a real `git diff`.
 */
import { describe, expect, it } from "vitest";
import { brokenOf, named } from "./broken-callers-support.ts";
import { brokenCallerFinding } from "../../src/review/graph/broken-callers.ts";
import { WHOLE_FILE_LINE } from "../../src/review/findings.ts";

describe("a removed method that is still there for its callers", () => {
  const CTX = "class RequestContext:\n    def __init__(self, app, environ):\n        self.app = app\n        self.url_adapter = app.create_url_adapter(environ)\n";

  it("Python: moved to a class of the same name in another file the change adds (the old class renamed): not named", async () => {
    const files = {
      "pkg/sansio/app.py": "class Flask:\n    def __init__(self, name):\n        self.name = name\n\n    def create_url_adapter(self, request):\n        return request\n",
      "pkg/ctx.py": CTX,
    };
    const changed = {
      "pkg/sansio/app.py": "class App:\n    def __init__(self, name):\n        self.name = name\n",
      "pkg/app.py": "from .sansio.app import App\n\n\nclass Flask(App):\n    def create_url_adapter(self, request):\n        return request\n",
    };
    expect(await named(files, changed)).toEqual([]);
    // Removed for good: named.
    expect(await named(files, { "pkg/sansio/app.py": changed["pkg/sansio/app.py"] })).toEqual(["create_url_adapter pkg/ctx.py:4"]);
  });

  it("Python: inherited from a base class the change writes, or one the branch has: not named", async () => {
    const files = {
      "pkg/base.py": "class App:\n    def __init__(self, name):\n        self.name = name\n",
      "pkg/app.py": "from .base import App\n\n\nclass Flask(App):\n    def make_shell_context(self, extra):\n        return extra\n\n    def run(self, host):\n        return host\n",
      "pkg/cli.py": "def shell(app):\n    ctx = app.make_shell_context({})\n    return ctx\n",
    };
    // Moved up into the base class, in another file.
    const up = {
      "pkg/base.py": "class App:\n    def __init__(self, name):\n        self.name = name\n\n    def make_shell_context(self, extra):\n        return extra\n",
      "pkg/app.py": "from .base import App\n\n\nclass Flask(App):\n    def run(self, host):\n        return host or \"localhost\"\n",
    };
    expect(await named(files, up)).toEqual([]);
    // The class now derives from a mixin of the branch (a file the change does not touch) that defines it.
    const mixin = {
      ...files,
      "pkg/mixins.py": "class ShellMixin:\n    def make_shell_context(self, extra):\n        return dict(extra)\n",
    };
    const viaMixin = { "pkg/app.py": "from .base import App\nfrom .mixins import ShellMixin\n\n\nclass Flask(App, ShellMixin):\n    def run(self, host):\n        return host or \"localhost\"\n" };
    expect(await named(mixin, viaMixin)).toEqual([]);
    // Removed for good: named.
    expect(await named(files, { "pkg/app.py": up["pkg/app.py"] })).toEqual(["make_shell_context pkg/cli.py:2"]);
  });

  it("Python: pushed down into the subclasses the change writes: a call that fits them is theirs", async () => {
    const files = {
      "pkg/scaffold.py": "class Scaffold:\n    def send_static_file(self, filename):\n        return filename\n\n    def route(self, rule):\n        return rule\n",
      "pkg/app.py": "from .scaffold import Scaffold\n\n\nclass Flask(Scaffold):\n    pass\n",
      "tests/test_app.py": "def test_static(app):\n    assert app.send_static_file('index.html')\n",
    };
    const changed = {
      "pkg/scaffold.py": "class Scaffold:\n    def route(self, rule):\n        return rule.strip()\n",
      "pkg/app.py": "from .scaffold import Scaffold\n\n\nclass Flask(Scaffold):\n    def send_static_file(self, filename):\n        return filename\n",
    };
    expect(await named(files, changed)).toEqual([]);
  });

  it("JavaScript: moved to the base class a class `extends`: not named", async () => {
    const files = {
      "lib/base.js": "class Base {\n  constructor(options) {\n    this.options = options;\n  }\n}\n\nmodule.exports = Base;\n",
      "lib/router.js": "const Base = require('./base');\n\nclass Router extends Base {\n  lookup(path, method) {\n    return path + method;\n  }\n}\n\nmodule.exports = Router;\n",
      "test/router.js": "const Router = require('../lib/router');\nconst router = new Router();\nrouter.lookup('/a', 'get');\n",
    };
    const changed = {
      "lib/base.js": "class Base {\n  constructor(options) {\n    this.options = options;\n  }\n\n  lookup(path, method) {\n    return path + method;\n  }\n}\n\nmodule.exports = Base;\n",
      "lib/router.js": "const Base = require('./base');\n\nclass Router extends Base {\n  mount(path) {\n    return path;\n  }\n}\n\nmodule.exports = Router;\n",
    };
    expect(await named(files, changed)).toEqual([]);
    expect(await named(files, { "lib/router.js": changed["lib/router.js"] })).toEqual(["lookup test/router.js:3"]);
  });

  it("Go: moved to another file of the same package: not named", async () => {
    const files = {
      "go.mod": "module example.com/m\n",
      "pricing/price.go": "package pricing\n\nfunc Price(amount int) int { return amount }\n\nfunc Round(amount int) int { return amount }\n",
      "cart/cart.go": 'package cart\n\nimport "example.com/m/pricing"\n\nfunc Total(a int) int { return pricing.Price(a) }\n',
    };
    const changed = {
      "pricing/price.go": "package pricing\n\nfunc Round(amount int) int { return amount + 0 }\n",
      "pricing/compute.go": "package pricing\n\nfunc Price(amount int) int { return amount }\n",
    };
    expect(await named(files, changed, { "cart/cart.go": ["pricing/price.go"] })).toEqual([]);
    expect(await named(files, { "pricing/price.go": changed["pricing/price.go"] }, { "cart/cart.go": ["pricing/price.go"] })).toEqual(["Price cart/cart.go:5"]);
  });

  it("Python: a function moved to another module and imported back into the old one: still provided there", async () => {
    const files = {
      "pkg/helpers.py": "def slugify(text):\n    return text.lower()\n\n\ndef title(text):\n    return text.title()\n",
      "pkg/views.py": "from pkg.helpers import slugify\n\n\ndef show(name):\n    return slugify(name)\n",
    };
    const changed = {
      "pkg/helpers.py": "from pkg.text import slugify\n\n\ndef title(text):\n    return text.title()\n",
      "pkg/text.py": "def slugify(text):\n    return text.lower()\n",
    };
    expect(await named(files, changed, { "pkg/views.py": ["pkg/helpers.py"] })).toEqual([]);
  });
});

describe("where the finding on a removed definition sits", () => {
  const ROUTER =
    "function Router() {\n  this.routes = {};\n}\n\n/**\n * Find the route of a path.\n */\n\nRouter.prototype.find = function (path) {\n  return this.routes[path];\n};\n\n/**\n * Handle a request.\n */\n\nRouter.prototype.handle = function (req) {\n  return req;\n};\n\nmodule.exports = Router;\n";
  const CALLER = "var Router = require('../lib/router');\nvar router = new Router();\nrouter.find('/a');\n";
  const imports = { "test/router.js": ["lib/router.js"] };

  it("deleted outright, in a hunk that also rewrites another function's comment: on the file as a whole, not on that comment", async () => {
    const head = ROUTER.replace("/**\n * Find the route of a path.\n */\n\nRouter.prototype.find = function (path) {\n  return this.routes[path];\n};\n\n", "").replace(" * Handle a request.", " * Dispatch a request into the router.");
    const [b, ...rest] = await brokenOf({ "lib/router.js": ROUTER, "test/router.js": CALLER }, { "lib/router.js": head }, imports);
    expect(rest).toEqual([]);
    expect(b!.change).toMatchObject({ change: "removed", name: "find" });
    expect(b!.sites.map((s) => `${s.path}:${s.line}`)).toEqual(["test/router.js:3"]);
    expect([b!.line, b!.endLine]).toEqual([WHOLE_FILE_LINE, WHOLE_FILE_LINE]);
  });

  it("replaced at its place by another definition: on that definition's first line", async () => {
    const head = ROUTER.replace("Router.prototype.find = function (path) {\n  return this.routes[path];\n};", "Router.prototype.lookup = function (method, path) {\n  return this.routes[method + path];\n};");
    const [b] = await brokenOf({ "lib/router.js": ROUTER, "test/router.js": CALLER }, { "lib/router.js": head }, imports);
    expect(b!.change).toMatchObject({ change: "removed", name: "find" });
    expect([b!.line, b!.endLine]).toEqual([9, 9]);
  });

  it("a method deleted within a rewrite of more than it: on the file as a whole", async () => {
    const files = {
      "shop/cart.py": "class Cart:\n    def total(self):\n        return 1\n\n    def discard_all(self):\n        self.items = []\n\n    def size(self):\n        return 0\n",
      "shop/views.py": "def empty(cart):\n    cart.discard_all()\n",
    };
    const head = "class Cart:\n    def total(self):\n        return sum(self.items)\n\n    def count(self):\n        return len(self.items)\n";
    const [b] = await brokenOf(files, { "shop/cart.py": head });
    expect(b!.change).toMatchObject({ change: "removed", name: "discard_all" });
    expect(b!.line).toBe(WHOLE_FILE_LINE);
  });
});

describe("a removed exported constant, variable or type that other files still use", () => {
  it("Go: `pkg.X` through the caller's import of the package is named; a same-named local constant elsewhere is not", async () => {
    const files = {
      "go.mod": "module example.com/app\n",
      "gin/errors.go": "package gin\n\nconst (\n\tErrorTypeBind = 1\n\tErrorTypeNu = 2\n)\n\nvar DefaultWriter = 3\n",
      "cmd/main.go": 'package main\n\nimport "example.com/app/gin"\n\nfunc main() {\n\tprintln(gin.ErrorTypeNu)\n\t// gin.ErrorTypeNu in a comment\n}\n',
      "other/local.go": "package other\n\nconst ErrorTypeNu = 7\n\nfunc f() int { return ErrorTypeNu }\n",
    };
    const changed = { "gin/errors.go": "package gin\n\nconst (\n\tErrorTypeBind = 1\n)\n\nvar DefaultWriter = 3\n" };
    expect(await named(files, changed)).toEqual(["ErrorTypeNu cmd/main.go:6"]);
    const [broken] = await brokenOf(files, changed);
    expect(brokenCallerFinding(broken!).message).toContain("uses `ErrorTypeNu`, which the change removes");
  });

  it("Go: re-defined in another file of the same package: not named", async () => {
    const files = {
      "gin/errors.go": "package gin\n\nconst ErrorTypeNu = 2\n",
      "gin/context.go": "package gin\n\nfunc f() int { return ErrorTypeNu }\n",
      "go.mod": "module example.com/app\n",
      "cmd/main.go": 'package main\n\nimport "example.com/app/gin"\n\nfunc main() {\n\tprintln(gin.ErrorTypeNu)\n}\n',
    };
    const moved = { "gin/errors.go": "package gin\n", "gin/types.go": "package gin\n\nconst ErrorTypeNu = 2\n" };
    expect(await named(files, moved)).toEqual([]);
    // Removed for good: the importing package's use is named.
    expect(await named(files, { "gin/errors.go": "package gin\n" })).toEqual(["ErrorTypeNu cmd/main.go:6"]);
  });

  it("Python: a removed constant imported with `from m import X` elsewhere is named; a same-named local one is not", async () => {
    const files = {
      "pkg/settings.py": "TIMEOUT = 5\nRETRIES = 3\n",
      "pkg/client.py": "from pkg.settings import TIMEOUT\n\n\ndef get(url):\n    return fetch(url, TIMEOUT)\n",
      "pkg/other.py": "TIMEOUT = 10\n\n\ndef wait():\n    return TIMEOUT\n",
    };
    const changed = { "pkg/settings.py": "RETRIES = 3\n" };
    const imports = { "pkg/client.py": ["pkg/settings.py"] };
    expect(await named(files, changed, imports)).toEqual(["TIMEOUT pkg/client.py:1", "TIMEOUT pkg/client.py:5"]);
    // Re-exported from where it went: not removed.
    expect(await named(files, { "pkg/settings.py": "from pkg.defaults import TIMEOUT\nRETRIES = 3\n", "pkg/defaults.py": "TIMEOUT = 5\n" }, imports)).toEqual([]);
  });

  it("TypeScript and Rust: an imported exported const or type, a `module::X` use", async () => {
    const ts = {
      "src/limits.ts": "export const MAX_SIZE = 10;\nexport type Size = number;\n",
      "src/use.ts": 'import { MAX_SIZE } from "./limits";\n\nexport const big = (n: number) => n > MAX_SIZE;\n',
      "src/own.ts": "const MAX_SIZE = 3;\nexport const small = (n: number) => n < MAX_SIZE;\n",
    };
    const tsImports = { "src/use.ts": ["src/limits.ts"] };
    expect(await named(ts, { "src/limits.ts": "export type Size = number;\n" }, tsImports)).toEqual(["MAX_SIZE src/use.ts:1", "MAX_SIZE src/use.ts:3"]);
    const rs = { "src/limits.rs": "pub const MAX: u8 = 1;\n", "src/main.rs": "mod limits;\n\nfn main() {\n    println!(\"{}\", limits::MAX);\n}\n" };
    expect(await named(rs, { "src/limits.rs": "pub const MIN: u8 = 0;\n" }, { "src/main.rs": ["src/limits.rs"] })).toEqual(["MAX src/main.rs:4"]);
  });
});
