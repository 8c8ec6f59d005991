/** Import resolution on a branch's file list, per language (src/codeindex/graph/resolve.ts). */
import { describe, expect, it } from "vitest";
import { expandUseTree, resolveBranchGraph, type ResolverFile } from "../../src/codeindex/graph/resolve.ts";
import type { GraphImport } from "../../src/codeindex/port.ts";

const imp = (spec: string, extra: Partial<GraphImport> = {}): GraphImport => ({ spec, kind: "import", line: 1, ...extra });

/** Targets of each import of `file` on a branch holding `paths` (and the other graph files). */
function targets(paths: string[], file: ResolverFile, others: ResolverFile[] = []): string[][] {
  return resolveBranchGraph(paths, [file, ...others]).targets.get(file.path)!;
}

const py = (path: string, imports: GraphImport[]): ResolverFile => ({ path, language: "python", package: null, imports });

describe("import resolution", () => {
  it("Python: absolute modules and packages, source roots by suffix, relative imports, submodules in from-imports", () => {
    const paths = ["app/main.py", "app/__init__.py", "app/util.py", "app/models/__init__.py", "app/models/user.py", "src/lib/core.py", "src/lib/__init__.py", "tools/lib/core.py"];
    const file = py("app/models/user.py", [
      imp("app.util"),
      imp("app.models"),
      imp("..util", { names: ["helper"] }),
      imp(".", { names: ["user", "missing"] }),
      imp("lib.core"),
      imp("os.path"),
      imp("...", { names: ["x"] }),
    ]);
    expect(targets(paths, file)).toEqual([
      ["app/util.py"],
      ["app/models/__init__.py"],
      ["app/util.py"],
      ["app/models/__init__.py", "app/models/user.py"],
      ["src/lib/core.py"], // by suffix: the nearest of src/lib/core.py and tools/lib/core.py, then the shorter path
      [],
      [],
    ]);
    // The nearest source root wins for a file under it.
    expect(targets(paths, py("tools/run.py", [imp("lib.core")]))).toEqual([["tools/lib/core.py"]]);
    // `from pkg import name`: the package itself when the name is no submodule.
    expect(targets(paths, py("x.py", [imp("app", { names: ["util", "VERSION"] })]))).toEqual([["app/__init__.py", "app/util.py"]]);
  });

  it("JS/TS: relative specs with extensions, index files, a .js spec naming its .ts source; packages unresolved", () => {
    const paths = ["src/a.ts", "src/b.ts", "src/lib/index.ts", "src/ui/button.tsx", "src/types.d.ts", "src/data.json", "web/old.js"];
    const file: ResolverFile = {
      path: "src/a.ts",
      language: "typescript",
      package: null,
      imports: [imp("./b.js"), imp("./lib"), imp("./ui/button"), imp("./types"), imp("./data.json"), imp("../web/old.js"), imp("react"), imp("./nope"), imp("../../outside")],
    };
    expect(targets(paths, file)).toEqual([["src/b.ts"], ["src/lib/index.ts"], ["src/ui/button.tsx"], ["src/types.d.ts"], ["src/data.json"], ["web/old.js"], [], [], []]);
  });

  it("Go: the longest proper suffix of the import path that is a directory, its non-test files; vendored paths", () => {
    const paths = ["go.mod", "store/db.go", "store/db_test.go", "store/sql.go", "cmd/app/main.go", "http/server.go", "internal/auth/auth.go", "vendor/github.com/x/y/y.go"];
    const file: ResolverFile = {
      path: "cmd/app/main.go",
      language: "go",
      package: "main",
      imports: [imp("example.com/shop/store"), imp("net/http"), imp("shop/internal/auth"), imp("github.com/x/y"), imp("fmt")],
    };
    expect(targets(paths, file)).toEqual([["store/db.go", "store/sql.go"], [], ["internal/auth/auth.go"], ["vendor/github.com/x/y/y.go"], []]);
  });

  it("Rust: mod declarations beside mod.rs/lib.rs or in the file's module directory; use paths from the crate, self, super, workspace crates", () => {
    const paths = [
      "Cargo.toml",
      "src/lib.rs",
      "src/net.rs",
      "src/net/tls.rs",
      "src/db/mod.rs",
      "src/db/pool.rs",
      "crates/wire-format/Cargo.toml",
      "crates/wire-format/src/lib.rs",
      "crates/wire-format/src/frame.rs",
    ];
    const rs = (path: string, imports: GraphImport[]): ResolverFile => ({ path, language: "rust", package: null, imports });
    expect(targets(paths, rs("src/lib.rs", [imp("net", { kind: "module" }), imp("db", { kind: "module" }), imp("gone", { kind: "module" })]))).toEqual([["src/net.rs"], ["src/db/mod.rs"], []]);
    expect(targets(paths, rs("src/net.rs", [imp("tls", { kind: "module" })]))).toEqual([["src/net/tls.rs"]]);
    expect(
      targets(paths, rs("src/db/pool.rs", [imp("crate::net::tls::Config"), imp("super::Db"), imp("crate::{net, db::pool as p}"), imp("wire_format::frame::Frame"), imp("std::io"), imp("self::inner")])),
    ).toEqual([["src/net/tls.rs"], ["src/db/mod.rs"], ["src/net.rs"], ["crates/wire-format/src/frame.rs"], [], []]);
    expect(expandUseTree("crate::a::{b, c::{d, e as f}, self}")).toEqual(["crate::a::b", "crate::a::c::d", "crate::a::c::e", "crate::a"]);
  });

  it("Java: package + class from package declarations, else the path under a source root; wildcards; static imports", () => {
    const java = (path: string, pkg: string, imports: GraphImport[] = []): ResolverFile => ({ path, language: "java", package: pkg, imports });
    const files = [
      java("core/src/main/java/com/acme/model/Order.java", "com.acme.model"),
      java("core/src/main/java/com/acme/model/Item.java", "com.acme.model"),
      java("core/src/main/java/com/acme/util/Money.java", "com.acme.util"),
      java("gen/Legacy.java", "com.acme.legacy"),
    ];
    const paths = [...files.map((f) => f.path), "app/src/main/java/com/acme/App.java", "lib/src/com/other/Thing.java"];
    const app = java("app/src/main/java/com/acme/App.java", "com.acme", [
      imp("com.acme.model.Order"),
      imp("com.acme.model.*"),
      imp("static com.acme.util.Money.add"),
      imp("com.acme.legacy.Legacy"),
      imp("com.other.Thing"),
      imp("java.util.List"),
    ]);
    expect(targets(paths, app, files)).toEqual([
      ["core/src/main/java/com/acme/model/Order.java"],
      ["core/src/main/java/com/acme/model/Item.java", "core/src/main/java/com/acme/model/Order.java"],
      ["core/src/main/java/com/acme/util/Money.java"],
      ["gen/Legacy.java"],
      ["lib/src/com/other/Thing.java"],
      [],
    ]);
  });

  it("C/C++: quoted includes relative to the file, then by path suffix (nearest); system includes by suffix", () => {
    const paths = ["src/net/socket.c", "src/net/socket.h", "include/proj/config.h", "src/util/log.h", "third/util/log.h"];
    const file: ResolverFile = {
      path: "src/net/socket.c",
      language: "c",
      package: null,
      imports: [imp("socket.h", { kind: "include" }), imp("util/log.h", { kind: "include" }), imp("proj/config.h", { kind: "system-include" }), imp("stdio.h", { kind: "system-include" }), imp("../util/log.h", { kind: "include" })],
    };
    expect(targets(paths, file)).toEqual([["src/net/socket.h"], ["src/util/log.h"], ["include/proj/config.h"], [], ["src/util/log.h"]]);
  });

  it("gives each file's imports and importers, sorted, without self-imports, and nothing for other languages", () => {
    const paths = ["a.py", "b.py", "c.py", "x.rb"];
    const graph = resolveBranchGraph(paths, [
      py("a.py", [imp("b"), imp("c"), imp("a")]),
      py("b.py", [imp("c")]),
      { path: "x.rb", language: "ruby", package: null, imports: [imp("a")] },
    ]);
    expect(graph.importsOf.get("a.py")).toEqual(["b.py", "c.py"]);
    expect(graph.importersOf.get("c.py")).toEqual(["a.py", "b.py"]);
    expect(graph.importersOf.get("a.py")).toBeUndefined();
    expect(graph.importsOf.get("x.rb")).toEqual([]);
  });
});
