/**
 * What a reader is shown of a span too long to show whole: a reference to a long definition (widened from
 * the window a search matched, ./whole-definitions.ts) names the definition's lines, and its first lines
 * alone would hide the code that matched. The excerpt is the definition's opening (its signature) and,
 * after a marker of the lines left out, the matched window.
 */

export type Lines = { linestart: number; lineend: number };

/** Lines of a definition's signature kept before its matched window, at most. */
const SIGNATURE_LINES = 3;
/** A doc comment or attributes this short above the signature are kept with it; longer ones are left out. */
const PREAMBLE_KEPT = 4;
/** How far down a definition's first lines its signature is looked for. */
const PREAMBLE_MAX = 60;

/** A line before a definition's signature: blank, a comment's, an attribute or decorator (`#[...]`, `@Override`). */
const PREAMBLE_LINE = /^\s*(?:$|\/\/|\/\*|\*|#\[|#!\[|@|--|;|<!--)/;

/**
 * The lines (0-based, end exclusive) of a definition's signature in `lines`: from its first code line to
 * the line that opens its body (`{`, Python's `:`, Pascal-like `begin`), at most SIGNATURE_LINES.
 */
function signatureOf(lines: readonly string[]): { from: number; to: number } {
  let from = 0;
  while (from < Math.min(PREAMBLE_MAX, lines.length - 1) && PREAMBLE_LINE.test(lines[from]!)) from++;
  if (from >= PREAMBLE_MAX || from >= lines.length - 1) from = 0;
  for (let i = from; i < Math.min(from + SIGNATURE_LINES, lines.length); i++) {
    if (/[{:]\s*(?:\/\/.*|#.*)?$/.test(lines[i]!) || /\bbegin\s*$/.test(lines[i]!)) return { from, to: i + 1 };
  }
  return { from, to: from + 1 };
}

/** The marker of lines `from`..`to` (file lines) an excerpt leaves out. */
const leftOut = (from: number, to: number): string => `… lines ${from}-${to} left out`;

/**
 * The lines of `code` (whose first line is `linestart`) to show in at most `max` lines. Code of `max`
 * lines or fewer is shown whole; otherwise, with a `focus` (the matched window) that starts below the
 * definition's signature, the signature (with a short doc comment above it; a longer one is a marker),
 * a marker of the lines left out, and the focus from its start; else the first lines. A cut end says how
 * many lines follow. The numbers of the shown lines are read back by `excerptLineNumbers`.
 */
export function excerptOf(code: string, linestart: number, focus: Lines | undefined, max: number): string {
  const lines = code.split("\n");
  if (lines.length <= max) return code;
  const from = focus ? Math.max(focus.linestart, linestart) - linestart : 0;
  const signature = signatureOf(lines);
  if (!focus || from <= signature.to || from >= lines.length) return firstLines(lines, max);
  const head: string[] = signature.from <= PREAMBLE_KEPT ? lines.slice(0, signature.to) : [leftOut(linestart, linestart + signature.from - 1), ...lines.slice(signature.from, signature.to)];
  const room = max - head.length - 1;
  if (room < 1) return firstLines(lines, max);
  const shown = lines.slice(from, from + room);
  const after = lines.length - from - shown.length;
  return [...head, leftOut(linestart + signature.to, linestart + from - 1), ...shown].join("\n") + (after > 0 ? `\n… ${after} more lines` : "");
}

function firstLines(lines: readonly string[], max: number): string {
  const shown = lines.slice(0, max);
  const more = lines.length - shown.length;
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
