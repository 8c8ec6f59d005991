/**
 * Whether a service comment was addressed by later commits (wire-facts "Review product facts":
 * a later commit changes the commented lines or applies the suggestion).
 *
 * Input: the comment and the parsed diff from the comment's commit to the new head
 * (`git diff <commentCommit> <head>`, see diff.ts gitDiffArgs with threeDot: false), plus optionally
 * the file's content at head. The comment is addressed when
 *   - its file was deleted ("file-deleted"),
 *   - one of its lines was deleted or rewritten, or lines were inserted between its first and last
 *     line ("lines-changed"; "suggestion-applied" when, in addition, the suggested code now stands
 *     in the rewritten region of the new content).
 * Otherwise it is unaddressed and relocated: its path follows renames and its lines shift with the
 * lines added or removed above it. With the file's new content, a rewrite that leaves the flagged
 * construct in place does not address the comment: the rule that made it still fires on the rewritten
 * lines (`stillFlagged`, from ./still-flagged.ts), or, for a rule that cannot be re-run (a model's),
 * only comments and whitespace changed around it.
 */
import type { DiffFile } from "./diff.ts";
import { languageOf, splitCode, type Language } from "./analysers/context.ts";

export type CommentAnchor = {
  path: string;
  lineStart: number;
  lineEnd: number;
  suggestedCode: string | null;
  commitSha: string;
};

export type AddressedReason = "file-deleted" | "lines-changed" | "suggestion-applied";

export type AddressedResult =
  | { addressed: true; reason: AddressedReason }
  | { addressed: false; path: string; lineStart: number; lineEnd: number };

/** The diff entry describing what happened to `path` (matched by old path), if any. */
export function findFileChange(files: readonly DiffFile[], path: string): DiffFile | undefined {
  return files.find((f) => f.oldPath === path) ?? files.find((f) => f.status === "added" && f.newPath === path);
}

/**
 * New line number of old line `line` after the change described by `file`; null when the line was
 * deleted or rewritten (or the file deleted). Without a file entry the line is unchanged.
 */
export function mapLineThroughDiff(line: number, file: DiffFile | undefined): number | null {
  if (!file) return line;
  if (file.status === "deleted") return null;
  if (file.status === "added") return null; // no old side to map from
  let delta = 0;
  for (const h of file.hunks) {
    const oldEnd = h.oldLines === 0 ? h.oldStart : h.oldStart + h.oldLines - 1;
    if (h.oldLines > 0 && line >= h.oldStart && line <= oldEnd) {
      const l = h.lines.find((x) => x.oldLine === line);
      if (!l) return line + delta; // truncated hunk: best effort
      return l.kind === "context" ? l.newLine : null;
    }
    const before = h.oldLines === 0 ? h.oldStart < line : oldEnd < line;
    if (before) delta += h.newLines - h.oldLines;
  }
  return line + delta;
}

/** True when any old line in start..end was deleted or lines were inserted strictly inside the range. */
export function rangeTouched(file: DiffFile, start: number, end: number): boolean {
  if (file.status === "deleted") return true;
  for (const h of file.hunks) {
    let lastOld = h.oldLines === 0 ? h.oldStart : h.oldStart - 1;
    for (const l of h.lines) {
      if (l.kind === "del" && l.oldLine !== null && l.oldLine >= start && l.oldLine <= end) return true;
      if (l.kind === "add" && lastOld >= start && lastOld < end) return true;
      if (l.oldLine !== null) lastOld = l.oldLine;
    }
  }
  return false;
}

const normalize = (text: string): string[] =>
  text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");

/** New-file region (1-based inclusive; may be empty: lo > hi) that replaced old lines start..end. */
function replacementRegion(file: DiffFile, start: number, end: number, newLineCount: number): { lo: number; hi: number } {
  let lo = 1;
  for (let n = start - 1, steps = 0; n >= 1 && steps < 10_000; n--, steps++) {
    const m = mapLineThroughDiff(n, file);
    if (m !== null) {
      lo = m + 1;
      break;
    }
  }
  let hi = newLineCount;
  for (let n = end + 1, steps = 0; steps < 10_000; n++, steps++) {
    const m = mapLineThroughDiff(n, file);
    if (m !== null) {
      hi = Math.min(m - 1, newLineCount);
      break;
    }
    if (!file.hunks.some((h) => n <= h.oldStart + h.oldLines)) break; // past the last hunk: n is beyond EOF
  }
  return { lo, hi };
}

/** True when `suggestedCode` stands (whitespace-insensitively, line by line) in the new region. */
export function suggestionApplied(file: DiffFile, start: number, end: number, suggestedCode: string, newContent: string): boolean {
  const newLines = newContent.split("\n");
  if (newLines[newLines.length - 1] === "") newLines.pop();
  const { lo, hi } = replacementRegion(file, start, end, newLines.length);
  const region = normalize(newLines.slice(lo - 1, Math.max(lo - 1, hi)).join("\n"));
  const wanted = normalize(suggestedCode);
  if (wanted.length === 0) return region.length === 0;
  for (let i = 0; i + wanted.length <= region.length; i++) {
    if (wanted.every((w, k) => region[i + k] === w)) return true;
  }
  return false;
}

/**
 * Where the flagged construct still stands in the rewritten region lo..hi of the new file (1-based
 * line), or null when it is gone: the caller re-runs the rule that made the comment (./still-flagged.ts).
 */
export type StillFlagged = (newLines: readonly string[], lo: number, hi: number) => number | null;

/** Old-side lines around start..end that the diff deleted or rewrote (the block replacementRegion replaces). */
function oldBlock(file: DiffFile, start: number, end: number): { lo: number; hi: number } {
  let lo = start;
  while (lo > 1 && mapLineThroughDiff(lo - 1, file) === null) lo--;
  let hi = end;
  while (mapLineThroughDiff(hi + 1, file) === null && file.hunks.some((h) => hi + 1 < h.oldStart + h.oldLines)) hi++;
  return { lo, hi };
}

/** The code of lines (comments and blank lines dropped, whitespace normalised), for comparing two versions. */
function codeOf(lines: readonly string[], language: Language | null): string {
  return lines
    .map((l) => {
      const { comment } = splitCode(l, language);
      return (comment >= 0 ? l.slice(0, comment) : l).replace(/\s+/g, " ").trim();
    })
    .filter((l) => l !== "")
    .join("\n");
}

/**
 * With no rule to re-run: the new line of the comment when only comments or whitespace changed in the
 * block around it (the flagged code is still there), else null.
 */
function codeUnchangedLine(file: DiffFile, start: number, end: number, newLines: readonly string[], lo: number, hi: number): number | null {
  const block = oldBlock(file, start, end);
  const oldText = new Map<number, string>();
  for (const h of file.hunks) for (const l of h.lines) if (l.oldLine !== null) oldText.set(l.oldLine, l.text);
  const before: string[] = [];
  for (let n = block.lo; n <= block.hi; n++) {
    // A line the diff does not show is unchanged: its text stands at its new place.
    const mapped = oldText.has(n) ? null : mapLineThroughDiff(n, file);
    const text = oldText.get(n) ?? (mapped !== null ? newLines[mapped - 1] : undefined);
    if (text === undefined) return null;
    before.push(text);
  }
  const language = languageOf(file.newPath ?? file.path);
  const after = newLines.slice(lo - 1, Math.max(lo - 1, hi));
  const oldCode = codeOf(before, language);
  if (oldCode === "" || oldCode !== codeOf(after, language)) return null;
  return Math.min(hi, lo + (start - block.lo));
}

export function isCommentAddressed(comment: CommentAnchor, files: readonly DiffFile[], newContent?: string | null, stillFlagged?: StillFlagged): AddressedResult {
  const file = findFileChange(files, comment.path);
  if (!file) return { addressed: false, path: comment.path, lineStart: comment.lineStart, lineEnd: comment.lineEnd };
  if (file.status === "deleted") return { addressed: true, reason: "file-deleted" };
  if (file.status === "added" || rangeTouched(file, comment.lineStart, comment.lineEnd)) {
    if (comment.suggestedCode !== null && typeof newContent === "string" && file.status !== "added") {
      if (suggestionApplied(file, comment.lineStart, comment.lineEnd, comment.suggestedCode, newContent)) return { addressed: true, reason: "suggestion-applied" };
    }
    // An edit around the flagged code (a comment on its line, say) that leaves it in place does not address it.
    if (typeof newContent === "string" && file.status !== "added") {
      const newLines = newContent.split("\n");
      if (newLines[newLines.length - 1] === "") newLines.pop();
      const { lo, hi } = replacementRegion(file, comment.lineStart, comment.lineEnd, newLines.length);
      const line = stillFlagged ? stillFlagged(newLines, lo, hi) : codeUnchangedLine(file, comment.lineStart, comment.lineEnd, newLines, lo, hi);
      if (line !== null) return { addressed: false, path: file.newPath ?? comment.path, lineStart: line, lineEnd: line + (comment.lineEnd - comment.lineStart) };
    }
    return { addressed: true, reason: "lines-changed" };
  }
  const lineStart = mapLineThroughDiff(comment.lineStart, file) ?? comment.lineStart;
  const lineEnd = mapLineThroughDiff(comment.lineEnd, file) ?? lineStart;
  return { addressed: false, path: file.newPath ?? comment.path, lineStart, lineEnd };
}
