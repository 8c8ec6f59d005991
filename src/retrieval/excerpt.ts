/**
 * What a reader is shown of a span too long to show whole: a reference to a long definition (widened from
 * the window a search matched, ./whole-definitions.ts) names the definition's lines, and its first lines
 * alone would hide the code that matched. The excerpt is the definition's opening (its signature) and,
 * after a marker of the lines left out, the matched window.
 */

export type Lines = { linestart: number; lineend: number };

/** Lines of a definition's opening kept before its matched window: a signature over a few lines. */
const HEAD_LINES = 3;

/**
 * The opening lines of `lines` (0-based count): up to the line that opens the body (`{`, a Python `:`,
 * Rust's `where` clauses end there too), at most HEAD_LINES.
 */
function headCount(lines: readonly string[]): number {
  for (let i = 0; i < Math.min(HEAD_LINES, lines.length); i++) {
    if (/[{:]\s*(?:\/\/.*|#.*)?$/.test(lines[i]!) || /\bbegin\s*$/.test(lines[i]!)) return i + 1;
  }
  return 1;
}

/**
 * The lines of `code` (whose first line is `linestart`) to show in at most `max` lines. Code of `max`
 * lines or fewer is shown whole; otherwise, with a `focus` (the matched window) that does not start
 * among the first lines, the definition's opening, a marker of the lines left out, and the focus from its
 * start; else the first lines. A cut end says how many lines follow.
 */
export function excerptOf(code: string, linestart: number, focus: Lines | undefined, max: number): string {
  const lines = code.split("\n");
  if (lines.length <= max) return code;
  const lastLine = linestart + lines.length - 1;
  const from = focus ? Math.max(focus.linestart, linestart) - linestart : 0;
  const head = headCount(lines);
  if (!focus || from <= head || from >= lines.length) return firstLines(lines, 0, max);
  const room = max - head - 1;
  if (room < 1) return firstLines(lines, 0, max);
  const marker = `… lines ${linestart + head}-${linestart + from - 1} left out`;
  const shown = lines.slice(from, from + room);
  const after = lastLine - (linestart + from + shown.length - 1);
  return [...lines.slice(0, head), marker, ...shown].join("\n") + (after > 0 ? `\n… ${after} more lines` : "");
}

function firstLines(lines: readonly string[], from: number, max: number): string {
  const shown = lines.slice(from, from + max);
  const more = lines.length - from - shown.length;
  return shown.join("\n") + (more > 0 ? `\n… ${more} more lines` : "");
}

/** The marker of the lines an excerpt leaves out, and of the lines after its cut end. */
const LEFT_OUT = /^… lines (\d+)-(\d+) left out$/;
const MORE = /^… \d+ more lines$/;

/**
 * The line number of each line of an excerpt whose first line is `firstLine` (null for a marker line):
 * after a marker of lines left out, the numbers go on from the line after them.
 */
export function excerptLineNumbers(code: string, firstLine: number): (number | null)[] {
  let next = firstLine;
  return code.split("\n").map((line) => {
    const leftOut = LEFT_OUT.exec(line);
    if (leftOut) {
      next = Number(leftOut[2]) + 1;
      return null;
    }
    if (MORE.test(line)) return null;
    return next++;
  });
}
