import type { Chunk, ChunkedFile } from "../chunk.ts";
import { summarizeChunk, summarizeFile } from "../summary.ts";
import type { LanguageInfo } from "./languages.ts";
import { isBlank, lineWindows, rowsText, splitLines, trimBlankRows, type RowRange, type WindowLimits } from "./line-windows.ts";

/**
 * Code in a language with no grammar here (jq, Perl, R, Haskell, Tcl, grammar files...): cut into
 * blocks where a top-level line follows a blank line (where most languages start a definition),
 * each block named by its first definition-looking line. A named block is a chunk of its own (so a
 * reference spans the definition); unnamed blocks are grouped up to a window.
 */
export const SCRIPT_WINDOW: WindowLimits = { maxLines: 60, maxChars: 3000, overlap: 0 };

/**
 * A definition's first line in the common shapes: a keyword then the name (`def f`, `sub f`,
 * `function f`, `proc f`, `fn f`, `(defun f`, `class F`), or a name bound to a function
 * (`f <- function`, `f = function`, `f :: T`).
 */
const KEYWORD_DEFINITION =
  /^\s*\(?(?:(?:export|public|private|protected|static|local|pub|async|inline|extern|abstract|final|override)\s+)*(?:def|defp|defn|defun|defmacro|defmethod|sub|function|func|fun|fn|proc|procedure|method|macro|class|module|struct|record|trait|interface|object|instance|newtype|data|type|rule|task)\s+[&*]?((?:::)?[A-Za-z_$][\w$.:!?'-]*)/;
const BOUND_DEFINITION = /^([A-Za-z_$][\w$.']*)\s*(?:<-\s*function\b|=\s*function\b|::\s*\S)/;

/** The name a line defines, split at its last `.`/`:` into the name and its owner (`M.add`: add of M). */
export function definitionName(line: string): { symbol: string; parent: string | null } | null {
  const m = KEYWORD_DEFINITION.exec(line) ?? BOUND_DEFINITION.exec(line);
  const full = m?.[1]?.replace(/[.:]+$/, "") ?? "";
  const cut = Math.max(full.lastIndexOf("."), full.lastIndexOf(":"));
  const symbol = full.slice(cut + 1);
  if (symbol === "") return null;
  const parent = cut > 0 ? full.slice(0, cut).replace(/[.:]+$/, "") : null;
  return { symbol, parent: parent || null };
}

type Name = { symbol: string; parent: string | null; signature: string };
type Block = { range: RowRange; name: Name | null };

/** Blocks: a new one starts at a non-indented line that follows a blank line. */
function blocksOf(lines: readonly string[]): Block[] {
  const blocks: Block[] = [];
  let start = 0;
  const close = (end: number) => {
    const range = trimBlankRows(lines, { start, end });
    if (!range) return;
    let name: Name | null = null;
    for (let row = range.start; row <= range.end && name === null; row++) {
      const line = lines[row] ?? "";
      const found = definitionName(line);
      if (found) name = { ...found, signature: line.trim().slice(0, 200) };
    }
    blocks.push({ range, name });
  };
  for (let row = 1; row < lines.length; row++) {
    const line = lines[row] ?? "";
    if (!isBlank(line) && !/^\s/.test(line) && isBlank(lines[row - 1] ?? "")) {
      close(row - 1);
      start = row;
    }
  }
  close(lines.length - 1);
  return blocks;
}

const size = (lines: readonly string[], range: RowRange): number => {
  let chars = 0;
  for (let row = range.start; row <= range.end; row++) chars += (lines[row] ?? "").length + 1;
  return chars;
};

/** Named blocks alone, unnamed runs grouped; anything past the window cut into windows. */
function pieces(lines: readonly string[], blocks: readonly Block[]): Block[] {
  const out: Block[] = [];
  const fits = (range: RowRange) => range.end - range.start < SCRIPT_WINDOW.maxLines && size(lines, range) <= SCRIPT_WINDOW.maxChars;
  const push = (block: Block) => {
    if (fits(block.range)) out.push(block);
    else lineWindows(lines, block.range, SCRIPT_WINDOW).forEach((range, i) => out.push({ range, name: i === 0 ? block.name : null }));
  };
  let run: RowRange | null = null;
  for (const block of blocks) {
    if (block.name === null) {
      const merged: RowRange | null = run ? { start: run.start, end: block.range.end } : null;
      if (merged && fits(merged)) run = merged;
      else {
        if (run) push({ range: run, name: null });
        run = block.range;
      }
      continue;
    }
    if (run) push({ range: run, name: null });
    run = null;
    push(block);
  }
  if (run) push({ range: run, name: null });
  return out;
}

export const chunkScript = (path: string, content: string, language: LanguageInfo): ChunkedFile => {
  const lines = splitLines(content);
  const fileName = path.slice(path.lastIndexOf("/") + 1);
  const chunks: Chunk[] = pieces(lines, blocksOf(lines)).map(({ range, name }) => {
    const first = (lines[range.start] ?? "").trim();
    const base = {
      startLine: range.start + 1,
      endLine: range.end + 1,
      kind: name ? ("function" as const) : ("lines" as const),
      symbol: name?.symbol ?? null,
      parent: name?.parent ?? null,
      signature: name?.signature ?? null,
      doc: null,
    };
    return { ...base, text: rowsText(lines, range), summary: summarizeChunk({ ...base, fileName, languageName: language.name, firstLine: first }) };
  });
  const symbols = chunks.filter((c) => c.symbol !== null).map((c) => ({ name: c.symbol!, kind: c.kind, parent: c.parent, startLine: c.startLine, endLine: c.endLine }));
  return {
    path,
    language: language.id,
    summary: summarizeFile({
      path,
      languageName: language.name,
      chunking: "text",
      symbols: symbols.map((s) => ({ name: s.name, kind: s.kind, parent: s.parent })),
      moduleDoc: null,
      facts: [],
      lineCount: lines.length,
    }),
    symbols,
    chunks,
  };
};
