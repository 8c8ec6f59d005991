/**
 * Parser for unified git diffs, as produced by `git diff --no-color --unified=3 -M base...head`
 * (use `gitDiffArgs` to build the argument array: it pins the `a/` `b/` prefixes and disables
 * external diff drivers, so user configuration such as `diff.noprefix` cannot change the format).
 *
 * Hunks are consumed by their line counts, never by looking at line prefixes alone, so a deleted
 * line such as `-- comment` (shown as `--- comment`) is not mistaken for a file header.
 */

export type DiffLineKind = "add" | "del" | "context";

export type DiffLine = {
  kind: DiffLineKind;
  /** The line's text without the leading marker, the trailing newline or a trailing `\r`. */
  text: string;
  /** 1-based line number in the old file; null for added lines. */
  oldLine: number | null;
  /** 1-based line number in the new file; null for deleted lines. */
  newLine: number | null;
  /** Set when git reported "\ No newline at end of file" after this line. */
  noNewlineAtEnd?: true;
};

export type DiffHunk = {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  /** Text after the second `@@` (git's function context), trimmed; "" when absent. */
  section: string;
  lines: DiffLine[];
};

export type DiffFileStatus = "added" | "modified" | "deleted" | "renamed";

export type DiffFile = {
  /** Path before the change; null for added files. */
  oldPath: string | null;
  /** Path after the change; null for deleted files. */
  newPath: string | null;
  /** The path to report against: newPath, or oldPath for deleted files. */
  path: string;
  status: DiffFileStatus;
  binary: boolean;
  /** Rename similarity (0..100) when git reported one, else null. */
  similarity: number | null;
  /** Set when the file was created as a copy (`-C`); status is then "added". */
  copiedFrom?: string;
  hunks: DiffHunk[];
  additions: number;
  deletions: number;
};

/** Arguments for execFile("git", ...) producing the format this parser expects. */
export function gitDiffArgs(base: string, head: string, options: { threeDot?: boolean } = {}): string[] {
  const range = options.threeDot === false ? `${base}..${head}` : `${base}...${head}`;
  return [
    "-c",
    "core.quotePath=true",
    "diff",
    "--no-color",
    "--no-ext-diff",
    "--no-textconv",
    "--unified=3",
    "-M",
    "--src-prefix=a/",
    "--dst-prefix=b/",
    range,
  ];
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$/;

/** Decodes a C-style quoted git path (`"a/sp\303\244ce\tx"`) into a string. */
export function unquoteGitPath(quoted: string): string {
  if (!quoted.startsWith('"') || !quoted.endsWith('"') || quoted.length < 2) return quoted;
  const body = quoted.slice(1, -1);
  const bytes: number[] = [];
  const encoder = new TextEncoder();
  const simple: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, "\\": 92 };
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (ch !== "\\") {
      for (const b of encoder.encode(ch)) bytes.push(b);
      continue;
    }
    const next = body[i + 1];
    if (next === undefined) {
      bytes.push(92);
      continue;
    }
    if (/[0-7]/.test(next)) {
      const oct = /^[0-7]{1,3}/.exec(body.slice(i + 1))![0];
      bytes.push(parseInt(oct, 8) & 0xff);
      i += oct.length;
      continue;
    }
    const code = simple[next];
    if (code !== undefined) bytes.push(code);
    else for (const b of encoder.encode(next)) bytes.push(b);
    i += 1;
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/** Reads one path token (quoted or the rest of the line) from a header line's value. */
function headerPath(value: string): string {
  let v = value;
  if (v.startsWith('"')) {
    const end = findClosingQuote(v, 0);
    return unquoteGitPath(v.slice(0, end + 1));
  }
  // git appends a tab after names containing spaces in ---/+++ lines (for GNU patch).
  const tab = v.indexOf("\t");
  if (tab >= 0) v = v.slice(0, tab);
  return v;
}

function findClosingQuote(s: string, start: number): number {
  for (let i = start + 1; i < s.length; i++) {
    if (s[i] === "\\") {
      i++;
      continue;
    }
    if (s[i] === '"') return i;
  }
  return s.length - 1;
}

function stripPrefix(path: string, prefix: "a/" | "b/"): string {
  return path.startsWith(prefix) ? path.slice(2) : path;
}

/** Paths from `diff --git a/x b/y` (used when no ---/+++ or rename lines are present). */
function pathsFromGitHeader(rest: string): { a: string; b: string } | null {
  if (rest.startsWith('"')) {
    const end = findClosingQuote(rest, 0);
    const a = unquoteGitPath(rest.slice(0, end + 1));
    const bRaw = rest.slice(end + 2);
    return { a: stripPrefix(a, "a/"), b: stripPrefix(headerPath(bRaw), "b/") };
  }
  const quotedB = rest.indexOf(' "b/');
  if (quotedB >= 0) {
    return { a: stripPrefix(rest.slice(0, quotedB), "a/"), b: stripPrefix(headerPath(rest.slice(quotedB + 1)), "b/") };
  }
  // Same name on both sides (the common case, also with spaces): "a/X b/X".
  if ((rest.length - 5) % 2 === 0) {
    const len = (rest.length - 5) / 2;
    const a = rest.slice(2, 2 + len);
    if (rest.startsWith("a/") && rest.slice(2 + len, 5 + len) === " b/" && rest.slice(5 + len) === a) {
      return { a, b: a };
    }
  }
  const split = rest.indexOf(" b/");
  if (split < 0) return null;
  return { a: stripPrefix(rest.slice(0, split), "a/"), b: rest.slice(split + 3) };
}

type FileBuilder = {
  headerA: string | null;
  headerB: string | null;
  minus: string | null | undefined;
  plus: string | null | undefined;
  renameFrom: string | null;
  renameTo: string | null;
  copyFrom: string | null;
  copyTo: string | null;
  isNew: boolean;
  isDeleted: boolean;
  binary: boolean;
  similarity: number | null;
  hunks: DiffHunk[];
};

function newBuilder(headerRest: string): FileBuilder {
  const paths = pathsFromGitHeader(headerRest);
  return {
    headerA: paths?.a ?? null,
    headerB: paths?.b ?? null,
    minus: undefined,
    plus: undefined,
    renameFrom: null,
    renameTo: null,
    copyFrom: null,
    copyTo: null,
    isNew: false,
    isDeleted: false,
    binary: false,
    similarity: null,
    hunks: [],
  };
}

function finish(b: FileBuilder): DiffFile | null {
  let oldPath: string | null = b.renameFrom ?? b.copyFrom ?? (b.minus === undefined ? b.headerA : b.minus);
  let newPath: string | null = b.renameTo ?? b.copyTo ?? (b.plus === undefined ? b.headerB : b.plus);
  let status: DiffFileStatus = "modified";
  if (b.isNew || (b.minus === null && !b.copyFrom)) {
    status = "added";
    oldPath = null;
  } else if (b.isDeleted || b.plus === null) {
    status = "deleted";
    newPath = null;
  } else if (b.renameFrom !== null || (oldPath !== null && newPath !== null && oldPath !== newPath && !b.copyFrom)) {
    status = "renamed";
  }
  if (b.copyFrom) {
    status = "added";
    oldPath = null;
  }
  const path = newPath ?? oldPath;
  if (path === null) return null;
  let additions = 0;
  let deletions = 0;
  for (const h of b.hunks) {
    for (const l of h.lines) {
      if (l.kind === "add") additions++;
      else if (l.kind === "del") deletions++;
    }
  }
  const file: DiffFile = {
    oldPath,
    newPath,
    path,
    status,
    binary: b.binary,
    similarity: b.similarity,
    hunks: b.hunks,
    additions,
    deletions,
  };
  if (b.copyFrom) file.copiedFrom = b.copyFrom;
  return file;
}

/** Parses the whole output of `git diff` into files. Unknown lines are ignored. */
export function parseGitDiff(text: string): DiffFile[] {
  const lines = text.split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  const files: DiffFile[] = [];
  let current: FileBuilder | null = null;
  const flush = () => {
    if (current) {
      const f = finish(current);
      if (f) files.push(f);
    }
    current = null;
  };

  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.startsWith("diff --git ")) {
      flush();
      current = newBuilder(line.slice("diff --git ".length));
      i++;
      continue;
    }
    const b: FileBuilder | null = current;
    if (!b) {
      i++;
      continue;
    }
    if (line.startsWith("@@ ")) {
      const m = HUNK_HEADER.exec(line);
      if (!m) {
        i++;
        continue;
      }
      const hunk: DiffHunk = {
        oldStart: Number(m[1]),
        oldLines: m[2] === undefined ? 1 : Number(m[2]),
        newStart: Number(m[3]),
        newLines: m[4] === undefined ? 1 : Number(m[4]),
        section: (m[5] ?? "").trim(),
        lines: [],
      };
      i = readHunkBody(lines, i + 1, hunk);
      b.hunks.push(hunk);
      continue;
    }
    if (line.startsWith("--- ")) b.minus = parseMinusPlus(line.slice(4), "a/");
    else if (line.startsWith("+++ ")) b.plus = parseMinusPlus(line.slice(4), "b/");
    else if (line.startsWith("new file mode")) b.isNew = true;
    else if (line.startsWith("deleted file mode")) b.isDeleted = true;
    else if (line.startsWith("rename from ")) b.renameFrom = headerPath(line.slice(12));
    else if (line.startsWith("rename to ")) b.renameTo = headerPath(line.slice(10));
    else if (line.startsWith("copy from ")) b.copyFrom = headerPath(line.slice(10));
    else if (line.startsWith("copy to ")) b.copyTo = headerPath(line.slice(8));
    else if (line.startsWith("similarity index ")) b.similarity = parseInt(line.slice(17), 10);
    else if (line.startsWith("Binary files ") && line.endsWith(" differ")) b.binary = true;
    else if (line === "GIT binary patch") {
      b.binary = true;
      i++;
      while (i < lines.length && !lines[i]!.startsWith("diff --git ")) i++;
      continue;
    }
    i++;
  }
  flush();
  return files;
}

function parseMinusPlus(value: string, prefix: "a/" | "b/"): string | null {
  const p = headerPath(value);
  if (p === "/dev/null") return null;
  return stripPrefix(p, prefix);
}

function readHunkBody(lines: string[], start: number, hunk: DiffHunk): number {
  let i = start;
  let oldLeft = hunk.oldLines;
  let newLeft = hunk.newLines;
  let oldNo = hunk.oldStart;
  let newNo = hunk.newStart;
  const clean = (s: string) => (s.endsWith("\r") ? s.slice(0, -1) : s);
  while (i < lines.length && (oldLeft > 0 || newLeft > 0)) {
    const raw = lines[i]!;
    if (raw.startsWith("\\")) {
      markNoNewline(hunk);
      i++;
      continue;
    }
    const marker = raw.length === 0 ? " " : raw[0];
    const text = clean(raw.slice(1));
    if (marker === " " && oldLeft > 0 && newLeft > 0) {
      hunk.lines.push({ kind: "context", text, oldLine: oldNo++, newLine: newNo++ });
      oldLeft--;
      newLeft--;
    } else if (marker === "-" && oldLeft > 0) {
      hunk.lines.push({ kind: "del", text, oldLine: oldNo++, newLine: null });
      oldLeft--;
    } else if (marker === "+" && newLeft > 0) {
      hunk.lines.push({ kind: "add", text, oldLine: null, newLine: newNo++ });
      newLeft--;
    } else {
      break; // malformed or truncated hunk
    }
    i++;
  }
  while (i < lines.length && lines[i]!.startsWith("\\")) {
    markNoNewline(hunk);
    i++;
  }
  return i;
}

function markNoNewline(hunk: DiffHunk): void {
  const last = hunk.lines[hunk.lines.length - 1];
  if (last) last.noNewlineAtEnd = true;
}

/** Added lines of a file, in new-file order. */
export function addedLines(file: DiffFile): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  for (const h of file.hunks) {
    for (const l of h.lines) if (l.kind === "add" && l.newLine !== null) out.push({ line: l.newLine, text: l.text });
  }
  return out;
}

/** Contiguous ranges (1-based, inclusive) of added lines in the new file. Pure deletions yield none. */
export function changedNewLineRanges(file: DiffFile): { start: number; end: number }[] {
  const ranges: { start: number; end: number }[] = [];
  for (const { line } of addedLines(file)) {
    const last = ranges[ranges.length - 1];
    if (last && last.end + 1 === line) last.end = line;
    else ranges.push({ start: line, end: line });
  }
  return ranges;
}

/** Map from new-file line number to its text for every new-side line the diff shows (added or context). */
export function newSideLines(file: DiffFile): Map<number, { text: string; added: boolean }> {
  const map = new Map<number, { text: string; added: boolean }>();
  for (const h of file.hunks) {
    for (const l of h.lines) if (l.newLine !== null) map.set(l.newLine, { text: l.text, added: l.kind === "add" });
  }
  return map;
}
