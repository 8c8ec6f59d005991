/**
 * Which imports the broken-imports finding names (src/review/graph/broken-imports.ts), and the callers
 * of a deleted Go file's definitions (broken-callers.ts), on small repositories: the change is a real
 * `git diff` (renames found by git), every file is parsed by the real tree-sitter reading, and the
 * branch's importers come from the code index's own resolver over the base's files, as the index
 * gives them.
 */
import { describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { brokenImportFinding, findBrokenImports, removalFixed } from "../../src/review/graph/broken-imports.ts";
import { fileGraphOf } from "../../src/review/graph/file-graph.ts";
import { deletedFileCallersFinding, findBrokenCallers, type BranchGraph } from "../../src/review/graph/broken-callers.ts";
import { parseForCalls } from "../../src/review/graph/calls.ts";
import { resolveBranchGraph, type ResolverFile } from "../../src/codeindex/graph/resolve.ts";
import { parseGitDiff } from "../../src/review/diff.ts";
import { WHOLE_FILE_LINE } from "../../src/review/findings.ts";

type Change = Record<string, string | null>;

/** The diff of `changed` (null: the file deleted) against `files`, and of a later change, from real git. */
function diffsOf(files: Record<string, string>, changed: Change, later: Change = {}) {
  const dir = mkdtempSync(join(tmpdir(), "broken-imports-"));
  try {
    const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: dir }).toString();
    const apply = (all: Change) => {
      for (const [path, text] of Object.entries(all)) {
        if (text === null) rmSync(join(dir, path));
        else {
          mkdirSync(dirname(join(dir, path)), { recursive: true });
          writeFileSync(join(dir, path), text);
        }
      }
      git("add", "-A");
    };
    git("init", "-q");
    apply(files);
    git("commit", "-qm", "base");
    apply(changed);
    const diff = parseGitDiff(git("diff", "--cached", "-M", "HEAD"));
    git("commit", "-qm", "change", "--allow-empty");
    apply(later);
    return { diff, later: parseGitDiff(git("diff", "--cached", "-M", "HEAD")) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const applied = (files: Record<string, string>, changed: Change) => {
  const out: Record<string, string> = { ...files };
  for (const [path, text] of Object.entries(changed)) {
    if (text === null) delete out[path];
    else out[path] = text;
  }
  return out;
};

async function brokenImports(files: Record<string, string>, changed: Change, skipImporter?: (path: string) => boolean) {
  const head = applied(files, changed);
  const parsed: ResolverFile[] = [];
  for (const [path, text] of Object.entries(files)) {
    const g = await fileGraphOf(path, text);
    if (g) parsed.push({ path, language: g.language, package: g.graph.package, imports: g.graph.imports });
  }
  const graph = resolveBranchGraph(Object.keys(files), parsed);
  return findBrokenImports({
    files: diffsOf(files, changed).diff,
    importersOf: async (p) => graph.importersOf.get(p) ?? [],
    readHead: async (p) => head[p] ?? null,
    basePaths: async () => Object.keys(files),
    headPaths: async () => Object.keys(head),
    ...(skipImporter ? { skipImporter } : {}),
  });
}

const sites = (found: Awaited<ReturnType<typeof brokenImports>>) => found.map((b) => ({ removed: b.removedPath, movedTo: b.movedTo, at: b.imports.map((s) => `${s.path}:${s.line}`) }));

const PY = {
  "shop/__init__.py": "",
  "shop/pricing.py": "def price(a):\n    return a\n",
  "shop/cart.py": "import os\nfrom shop.pricing import price\n",
  "shop/invoice.py": "from shop import pricing\n",
  "shop/total.py": "from . import pricing\nfrom .pricing import price\n",
  "tests/test_pricing.py": "import shop.pricing\n",
  "shop/other.py": "def f():\n    return 1\n",
};

describe("broken imports: Python", () => {
  it("a deleted module: every import of it named, relative ones and tests too", async () => {
    const found = await brokenImports(PY, { "shop/pricing.py": null });
    expect(sites(found)).toEqual([
      { removed: "shop/pricing.py", movedTo: null, at: ["shop/cart.py:2", "shop/invoice.py:1", "shop/total.py:1", "shop/total.py:2", "tests/test_pricing.py:1"] },
    ]);
    expect(found[0]!.line).toBe(WHOLE_FILE_LINE);
    const finding = brokenImportFinding(found[0]!);
    expect(finding).toMatchObject({ ruleId: "graph/broken-imports", severity: "high", path: "shop/pricing.py", lineStart: 0, lineEnd: 0 });
    expect(finding.message).toContain("this deletes `shop/pricing.py`, but 4 files still import it (1 of them a test); they will fail to import:");
    expect(finding.message).toContain("- `shop/cart.py:2`: `from shop.pricing import price`");
    expect(finding.message).toContain("- `tests/test_pricing.py:1`: `import shop.pricing` (a test)");
    expect(finding.message).toContain("Update or remove these imports, or keep the file.");
  });

  it("a module nobody imports, or whose importers the change deletes with it: nothing", async () => {
    expect(await brokenImports(PY, { "shop/other.py": null })).toEqual([]);
    expect(
      await brokenImports(PY, { "shop/pricing.py": null, "shop/cart.py": null, "shop/invoice.py": null, "shop/total.py": null, "tests/test_pricing.py": null }),
    ).toEqual([]);
  });

  it("importers the change updates are not named; the ones it leaves are", async () => {
    const found = await brokenImports(PY, {
      "shop/pricing.py": null,
      "shop/prices.py": "def price(a, b=0):\n    return a + b\n",
      "shop/cart.py": "import os\nfrom shop.prices import price\n",
      "shop/invoice.py": "from shop import prices as pricing\n",
    });
    expect(sites(found)).toEqual([{ removed: "shop/pricing.py", movedTo: null, at: ["shop/total.py:1", "shop/total.py:2", "tests/test_pricing.py:1"] }]);
  });

  it("a new file of the change importing the deleted module is named (the index does not know it)", async () => {
    const found = await brokenImports(PY, { "shop/pricing.py": null, "shop/report.py": "x = 1\nfrom shop.pricing import price\n" }, (p) => p.startsWith("tests/"));
    expect(sites(found)[0]!.at).toEqual(["shop/cart.py:2", "shop/invoice.py:1", "shop/report.py:2", "shop/total.py:1", "shop/total.py:2"]);
  });

  it("moved where its imports still find it (a module made a package): nothing", async () => {
    expect(await brokenImports(PY, { "shop/pricing.py": null, "shop/pricing/__init__.py": PY["shop/pricing.py"] })).toEqual([]);
  });

  it("`from pkg import mod` of a removed submodule: named unless the package's __init__ names it", async () => {
    const named = await brokenImports(PY, { "shop/pricing.py": null, "shop/cart.py": null, "shop/total.py": null, "tests/test_pricing.py": null });
    expect(sites(named)[0]!.at).toEqual(["shop/invoice.py:1"]);
    const kept = await brokenImports(PY, { "shop/pricing.py": null, "shop/cart.py": null, "shop/total.py": null, "tests/test_pricing.py": null, "shop/__init__.py": "from shop import other as pricing\n" });
    expect(kept).toEqual([]);
  });

  it("a package's __init__.py removed while its folder keeps modules (a namespace package): nothing", async () => {
    const files = { "pkg/__init__.py": "X = 1\n", "pkg/mod.py": "Y = 2\n", "app.py": "import pkg\nfrom pkg import mod\n" };
    expect(await brokenImports(files, { "pkg/__init__.py": null })).toEqual([]);
  });
});

const JS = {
  "web/format.ts": "export function pad(t: string, w: number) {\n  return t.padStart(w);\n}\n",
  "web/table.ts": 'import { pad } from "./format";\n\nexport const cell = (v: string) => pad(v, 10);\n',
  "web/report.js": 'const format = require("./format");\n\nexports.title = (t) => format.pad(t, 40);\n',
  "web/index.js": 'export * from "./format.js";\n',
};

describe("broken imports: JavaScript and TypeScript", () => {
  it("a file moved without its importers: each import named, with the new place", async () => {
    const found = await brokenImports(JS, { "web/format.ts": null, "web/text/format.ts": JS["web/format.ts"] });
    expect(sites(found)).toEqual([{ removed: "web/format.ts", movedTo: "web/text/format.ts", at: ["web/index.js:1", "web/report.js:1", "web/table.ts:1"] }]);
    const finding = brokenImportFinding(found[0]!);
    expect(finding).toMatchObject({ path: "web/text/format.ts", lineStart: 0 });
    expect(finding.message).toContain("this moves `web/format.ts` to `web/text/format.ts`, but 3 files still import it from `web/format.ts`");
    expect(finding.message).toContain("Import it from `web/text/format.ts` in these files");
  });

  it("moved with its importers updated: nothing", async () => {
    const found = await brokenImports(JS, {
      "web/format.ts": null,
      "web/text/format.ts": JS["web/format.ts"],
      "web/table.ts": JS["web/table.ts"].replace("./format", "./text/format"),
      "web/report.js": JS["web/report.js"].replace("./format", "./text/format"),
      "web/index.js": 'export * from "./text/format.js";\n',
    });
    expect(found).toEqual([]);
  });

  it("a moved file with edits: the finding sits on its first added line", async () => {
    const edited = JS["web/format.ts"].replace("t.padStart(w)", "t.padStart(w, ' ')");
    const found = await brokenImports(JS, { "web/format.ts": null, "web/text/format.ts": edited });
    expect(found[0]).toMatchObject({ movedTo: "web/text/format.ts", line: 2 });
    expect(brokenImportFinding(found[0]!)).toMatchObject({ path: "web/text/format.ts", lineStart: 2, lineEnd: 2 });
  });

  it("moved to a folder's index: the imports that still find it are not named, one naming `format.js` is", async () => {
    const found = await brokenImports(JS, { "web/format.ts": null, "web/format/index.ts": JS["web/format.ts"] });
    expect(sites(found)).toEqual([{ removed: "web/format.ts", movedTo: "web/format/index.ts", at: ["web/index.js:1"] }]);
  });

  it("addressed once every import it lists is rewritten, or the file is back", async () => {
    const changed = { "web/format.ts": null };
    const found = await brokenImports(JS, changed);
    const body = brokenImportFinding(found[0]!).message;
    const head = applied(JS, changed);
    const partly = diffsOf(JS, changed, { "web/table.ts": head["web/table.ts"]!.replace("./format", "./fmt") }).later;
    expect(removalFixed("web/format.ts", body, partly)).toBe(false);
    const all = diffsOf(JS, changed, {
      "web/table.ts": head["web/table.ts"]!.replace("./format", "./fmt"),
      "web/report.js": head["web/report.js"]!.replace("./format", "./fmt"),
      "web/index.js": null,
    }).later;
    expect(removalFixed("web/format.ts", body, all)).toBe(true);
    expect(removalFixed("web/format.ts", body, diffsOf(JS, changed, { "web/format.ts": JS["web/format.ts"] }).later)).toBe(true);
  });
});

describe("broken imports: Go, Rust, Java, C", () => {
  const GO = {
    "go.mod": "module example.com/m\n",
    "util/a.go": "package util\n\nfunc A() int { return 1 }\n",
    "util/b.go": "package util\n\nfunc B() int { return 2 }\n",
    "cmd/main.go": 'package main\n\nimport "example.com/m/util"\n\nfunc main() { util.A() }\n',
  };

  it("Go: one file of a package that keeps others is no broken import; the whole package deleted is (named once)", async () => {
    expect(await brokenImports(GO, { "util/a.go": null })).toEqual([]);
    const found = await brokenImports(GO, { "util/a.go": null, "util/b.go": null });
    expect(sites(found)).toEqual([{ removed: "util/a.go", movedTo: null, at: ["cmd/main.go:3"] }]);
    expect(brokenImportFinding(found[0]!).message).toContain("this deletes `util/a.go` and the rest of its package (`util/`), but 1 file still imports it; it will fail to import:");
  });

  it("Rust: a module file deleted while its parent still declares it, or a use tree still names it", async () => {
    const files = {
      "Cargo.toml": '[package]\nname = "demo"\n',
      "src/lib.rs": "mod a;\nmod b;\nuse crate::{a::f, b::g};\n",
      "src/a.rs": "pub fn f() {}\n",
      "src/b.rs": "pub fn g() {}\n",
    };
    expect(sites(await brokenImports(files, { "src/a.rs": null }))).toEqual([{ removed: "src/a.rs", movedTo: null, at: ["src/lib.rs:1", "src/lib.rs:3"] }]);
    expect(await brokenImports(files, { "src/a.rs": null, "src/lib.rs": "mod b;\nuse crate::b::g;\n" })).toEqual([]);
  });

  it("Java and C: an import of a deleted class, an include of a deleted header", async () => {
    const java = {
      "src/main/java/com/acme/Money.java": "package com.acme;\n\npublic class Money {}\n",
      "src/main/java/com/acme/shop/Cart.java": "package com.acme.shop;\n\nimport com.acme.Money;\n\npublic class Cart {}\n",
    };
    expect(sites(await brokenImports(java, { "src/main/java/com/acme/Money.java": null }))[0]!.at).toEqual(["src/main/java/com/acme/shop/Cart.java:3"]);
    const c = { "lib/util.h": "int util(void);\n", "lib/util.c": '#include "util.h"\nint util(void) { return 1; }\n', "main.c": '#include "lib/util.h"\nint main(void) { return util(); }\n' };
    expect(sites(await brokenImports(c, { "lib/util.h": null }))[0]!.at).toEqual(["lib/util.c:1", "main.c:1"]);
  });
});

describe("a deleted Go file's callers (broken callers on the file as a whole)", () => {
  const GO = {
    "go.mod": "module example.com/m\n",
    "util/a.go": "package util\n\nfunc A(x int) int { return x }\n\nfunc helper() int { return 0 }\n",
    "util/b.go": "package util\n\nfunc B() int { return A(1) + helper() }\n",
    "cmd/main.go": 'package main\n\nimport "example.com/m/util"\n\nfunc main() { util.A(2); util.B() }\n',
  };

  /** The broken callers of `changed` on `files`, the branch's graph made from the base's parses and resolved imports. */
  async function callersOf(files: Record<string, string>, changed: Change) {
    const head = applied(files, changed);
    const parsed = await Promise.all(Object.entries(files).map(async ([path, text]) => ({ path, p: await parseForCalls(path, text, null) })));
    const resolverFiles: ResolverFile[] = parsed.flatMap(({ path, p }) => (p ? [{ path, language: p.language, package: p.graph.package, imports: p.graph.imports }] : []));
    const resolved = resolveBranchGraph(Object.keys(files), resolverFiles);
    const graph: BranchGraph = {
      async callersOf(name) {
        return parsed.flatMap(({ path, p }) => (p?.calls ?? []).filter((c) => c.name === name).map((c) => ({ path, line: c.line })));
      },
      async definitionsOf(name) {
        return parsed.flatMap(({ path, p }) => (p?.graph.definitions ?? []).filter((d) => d.name === name).map((d) => ({ path, kind: d.kind, parent: d.parent, params: d.params })));
      },
      async importsOf(path) {
        return resolved.importsOf.get(path) ?? [];
      },
    };
    return findBrokenCallers({ files: diffsOf(files, changed).diff, readBase: async (p) => files[p] ?? null, readHead: async (p) => head[p] ?? null, graph });
  }

  it("its exported functions still called in the package and through the package's import: one finding on the file", async () => {
    const broken = await callersOf(GO, { "util/a.go": null });
    expect(broken.map((b) => [b.change.name, b.line, b.sites.map((s) => `${s.path}:${s.line}`)])).toEqual([["A", WHOLE_FILE_LINE, ["cmd/main.go:5", "util/b.go:3"]]]);
    const finding = deletedFileCallersFinding("util/a.go", broken);
    expect(finding).toMatchObject({ ruleId: "graph/broken-callers", path: "util/a.go", lineStart: 0, lineEnd: 0 });
    expect(finding.message).toContain("this deletes `util/a.go` and with it `A`, but 2 call sites still call it:");
    expect(finding.message).toContain("- `cmd/main.go:5`: calls `A`, which the change removes");
  });

  it("moved to another file of the package that the change writes, or its callers updated: nothing", async () => {
    expect(await callersOf(GO, { "util/a.go": null, "util/b.go": "package util\n\nfunc A(x int) int { return x }\n\nfunc helper() int { return 0 }\n\nfunc B() int { return A(1) + helper() }\n" })).toEqual([]);
    expect(await callersOf(GO, { "util/a.go": null, "util/b.go": "package util\n\nfunc B() int { return 1 }\n", "cmd/main.go": 'package main\n\nimport "example.com/m/util"\n\nfunc main() { util.B() }\n' })).toEqual([]);
  });
});
