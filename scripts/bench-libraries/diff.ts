/**
 * Unified-diff parsing: `parseGitDiff` (src/review/diff.ts) against parse-diff, gitdiff-parser and the
 * `diff` package's `parsePatch`, on the real diffs of a repository's last commits (each commit against
 * its first parent, produced with `gitDiffArgs`, the arguments the review engine uses) and on a diff made
 * here with every case the review needs: an added, a deleted, a binary, a renamed-and-changed and a
 * purely renamed file, quoted (non-ASCII) and spaced paths, `\ No newline at end of file`, and deleted
 * `-- comment` / added `++ plus` lines (shown as `--- comment` / `+++ plus` inside a hunk).
 *
 * Each parser's output is brought to one form (old and new path, hunk ranges, and each line's kind, old
 * and new line number and text) and compared with the own parser's, file by file.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parsePatch } from "diff";
import gitdiffModule, { type File as GitdiffFile } from "gitdiff-parser";
import parseDiff from "parse-diff";
import { gitDiffArgs, parseGitDiff } from "../../src/review/diff.ts";
import { time } from "./timing.ts";

// A CommonJS module whose types declare an ES default export: take `parse` from whichever object has it.
const gitDiffParser = ((gitdiffModule as unknown as { default?: unknown }).default ?? gitdiffModule) as { parse(text: string): GitdiffFile[] };

type Hunk = { oldStart: number; oldLines: number; newStart: number; newLines: number; lines: string[] };
type File = { oldPath: string | null; newPath: string | null; hunks: Hunk[] };
type Parser = (text: string) => File[];

const clean = (text: string) => (text.endsWith("\r") ? text.slice(0, -1) : text);
const line = (kind: "+" | "-" | " ", oldLine: number | null, newLine: number | null, text: string) => `${kind}${oldLine ?? ""},${newLine ?? ""}:${clean(text)}`;
const devNull = (path: string | undefined | null): string | null => (path === undefined || path === null || path === "/dev/null" ? null : path);
const unprefixed = (path: string | null, prefix: string) => (path !== null && path.startsWith(prefix) ? path.slice(prefix.length) : path);
/** The "\ No newline at end of file" marker, which the libraries return as a line of the hunk. */
const isMarker = (text: string) => text.startsWith("\\");

const own: Parser = (text) =>
  parseGitDiff(text).map((f) => ({
    oldPath: f.oldPath,
    newPath: f.newPath,
    hunks: f.hunks.map((h) => ({
      oldStart: h.oldStart,
      oldLines: h.oldLines,
      newStart: h.newStart,
      newLines: h.newLines,
      lines: h.lines.map((l) => line(l.kind === "add" ? "+" : l.kind === "del" ? "-" : " ", l.oldLine, l.newLine, l.text)),
    })),
  }));

const viaParseDiff: Parser = (text) =>
  parseDiff(text).map((f) => ({
    oldPath: devNull(f.from),
    newPath: devNull(f.to),
    hunks: f.chunks.map((c) => ({
      oldStart: c.oldStart,
      oldLines: c.oldLines,
      newStart: c.newStart,
      newLines: c.newLines,
      lines: c.changes
        .filter((ch) => !isMarker(ch.content))
        .map((ch) => (ch.type === "add" ? line("+", null, ch.ln, ch.content.slice(1)) : ch.type === "del" ? line("-", ch.ln, null, ch.content.slice(1)) : line(" ", ch.ln1, ch.ln2, ch.content.slice(1)))),
    })),
  }));

const viaGitdiffParser: Parser = (text) =>
  gitDiffParser.parse(text).map((f) => ({
    oldPath: f.type === "add" ? null : f.oldPath,
    newPath: f.type === "delete" ? null : f.newPath,
    hunks: f.hunks.map((h) => ({
      oldStart: h.oldStart,
      oldLines: h.oldLines,
      newStart: h.newStart,
      newLines: h.newLines,
      lines: h.changes
        .filter((ch) => !isMarker(ch.content))
        .map((ch) => (ch.type === "insert" ? line("+", null, ch.lineNumber, ch.content) : ch.type === "delete" ? line("-", ch.lineNumber, null, ch.content) : line(" ", ch.oldLineNumber, ch.newLineNumber, ch.content))),
    })),
  }));

const viaParsePatch: Parser = (text) =>
  parsePatch(text)
    // An empty diff (a commit that changed nothing) comes back as one patch without names or hunks.
    .filter((p) => p.oldFileName !== undefined || p.newFileName !== undefined || p.hunks.length > 0)
    .map((p) => ({
    oldPath: p.isCreate ? null : unprefixed(devNull(p.oldFileName), "a/"),
    newPath: p.isDelete ? null : unprefixed(devNull(p.newFileName), "b/"),
    hunks: p.hunks.map((h) => {
      let oldLine = h.oldStart;
      let newLine = h.newStart;
      const lines: string[] = [];
      for (const l of h.lines) {
        if (isMarker(l)) continue;
        if (l[0] === "+") lines.push(line("+", null, newLine++, l.slice(1)));
        else if (l[0] === "-") lines.push(line("-", oldLine++, null, l.slice(1)));
        else lines.push(line(" ", oldLine++, newLine++, l.slice(1)));
      }
      return { oldStart: h.oldStart, oldLines: h.oldLines, newStart: h.newStart, newLines: h.newLines, lines };
    }),
  }));

export const LIBRARIES: Record<string, Parser> = { "parse-diff": viaParseDiff, "gitdiff-parser": viaGitdiffParser, "diff (parsePatch)": viaParsePatch };

/**
 * A hunk as compared: the start of an empty side (`-0,0` of an added file) is a convention (git writes 0,
 * the `diff` package 1), so it is left out; everything else counts, the line counts included.
 */
const comparable = (h: Hunk) => ({ ...h, oldStart: h.oldLines === 0 ? "empty" : h.oldStart, newStart: h.newLines === 0 ? "empty" : h.newStart });

/** Files on which a library disagrees with the own parser (missing or extra files count too), with examples. */
function disagreements(diffs: string[], parser: Parser): { files: number; diffs: number; errors: number; examples: string[] } {
  let files = 0;
  let diffsWith = 0;
  let errors = 0;
  const examples: string[] = [];
  for (const text of diffs) {
    const mine = own(text);
    let theirs: File[];
    try {
      theirs = parser(text);
    } catch (error) {
      errors++;
      diffsWith++;
      files += mine.length;
      if (examples.length < 4) examples.push(`threw: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    let here = Math.abs(mine.length - theirs.length);
    for (let i = 0; i < Math.min(mine.length, theirs.length); i++) {
      const a = mine[i]!;
      const b = theirs[i]!;
      const same = a.oldPath === b.oldPath && a.newPath === b.newPath && JSON.stringify(a.hunks.map(comparable)) === JSON.stringify(b.hunks.map(comparable));
      if (same) continue;
      here++;
      if (examples.length < 4) {
        const what =
          a.oldPath !== b.oldPath || a.newPath !== b.newPath
            ? `paths ${JSON.stringify([a.oldPath, a.newPath])} vs ${JSON.stringify([b.oldPath, b.newPath])}`
            : a.hunks.length !== b.hunks.length
              ? `${a.hunks.length} vs ${b.hunks.length} hunks`
              : JSON.stringify(a.hunks.map((h) => h.lines)) === JSON.stringify(b.hunks.map((h) => h.lines))
                ? `hunk ranges ${JSON.stringify(a.hunks.map(({ lines: _, ...r }) => r))} vs ${JSON.stringify(b.hunks.map(({ lines: _, ...r }) => r))}`
                : "line map differs";
        examples.push(`${a.newPath ?? a.oldPath}: ${what}`);
      }
    }
    if (mine.length !== theirs.length && examples.length < 4) examples.push(`${mine.length} vs ${theirs.length} files in one diff`);
    files += here;
    if (here > 0) diffsWith++;
  }
  return { files, diffs: diffsWith, errors, examples };
}

const git = (gitDir: string, args: string[]) => execFileSync("git", [`--git-dir=${gitDir}`, ...args], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });

/** The diffs of the last `count` non-merge commits of a mirror (cloned bare into a temp dir first). */
export function realDiffs(mirror: string, count: number): { diffs: string[]; bytes: number } {
  const dir = mkdtempSync(join(tmpdir(), "loupe-bench-diff-"));
  try {
    execFileSync("git", ["clone", "--bare", "--quiet", "--", mirror, join(dir, "repo.git")]);
    const gitDir = join(dir, "repo.git");
    const commits = git(gitDir, ["rev-list", "--no-merges", `--max-count=${count}`, "HEAD"]).trim().split("\n").filter(Boolean);
    const diffs: string[] = [];
    for (const commit of commits) {
      const parent = git(gitDir, ["rev-list", "--parents", "-n", "1", commit]).trim().split(" ")[1];
      if (parent) diffs.push(git(gitDir, gitDiffArgs(parent, commit, { threeDot: false })));
    }
    return { diffs, bytes: diffs.reduce((n, d) => n + Buffer.byteLength(d), 0) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A diff made with git with every case the review relies on (see the module comment). */
export function edgeCaseDiff(): string {
  const dir = mkdtempSync(join(tmpdir(), "loupe-bench-diff-edge-"));
  const run = (...args: string[]) => execFileSync("git", ["-c", "user.email=bench@loupe", "-c", "user.name=bench", ...args], { cwd: dir, encoding: "utf8" });
  try {
    run("init", "-q", "-b", "main");
    const write = (name: string, content: string | Uint8Array) => writeFileSync(join(dir, name), content);
    write("q.sql", "line1\nline2\n-- comment\nline4\n");
    write("nonl.txt", "abc");
    write("ren.txt", Array.from({ length: 20 }, (_, i) => `row ${i + 1}\n`).join(""));
    write("pure.txt", Array.from({ length: 20 }, (_, i) => `same ${i + 1}\n`).join(""));
    write("b.bin", new Uint8Array([0, 1, 2]));
    write("sp ace.txt", "a\n");
    write("ümlaut.txt", "a\n");
    write("del.txt", "gone\n");
    run("add", "-A");
    run("commit", "-qm", "before");
    write("q.sql", "line1\nline2\nline4\n++ plus\n");
    write("nonl.txt", "abd");
    run("mv", "ren.txt", "renamed.txt");
    write("renamed.txt", Array.from({ length: 21 }, (_, i) => `row ${i + 1}\n`).join(""));
    run("mv", "pure.txt", "moved.txt");
    write("b.bin", new Uint8Array([0, 3]));
    write("sp ace.txt", "a\nb\n");
    write("ümlaut.txt", "a\nb\n");
    run("rm", "-q", "del.txt");
    write("added.txt", "new\n");
    run("add", "-A");
    run("commit", "-qm", "after");
    return run(...gitDiffArgs("HEAD~1", "HEAD", { threeDot: false }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Per library: what it gives for each edge case, next to the own parser. */
function edgeCases(text: string): Record<string, Record<string, string>> {
  const mine = own(text);
  const byPath = (files: File[], path: string) => files.find((f) => f.newPath === path || f.oldPath === path);
  const checks: [string, (files: File[]) => boolean][] = [
    ["renamed and changed: old path ren.txt", (fs) => byPath(fs, "renamed.txt")?.oldPath === "ren.txt"],
    ["pure rename (no hunks): old path pure.txt", (fs) => byPath(fs, "moved.txt")?.oldPath === "pure.txt"],
    ["quoted path decoded: ümlaut.txt", (fs) => byPath(fs, "ümlaut.txt") !== undefined],
    ["path with a space: sp ace.txt", (fs) => byPath(fs, "sp ace.txt") !== undefined],
    ["binary file listed without hunks", (fs) => byPath(fs, "b.bin")?.hunks.length === 0],
    ["added file: no old path", (fs) => byPath(fs, "added.txt")?.oldPath === null],
    ["deleted file: no new path", (fs) => byPath(fs, "del.txt")?.newPath === null],
    ["`-- comment` deleted and `++ plus` added, same line map", (fs) => JSON.stringify(byPath(fs, "q.sql")?.hunks) === JSON.stringify(byPath(mine, "q.sql")?.hunks)],
    ["`\\ No newline` not taken for a line", (fs) => JSON.stringify(byPath(fs, "nonl.txt")?.hunks) === JSON.stringify(byPath(mine, "nonl.txt")?.hunks)],
    ["same number of files", (fs) => fs.length === mine.length],
  ];
  const out: Record<string, Record<string, string>> = {};
  for (const [name, parser] of [["own (parseGitDiff)", own] as const, ...Object.entries(LIBRARIES)]) {
    let files: File[];
    try {
      files = parser(text);
    } catch (error) {
      out[name] = { error: error instanceof Error ? error.message : String(error) };
      continue;
    }
    out[name] = Object.fromEntries(checks.map(([check, ok]) => [check, ok(files) ? "yes" : "NO"]));
    out[name]["paths given for ümlaut.txt and sp ace.txt"] = JSON.stringify(files.filter((f) => /laut|ace/.test(f.newPath ?? "")).map((f) => f.newPath));
  }
  return out;
}

export function benchDiff(mirrors: string[], count: number) {
  const repositories = mirrors.map((mirror) => {
    const { diffs, bytes } = realDiffs(mirror, count);
    const megabytes = bytes / 1e6;
    // Warmed up first: on a loaded machine the first passes measure the JIT and the collector, not the parser.
    const speed = (parser: (t: string) => unknown) => {
      for (let i = 0; i < 3; i++) diffs.forEach((d) => parser(d));
      return +(megabytes / (time(() => diffs.forEach((d) => parser(d)), 11) / 1000)).toFixed(1);
    };
    const files = diffs.reduce((n, d) => n + parseGitDiff(d).length, 0);
    return {
      mirror: mirror.split(/[\\/]/).slice(-2).join("/"),
      diffs: diffs.length,
      files,
      megabytes: +megabytes.toFixed(2),
      parseGitDiffMBps: speed(parseGitDiff),
      libraries: Object.fromEntries(
        Object.entries(LIBRARIES).map(([name, parser]) => {
          const raw = name === "parse-diff" ? parseDiff : name === "gitdiff-parser" ? gitDiffParser.parse : parsePatch;
          return [name, { disagreeingFiles: disagreements(diffs, parser), MBps: speed(raw as (t: string) => unknown) }];
        }),
      ),
    };
  });
  return { speed: "MB/s, median of 11 passes over all diffs of a repository, after 3 passes of warm-up", repositories, edgeCases: edgeCases(edgeCaseDiff()) };
}
