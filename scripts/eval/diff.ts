/**
 * The lines a fix changed in the OLD files, from its unified diff (git's format):
 * - each removed line counts, by its number in the old file;
 * - a pure insertion (added lines with no removed line in the same run of changes) counts the old
 *   line just before it and the one just after it (the one after may lie past the end of the file,
 *   where no reference reaches; line 0 before an insertion at the top is left out);
 * - a new file (`--- /dev/null`) counts nothing: it was not in the old tree;
 * - a deleted file counts every line it had; a rename counts the lines changed in its old path, and
 *   a pure rename (no hunk) nothing;
 * - `\ No newline at end of file` is a marker, not a line.
 * Hunks are read by their line counts, so a removed line that reads like a header (`--- x`) is a line.
 *
 * A patch made against a slightly different commit names lines a few off from the tree it is scored
 * on. Given the old files' texts, each hunk is placed as `patch` and `git apply` place it: at the
 * nearest offset where its old side (context and removed lines) matches the file exactly; a hunk that
 * matches nowhere keeps the lines its header names.
 */

/** Old path -> changed old-file lines, ascending. */
export type ChangedLines = Map<string, number[]>;

export type Hunk = {
  /** The first old line the hunk covers (for an empty old side: the line after the insertion point). */
  start: number;
  /** Its old side: context and removed lines, in order. */
  oldSide: string[];
  /** Positions in the old side (0-based) of the lines that count: removed lines, and the lines around pure insertions (may be -1 or oldSide.length). */
  marks: number[];
};

export type FileDiff = { oldPath: string | null; newPath: string | null; hunks: Hunk[] };

/** Unquotes a path git printed in C style ("a/sp\303\251cial"), or returns it as is. */
export function unquotePath(raw: string): string {
  if (!raw.startsWith('"')) return raw;
  const bytes: number[] = [];
  const body = raw.slice(1, raw.lastIndexOf('"'));
  const escapes: Record<string, number> = { n: 10, t: 9, r: 13, b: 8, f: 12, v: 11, a: 7, '"': 34, "\\": 92 };
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (ch !== "\\") {
      for (const b of Buffer.from(ch, "utf8")) bytes.push(b);
      continue;
    }
    const next = body[i + 1] ?? "";
    if (/[0-7]/.test(next)) {
      bytes.push(parseInt(body.slice(i + 1, i + 4), 8));
      i += 3;
    } else {
      bytes.push(escapes[next] ?? next.charCodeAt(0));
      i += 1;
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

/** The path of a `--- ` / `+++ ` line without its a/ or b/ prefix; null for /dev/null. */
function headerPath(rest: string): string | null {
  const raw = rest.replace(/\t.*$/, ""); // git adds a tab after names with spaces; other tools a date
  if (raw === "/dev/null") return null;
  return unquotePath(raw).replace(/^[ab]\//, "");
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** The files of a unified diff and their hunks. */
export function parseDiff(patch: string): FileDiff[] {
  const files: FileDiff[] = [];
  const lines = patch.split("\n");
  let file: FileDiff | null = null;
  const open = () => {
    file = { oldPath: null, newPath: null, hunks: [] };
    files.push(file);
    return file;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith("diff --git ")) {
      open(); // paths from `--- a/…` / `+++ b/…` (every file with hunks has them) or `rename from/to`
      continue;
    }
    if (line.startsWith("rename from ")) (file ?? open()).oldPath = unquotePath(line.slice("rename from ".length));
    else if (line.startsWith("rename to ")) (file ?? open()).newPath = unquotePath(line.slice("rename to ".length));
    else if (line.startsWith("--- ") && lines[i + 1]?.startsWith("+++ ")) {
      // A plain diff has no `diff --git` line: a ---/+++ pair after hunks starts the next file.
      const current: FileDiff = file && (file as FileDiff).hunks.length === 0 ? file : open();
      current.oldPath = headerPath(line.slice(4));
      current.newPath = headerPath(lines[i + 1]!.slice(4));
      i++;
    } else {
      const h = HUNK.exec(line);
      if (!h) continue;
      const oldStart = Number(h[1]);
      const oldCount = h[2] === undefined ? 1 : Number(h[2]);
      const newCount = h[4] === undefined ? 1 : Number(h[4]);
      const read = readHunk(lines, i + 1, oldCount === 0 ? oldStart + 1 : oldStart, oldCount, newCount);
      (file ?? open()).hunks.push(read.hunk);
      i = read.next - 1;
    }
  }
  return files;
}

/** Reads one hunk's body from `lines[at]`; returns it and the index of the first line after it. */
function readHunk(lines: string[], at: number, start: number, oldCount: number, newCount: number): { hunk: Hunk; next: number } {
  const oldSide: string[] = [];
  const marks: number[] = [];
  let oldLeft = oldCount;
  let newLeft = newCount;
  // The current run of changed lines: whether it removed any, and where an insertion in it sits.
  let runRemoved = false;
  let runAdded = false;
  let insertAt = 0;
  const endRun = () => {
    if (runAdded && !runRemoved) marks.push(insertAt - 1, insertAt);
    runRemoved = false;
    runAdded = false;
  };
  let i = at;
  for (; i < lines.length && (oldLeft > 0 || newLeft > 0 || lines[i]!.startsWith("\\")); i++) {
    const line = lines[i]!;
    const tag = line[0];
    if (tag === "\\") continue; // "\ No newline at end of file"
    if (tag === "-" && oldLeft > 0) {
      marks.push(oldSide.length);
      oldSide.push(line.slice(1));
      oldLeft--;
      runRemoved = true;
    } else if (tag === "+" && newLeft > 0) {
      if (!runAdded && !runRemoved) insertAt = oldSide.length;
      runAdded = true;
      newLeft--;
    } else if ((tag === " " || line === "") && oldLeft > 0 && newLeft > 0) {
      // Context ("" is a context line whose trailing space an editor stripped).
      endRun();
      oldSide.push(line.slice(1));
      oldLeft--;
      newLeft--;
    } else break; // a malformed hunk: stop at what does not fit its counts
  }
  endRun();
  return { hunk: { start, oldSide, marks }, next: i };
}

/** The offset nearest 0 at which `oldSide` matches `fileLines` from line `start`, or null. */
export function hunkOffset(fileLines: readonly string[], start: number, oldSide: readonly string[]): number | null {
  if (oldSide.length === 0) return 0;
  const fits = (d: number) => {
    const from = start - 1 + d;
    if (from < 0 || from + oldSide.length > fileLines.length) return false;
    for (let j = 0; j < oldSide.length; j++) if (fileLines[from + j] !== oldSide[j]) return false;
    return true;
  };
  for (let d = 0; d <= fileLines.length; d++) {
    if (fits(d)) return d;
    if (d > 0 && fits(-d)) return -d;
  }
  return null;
}

/** A file's lines as the diff numbers them (a final newline ends the last line; a trailing CR stays). */
export const fileLinesOf = (text: string): string[] => {
  const lines = text.split("\n");
  if (text.endsWith("\n")) lines.pop();
  return lines;
};

export type Placement = { hunks: number; moved: number; unmatched: number };

/**
 * The changed old-file lines of `patch` (see the module comment). With `oldText` (the old file's text
 * by path, undefined when unknown), each hunk is placed where its old side matches; `placement` counts
 * the hunks checked, those placed at an offset and those that matched nowhere.
 */
export function changedOldLines(patch: string, oldText?: (path: string) => string | undefined, placement?: Placement): ChangedLines {
  const out: ChangedLines = new Map();
  for (const file of parseDiff(patch)) {
    if (file.oldPath === null || file.hunks.length === 0) continue;
    const text = oldText?.(file.oldPath);
    const fileLines = text === undefined ? null : fileLinesOf(text);
    const lines = new Set<number>();
    for (const hunk of file.hunks) {
      let offset = 0;
      if (fileLines) {
        const found = hunkOffset(fileLines, hunk.start, hunk.oldSide);
        if (placement) {
          placement.hunks++;
          if (found === null) placement.unmatched++;
          else if (found !== 0) placement.moved++;
        }
        offset = found ?? 0;
      }
      for (const m of hunk.marks) if (hunk.start + offset + m >= 1) lines.add(hunk.start + offset + m);
    }
    if (lines.size > 0) out.set(file.oldPath, [...lines].sort((a, b) => a - b));
  }
  return out;
}
