/**
 * References at the lines a query's writer points at. A `src/x.c:221` in the text or a
 * `blob/<ref>/x.js#L98` link says where to read: the smallest chunk holding that line of the file leads
 * the file's references, ahead of the spans the words chose. The line may come from another version of
 * the file than the indexed one; the chunk holding it is still the nearest code to read. A line no chunk
 * holds (a blank line between two definitions) points at the chunk that starts right after it, or else
 * at the one that ends right before it (LOCATED.nearLines); a link to a range (`#L285-L287`) points at
 * its first and last lines.
 *
 * Stack frames and diagnostics are not taken here: they say where a fault showed, often a caller of the
 * code at fault, and their function names already rank the definitions (measured on the eval's reports:
 * their chunks put first or second pushed the fixed code down more often than they brought it up).
 */
import type { ChunkDocument } from "../codeindex/port.ts";
import type { SourceLocation } from "./query/types.ts";
import { MAX_FILES_NAMED, namedFiles, pathMatches } from "./path-mentions.ts";
import type { Reference } from "./references.ts";

export const LOCATED = {
  /** Located spans leading a file's references, at most. */
  perFile: 2,
  /** A line no chunk holds points at a chunk starting (or else ending) this many lines from it, at most. */
  nearLines: 2,
} as const;

/**
 * The locations whose path names one to MAX_FILES_NAMED files of a target (`fileLists`), as the ranking
 * counts a path mention: `index.js:12` in a repository of forty `index.js` files points nowhere.
 */
export function specificLocations(locations: readonly SourceLocation[], fileLists: Iterable<readonly string[]>): SourceLocation[] {
  if (locations.length === 0) return [];
  const lists = [...fileLists];
  return locations.filter((l) => lists.some((paths) => {
    const n = namedFiles(l.path, paths).length;
    return n >= 1 && n <= MAX_FILES_NAMED;
  }));
}

/** The lines `locations` point at in the file at `path`, in their order, unique. */
export function linesIn(path: string, locations: readonly SourceLocation[]): number[] {
  const lines: number[] = [];
  for (const l of locations) if (pathMatches(path, l.path) && !lines.includes(l.line)) lines.push(l.line);
  return lines;
}

/**
 * `references` (best first) led by the spans of the chunks holding `lines` (each line's smallest chunk,
 * at most LOCATED.perFile of them), at most `cap` in all. A reference overlapping a located span is
 * dropped; a located span takes the best reference's score (it comes first).
 */
export function withLocatedSpans(references: readonly Reference[], lines: readonly number[], chunks: readonly ChunkDocument[], cap: number): Reference[] {
  const best = references[0]?.score ?? 0;
  const located: Reference[] = [];
  for (const line of lines) {
    if (located.length >= Math.min(LOCATED.perFile, cap)) break;
    const holder = smallestHolding(chunks, line);
    if (!holder || located.some((r) => overlaps(r, holder.startLine, holder.endLine))) continue;
    located.push({ linestart: holder.startLine, lineend: holder.endLine, score: best });
  }
  if (located.length === 0) return [...references];
  const rest = references.filter((r) => !located.some((l) => overlaps(l, r.linestart, r.lineend)));
  return [...located, ...rest].slice(0, cap);
}

function smallestHolding(chunks: readonly ChunkDocument[], line: number): ChunkDocument | undefined {
  let found: ChunkDocument | undefined;
  for (const c of chunks) {
    if (c.startLine > line || c.endLine < line) continue;
    if (!found || c.endLine - c.startLine < found.endLine - found.startLine) found = c;
  }
  return found ?? nearest(chunks, (c) => c.startLine - line) ?? nearest(chunks, (c) => line - c.endLine);
}

/** The smallest chunk at the least distance (1 to LOCATED.nearLines lines) by `distance`. */
function nearest(chunks: readonly ChunkDocument[], distance: (c: ChunkDocument) => number): ChunkDocument | undefined {
  let found: ChunkDocument | undefined;
  let best = Infinity;
  for (const c of chunks) {
    const d = distance(c);
    if (d < 1 || d > LOCATED.nearLines) continue;
    if (d < best || (d === best && found && c.endLine - c.startLine < found.endLine - found.startLine)) [found, best] = [c, d];
  }
  return found;
}

const overlaps = (r: { linestart: number; lineend: number }, start: number, end: number) => r.linestart <= end && start <= r.lineend;
