import type { DocumentTerms } from "../codeindex/port.ts";

/** A piece of a source file, cut along its syntax tree (or by sections/lines for plain text). */
export type ChunkKind =
  | "function"
  | "method"
  | "class"
  | "interface"
  | "type"
  | "enum"
  | "module"
  | "variable"
  | "block"
  | "section"
  | "lines";

export type Chunk = {
  /** 1-based inclusive line range within the file. */
  startLine: number;
  endLine: number;
  kind: ChunkKind;
  /** Defined symbol name, e.g. "parseConfig"; null for merged blocks, sections without titles, lines. */
  symbol: string | null;
  /** Enclosing symbol, e.g. the class of a method ("Parser"), or null. */
  parent: string | null;
  /** First line(s) of the definition up to its body, e.g. "def parse(self, text: str) -> Node:". */
  signature: string | null;
  /** Doc comment / docstring text, trimmed, or null. */
  doc: string | null;
  /** The chunk's source text. */
  text: string;
  /** Human-readable description built without a model (see src/indexing/summary). */
  summary: string;
};

export type ChunkedFile = {
  path: string;
  language: string;
  /** File-level summary: what it defines (symbols, signatures, doc comments). */
  summary: string;
  /** All symbols defined in the file with their ranges (recorded in the log). */
  /** `label`: the language's word for the definition (`struct`, `enum`, `trait`, `impl Display for`, `macro`). */
  symbols: { name: string; kind: ChunkKind; parent: string | null; label?: string; startLine: number; endLine: number }[];
  chunks: Chunk[];
  /** Set when the parser failed and the file was chunked by lines instead. */
  parseError?: string;
  /** Index terms of the file's code-index documents (documents.ts fileTerms), when the pool was asked for them. */
  terms?: DocumentTerms;
  /** The file's code graph (src/indexing/graph/), encoded (src/codeindex/graph/codec.ts), for the languages that have graph rules. */
  graph?: string;
};
