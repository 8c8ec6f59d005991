
import { Parser, type Tree } from "web-tree-sitter";
import type { ChunkedFile } from "../chunk.ts";
import { summarizeFile } from "../summary.ts";
import { type LanguageInfo } from "./languages.ts";
import { splitLines } from "./line-windows.ts";
import { childrenOf } from "./syntax-nodes.ts";
import { chunkByLines } from "./text-chunker.ts";
import { DEFAULT_PARSE_TIMEOUT_MS, MAX_ERROR_SHARE } from "./chunk-bounds.ts";
import { parserFor } from "./parsers.ts";
import { type FileContext, unitsOf } from "./definitions.ts";
import { type Emitter, collectSymbols, coverGaps, emitUnits, errorRows, finalize, moduleDocOf } from "./emit.ts";
import { extractEncodedGraph } from "../graph/extract.ts";
import { blankForGrammar } from "./c-preprocessor.ts";

export type SyntaxChunkerOptions = { parseTimeoutMs?: number };

const rowOffsetsOf = (lines: readonly string[]): number[] => {
  const offsets = new Array<number>(lines.length + 1);
  let offset = 0;
  for (let i = 0; i < lines.length; i++) {
    offsets[i] = offset;
    offset += lines[i]!.length + 1;
  }
  offsets[lines.length] = offset;
  return offsets;
};

export const lineFallback = (path: string, content: string, language: LanguageInfo, parseError: string): ChunkedFile => {
  const lines = splitLines(content);
  return {
    path,
    language: language.id,
    summary: summarizeFile({ path, languageName: language.name, chunking: "syntax", symbols: [], moduleDoc: null, lineCount: lines.length, parseError }),
    symbols: [],
    chunks: chunkByLines(path, lines, language),
    parseError,
  };
};

const C_FAMILY = new Set(["c", "cpp"]);

/**
 * Whether a language's files are read through their syntax errors (`withoutConditionals` in
 * ./syntax-rules.ts): C and C++, whose preprocessor the grammar does not know, so that an error there is
 * most often a conditional it could not place around code it still parses whole.
 */
export const readsThroughErrors = (languageId: string): boolean => C_FAMILY.has(languageId);

/**
 * A C or C++ file's tree: read with its lone macro lines, declarations' export macros and conditionals
 * inside lists as blank (`blankForGrammar`, ./c-preprocessor.ts). When most of
 * the file is still an error (which would chunk it by lines), it is read again as written (the grammar's
 * error recovery sometimes does better with the macros), and the tree with fewer error rows is kept.
 * Offsets and rows are the file's in both readings; only files that would fail are read twice.
 */
function parseC(parser: Parser, content: string, progressCallback: () => boolean): Tree | null {
  const blanked = blankForGrammar(content);
  const first = parser.parse(blanked, null, { progressCallback });
  if (!first || !first.rootNode.hasError || blanked === content) return first;
  const firstErrors = errorRows(first.rootNode, true);
  if (firstErrors <= MAX_ERROR_SHARE * splitLines(content).length) return first;
  const asWritten = parser.parse(content, null, { progressCallback });
  if (!asWritten) return first; // out of time
  if ((asWritten.rootNode.hasError ? errorRows(asWritten.rootNode, true) : 0) < firstErrors) {
    first.delete();
    return asWritten;
  }
  asWritten.delete();
  return first;
}

/**
 * A file's tree as the chunker reads it: C and C++ through `parseC` (their macros and conditionals the
 * grammar cannot place read as blank), other languages as written. The review's own parses
 * (src/review/parse-bounds.ts) read files the same way, so a definition has the same span in both.
 */
export function parseAsChunked(parser: Parser, languageId: string, content: string, progressCallback: () => boolean): Tree | null {
  return C_FAMILY.has(languageId) ? parseC(parser, content, progressCallback) : parser.parse(content, null, { progressCallback });
}

export type SyntaxChunker = { chunk(path: string, content: string, language: LanguageInfo): Promise<ChunkedFile> };

export const createSyntaxChunker = (options: SyntaxChunkerOptions = {}): SyntaxChunker => {
  const timeoutMs = options.parseTimeoutMs ?? DEFAULT_PARSE_TIMEOUT_MS;
  return {
    async chunk(path, content, language) {
      let parser: Parser;
      try {
        parser = await parserFor(language);
      } catch (error) {
        return lineFallback(path, content, language, error instanceof Error ? error.message : String(error));
      }
      let tree: Tree | null = null;
      try {
        const deadline = performance.now() + timeoutMs;
        const progressCallback = (): boolean => performance.now() > deadline;
        try {
          // C and C++ macros the grammar cannot place are read as blank (./c-preprocessor.ts); the chunks keep `content`.
          // The grammar's error recovery can still do worse without them: then the file as written is read.
          tree = parseAsChunked(parser, language.id, content, progressCallback);
        } catch (error) {
          parser.reset();
          return lineFallback(path, content, language, `parser failed: ${error instanceof Error ? error.message : String(error)}`);
        }
        if (!tree) {
          parser.reset();
          return lineFallback(path, content, language, `parse timed out after ${timeoutMs} ms`);
        }
        const root = tree.rootNode;
        const lines = splitLines(content);
        const throughErrors = readsThroughErrors(language.id);
        const bad = errorRows(root, throughErrors);
        if (bad > 0 && bad / Math.max(1, lines.length) > MAX_ERROR_SHARE) {
          return lineFallback(path, content, language, `syntax errors cover ${Math.round((100 * bad) / lines.length)}% of the file`);
        }
        const ctx: FileContext = { content, lines, rowOffsets: rowOffsetsOf(lines), joinDirectives: true, throughErrors };
        const units = unitsOf(ctx, childrenOf(root), null);
        const em: Emitter = {
          ctx,
          drafts: [],
          rowChars: (range) => (ctx.rowOffsets[range.end + 1] ?? content.length) - (ctx.rowOffsets[range.start] ?? 0),
        };
        emitUnits(em, units, null);
        coverGaps(em, lines.length);
        const symbols = collectSymbols(units);
        const graph = extractEncodedGraph(root, language.id, units);
        return {
          path,
          language: language.id,
          summary: summarizeFile({
            path,
            languageName: language.name,
            chunking: "syntax",
            symbols,
            moduleDoc: moduleDocOf(root, language.id),
            lineCount: lines.length,
          }),
          symbols: symbols.map(({ name, kind, parent, label, startLine, endLine }) => ({ name, kind, parent, label, startLine, endLine })),
          chunks: em.drafts.map((d) => finalize(ctx, d)),
          ...(graph !== null ? { graph } : {}),
        };
      } finally {
        tree?.delete();
      }
    },
  };
};
