/** The size bounds of chunks made from syntax (./syntax-chunker.ts), and when a parse is given up for lines. */
import type { WindowLimits } from "./line-windows.ts";

/**
 * Size bounds (lines and characters; a chunk must satisfy both):
 * - a definition longer than MAX_DEFINITION_* is split: a class-like definition into a header chunk
 *   plus its members, anything else into FUNCTION_WINDOW windows keeping symbol and parent;
 * - definitions shorter than SMALL_DEFINITION_LINES and all other statements (imports, constants,
 *   expressions) are merged with their neighbours into "block" chunks of at most BLOCK_MAX_*.
 */
export const MAX_DEFINITION_LINES = 150;
export const MAX_DEFINITION_CHARS = 6_000;
export const BLOCK_MAX_LINES = 60;
export const BLOCK_MAX_CHARS = 2_500;
export const SMALL_DEFINITION_LINES = 4;
export const FUNCTION_WINDOW: WindowLimits = { maxLines: 80, maxChars: 4_000, overlap: 0 };
export const SIGNATURE_MAX_CHARS = 200;
export const DOC_MAX_CHARS = 1_200;
/** A parse taking longer than this is abandoned and the file is chunked by lines. */
export const DEFAULT_PARSE_TIMEOUT_MS = 5_000;
/** When syntax errors cover more than this share of the file, it is chunked by lines. */
export const MAX_ERROR_SHARE = 0.5;

/**
 * A namespace this share of its file's lines or more is the file's scope (`namespace leveldb { ... }`
 * around a whole C++ or C# file, an anonymous namespace around a file's local code), like an include
 * guard: its members are chunks of their own at any size (./emit.ts, ./syntax-rules.ts). A namespace
 * that groups part of a file (`namespace detail { ... }` among other code) stays one unit while small.
 */
export const SCOPE_NAMESPACE_SHARE = 0.5;
