import { describe, expect, it } from "vitest";
import type { ChunkedFile } from "../../src/indexing/chunk.ts";
import { createChunker } from "../../src/indexing/chunking/chunker.ts";
import { SCRIPT_WINDOW, definitionName } from "../../src/indexing/chunking/script-chunker.ts";
import { classifyFile } from "../../src/indexing/file-filter.ts";
import { classifyPath } from "../../src/retrieval/path-classes.ts";

const chunker = createChunker();
const chunk = (path: string, content: string): Promise<ChunkedFile> => chunker.chunkFile(path, content);
const head = (text: string) => new TextEncoder().encode(text);

describe("code in languages with no grammar here", () => {
  it("is indexed and ranked as source, not skipped as unsupported", () => {
    for (const path of ["src/builtin.jq", "lib/Foo.pm", "R/fit.r", "src/Main.hs", "src/parser.y", "src/lexer.l", "grammar/Expr.g4", "kernels/add.cu"]) {
      expect(classifyFile({ path, size: 100, head: head("def f: .;\n") }, { maxFileBytes: 1_000_000 }), path).toMatchObject({ index: true });
      expect(classifyPath(path), path).toBe("source");
    }
    expect(classifyFile({ path: "assets/logo.png", size: 100, head: head("abc") }, { maxFileBytes: 1_000_000 })).toEqual({ index: false, reason: "unsupported" });
    expect(classifyPath("config/settings.yaml")).toBe("other");
  });

  it("jq: each definition is a chunk named by it, with its exact lines", async () => {
    const src = [
      "# Builtins written in jq.",
      "def todate: strftime(\"%Y-%m-%dT%H:%M:%SZ\");",
      "",
      "def ltrimstr($x):",
      "  if type == \"string\" and startswith($x) then .[($x | length):]",
      "  else . end;",
      "",
      "def limit($n; f):",
      "  if $n > 0 then label $out | foreach f as $item (0; .+1; $item, if . >= $n then break $out else empty end)",
      "  else empty end;",
      "",
    ].join("\n");
    const file = await chunk("src/builtin.jq", src);
    expect(file.language).toBe("jq");
    expect(file.chunks.map((c) => [c.symbol, c.startLine, c.endLine, c.kind])).toEqual([
      ["todate", 1, 2, "function"],
      ["ltrimstr", 4, 6, "function"],
      ["limit", 8, 10, "function"],
    ]);
    expect(file.symbols.map((s) => s.name)).toEqual(["todate", "ltrimstr", "limit"]);
    expect(file.summary).toContain("ltrimstr");
  });

  it("Perl, R, Haskell, Tcl and a yacc grammar: the common definition shapes are named", () => {
    expect(definitionName("sub parse_args {")?.symbol).toBe("parse_args");
    expect(definitionName("fit_model <- function(x, y) {")?.symbol).toBe("fit_model");
    expect(definitionName("mapTree :: (a -> b) -> Tree a -> Tree b")?.symbol).toBe("mapTree");
    expect(definitionName("proc ::http::geturl {url args} {")).toMatchObject({ symbol: "geturl", parent: "::http" });
    expect(definitionName("(defun list-files (dir)")?.symbol).toBe("list-files");
    expect(definitionName("  return x + 1")).toBeNull();
    expect(definitionName("x = 1")).toBeNull();
  });

  it("unnamed blocks are grouped and long ones cut, so every line is in a bounded chunk", async () => {
    const statements = Array.from({ length: 200 }, (_, i) => `%token T${i}`).join("\n");
    const rules = "\n\n%%\n\nexpr: expr '+' term\n    | term\n    ;\n";
    const src = `${statements}${rules}`;
    const file = await chunk("src/parser.y", src);
    const lines = src.split("\n");
    const covered = new Set<number>();
    for (const c of file.chunks) {
      expect(c.endLine - c.startLine + 1).toBeLessThanOrEqual(SCRIPT_WINDOW.maxLines);
      expect(c.text).toBe(lines.slice(c.startLine - 1, c.endLine).join("\n"));
      for (let l = c.startLine; l <= c.endLine; l++) covered.add(l);
    }
    lines.forEach((line, i) => {
      if (line.trim()) expect(covered.has(i + 1), `line ${i + 1}`).toBe(true);
    });
    expect(file.chunks.length).toBeGreaterThanOrEqual(4);
  });
});
