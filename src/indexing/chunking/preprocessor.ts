/**
 * C-preprocessor conditionals that break a syntax tree (./syntax-chunker.ts). A conditional whose branches
 * each hold half of a construct (`int umain(...) {` under `#ifdef WIN32`, `int main(...) {` under `#else`;
 * an initialiser listing one field per branch) is not C until one branch is chosen, and tree-sitter turns
 * the rest of the file into one ERROR node: the file was then chunked by line windows.
 *
 * `keepOneBranch` returns the text as the compiler would see it with one branch of every multi-branch
 * conditional taken (the first or the last; for a test of `__cplusplus`, the one the language takes), the
 * others and the directives of those conditionals blanked. Every replaced character becomes a space, so rows, columns and offsets are those of the
 * original text, and chunks are still cut from the original.
 */

import type { Node } from "web-tree-sitter";

export const PREPROCESSED_LANGUAGES: ReadonlySet<string> = new Set(["c", "cpp", "objc"]);

export type BranchChoice = "first" | "last";

const OPEN = /^\s*#\s*(?:if|ifdef|ifndef)\b/;
const NEXT = /^\s*#\s*(?:elif|elifdef|elifndef|else)\b/;
const CLOSE = /^\s*#\s*endif\b/;

type Conditional = { directives: number[]; branchEnds: number[] };

/** The conditionals of a file: the line of each of their directives (`#if`, each `#elif`/`#else`, `#endif`). */
const conditionalsOf = (lines: readonly string[]): Conditional[] => {
  const done: Conditional[] = [];
  const open: Conditional[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (OPEN.test(line)) open.push({ directives: [i], branchEnds: [] });
    else if (NEXT.test(line) && open.length) open[open.length - 1]!.directives.push(i);
    else if (CLOSE.test(line) && open.length) {
      const conditional = open.pop()!;
      conditional.directives.push(i);
      done.push(conditional);
    }
    // A directive continued on the next line (`#if defined(A) && \`) is one directive.
    while (/^\s*#/.test(line) && lines[i]!.endsWith("\\") && i + 1 < lines.length) i++;
  }
  return done;
};

/**
 * The branch the compiler takes of a conditional on `__cplusplus` alone (defined by every C++ compiler and
 * no C compiler): its index, -1 for none (`#ifdef __cplusplus` / `extern "C" {` / `#endif` read as C), or
 * undefined when the condition is another.
 */
const cplusplusBranch = (opening: string, branches: number, cplusplus: boolean): number | undefined => {
  const defined = /^\s*#\s*(?:ifdef\s+__cplusplus|if\s+defined\s*(?:\(\s*__cplusplus\s*\)|__cplusplus))\s*(?:\/[/*].*)?$/.test(opening);
  const undefinedTest = /^\s*#\s*(?:ifndef\s+__cplusplus|if\s+!\s*defined\s*(?:\(\s*__cplusplus\s*\)|__cplusplus))\s*(?:\/[/*].*)?$/.test(opening);
  if (!defined && !undefinedTest) return undefined;
  const firstTaken = defined === cplusplus;
  if (firstTaken) return 0;
  return branches > 1 ? 1 : -1;
};

const blank = (line: string) => line.replace(/[^\r]/g, " ");

/** The text with one branch of each multi-branch conditional kept (see above); null when there is none. */
export const keepOneBranch = (content: string, choice: BranchChoice, cplusplus: boolean): string | null => {
  const lines = content.split("\n");
  const blanked = new Uint8Array(lines.length);
  let changed = false;
  for (const { directives } of conditionalsOf(lines)) {
    const known = cplusplusBranch(lines[directives[0]!]!, directives.length - 1, cplusplus);
    if (known === undefined && directives.length < 3) continue; // `#if ... #endif`: one branch, nothing to choose
    changed = true;
    const kept = known ?? (choice === "first" ? 0 : directives.length - 2);
    for (let b = 0; b < directives.length - 1; b++) {
      if (b === kept) continue;
      for (let row = directives[b]!; row < directives[b + 1]!; row++) blanked[row] = 1;
    }
    // The closing directive, and the continuation lines of every directive of this conditional.
    for (const row of directives) {
      blanked[row] = 1;
      for (let next = row; lines[next]!.endsWith("\\") && next + 1 < lines.length; next++) blanked[next + 1] = 1;
    }
  }
  if (!changed) return null;
  return lines.map((line, row) => (blanked[row] ? blank(line) : line)).join("\n");
};

const LONE_MACRO = /^[ \t]*_*[A-Z][A-Z0-9_]*[ \t\r]*$/gm;
const LONE_MACRO_AT_MARGIN = /^_*[A-Z][A-Z0-9_]*[ \t\r]*$/gm;

const blankMatches = (content: string, pattern: RegExp): string | null => {
  let changed = false;
  const out = content.replace(pattern, (line) => {
    changed = true;
    return blank(line);
  });
  return changed ? out : null;
};

/**
 * The text without lines that hold one upper-case name and nothing else: macros used as statements,
 * which the parser cannot expand (`FMT_BEGIN_NAMESPACE` opening a namespace the matching `_END_` line
 * closes, `__BEGIN_DECLS`, `Q_OBJECT` in a class body). Null when there is none.
 */
export const withoutLoneMacros = (content: string): string | null => blankMatches(content, LONE_MACRO);

/**
 * The text without the lone macros at the left margin (null when there is none): never C (a statement
 * ends with `;`), they make the parser read `MACRO namespace x {` as a function. Indented ones (an enum's
 * last member, a call's last argument) are kept.
 */
export const withoutMarginMacros = (content: string): string | null => blankMatches(content, LONE_MACRO_AT_MARGIN);

const PREFIX_MACROS = /^([ \t]*)((?:_*[A-Z][A-Z0-9_]*[ \t]+)+)(?=[A-Za-z_~])/gm;

/**
 * The text without upper-case names that open a declaration line before its real words
 * (`FMT_CONSTEXPR inline auto f(`, `API_EXPORT void g(`, `FMT_CONSTEXPR text_style(`): attributes spelt
 * as macros. Also drops a type written in capitals (`FILE *f`), so it is only one of the variants tried.
 */
export const withoutPrefixMacros = (content: string): string | null => {
  let changed = false;
  const out = content.replace(PREFIX_MACROS, (_line, indent: string, names: string) => {
    changed = true;
    return indent + blank(names);
  });
  return changed ? out : null;
};

/**
 * The variants of a file of a preprocessed language that are parsed, in order, until one parses without
 * errors (./syntax-chunker.ts keeps the one with the fewest): lone macros at the margin left out, then
 * also one branch of each conditional taken (the first, or the last), then also macros prefixing
 * declarations left out; the same with every lone macro left out. Changes combine: `FMT_BEGIN_NAMESPACE`
 * alone and `FMT_CONSTEXPR` alone each make a C++ header worse, both together make it parse. A variant
 * equal to one already tried is skipped.
 */
export function* preprocessedVariants(content: string, cplusplus: boolean): Generator<string> {
  const seen = new Set<string>([content]);
  const fresh = (text: string | null): text is string => text !== null && !seen.has(text) && (seen.add(text), true);
  for (const lone of [withoutMarginMacros, withoutLoneMacros]) {
    const base = lone(content) ?? content;
    if (fresh(base)) yield base;
    for (const branches of [keepOneBranch(base, "first", cplusplus), keepOneBranch(base, "last", cplusplus), base]) {
      if (branches === null) continue;
      if (fresh(branches)) yield branches;
      const unprefixed = withoutPrefixMacros(branches);
      if (fresh(unprefixed)) yield unprefixed;
    }
  }
}

/** Rows inside ERROR nodes anywhere in the tree (a misread conditional can hide one inside a function). */
export const errorRowsWithin = (node: Node): number => {
  if (node.type === "ERROR") return node.endPosition.row - node.startPosition.row + 1;
  if (!node.hasError) return 0;
  let rows = 0;
  for (const child of node.children) if (child) rows += errorRowsWithin(child);
  return rows;
};

const CONDITIONAL_NODES = /^preproc_(?:if|ifdef|elif|elifdef|else)$/;

/**
 * Top-level nodes with every preprocessor conditional replaced by what it holds (its directive lines become
 * statements of their own): the functions of a file-long `#ifdef FEATURE ... #endif` are definitions like
 * any other, not one block cut into windows.
 */
export const withoutConditionals = (nodes: readonly Node[]): Node[] =>
  nodes.flatMap((node) => (CONDITIONAL_NODES.test(node.type) ? withoutConditionals(node.children.filter((c): c is Node => c !== null)) : [node]));
