/**
 * Whether an added output call (Python `print()`, JavaScript `console.log`, Rust `println!`, Go
 * `fmt.Print`) is likely a leftover, by a general rule: a module that prints on purpose prints
 * elsewhere too, and scripts, command-line tools, examples, tests and docs print by design. Likely when
 *   - the file's base was read (an added file's base is empty) and the file at the head can be
 *     rebuilt from it and the diff;
 *   - it is library code: not under docs/examples/samples/demos (scripts, tests and CLIs are left
 *     out before), no `if __name__ == "__main__"` guard, no command-line parsing (an argparse parser,
 *     a click command, sys.argv, process.argv, commander, yargs; a `#!` line), not Go's `package
 *     main` nor a Rust file with `fn main()`, and a module others can use: a JavaScript or TypeScript
 *     file that exports something, a Python file that defines a function or class (a file of top-level
 *     statements only is a script, run for what it prints);
 *   - the base has no call of the same kind, and the change adds one or two (more is a feature);
 *   - the call is not guarded by a debug or verbose flag on the line before, does not write to a
 *     stream of its choosing (`print(..., file=...)`), and is code, not an example in a docstring.
 * Otherwise the finding stays low.
 */
import type { DiffFile } from "../diff.ts";
import { splitCode, type AnalyserContext, type Language } from "./context.ts";

/** More added calls than this in one file: output on purpose. */
const MAX_ADDED = 2;

const DOC_PATH = /(^|\/)(docs?|samples?|demos?|examples?|tutorials?)\//i;

/** A JavaScript or TypeScript command-line tool: a `#!` line, process.argv, or an argument parser's package. */
const SCRIPT_COMMAND_LINE = /^#!|\bprocess\.argv\b|\brequire\(\s*["'](commander|yargs|minimist|meow|cac)["']|\bfrom\s+["'](commander|yargs|minimist|meow|cac)["']/m;

const COMMAND_LINE: Partial<Record<Language, RegExp>> = {
  python: /^\s*if\s+__name__\s*==\s*["']__main__["']|\b(ArgumentParser|OptionParser|docopt)\(|^\s*@click\.(command|group)\b|\btyper\.Typer\(|\bfire\.Fire\(|\bsys\.argv\b/m,
  javascript: SCRIPT_COMMAND_LINE,
  typescript: SCRIPT_COMMAND_LINE,
  go: /^package\s+main\b/m,
  rust: /^\s*(pub\s+)?(async\s+)?fn\s+main\s*\(/m,
};

/** A module others can use: JavaScript and TypeScript export, Python defines (at the top level). */
const LIBRARY_SHAPE: Partial<Record<Language, RegExp>> = {
  python: /^(?:async\s+def|def|class)\s/m,
  javascript: /^\s*export\b|\bmodule\.exports\b|\bexports\.[\w$]+\s*=/m,
  typescript: /^\s*export\b|\bmodule\.exports\b|\bexports\.[\w$]+\s*=/m,
};

const FLAGGED = /\b(verbose|debug|DEBUG|VERBOSE|quiet|trace)\b/;

/** The file at the head: the base with the diff's hunks applied; null when they do not fit it. */
export function headLinesOf(file: DiffFile, base: string): string[] | null {
  const old = base === "" ? [] : base.replace(/\n$/, "").split("\n");
  const out: string[] = [];
  let at = 1;
  for (const h of file.hunks) {
    while (at < h.oldStart && at <= old.length) out.push(old[at++ - 1]!);
    for (const l of h.lines) {
      if (l.kind !== "add" && old[at - 1] !== l.text) return null;
      if (l.kind !== "del") {
        if (l.newLine !== out.length + 1) return null;
        out.push(l.text);
      }
      if (l.kind !== "add") at++;
    }
  }
  while (at <= old.length) out.push(old[at++ - 1]!);
  return out;
}

/** Python: which lines are inside a triple-quoted string (a docstring), by the quotes before them. */
function tripleQuoted(lines: readonly string[]): boolean[] {
  const out: boolean[] = [];
  let open: string | null = null;
  for (const line of lines) {
    out.push(open !== null);
    for (const m of line.matchAll(/"""|'''/g)) {
      if (open === null) open = m[0];
      else if (open === m[0]) open = null;
    }
  }
  return out;
}

/** Python: whether each line is an example, not code (in a docstring, or a doctest prompt). */
function examplesOf(lines: readonly string[], language: Language): (i: number) => boolean {
  if (language !== "python") return () => false;
  const quoted = tripleQuoted(lines);
  return (i) => quoted[i]! || /^\s*(>>>|\.\.\.)(\s|$)/.test(lines[i]!);
}

/** Lines of `lines` whose code (strings blanked, comments cut; not examples) holds a call `re` matches. */
function callsIn(lines: readonly string[], re: RegExp, language: Language): number {
  const example = examplesOf(lines, language);
  return lines.filter((l, i) => !example(i) && re.test(splitCode(l, language).code)).length;
}

export function likelyLeftoverOutput(ctx: AnalyserContext, file: DiffFile, line: number, re: RegExp): boolean {
  const language = ctx.language;
  if (!language || ctx.isScript || ctx.isTest || typeof ctx.base !== "string" || DOC_PATH.test(ctx.path)) return false;
  const added = file.hunks.flatMap((h) => h.lines.filter((l) => l.kind === "add").map((l) => l.text));
  if (callsIn(added, re, language) > MAX_ADDED) return false;
  const head = headLinesOf(file, ctx.base);
  const text = head?.[line - 1];
  if (!head || text === undefined) return false;
  const commandLine = COMMAND_LINE[language];
  const headText = head.join("\n");
  if (commandLine && commandLine.test(headText)) return false;
  const library = LIBRARY_SHAPE[language];
  if (library && !library.test(headText)) return false;
  const code = splitCode(text, language).code;
  if (language === "python" && (/\bfile\s*=/.test(code) || examplesOf(head, language)(line - 1))) return false;
  const previous = head.slice(0, line - 1).reverse().find((l) => l.trim() !== "");
  if (previous !== undefined && FLAGGED.test(splitCode(previous, language).code)) return false;
  const base = ctx.base === "" ? [] : ctx.base.split("\n");
  return callsIn(base, re, language) === 0;
}
