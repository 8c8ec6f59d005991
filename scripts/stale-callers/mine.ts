/**
 * Mines a repository's history for commits that change a function's parameters in one file and
 * update its call sites in other files (`git log -p`): the cases of the stale call sites benchmark.
 *
 * A candidate: a commit whose diff removes and adds a definition line of the same name in one file
 * (Python `def`, JavaScript `function`, `name = function`, `name: function`, methods, arrow functions).
 * Its parameter lists are read from the file before and after the commit (balanced parentheses from
 * the definition's name) and compared as text, independently of Loupe's own parameter reading:
 * the change breaks old calls (Python) when a parameter is removed, renamed or moved, one without a
 * default is added or a default is dropped; a parameter renamed in place breaks only the calls passing
 * it by keyword. JavaScript passes `undefined` for a left-out argument, so there a change breaks the
 * calls whose arguments land elsewhere (a parameter moved) or are too many (parameters removed), and
 * only the truth calls that pass that far count. The truth: the calls of the name in the commit's other files (read
 * at the parent) whose lines the commit changes. Candidates are left out, with a reason, when the
 * change cannot break a call, when no other file's call of the name changed, or when the file was
 * renamed or its definition is ambiguous.
 */
import { execFileSync } from "node:child_process";
import { parseForCalls } from "../../src/review/graph/calls.ts";
import { pythonCallAfterChange } from "./python-binding.ts";

export type Language = "python" | "javascript" | "typescript" | "go" | "rust";

/** Go and Rust: a call passes every parameter, in order (a Go variadic takes the rest). */
const strict = (language: Language) => language === "go" || language === "rust";

export type TruthSite = { path: string; line: number };

export type ChangedFunction = {
  name: string;
  paramsBefore: string;
  paramsAfter: string;
  /** Why the parameter change breaks old calls (the miner's own reading). */
  breaks: string;
  keywordsOnly: string[] | null;
  /** JS: a call breaks only when it passes more positional arguments than this. */
  minPositional: number | null;
  /** Go and Rust: the old parameters (a method's receiver and `self` not counted), whether the last is variadic, and whether a Rust method took `self`. */
  arity: { count: number; variadic: boolean; self: boolean } | null;
};

/** One commit's change of one file: its functions whose parameters changed in a breaking way, and the truth. */
export type MinedCase = {
  repo: string;
  commit: string;
  parent: string;
  subject: string;
  path: string;
  language: Language;
  functions: ChangedFunction[];
  /** Call sites of those names in other files that the commit updates (parent's line numbers). */
  truth: (TruthSite & { name: string })[];
};

export type MineStats = { commits: number; candidates: number; cases: number; leftOut: Record<string, number> };

const git = (dir: string, args: string[]) => execFileSync("git", args, { cwd: dir, maxBuffer: 1 << 30, stdio: ["ignore", "pipe", "ignore"] }).toString("utf8");

export const languageOfPath = (path: string): Language | null =>
  /\.py$/.test(path)
    ? "python"
    : /\.(js|mjs|cjs|jsx)$/.test(path)
      ? "javascript"
      : /\.(ts|mts|cts|tsx)$/.test(path) && !/\.d\.ts$/.test(path)
        ? "typescript"
        : /\.go$/.test(path)
          ? "go"
          : /\.rs$/.test(path)
            ? "rust"
            : null;

const KEYWORDS = new Set(["if", "for", "while", "switch", "catch", "function", "return", "with", "else", "do", "typeof", "new", "await", "super"]);

/** Names of the definitions on a line, with the offset of their `(`. */
export function definitionsOnLine(line: string, language: Language): string[] {
  const out: string[] = [];
  const patterns =
    language === "python"
      ? [/^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\(/]
      : language === "go"
        ? [/^func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)?\(/]
        : language === "rust"
          ? [/^\s*(?:pub(?:\s*\([^)]*\))?\s+)?(?:(?:const|async|unsafe|extern\s+"[^"]*")\s+)*fn\s+([A-Za-z_]\w*)\s*[<(]/]
          : [
          /\bfunction\s*\*?\s*([A-Za-z_$][\w$]*)\s*\(/,
          /([A-Za-z_$][\w$]*)\s*[:=]\s*(?:async\s+)?function\b\s*\*?\s*[\w$]*\s*\(/,
          /([A-Za-z_$][\w$]*)\s*=\s*(?:async\s*)?\([^()]*\)\s*(?::[^=]+)?=>/,
          /^\s*(?:(?:public|private|protected|static|async|readonly)\s+)*([A-Za-z_$][\w$]*)\s*\([^()]*\)\s*(?::[^{]+)?\{\s*$/,
        ];
  for (const p of patterns) {
    const m = p.exec(line);
    if (m && !KEYWORDS.has(m[1]!)) out.push(m[1]!);
  }
  return [...new Set(out)];
}

type FileDiff = { oldPath: string; newPath: string; removed: Map<number, string>; added: Map<number, string> };
type CommitDiff = { sha: string; parent: string; subject: string; files: FileDiff[] };

/** Commits of `git log -p --unified=0` (no merges), newest first. */
export function commitsOf(dir: string, options: { maxCommits: number; paths: string[] }): CommitDiff[] {
  const out = git(dir, ["log", "--no-merges", "--no-renames", `-n${options.maxCommits}`, "-p", "--unified=0", "--format=%x00%H %P%x01%s", "HEAD", "--", ...options.paths]);
  const commits: CommitDiff[] = [];
  for (const chunk of out.split("\0").slice(1)) {
    const [header, ...rest] = chunk.split("\n");
    const [ids, subject] = header!.split("\x01");
    const [sha, parent] = ids!.split(" ");
    if (!sha || !parent) continue;
    const files: FileDiff[] = [];
    let file: FileDiff | null = null;
    let oldLine = 0;
    let newLine = 0;
    for (const line of rest) {
      if (line.startsWith("diff --git ")) {
        file = null;
        continue;
      }
      if (line.startsWith("--- ")) {
        file = { oldPath: line.slice(4).replace(/^a\//, ""), newPath: "", removed: new Map(), added: new Map() };
        continue;
      }
      if (line.startsWith("+++ ") && file) {
        file.newPath = line.slice(4).replace(/^b\//, "");
        files.push(file);
        continue;
      }
      const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
      if (hunk) {
        oldLine = Number(hunk[1]);
        newLine = Number(hunk[2]);
        continue;
      }
      if (!file) continue;
      if (line.startsWith("-")) file.removed.set(oldLine++, line.slice(1));
      else if (line.startsWith("+")) file.added.set(newLine++, line.slice(1));
    }
    commits.push({ sha, parent, subject: subject ?? "", files });
  }
  return commits;
}

/** The parameter list text after `name(` at or after the line `line` (1-based) of `content`; null when not found. */
export function paramsAt(content: string, line: number, name: string): string | null {
  const lines = content.split("\n");
  const start = lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0);
  const lineText = lines[line - 1] ?? "";
  // The defined name, after a Go method's receiver `(r *T)`.
  const receiver = /^func\s*\([^)]*\)/.exec(lineText);
  const at = content.indexOf(name, start + (receiver ? receiver[0].length : 0));
  if (at < 0 || at > start + lineText.length) return null;
  let open = at + name.length;
  while (/\s/.test(content[open] ?? "")) open++;
  // Generic parameters (`fn f<T: Fn(u8)>(`, Go `func F[T any](`) come before the parameter list.
  if (content[open] === "<" || content[open] === "[") {
    const [o, c] = content[open] === "<" ? ["<", ">"] : ["[", "]"];
    let d = 0;
    for (; open < content.length; open++) {
      if (content[open] === o) d++;
      else if (content[open] === c && content[open - 1] !== "-" && --d === 0) break;
    }
  }
  open = content.indexOf("(", open);
  if (open < 0) return null;
  let depth = 0;
  for (let i = open; i < content.length && i < open + 5000; i++) {
    const ch = content[i];
    if (ch === "(" || ch === "[" || ch === "{") depth++;
    else if (ch === ")" || ch === "]" || ch === "}") {
      depth--;
      if (depth === 0) return content.slice(open + 1, i);
    }
  }
  return null;
}

/** Whether the body of the function defined at `line` (after its parameter list) reads `arguments`. */
function readsArguments(content: string, line: number, name: string): boolean {
  const params = paramsAt(content, line, name);
  if (params === null) return false;
  const start = content.split("\n").slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0);
  const open = content.indexOf("{", content.indexOf(params, start) + params.length);
  let depth = 0;
  for (let i = open; i >= 0 && i < content.length; i++) {
    if (content[i] === "{") depth++;
    else if (content[i] === "}" && --depth === 0) return /\barguments\b/.test(content.slice(open, i));
  }
  return false;
}

/** Whether the Rust `fn` at `line` (1-based) sits in an `impl Trait for Type` block: the nearest less indented line opening a block. */
function inTraitImpl(content: string, line: number): boolean {
  const lines = content.split("\n");
  const indent = /^\s*/.exec(lines[line - 1] ?? "")![0].length;
  for (let i = line - 2; i >= 0; i--) {
    const text = lines[i]!;
    // Blank lines, comments, attributes and an impl header's `where` clause and brace.
    if (text.trim() === "" || /^\s*(\/\/|#\[|\*|\/\*|\{\s*$|where\b)/.test(text)) continue;
    if (/^\s*/.exec(text)![0].length >= indent) continue;
    return /^\s*(unsafe\s+)?impl\b/.test(text) && /\bfor\b/.test(lines.slice(i, line - 1).join(" ").split("{")[0]!);
  }
  return false;
}

type Param = { name: string; hasDefault: boolean; marker: string };

/** A parameter list's parameters as text: name, default, and `*`/`**`/`...` marker (annotations dropped). */
export function splitParams(text: string, language: Language): Param[] {
  const parts: string[] = [];
  let depth = 0;
  let current = "";
  let quote: string | null = null;
  for (const ch of text.replace(/#[^\n]*|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, "")) {
    if (quote) {
      current += ch;
      if (ch === quote) quote = null;
      continue;
    }
    // Rust's `'a` is a lifetime, not a quote.
    if (ch === '"' || (ch === "'" && language !== "rust") || ch === "`") quote = ch;
    if ("([{<".includes(ch)) depth++;
    if (")]}>".includes(ch) && !(ch === ">" && /[-=]$/.test(current))) depth--;
    if (ch === "," && depth === 0) {
      parts.push(current);
      current = "";
    } else current += ch;
  }
  parts.push(current);
  return parts
    .map((p) => p.trim())
    .filter((p) => p !== "")
    .map((p) => {
      if (strict(language)) return strictParam(p, language);
      const hasDefault = /=/.test(p.replace(/=>/g, "")) || (language !== "python" && /^[^:=]*\?\s*(:|$)/.test(p));
      const marker = /^\*\*/.test(p) ? "**" : /^\*/.test(p) ? "*" : /^\.\.\./.test(p) ? "..." : "";
      const name = p.replace(/^(\*\*|\*|\.\.\.)/, "").split(/[:=?]/)[0]!.trim();
      return { name, hasDefault, marker };
    })
    .filter((p) => !(language === "python" && (p.name === "self" || p.name === "cls")) && p.name !== "this" && p.marker !== "self");
}

/** A Go or Rust parameter: Go `a`, `b int`, `rest ...T`, an unnamed `int`; Rust `mut x: T`, `(a, b): (T, U)`, `&mut self` (marker "self"). */
function strictParam(text: string, language: Language): Param {
  if (language === "rust") {
    if (/^(&\s*('\w+\s+)?)?(mut\s+)?self\b/.test(text)) return { name: "self", hasDefault: false, marker: "self" };
    let depth = 0;
    let end = text.length;
    for (let i = 0; i < text.length; i++) {
      if ("([{<".includes(text[i]!)) depth++;
      else if (")]}>".includes(text[i]!)) depth--;
      else if (text[i] === ":" && depth === 0 && text[i + 1] !== ":") {
        end = i;
        break;
      }
    }
    return { name: text.slice(0, end).replace(/^(ref\s+)?mut\s+/, "").replace(/\s+/g, ""), hasDefault: false, marker: "" };
  }
  const [first, ...rest] = text.split(/\s+/);
  const variadic = /^\.\.\./.test(rest.join(" ")) || /^\.\.\./.test(first!);
  return { name: first!.replace(/^\.\.\./, ""), hasDefault: false, marker: variadic ? "..." : "" };
}

export type Breaking = { why: string; /** Only calls passing these old names as keywords break (parameters renamed in place). */ keywordsOnly: string[] | null };

/** Why a parameter change breaks old calls (text comparison), or null when every old call still fits. */
export function breakingChange(before: Param[], after: Param[], language: Language): Breaking | null {
  const why = breakingWhy(before, after, language);
  if (!why) return null;
  // Renamed in place (same positions, markers and defaults): positional calls still fit.
  const inPlace =
    before.length === after.length &&
    before.every((p, i) => p.marker === after[i]!.marker && p.hasDefault === after[i]!.hasDefault) &&
    before.every((p, i) => p.name === after[i]!.name || (!after.some((q) => q.name === p.name) && !before.some((q) => q.name === after[i]!.name)));
  return { why, keywordsOnly: inPlace && !strict(language) ? before.filter((p, i) => p.name !== after[i]!.name).map((p) => p.name) : null };
}

function breakingWhy(before: Param[], after: Param[], language: Language): string | null {
  const key = (p: Param) => `${p.marker}${p.name}`;
  const oldNames = before.map(key);
  const newNames = after.map(key);
  if (strict(language)) {
    // Go and Rust: a call passes every parameter; a variadic added at the end takes nothing from old calls.
    const variadicAdded = after.length === before.length + 1 && after[after.length - 1]!.marker === "..." && !before.some((p) => p.marker === "...");
    if (after.length !== before.length && !variadicAdded) return `takes ${after.length} parameters, took ${before.length}`;
    if (before.some((p, i) => p.marker !== after[i]?.marker)) return "makes a parameter variadic or not";
    const moved = oldNames.findIndex((n, i) => newNames.includes(n) && newNames.indexOf(n) !== i && n !== "_" && before.filter((q) => key(q) === n).length === 1);
    if (moved >= 0) return `moves ${oldNames[moved]} (position ${moved + 1})`;
    return null;
  }
  if (language !== "python") {
    // JS: any argument may be left out; a call breaks when an argument lands elsewhere or is one too many.
    const moved = oldNames.findIndex((n, i) => newNames.includes(n) && newNames.indexOf(n) !== i);
    if (moved >= 0) return `moves ${oldNames[moved]} (position ${moved + 1})`;
    if (!after.some((p) => p.marker === "...") && after.length < before.length) return `removes parameters (takes ${after.length}, took ${before.length})`;
    return null;
  }
  // Python: a new `*args` takes any positional argument, a new `**kwargs` any keyword; with both, every call fits.
  if (language === "python" && after.some((p) => p.marker === "*" && p.name !== "") && after.some((p) => p.marker === "**")) return null;
  const keywordOnlyBefore = new Set(before.slice(before.findIndex((p) => p.marker === "*") + 1 || before.length).map(key));
  const absorbed = (n: string) => language === "python" && after.some((p) => p.marker === "**") && keywordOnlyBefore.has(n);
  const removed = oldNames.filter((n) => !newNames.includes(n) && n !== "*" && !absorbed(n));
  const addedRequired = after.filter((p) => !oldNames.includes(key(p)) && !p.hasDefault && p.marker === "" && p.name !== "/" && p.name !== "");
  if (removed.length > 0) return `removes or renames ${removed.join(", ")}`;
  // JS passes `undefined` for a left-out argument: a parameter added at the end breaks no call.
  if (addedRequired.length > 0 && language === "python") return `adds ${addedRequired.map(key).join(", ")} without a default`;
  const common = newNames.filter((n) => oldNames.includes(n));
  const order = oldNames.filter((n) => newNames.includes(n));
  if (common.join(",") !== order.join(",")) return "reorders parameters";
  // A parameter inserted before an existing positional one moves the later arguments.
  const firstNew = after.findIndex((p) => !oldNames.includes(key(p)));
  if (firstNew >= 0 && after.slice(firstNew + 1).some((p) => oldNames.includes(key(p)) && p.marker === "" && p.name !== "*")) return "inserts a parameter before existing ones";
  if (language !== "python") return null; // a JS default dropped: the argument is `undefined`, no error
  const lostDefault = after.filter((p) => !p.hasDefault && before.some((q) => key(q) === key(p) && q.hasDefault));
  if (lostDefault.length > 0) return `drops the default of ${lostDefault.map(key).join(", ")}`;
  return null;
}

const shown = new Map<string, string | null>();
const show = (dir: string, sha: string, path: string): string | null => {
  const key = `${dir}\0${sha}\0${path}`;
  if (!shown.has(key)) {
    if (shown.size > 2000) shown.clear();
    try {
      shown.set(key, git(dir, ["show", `${sha}:${path}`]));
    } catch {
      shown.set(key, null);
    }
  }
  return shown.get(key)!;
};

/** The cases of one repository: the newest first, up to `maxCases`. */
export async function mineRepository(dir: string, repo: string, options: { maxCommits: number; maxCases: number; paths: string[] }): Promise<{ cases: MinedCase[]; stats: MineStats }> {
  const commits = commitsOf(dir, options);
  const stats: MineStats = { commits: commits.length, candidates: 0, cases: 0, leftOut: {} };
  const leave = (why: string) => (stats.leftOut[why] = (stats.leftOut[why] ?? 0) + 1);
  const cases: MinedCase[] = [];
  for (const c of commits) {
    if (cases.length >= options.maxCases) break;
    for (const f of c.files) {
      const language = languageOfPath(f.newPath);
      if (!language || f.oldPath === "/dev/null" || f.newPath === "/dev/null") continue;
      const oldDefs = [...f.removed].flatMap(([n, t]) => definitionsOnLine(t, language).map((name) => ({ name, line: n })));
      const newDefs = [...f.added].flatMap(([n, t]) => definitionsOnLine(t, language).map((name) => ({ name, line: n })));
      const functions: ChangedFunction[] = [];
      for (const o of oldDefs) {
        const n = newDefs.filter((d) => d.name === o.name);
        if (n.length === 0 || functions.some((x) => x.name === o.name)) continue;
        stats.candidates++;
        if (oldDefs.filter((d) => d.name === o.name).length > 1 || n.length > 1) {
          leave("the name is defined twice in the changed lines");
          continue;
        }
        const before = show(dir, c.parent, f.oldPath);
        const after = show(dir, c.sha, f.newPath);
        const pb = before === null ? null : paramsAt(before, o.line, o.name);
        const pa = after === null ? null : paramsAt(after, n[0]!.line, o.name);
        if (pb === null || pa === null) {
          leave("parameter list not found");
          continue;
        }
        if (language === "rust" && inTraitImpl(before!, o.line)) {
          leave("a Rust method of a trait's impl (its signature is the trait's: callers call the trait)");
          continue;
        }
        if ((language === "javascript" || language === "typescript") && readsArguments(after!, n[0]!.line, o.name)) {
          leave("the JS function reads `arguments`: any call fits");
          continue;
        }
        const breaks = breakingChange(splitParams(pb, language), splitParams(pa, language), language);
        if (!breaks || (breaks.keywordsOnly && language !== "python")) {
          leave("the change cannot break a call (defaults, annotations or parameter names only)");
          continue;
        }
        const moved = /^moves .* \(position (\d+)\)$/.exec(breaks.why);
        const took = /^removes parameters \(takes (\d+),/.exec(breaks.why);
        const minPositional = strict(language) ? null : moved ? Number(moved[1]) - 1 : took ? Number(took[1]) : null;
        const old = splitParams(pb, language);
        const arity = strict(language) ? { count: old.length, variadic: old.some((p) => p.marker === "..."), self: /^\s*(&\s*('\w+\s+)?)?(mut\s+)?self\b/.test(pb) } : null;
        functions.push({ name: o.name, paramsBefore: pb.replace(/\s+/g, " ").trim(), paramsAfter: pa.replace(/\s+/g, " ").trim(), breaks: breaks.why, keywordsOnly: breaks.keywordsOnly, minPositional, arity });
      }
      if (functions.length === 0) continue;
      const names = new Set(functions.map((x) => x.name));
      const truth: MinedCase["truth"] = [];
      for (const other of c.files) {
        if (other === f || other.oldPath !== other.newPath || !languageOfPath(other.oldPath) || other.removed.size === 0) continue;
        const text = show(dir, c.parent, other.oldPath);
        if (text === null) continue;
        const parsed = await parseForCalls(other.oldPath, text, names);
        for (const call of parsed?.calls ?? []) {
          let touched = false;
          for (let l = call.line; l <= call.endLine && !touched; l++) touched = other.removed.has(l);
          if (!touched) continue;
          // `self.m()` in a file whose own class defines `m`: that class's method, not this one.
          const own = call.receiver === "self" || call.receiver === "this" || /^super\(/.test(call.receiver ?? "");
          if (own && parsed!.graph.definitions.some((d) => d.name === call.name && d.kind === "method")) {
            leave("a call on self of the calling class's own method of that name");
            continue;
          }
          // Python: the call must really break (the miner's own binding of arguments to parameters).
          const changed = functions.find((x) => x.name === call.name);
          if (language === "python" && changed) {
            const verdict = pythonCallAfterChange(splitParams(changed.paramsBefore, language), splitParams(changed.paramsAfter, language), call);
            if (verdict !== "stale") {
              leave(verdict === "still fits" ? "a Python call updated that still fits the new parameters" : "a Python call updated that did not fit the old parameters (another definition of the name)");
              continue;
            }
          }
          // JS: only a call reaching the moved position (or passing more than the function now takes) breaks.
          const reach = functions.find((x) => x.name === call.name)?.minPositional;
          if (reach !== undefined && reach !== null && !call.splat && call.positional <= reach) {
            leave("a JS call updated that does not reach the changed position (still fits)");
            continue;
          }
          // Go and Rust: a call that did not pass the old parameters (another definition of the name) is not one of these.
          const arity = functions.find((x) => x.name === call.name)?.arity;
          if (arity) {
            const expected = arity.count + (arity.self && call.form === "path" ? 1 : 0);
            const fits = call.splat || (arity.variadic ? call.positional >= expected - 1 : call.positional === expected);
            if (!fits) {
              leave("a Go/Rust call updated that did not fit the old parameters (another definition of the name)");
              continue;
            }
          }
          // Parameters renamed in place break only the calls passing them by name.
          const only = functions.find((x) => x.name === call.name)?.keywordsOnly;
          if (only && !call.keywords.some((k) => only.includes(k))) {
            leave("a call updated for a parameter renamed in place, passed by position (still fits)");
            continue;
          }
          truth.push({ path: other.oldPath, line: call.line, name: call.name });
        }
      }
      if (truth.length === 0) {
        leave("no call of the changed functions changed in another file");
        continue;
      }
      cases.push({ repo, commit: c.sha, parent: c.parent, subject: c.subject, path: f.newPath, language, functions, truth });
      if (cases.length >= options.maxCases) break;
    }
  }
  stats.cases = cases.length;
  return { cases, stats };
}
