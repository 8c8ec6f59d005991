/**
 * A search's references are whole definitions, never a window of one. A definition longer than a chunk
 * may be (MAX_DEFINITION_LINES) is cut into windows at index time (`(part 2/4, lines ...)` in the chunk's
 * summary); a reference to one window shows a reader a third of a function, often not the part the fix
 * changes. The reference becomes the definition's lines, found from the file's chunks: the run of windows
 * of the same symbol, parent and kind around it, while it stays at most WHOLE_DEFINITION_MAX_LINES.
 */
import type { ChunkDocument } from "../codeindex/port.ts";
import { MAX_DEFINITION_LINES } from "../indexing/chunking/chunk-bounds.ts";
import { WINDOW_PART } from "../indexing/summary.ts";
import type { Reference } from "./references.ts";

/** The first files whose windows are widened: a widening reads the file's chunks, and a reader opens the first files. */
export const WHOLE_DEFINITION_FILES = 5;

/** Longer definitions keep their windows (a generated table, a giant switch): a span is meant to be read. */
export const WHOLE_DEFINITION_MAX_LINES = 4 * MAX_DEFINITION_LINES;


/** The window chunk a reference is exactly, if it is one. */
export const windowAt = (ref: Reference, chunks: readonly ChunkDocument[]): ChunkDocument | undefined =>
  chunks.find((c) => c.startLine === ref.linestart && c.endLine === ref.lineend && WINDOW_PART.test(c.summary));

/** The lines of the definition a window is part of (its run of windows in the file), or null. */
export function definitionOfWindow(window: ChunkDocument, fileChunks: readonly ChunkDocument[]): { linestart: number; lineend: number } | null {
  const parts = fileChunks
    .filter((c) => c.symbol === window.symbol && c.parent === window.parent && c.kind === window.kind && WINDOW_PART.test(c.summary))
    .sort((a, b) => a.startLine - b.startLine);
  const at = parts.findIndex((c) => c.startLine === window.startLine);
  if (at < 0) return null;
  // Windows of one definition follow each other (a blank line between at most).
  let first = at;
  let last = at;
  while (first > 0 && parts[first - 1]!.endLine >= parts[first]!.startLine - 2) first--;
  while (last < parts.length - 1 && parts[last + 1]!.startLine <= parts[last]!.endLine + 2) last++;
  const linestart = parts[first]!.startLine;
  const lineend = parts[last]!.endLine;
  return lineend - linestart + 1 <= WHOLE_DEFINITION_MAX_LINES ? { linestart, lineend } : null;
}

/**
 * `references` with each window of a definition widened to the whole definition, the window kept as its
 * `focus` (what a reader is shown first of a long definition: ./excerpt.ts); a reference that falls inside
 * one given before it is dropped (two windows of one function are one place).
 */
export function withWholeDefinitions(references: readonly Reference[], chunks: readonly ChunkDocument[], fileChunks: readonly ChunkDocument[]): Reference[] {
  const out: Reference[] = [];
  for (const ref of references) {
    const window = windowAt(ref, chunks);
    const whole = window ? definitionOfWindow(window, fileChunks) : null;
    const widened = whole ? { ...ref, ...whole, focus: { linestart: ref.linestart, lineend: ref.lineend } } : ref;
    if (out.some((r) => r.linestart <= widened.linestart && r.lineend >= widened.lineend)) continue;
    out.push(widened);
  }
  return out;
}

/** The chunks that make up the references no single chunk holds (the windows of each widened definition). */
export function windowsOfWidened(references: readonly Reference[], fileChunks: readonly ChunkDocument[]): ChunkDocument[] {
  const widened = references.filter((r) => !fileChunks.some((c) => c.startLine <= r.linestart && c.endLine >= r.lineend));
  return fileChunks.filter((c) => widened.some((r) => c.startLine >= r.linestart && c.endLine <= r.lineend));
}

