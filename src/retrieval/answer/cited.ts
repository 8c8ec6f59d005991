/**
 * The lines an answer cites for a place, and the sources a client reads them from: the definition a span
 * is, not the chunk the index cut it into. A definition longer than a chunk may be is cut into windows
 * (its cited lines are the run of its windows, to its true end), and a long class whose members are
 * chunks of their own leaves a header chunk (`class Response:` alone): its cited lines are the class,
 * its header followed by its members' chunks. Both need the file's chunks (`fileChunks`, read for the
 * files an answer lists); without them a place is cited as its chunk.
 */
import type { ChunkDocument } from "../../codeindex/port.ts";
import { WINDOW_PART } from "../../indexing/summary.ts";
import { CONTAINER_KINDS } from "../references.ts";
import { definitionOfWindow } from "../whole-definitions.ts";
import type { SearchHitFile } from "../search.ts";

export type Lines = { linestart: number; lineend: number };

/** Where a file's chunks come from for citing: all of them when they were read, else the ranked ones. */
export type CitableFile = Pick<SearchHitFile, "chunks"> & { fileChunks?: readonly ChunkDocument[] };

const indentOf = (line: string): number => /^[ \t]*/.exec(line)![0].replace(/\t/g, "    ").length;
const firstCodeLine = (text: string): string => text.split("\n").find((l) => l.trim() !== "" && !/^\s*(?:\/\/|#|\/\*|\*|--)/.test(l)) ?? "";

/** The line that opens a container's definition in its chunk (after doc comments, decorators, attributes). */
function headerLine(chunk: ChunkDocument): string {
  const lines = chunk.text.split("\n");
  return lines.find((l) => chunk.symbol !== null && l.includes(chunk.symbol) && !/^\s*(?:\/\/|#|\/\*|\*|@)/.test(l)) ?? firstCodeLine(chunk.text);
}

/**
 * The chunks of a container's members that follow its header chunk, when the header chunk is only the
 * start of the container (its members were cut into chunks of their own): the run of chunks right after
 * it that name it as their parent, or are indented deeper than its header line (the container's body).
 */
export function membersAfterHeader(header: ChunkDocument, fileChunks: readonly ChunkDocument[]): ChunkDocument[] {
  if (!header.symbol || !CONTAINER_KINDS.has(header.kind)) return [];
  const depth = indentOf(headerLine(header));
  const after = fileChunks.filter((c) => c.startLine > header.endLine).sort((a, b) => a.startLine - b.startLine);
  const out: ChunkDocument[] = [];
  let end = header.endLine;
  for (const c of after) {
    if (c.startLine > end + 3) break;
    const inside = indentOf(firstCodeLine(c.text)) > depth;
    if (!inside) break;
    if (out.length === 0 && c.parent !== header.symbol) break; // the first must be a member of it
    out.push(c);
    end = Math.max(end, c.endLine);
  }
  return out;
}

/** The chunk at exactly these lines, among the file's chunks. */
const chunkAt = (file: CitableFile, lines: Lines): ChunkDocument | undefined =>
  (file.fileChunks ?? file.chunks).find((c) => c.startLine === lines.linestart && c.endLine === lines.lineend) ??
  file.chunks.find((c) => c.startLine === lines.linestart && c.endLine === lines.lineend);

/**
 * The lines to cite for a place of a file: the whole definition when the place is a window of one, the
 * container when it is a header whose members follow as chunks of their own, else the place itself.
 */
export function citedLines(file: CitableFile, place: Lines): Lines {
  const chunk = chunkAt(file, place);
  if (!chunk) return place;
  const all = file.fileChunks ?? file.chunks;
  if (WINDOW_PART.test(chunk.summary)) return definitionOfWindow(chunk, all) ?? place;
  const members = membersAfterHeader(chunk, all);
  return members.length > 0 ? { linestart: place.linestart, lineend: Math.max(...members.map((m) => m.endLine)) } : place;
}

/**
 * A container's text from its header to `end`, read from its chunks (lines no chunk holds, the blank
 * lines between members, are blank).
 */
export function containerText(header: ChunkDocument, members: readonly ChunkDocument[]): string {
  const end = Math.max(header.endLine, ...members.map((m) => m.endLine));
  const lines: string[] = new Array(end - header.startLine + 1).fill("");
  for (const c of [header, ...members]) c.text.split("\n").forEach((t, i) => {
    const at = c.startLine + i - header.startLine;
    if (at >= 0 && at < lines.length && lines[at] === "") lines[at] = t;
  });
  return lines.join("\n");
}

/**
 * The lines a source of an answer points at: what the answer cites for the file's best place (its
 * best reference, or the chunk that made the file rank), so a client that reads only the sources
 * gets the definition the answer names, not the window the index cut it into.
 */
export function sourceLines(file: CitableFile & Pick<SearchHitFile, "references" | "linestart" | "lineend">): Lines | null {
  const best = [...file.references].sort((a, b) => b.score - a.score)[0];
  if (best) return citedLines(file, best);
  return file.linestart === null ? null : citedLines(file, { linestart: file.linestart, lineend: file.lineend ?? file.linestart });
}

/** The text of lines `start`-`end` of a file, from its chunks (null when a line of them is in none). */
export function fileLines(file: CitableFile, start: number, end: number): string | null {
  const chunks = file.fileChunks ?? file.chunks;
  const out: string[] = [];
  for (let line = start; line <= end; line++) {
    const chunk = chunks.find((c) => c.startLine <= line && c.endLine >= line);
    if (!chunk) return null;
    out.push(chunk.text.split("\n")[line - chunk.startLine] ?? "");
  }
  return out.join("\n");
}
