/**
 * Debugging statements left in non-test code. When the statement is the whole line and deleting
 * it cannot break the surrounding syntax (safeToDeleteLine), the finding suggests removing it.
 * Printing in scripts, CLIs and examples is intended and not reported.
 *
 * Output calls (Python `print()`, JavaScript `console.log`, Rust `println!`) are low, shown at
 * strictness 4 and up, unless one is likely a leftover by a general rule (./leftover-output.ts): in
 * library code (no `__main__` guard or command-line parsing, not a script, example, test or doc), in a
 * file that printed nowhere at the base and where the change adds one or two such calls: then medium,
 * shown at the default strictness. A module that prints on purpose prints elsewhere too. Go's
 * `fmt.Print*` is reported only then, outside `package main`; Rust's `dbg!` is always medium.
 */
import type { DiffFile } from "../diff.ts";
import type { Finding, Severity } from "../findings.ts";
import {
  forEachAddedLine,
  inlineCode,
  lineFinding,
  parensBalanced,
  safeToDeleteLine,
  splitCode,
  type Analyser,
  type AnalyserContext,
  type Language,
} from "./context.ts";
import { likelyLeftoverOutput } from "./leftover-output.ts";

type DebugRule = {
  languages: Language[];
  /** Matched against the line's code (strings blanked, comments removed). */
  re: RegExp;
  severity: Severity;
  what: string;
  /** Skip in scripts/CLIs/examples (printing rules). */
  printing: boolean;
  /** The whole line (trimmed code) is exactly this statement: deleting it is a candidate. */
  whole: RegExp;
  /** Output reported only when it is likely a leftover (then medium). */
  onlyLikely?: boolean;
};

const RULES: DebugRule[] = [
  {
    languages: ["javascript", "typescript"],
    re: /(?<![\w$.])console\.(log|debug|trace|dir|table)\s*\(/,
    severity: "low",
    what: "console logging",
    printing: true,
    whole: /^console\.\w+\s*\(.*\)\s*;?$/,
  },
  { languages: ["javascript", "typescript"], re: /(?<![\w$.])debugger\b/, severity: "medium", what: "`debugger` statement", printing: false, whole: /^debugger\s*;?$/ },
  { languages: ["python"], re: /(?<![\w.])print\s*\(/, severity: "low", what: "`print()` call", printing: true, whole: /^print\s*\(.*\)$/ },
  { languages: ["python"], re: /(?<![\w.])breakpoint\s*\(\s*\)/, severity: "medium", what: "`breakpoint()` call", printing: false, whole: /^breakpoint\s*\(\s*\)$/ },
  {
    languages: ["python"],
    re: /(?<![\w.])(i?pdb|pudb)\.set_trace\s*\(|^\s*import\s+(i?pdb|pudb)\b/,
    severity: "medium",
    what: "debugger hook (pdb)",
    printing: false,
    whole: /^(import\s+(i?pdb|pudb)\s*;?\s*)?((i?pdb|pudb)\.set_trace\s*\(\s*\))?$/,
  },
  { languages: ["rust"], re: /(?<![\w:])dbg!\s*\(/, severity: "medium", what: "`dbg!` macro", printing: true, whole: /^dbg!\s*\(.*\)\s*;$/ },
  { languages: ["rust"], re: /(?<![\w:])println!\s*\(/, severity: "low", what: "`println!` output", printing: true, whole: /^println!\s*\(.*\)\s*;$/ },
  { languages: ["go"], re: /(?<![\w.])fmt\.Print(ln|f)?\s*\(/, severity: "low", what: "`fmt.Print` output", printing: true, whole: /^fmt\.Print(ln|f)?\s*\(.*\)$/, onlyLikely: true },
  { languages: ["php"], re: /(?<![\w$>:])(var_dump|dd|dump)\s*\(/, severity: "medium", what: "`var_dump`/`dd` debugging", printing: false, whole: /^(var_dump|dd|dump)\s*\(.*\)\s*;$/ },
  { languages: ["ruby"], re: /\bbinding\.(pry|irb)\b|(?<![\w.])byebug\b|^\s*debugger\s*$/, severity: "medium", what: "debugger breakpoint", printing: false, whole: /^(binding\.(pry|irb)|byebug|debugger)$/ },
];

function check(ctx: AnalyserContext, file: DiffFile, line: number, text: string, out: Finding[]): void {
  // A doctest's prompt in a docstring is an example.
  if (ctx.language === "python" && /^\s*(>>>|\.\.\.)(\s|$)/.test(text)) return;
  const { code } = splitCode(text, ctx.language);
  for (const rule of RULES) {
    if (!ctx.language || !rule.languages.includes(ctx.language)) continue;
    if (rule.printing && ctx.isScript) continue;
    if (!rule.re.test(code)) continue;
    // Output in library code that prints nowhere else: likely left in by accident.
    const likely = rule.printing && rule.severity === "low" && likelyLeftoverOutput(ctx, file, line, rule.re);
    if (rule.onlyLikely && !likely) return;
    const trimmed = code.trim();
    const removable = rule.whole.test(trimmed) && trimmed !== "" && parensBalanced(trimmed) && safeToDeleteLine(ctx, line);
    const why = likely ? "; this file prints nowhere else" : "";
    const message = `Leftover ${rule.what} ${inlineCode(text)}${why}: remove it before merging${rule.printing ? " or use the project's logger" : ""}.`;
    out.push(lineFinding(ctx, "debug-leftover", likely ? "medium" : rule.severity, line, message, removable ? "" : undefined));
    return;
  }
}

/** Whether a change may add output calls whose file's base the analyser needs to judge (the engine reads it for them). */
export function mayAddOutput(file: DiffFile): boolean {
  return file.hunks.some((h) => h.lines.some((l) => l.kind === "add" && /\bprint\s*\(|\bconsole\.|\bprintln!|\bfmt\.Print/.test(l.text)));
}

export const debugLeftoversAnalyser: Analyser = (file, ctx) => {
  if (ctx.skip || ctx.isTest) return [];
  const out: Finding[] = [];
  forEachAddedLine(file, (line, text) => check(ctx, file, line, text, out));
  return out;
};
