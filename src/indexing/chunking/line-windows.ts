/** Cutting a range of lines into bounded windows (0-based rows, inclusive). */

export type RowRange = { start: number; end: number };

export type WindowLimits = {
  /** Most lines in one window. */
  maxLines: number;
  /** Most characters in one window (a single longer line still makes one window). */
  maxChars: number;
  /** Lines repeated at the start of the next window (0 for none). */
  overlap: number;
};

export const isBlank = (line: string): boolean => line.trim().length === 0;

/** Narrow a range so it starts and ends on non-blank lines; null if it is all blank. */
export const trimBlankRows = (lines: readonly string[], range: RowRange): RowRange | null => {
  let { start, end } = range;
  while (start <= end && isBlank(lines[start] ?? "")) start++;
  while (end >= start && isBlank(lines[end] ?? "")) end--;
  return start <= end ? { start, end } : null;
};

/**
 * Windows covering every non-blank line of [start, end]. Windows end early at the line limit or the
 * character limit; consecutive windows share `overlap` lines. Windows are trimmed of blank edges and
 * all-blank windows are dropped.
 */
export const lineWindows = (lines: readonly string[], range: RowRange, limits: WindowLimits): RowRange[] => {
  const windows: RowRange[] = [];
  let start = range.start;
  while (start <= range.end) {
    let end = start;
    let chars = (lines[start] ?? "").length + 1;
    while (end + 1 <= range.end && end + 1 - start < limits.maxLines) {
      const next = (lines[end + 1] ?? "").length + 1;
      if (chars + next > limits.maxChars) break;
      chars += next;
      end++;
    }
    const trimmed = trimBlankRows(lines, { start, end });
    if (trimmed) windows.push(trimmed);
    if (end >= range.end) break;
    const overlap = Math.min(limits.overlap, Math.floor((end - start) / 2));
    start = end + 1 - overlap;
  }
  return windows;
};

/** Split `text` into lines once; rows index this array. */
export const splitLines = (text: string): string[] => text.split("\n");

export const rowsText = (lines: readonly string[], range: RowRange): string => lines.slice(range.start, range.end + 1).join("\n");
