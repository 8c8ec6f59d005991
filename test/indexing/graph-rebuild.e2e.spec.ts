/**
 * The code graph of a real git repository indexed by the running service (two branches), serialised
 * file by file as sorted, stable JSON; then, with the server stopped, the projections replayed and the
 * code index truncated and rebuilt from the log and the mirrors: the graph must come back byte-identical.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmbeddedCodeIndex } from "../../src/codeindex/embedded/code-index.ts";
import type { CodeIndex } from "../../src/codeindex/port.ts";
import { codeIndexRepoId } from "../../src/indexing/repo-id.ts";
import { createGitHostFixture, git, type GitHostFixture, type WorkRepo } from "../support/git-fixtures.ts";
import { repoRoot, tsxBin } from "../support/process.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

const run = promisify(execFile);

const FILES: Record<string, string> = {
  "shop/__init__.py": "",
  "shop/cart.py": "from .pricing import total, Discount\n\n\nclass Cart:\n    def __init__(self, items=None):\n        self.items = items or []\n\n    def checkout(self, discount: Discount, *, currency='EUR'):\n        return total(self.items, discount)\n",
  "shop/pricing.py": "class Discount:\n    rate = 0.1\n\n\ndef total(items, discount=None):\n    return sum(i.price for i in items) * (1 - discount.rate)\n",
  "web/src/api.ts": 'import { Cart } from "./cart.js";\nexport async function load(id: string, retries = 3): Promise<Cart> {\n  const res = await fetch(`/cart/${id}`);\n  return new Cart(await res.json());\n}\n',
  "web/src/cart.ts": "export class Cart {\n  constructor(private readonly data: unknown) {}\n  size(): number { return 0; }\n}\n",
  "svc/store/store.go": "package store\n\ntype Store struct{}\n\nfunc (s *Store) Get(key string) string { return key }\n",
  "svc/cmd/main.go": 'package main\n\nimport "example.com/svc/store"\n\nfunc main() {\n\ts := store.Store{}\n\ts.Get("a")\n}\n',
  "engine/Cargo.toml": '[package]\nname = "engine"\n',
  "engine/src/lib.rs": "mod parse;\nuse crate::parse::Token;\n\npub fn run(input: &str) -> Vec<Token> { parse::tokens(input) }\n",
  "engine/src/parse.rs": "pub struct Token;\npub fn tokens(_s: &str) -> Vec<Token> { Vec::new() }\n",
  "java/src/main/java/com/shop/App.java": "package com.shop;\nimport com.shop.model.Order;\npublic class App { public static void main(String[] args) { new Order().place(); } }\n",
  "java/src/main/java/com/shop/model/Order.java": "package com.shop.model;\npublic class Order { public void place() {} }\n",
  "native/io.c": '#include "io.h"\nint io_flush(int fd) { return io_write(fd, 0); }\n',
  "native/io.h": "int io_flush(int fd);\nint io_write(int fd, int n);\n",
  "README.md": "# Shop\n",
};

/** JSON with object keys sorted at every level (arrays keep their order). */
const stable = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) => (v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as object).sort(([a], [b]) => (a < b ? -1 : 1))) : v));

/** Every file's graph on each branch (with its imports, importers and resolved targets), in path order. */
async function serialiseGraph(index: CodeIndex, repoId: string, branches: string[]): Promise<string> {
  const out: unknown[] = [];
  for (const branch of branches) {
    const files = (await index.getBranchFiles(repoId, branch)).map((f) => f.path).sort();
    for (const path of files) {
      out.push({ branch, path, graph: await index.getFileGraph(repoId, branch, path), imports: await index.importsOf(repoId, branch, path), importers: await index.importersOf(repoId, branch, path) });
    }
  }
  return stable(out);
}

describe("the code graph of an indexed repository", () => {
  let fixture: GitHostFixture;
  let repo: WorkRepo;
  let server: TestServer;
  let repoId: string;
  let live: string;

  const indexBranch = async (branch: string) => {
    const res = await server.api("/v2/repositories", { method: "POST", json: { remote: "github", repository: "acme/shop", branch } });
    const body = (await res.json()) as { statusEndpoint: string; message: string };
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
      const status = (await (await server.api(new URL(body.statusEndpoint).pathname)).json()) as { status: string; failureReason: string | null };
      if (status.status === "completed") return body.message;
      if (status.status === "failed") throw new Error(`indexing failed: ${status.failureReason}`);
    }
    throw new Error("indexing did not complete");
  };

  beforeAll(async () => {
    fixture = createGitHostFixture();
    repo = fixture.createRepo("acme/shop", FILES);
    repo.write({ "shop/pricing.py": "class Discount:\n    rate = 0.2\n\n\ndef total(items, discount=None, rounding=2):\n    return round(sum(i.price for i in items), rounding)\n", "shop/tax.py": "def vat(x):\n    return x\n" });
    repo.write({ "shop/cart.py": `${FILES["shop/cart.py"]}\nfrom . import tax\n` });
    git(repo.dir, "checkout", "--quiet", "-b", "feature");
    repo.commit("feature");
    repo.publish();
    server = await startTestServer({ env: { LOUPE_GITHUB_URL: fixture.baseUrl } });
    await indexBranch("main");
    await indexBranch("feature");
  });
  afterAll(async () => {
    await server?.stop({ remove: true }).catch(() => {});
    fixture?.cleanup();
  });

  it("holds every file's definitions, references and imports resolved per branch", async () => {
    const index = server.loupe.services.codeIndex;
    const graphQl = await (await server.api("/graphql", { method: "POST", json: { query: "{ viewer { orgId } }" } })).json();
    const orgId = (graphQl as { data: { viewer: { orgId: string } } }).data.viewer.orgId;
    repoId = codeIndexRepoId(orgId, "github", "acme/shop");
    const cart = (await index.getFileGraph(repoId, "main", "shop/cart.py"))!;
    expect(cart.definitions.map((d) => [d.name, d.kind, d.parent])).toEqual([["Cart", "class", null], ["__init__", "method", "Cart"], ["checkout", "method", "Cart"]]);
    expect(cart.definitions[2]!.params).toEqual([{ name: "self", hasDefault: false }, { name: "discount", hasDefault: false }, { name: "*", hasDefault: false }, { name: "currency", hasDefault: true }]);
    expect(cart.imports).toEqual([{ spec: ".pricing", kind: "import", line: 1, names: ["total", "Discount"], targets: ["shop/pricing.py"] }]);
    expect(cart.references).toContainEqual({ name: "total", line: 9, call: true });
    expect(await index.importsOf(repoId, "main", "web/src/api.ts")).toEqual(["web/src/cart.ts"]);
    expect(await index.importsOf(repoId, "main", "svc/cmd/main.go")).toEqual(["svc/store/store.go"]);
    expect(await index.importsOf(repoId, "main", "engine/src/lib.rs")).toEqual(["engine/src/parse.rs"]);
    expect(await index.importsOf(repoId, "main", "java/src/main/java/com/shop/App.java")).toEqual(["java/src/main/java/com/shop/model/Order.java"]);
    expect(await index.importsOf(repoId, "main", "native/io.c")).toEqual(["native/io.h"]);
    // The feature branch: its own blobs, its own resolution.
    expect(await index.importsOf(repoId, "feature", "shop/cart.py")).toEqual(["shop/pricing.py", "shop/tax.py"]);
    expect(await index.importersOf(repoId, "main", "shop/pricing.py")).toEqual(["shop/cart.py"]);
    const filter = { orgId, targets: [{ repoId, branch: "main" }, { repoId, branch: "feature" }] };
    const totals = await index.findDefinitions(filter, ["total"]);
    expect(totals.map((h) => [h.branch, h.path, h.def.params!.map((p) => p.name)])).toEqual([
      ["main", "shop/pricing.py", ["items", "discount"]],
      ["feature", "shop/pricing.py", ["items", "discount", "rounding"]],
    ]);
    expect((await index.findReferences(filter, "Get")).map((r) => [r.path, r.line, r.call])).toEqual([["svc/cmd/main.go", 7, true]]);
    live = await serialiseGraph(index, repoId, ["main", "feature"]);
    expect(live.length).toBeGreaterThan(1000);
  });

  it("comes back byte-identical after a replay and a rebuild of the code index from the log and the mirrors", async () => {
    await server.stop();
    const env = { ...process.env, LOUPE_DATA_DIR: server.dataDir, LOUPE_API_KEY: "", NO_COLOR: "1" };
    await run(tsxBin, ["scripts/replay.ts", "--all"], { cwd: repoRoot, env, maxBuffer: 64 * 1024 * 1024 });
    const { stdout } = await run(tsxBin, ["scripts/rebuild-code-index.ts", "--truncate"], { cwd: repoRoot, env, maxBuffer: 64 * 1024 * 1024 });
    const report = JSON.parse(stdout) as { blobsRechunked: number; branchesRestored: number; missingMirrors: string[] };
    expect(report.missingMirrors).toEqual([]);
    expect(report.branchesRestored).toBe(2);
    expect(report.blobsRechunked).toBeGreaterThanOrEqual(Object.keys(FILES).length);
    const index = createEmbeddedCodeIndex({ dir: join(server.dataDir, "codeindex") });
    try {
      expect(await serialiseGraph(index, repoId, ["main", "feature"])).toBe(live);
    } finally {
      await index.close();
    }
  });
});
