/**
 * The review's own parses of a changed file (its outline, its calls): bounded in size and time, the
 * tree freed whatever happens, and the file's lines and row offsets handed to the reader.
 */
import type { Tree } from "web-tree-sitter";
import { detectLanguageOf, type LanguageInfo } from "../indexing/chunking/languages.ts";
import { parserFor } from "../indexing/chunking/parsers.ts";
import { parseAsChunked, readsThroughErrors } from "../indexing/chunking/syntax-chunker.ts";
import type { FileContext } from "../indexing/chunking/definitions.ts";
import { splitLines } from "../indexing/chunking/line-windows.ts";

/** Files longer than this are not parsed for a review. */
const MAX_PARSED_CHARS = 1_000_000;
/** A parse taking longer than this is given up. */
const PARSE_TIMEOUT_MS = 2_000;

/** The character offset at which each line starts, and one past the end. */
const rowOffsetsOf = (lines: readonly string[]): number[] => {
  const offsets: number[] = [];
  let offset = 0;
  for (const line of lines) {
    offsets.push(offset);
    offset += line.length + 1;
  }
  offsets.push(offset);
  return offsets;
};

/**
 * Parses `content` as the syntax-chunked language of `path` (when `accept` takes it) and gives the tree
 * to `read`; null when the language is not taken, the file is too long, the parse fails or times out,
 * or `read` throws.
 */
export async function readParsed<T>(
  path: string,
  content: string,
  read: (tree: Tree, ctx: FileContext, language: LanguageInfo) => T | null,
  accept: (language: LanguageInfo) => boolean = () => true,
): Promise<T | null> {
  const language = detectLanguageOf(path, content);
  if (!language || language.chunking !== "syntax" || !accept(language) || content.length > MAX_PARSED_CHARS) return null;
  let tree: Tree | null = null;
  try {
    const parser = await parserFor(language);
    const deadline = performance.now() + PARSE_TIMEOUT_MS;
    // As the chunker reads it (C and C++ macros and conditionals the grammar cannot place read as blank).
    tree = parseAsChunked(parser, language.id, content, () => performance.now() > deadline);
    if (!tree) {
      parser.reset();
      return null;
    }
    const lines = splitLines(content);
    return read(tree, { content, lines, rowOffsets: rowOffsetsOf(lines), throughErrors: readsThroughErrors(language.id) }, language);
  } catch {
    return null;
  } finally {
    tree?.delete();
  }
}
