/**
 * The code graph part of the CodeIndex contract (run with codeIndexContract's fixtures):
 *   codeGraphContract("embedded", makeIndex);
 * Graphs are written as the indexer writes them: with their file's chunks (a chunk per file holding its
 * text here), then the branch's file set.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CodeIndex, FileGraphContent, GraphDefinition, IndexFilter } from "../../src/codeindex/port.ts";
import { encodeGraph } from "../../src/codeindex/graph/codec.ts";
import { chunk, type CodeIndexFixture } from "./codeindex.contract.ts";

const ORG = "org-a";
const OTHER_ORG = "org-b";

type FileSpec = { repoId?: string; orgId?: string; path: string; blobId: string; text: string; graph: Partial<FileGraphContent>; language?: string };

const def = (name: string, startLine: number, extra: Partial<GraphDefinition> = {}): GraphDefinition => ({
  name,
  kind: "function",
  label: "function",
  parent: null,
  startLine,
  endLine: startLine + 1,
  params: [],
  paramsText: "()",
  ...extra,
});

const content = (g: Partial<FileGraphContent>): FileGraphContent => ({ package: null, definitions: [], references: [], imports: [], ...g });

export function codeGraphContract(label: string, makeIndex: () => Promise<CodeIndexFixture>): void {
  describe(`CodeIndex contract, code graph: ${label}`, () => {
    let fixture: CodeIndexFixture;
    let index: CodeIndex;
    beforeEach(async () => {
      fixture = await makeIndex();
      index = fixture.index;
    });
    afterEach(async () => {
      await fixture.cleanup();
    });

    /** Writes each file's chunk and graph, then puts the files on `branch` (added to what it holds). */
    async function put(branch: string, files: FileSpec[]): Promise<void> {
      await index.upsertChunks(files.map((f) => chunk({ repoId: f.repoId ?? "r1", orgId: f.orgId ?? ORG, path: f.path, blobId: f.blobId, ordinal: 0, language: f.language ?? "python", text: f.text })));
      await index.upsertGraphs(files.map((f) => ({ orgId: f.orgId ?? ORG, repoId: f.repoId ?? "r1", path: f.path, blobId: f.blobId, language: f.language ?? "python", graph: encodeGraph(content(f.graph)) })));
      for (const repoId of new Set(files.map((f) => f.repoId ?? "r1"))) {
        const merged = new Map((await index.getBranchFiles(repoId, branch)).map((f) => [f.path, f.blobId]));
        for (const f of files) if ((f.repoId ?? "r1") === repoId) merged.set(f.path, f.blobId);
        await index.setBranchFiles(repoId, branch, [...merged].map(([path, blobId]) => ({ path, blobId })));
      }
    }

    const filter = (targets: [string, string][], extra: Partial<IndexFilter> = {}): IndexFilter => ({ orgId: ORG, targets: targets.map(([repoId, branch]) => ({ repoId, branch })), ...extra });

    const parser: FileSpec = {
      path: "pkg/parser.py",
      blobId: "p1",
      text: "from .lexer import tokenize\nclass Parser:\n    def parse(self, text, strict=False):\n        return tokenize(text).tokens\n",
      graph: {
        definitions: [
          def("Parser", 2, { kind: "class", label: "class", endLine: 4, params: null, paramsText: null }),
          def("parse", 3, { kind: "method", label: "method", parent: "Parser", endLine: 4, params: [{ name: "self", hasDefault: false }, { name: "text", hasDefault: false }, { name: "strict", hasDefault: true }], paramsText: "(self, text, strict=False)" }),
        ],
        references: [
          { name: "tokenize", line: 4, call: true },
          { name: "tokens", line: 4, call: false },
        ],
        imports: [{ spec: ".lexer", kind: "import", line: 1, names: ["tokenize"] }],
      },
    };
    const lexer: FileSpec = {
      path: "pkg/lexer.py",
      blobId: "l1",
      text: "def tokenize(text):\n    return Tokens(text)\n",
      graph: { definitions: [def("tokenize", 1, { params: [{ name: "text", hasDefault: false }], paramsText: "(text)" })], references: [{ name: "Tokens", line: 2, call: true }] },
    };
    const init: FileSpec = { path: "pkg/__init__.py", blobId: "i1", text: "", graph: {} };

    it("returns a file's graph on a branch, its imports resolved against that branch", async () => {
      await put("main", [parser, lexer, init]);
      const graph = await index.getFileGraph("r1", "main", "pkg/parser.py");
      expect(graph).toMatchObject({ orgId: ORG, repoId: "r1", branch: "main", path: "pkg/parser.py", blobId: "p1", language: "python", package: null });
      expect(graph!.definitions).toEqual(content(parser.graph).definitions);
      expect(graph!.references).toEqual(content(parser.graph).references);
      expect(graph!.imports).toEqual([{ spec: ".lexer", kind: "import", line: 1, names: ["tokenize"], targets: ["pkg/lexer.py"] }]);
      expect(await index.getFileGraph("r1", "main", "pkg/missing.py")).toBeNull();
      expect(await index.getFileGraph("r1", "other", "pkg/parser.py")).toBeNull();
      expect(await index.importsOf("r1", "main", "pkg/parser.py")).toEqual(["pkg/lexer.py"]);
      expect(await index.importersOf("r1", "main", "pkg/lexer.py")).toEqual(["pkg/parser.py"]);
      expect(await index.importersOf("r1", "main", "pkg/parser.py")).toEqual([]);
    });

    it("resolves imports per branch: a file added on one branch is imported there only", async () => {
      const app: FileSpec = { path: "app.py", blobId: "a1", text: "import pkg.util\n", graph: { imports: [{ spec: "pkg.util", kind: "import", line: 1 }] } };
      await put("main", [app, init]);
      await put("feature", [app, init, { path: "pkg/util.py", blobId: "u1", text: "X = 1\n", graph: {} }]);
      expect(await index.importsOf("r1", "main", "app.py")).toEqual([]);
      expect(await index.importsOf("r1", "feature", "app.py")).toEqual(["pkg/util.py"]);
      expect((await index.getFileGraph("r1", "feature", "app.py"))!.imports[0]!.targets).toEqual(["pkg/util.py"]);
      // The file set changes: resolution follows.
      await index.setBranchFiles("r1", "main", [{ path: "app.py", blobId: "a1" }, { path: "pkg/__init__.py", blobId: "i1" }, { path: "pkg/util.py", blobId: "u1" }]);
      expect(await index.importsOf("r1", "main", "app.py")).toEqual(["pkg/util.py"]);
      expect(await index.importersOf("r1", "main", "pkg/util.py")).toEqual(["app.py"]);
    });

    it("finds definitions by exact name in the filter's branches, with their parameters", async () => {
      await put("main", [parser, lexer]);
      await put("main", [{ repoId: "r2", path: "lib/tok.py", blobId: "t1", text: "def tokenize(s, n=1): pass\n", graph: { definitions: [def("tokenize", 1, { params: [{ name: "s", hasDefault: false }, { name: "n", hasDefault: true }], paramsText: "(s, n=1)" })] } }]);
      const hits = await index.findDefinitions(filter([["r1", "main"], ["r2", "main"]]), ["tokenize", "Parser"]);
      expect(hits.map((h) => [h.repoId, h.branch, h.path, h.def.name, h.def.startLine])).toEqual([
        ["r1", "main", "pkg/lexer.py", "tokenize", 1],
        ["r1", "main", "pkg/parser.py", "Parser", 2],
        ["r2", "main", "lib/tok.py", "tokenize", 1],
      ]);
      expect(hits[2]!.def.params).toEqual([{ name: "s", hasDefault: false }, { name: "n", hasDefault: true }]);
      expect(hits[0]!.language).toBe("python");
      expect(await index.findDefinitions(filter([["r1", "main"]]), ["tokenizer", "parse_"])).toEqual([]);
      expect((await index.findDefinitions(filter([["r1", "main"], ["r2", "main"]], { pathPrefix: "lib/" }), ["tokenize"])).map((h) => h.path)).toEqual(["lib/tok.py"]);
      expect(await index.findDefinitions(filter([["r1", "main"], ["r2", "main"]]), ["tokenize"], 1)).toHaveLength(1);
      expect(await index.findDefinitions({ ...filter([["r1", "main"]]), orgId: OTHER_ORG }, ["tokenize"])).toEqual([]);
    });

    it("sees each branch's own blob of a path", async () => {
      await put("main", [lexer]);
      await put("feature", [{ ...lexer, blobId: "l2", text: "def lex(text):\n    return text\n", graph: { definitions: [def("lex", 1)] } }]);
      expect((await index.findDefinitions(filter([["r1", "main"]]), ["tokenize", "lex"])).map((h) => [h.blobId, h.def.name])).toEqual([["l1", "tokenize"]]);
      expect((await index.findDefinitions(filter([["r1", "feature"]]), ["tokenize", "lex"])).map((h) => [h.blobId, h.def.name])).toEqual([["l2", "lex"]]);
      // Both branches: the file is seen once, through the first target that holds it.
      expect((await index.findDefinitions(filter([["r1", "feature"], ["r1", "main"]]), ["tokenize", "lex"])).map((h) => [h.branch, h.def.name])).toEqual([["feature", "lex"], ["main", "tokenize"]]);
    });

    it("finds the lines where a name is used, calls marked, in the filter's branches only", async () => {
      const user: FileSpec = {
        path: "app/main.py",
        blobId: "m1",
        text: "from pkg.lexer import tokenize\nx = tokenize('a')\ny = tokenize\nz = tokenize('b')\n",
        graph: { references: [{ name: "tokenize", line: 2, call: true }, { name: "tokenize", line: 3, call: false }, { name: "tokenize", line: 4, call: true }] },
      };
      await put("main", [parser, lexer, user]);
      await put("other", [{ ...user, blobId: "m2", text: "tokenize()\n", graph: { references: [{ name: "tokenize", line: 1, call: true }] } }]);
      const refs = await index.findReferences(filter([["r1", "main"]]), "tokenize");
      expect(refs.map((r) => [r.path, r.line, r.call])).toEqual([
        ["app/main.py", 2, true],
        ["app/main.py", 3, false],
        ["app/main.py", 4, true],
        ["pkg/parser.py", 4, true],
      ]);
      expect(refs[0]).toMatchObject({ repoId: "r1", branch: "main", blobId: "m1" });
      expect((await index.findReferences(filter([["r1", "other"]]), "tokenize")).map((r) => [r.blobId, r.line])).toEqual([["m2", 1]]);
      expect((await index.findReferences(filter([["r1", "main"]], { pathPrefix: "pkg/" }), "tokenize")).map((r) => r.path)).toEqual(["pkg/parser.py"]);
      expect(await index.findReferences(filter([["r1", "main"]]), "tokenize", 2)).toHaveLength(2);
      expect(await index.findReferences(filter([["r1", "main"]]), "Tokenize")).toEqual([]);
      expect(await index.findReferences({ ...filter([["r1", "main"]]), orgId: OTHER_ORG }, "tokenize")).toEqual([]);
    });

    it("finds uses of names too short or too common to be index terms", async () => {
      await put("main", [{ path: "m.py", blobId: "s1", text: "f(x)\nis_(y)\n", graph: { references: [{ name: "f", line: 1, call: true }, { name: "is", line: 2, call: false }] } }]);
      expect((await index.findReferences(filter([["r1", "main"]]), "f")).map((r) => [r.path, r.line, r.call])).toEqual([["m.py", 1, true]]);
      expect((await index.findReferences(filter([["r1", "main"]]), "is")).map((r) => r.line)).toEqual([2]);
    });

    it("is idempotent, and a changed graph replaces the old one", async () => {
      await put("main", [lexer]);
      await put("main", [lexer]);
      expect((await index.findDefinitions(filter([["r1", "main"]]), ["tokenize"])).length).toBe(1);
      await index.upsertGraphs([{ orgId: ORG, repoId: "r1", path: lexer.path, blobId: lexer.blobId, language: "python", graph: encodeGraph(content({ definitions: [def("scan", 1)] })) }]);
      expect(await index.findDefinitions(filter([["r1", "main"]]), ["tokenize"])).toEqual([]);
      expect((await index.findDefinitions(filter([["r1", "main"]]), ["scan"])).map((h) => h.def.name)).toEqual(["scan"]);
      expect((await index.getFileGraph("r1", "main", lexer.path))!.definitions.map((d) => d.name)).toEqual(["scan"]);
    });

    it("removes graphs with their blob, their repository, and on truncate", async () => {
      await put("main", [parser, lexer, init]);
      await put("main", [{ ...lexer, repoId: "r2" }]);
      await index.deleteBlob("r1", lexer.path, lexer.blobId);
      expect(await index.getFileGraph("r1", "main", lexer.path)).toBeNull();
      expect((await index.findDefinitions(filter([["r1", "main"], ["r2", "main"]]), ["tokenize"])).map((h) => h.repoId)).toEqual(["r2"]);
      await index.deleteRepository("r1");
      expect(await index.getFileGraph("r1", "main", parser.path)).toBeNull();
      expect(await index.findReferences(filter([["r1", "main"]]), "tokenize")).toEqual([]);
      expect(await index.getFileGraph("r2", "main", lexer.path)).not.toBeNull();
      await index.truncate();
      expect(await index.getFileGraph("r2", "main", lexer.path)).toBeNull();
      expect(await index.findDefinitions(filter([["r2", "main"]]), ["tokenize"])).toEqual([]);
    });

    it("persists across a reopen", async () => {
      if (!fixture.reopen) return;
      await put("main", [parser, lexer, init]);
      const before = await index.getFileGraph("r1", "main", parser.path);
      index = await fixture.reopen();
      expect(await index.getFileGraph("r1", "main", parser.path)).toEqual(before);
      expect((await index.findDefinitions(filter([["r1", "main"]]), ["parse"])).map((h) => h.def.parent)).toEqual(["Parser"]);
      expect(await index.importersOf("r1", "main", lexer.path)).toEqual([parser.path]);
    });
  });
}
