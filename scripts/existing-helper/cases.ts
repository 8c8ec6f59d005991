/**
 * Cases of the existing-helper benchmark (../bench-existing-helper.ts), from one mirror:
 *   - the indexed state: a first-parent commit `back` commits before the mirror's HEAD (later history
 *     supplies the negatives);
 *   - copies: functions and methods of that commit (outside tests, scripts, examples and generated
 *     code; at least 4 code lines and 40 tokens, the finding's own floor), picked by a seeded draw
 *     spread over four size bands; each is turned into a near-copy (the function's name and its
 *     parameters and locals renamed, and in one case of two a literal changed; its header, parameters
 *     and literal read below the doc comment its text starts with) put in a new file beside the
 *     original (a method inside a new class or impl, one assigned to an object as written);
 *   - negatives: functions a later real commit added (same floor), whose name is defined nowhere in the
 *     indexed commit and less than half of whose code lines appear there word for word (code moved
 *     from elsewhere is not new), put in a new file the same way.
 */
import { definitionsOf, type OutlineDefinition } from "../../src/review/change-outline.ts";
import { codeTokens } from "../../src/review/graph/similarity.ts";
import { isScriptPath, isSkippedPath, isTestPath } from "../../src/review/analysers/context.ts";
import { git } from "../eval/git-host.ts";

export const LANGUAGE_FILES = /\.(py|js|mjs|cjs|ts|rs|go)$/;
const MIN_TOKENS = 40;
const MIN_CODE_LINES = 4;
/** Size bands by code lines: each gets an equal share of the copies. */
const BANDS = [[4, 9], [10, 24], [25, 59], [60, 100_000]] as const;

export type Original = { path: string; name: string; parent: string | null; kind: string; startLine: number; endLine: number; codeLines: number; text: string };
export type BenchCase = {
  kind: "copy" | "negative";
  repo: string;
  /** Where the function comes from: the original (copies) or the commit that added it (negatives). */
  source: Original & { commit?: string };
  /** The new file the pull request adds, and its content. */
  file: string;
  content: string;
  /** What was changed in the copy. */
  edits: string[];
};

/** A small seeded generator (mulberry32). */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const usable = (path: string) => LANGUAGE_FILES.test(path) && !isTestPath(path) && !isScriptPath(path) && !isSkippedPath(path) && !/\.d\.ts$|\.min\.js$/.test(path);

/** Functions and methods of one file version that pass the finding's floor. */
async function functionsOf(path: string, content: string): Promise<Original[]> {
  const defs = (await definitionsOf(path, content)) ?? [];
  const lines = content.split("\n");
  const out: Original[] = [];
  for (const d of defs as OutlineDefinition[]) {
    if (d.container || (d.kind !== "function" && d.kind !== "method")) continue;
    // Tests inside a source file (Rust's `mod tests`, `test_*` functions) are test code.
    if (/^tests?$/.test(d.parent ?? "") || /^test_/.test(d.name)) continue;
    const text = lines.slice(d.startLine - 1, d.endLine).join("\n");
    const t = codeTokens(text, path);
    if (t.tokens.length < MIN_TOKENS || t.codeLines < MIN_CODE_LINES) continue;
    out.push({ path, name: d.name, parent: d.parent, kind: d.kind, startLine: d.startLine, endLine: d.endLine, codeLines: t.codeLines, text });
  }
  return out;
}

export function fileAt(mirror: string, commit: string, path: string): string | null {
  try {
    return git(mirror, ["show", `${commit}:${path}`]);
  } catch {
    return null;
  }
}

/** Every usable function of the commit's tree. */
export async function functionsAt(mirror: string, commit: string): Promise<Original[]> {
  const paths = git(mirror, ["ls-tree", "-r", "--name-only", commit]).split("\n").filter(usable);
  const out: Original[] = [];
  for (const path of paths) {
    const content = fileAt(mirror, commit, path);
    if (content === null || content.length > 400_000) continue;
    out.push(...(await functionsOf(path, content)));
  }
  return out;
}

/** `count` originals drawn by `random`, an equal share from each size band (what a band lacks goes to the others). */
export function pickOriginals(all: readonly Original[], count: number, random: () => number): Original[] {
  const bands = BANDS.map(([lo, hi]) => all.filter((f) => f.codeLines >= lo && f.codeLines <= hi));
  const picked: Original[] = [];
  const shuffle = <T>(xs: T[]) => {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [xs[i], xs[j]] = [xs[j]!, xs[i]!];
    }
    return xs;
  };
  const pools = bands.map((b) => shuffle([...b]));
  // One name once (overloads and same-named methods would make the expected original ambiguous).
  const names = new Set(all.map((f) => f.name).filter((n, i, xs) => xs.indexOf(n) !== i));
  let band = 0;
  for (let guard = 0; picked.length < count && guard < 10_000; guard++) {
    const pool = pools[band % pools.length]!;
    band++;
    const next = pool.shift();
    if (next && !names.has(next.name)) picked.push(next);
    if (pools.every((p) => p.length === 0)) break;
  }
  return picked;
}

const IDENT = /[A-Za-z_$][\w$]*/g;
const KEEP = new Set(["self", "cls", "this", "super", "mut", "ref", "true", "false", "None", "null", "nil", "undefined", "err", "ctx"]);

/** Parameter and local names of a function (the words bound in it), by a plain reading of its text. */
function boundNames(text: string, language: string): Set<string> {
  const out = new Set<string>();
  const header = text.slice(0, text.search(language === "py" ? /:\s*\n/ : /\{/) + 1);
  const params = header.slice(header.indexOf("(") + 1, header.lastIndexOf(")"));
  for (const p of params.split(",")) {
    const m = /^\s*(?:\*{0,2}|\.\.\.|&?(?:mut\s+)?)([A-Za-z_$][\w$]*)/.exec(p);
    if (m) out.add(m[1]!);
  }
  for (const m of text.matchAll(/(?:^|\n)\s*(?:let\s+(?:mut\s+)?|const\s+|var\s+)?([A-Za-z_$][\w$]*)\s*(?::=|=(?!=))/g)) out.add(m[1]!);
  for (const m of text.matchAll(/\b(?:let|const|var)\s+(?:mut\s+)?([A-Za-z_$][\w$]*)/g)) out.add(m[1]!);
  for (const m of text.matchAll(/\bfor\s*\(?\s*(?:const|let|var)?\s*([A-Za-z_$][\w$]*)\s+(?:in|of)\b/g)) out.add(m[1]!);
  for (const k of KEEP) out.delete(k);
  return out;
}

const rename = (name: string, language: string) => (language === "py" || language === "rs" ? `${name}_alt` : `${name}Alt`);

/**
 * Where a function's code starts in its text: after the comments and blank lines above its header. A
 * definition's text begins with its doc comment, a doc block also across a blank line or two (the
 * chunker reads it that way, as JSDoc does), so its header is not always its first line.
 */
export function codeStartOf(text: string, language: string): number {
  const comment = language === "py" ? /^\s*#[^\n]*/ : /^\s*(?:\/\/[^\n]*|\/\*[\s\S]*?\*\/)/;
  let at = 0;
  for (let m = comment.exec(text); m; m = comment.exec(text.slice(at))) at += m[0].length;
  return at + /^\s*/.exec(text.slice(at))![0].replace(/[^\n]*$/, "").length;
}

const languageOf = (path: string) => path.slice(path.lastIndexOf(".") + 1).replace(/^(mjs|cjs|ts)$/, "js");

/** The near-copy of `f`: names and locals renamed; every other case a literal changed. Returns the text and what changed. */
export function nearCopy(f: Original, index: number): { text: string; name: string; edits: string[] } {
  const language = languageOf(f.path);
  // Its header, parameters and the literal to change are read in its code, not in the doc comment above it.
  const start = codeStartOf(f.text, language);
  const names = boundNames(f.text.slice(start), language);
  names.add(f.name);
  const edits = [`renamed ${[...names].length} names (the function's and ${[...names].length - 1} parameters and locals)`];
  const renamed = f.text.replace(IDENT, (word, offset: number, all: string) => (names.has(word) && all[offset - 1] !== "." ? rename(word, language) : word));
  const comments = renamed.slice(0, codeStartOf(renamed, language));
  let code = renamed.slice(comments.length);
  // A method assigned to an object (`res.location = function (...)`): the member's name too.
  const member = new RegExp(`^(\\s*[\\w$.]*\\.)${f.name.replace(/\$/g, "\\$")}(\\s*=)`);
  if (member.test(code)) code = code.replace(member, `$1${rename(f.name, language)}$2`);
  if (index % 2 === 1) {
    const number = /(?<![\w.])(\d+)(?![\w.])/.exec(code.slice(code.indexOf("\n")));
    if (number) {
      const at = code.indexOf("\n") + number.index;
      code = `${code.slice(0, at)}${Number(number[1]) + 1}${code.slice(at + number[1]!.length)}`;
      edits.push(`literal ${number[1]} -> ${Number(number[1]) + 1}`);
    } else {
      const str = /"([^"\n\\]{1,40})"/.exec(code.slice(code.indexOf("\n")));
      if (str) {
        const at = code.indexOf("\n") + str.index;
        code = `${code.slice(0, at)}"${str[1]} (copy)"${code.slice(at + str[0].length)}`;
        edits.push(`string literal "${str[1]}" changed`);
      }
    }
  }
  return { text: `${comments}${code}`, name: rename(f.name, language), edits };
}

/** The new file holding `text` (a method inside a new class or impl; Go keeps its package clause). */
export function newFile(f: Original, text: string, index: number, originalContent: string): { file: string; content: string } {
  const dot = f.path.lastIndexOf(".");
  const ext = f.path.slice(dot + 1);
  const dir = f.path.includes("/") ? f.path.slice(0, f.path.lastIndexOf("/") + 1) : "";
  const stem = ext === "py" || ext === "rs" || ext === "go" ? `bench_added_${index}` : `benchAdded${index}`;
  const lines = text.split("\n");
  const indent = Math.min(...lines.filter((l) => l.trim() !== "").map((l) => /^\s*/.exec(l)![0].length));
  const flat = lines.map((l) => l.slice(indent)).join("\n");
  const inner = lines.map((l) => `    ${l.slice(indent)}`).join("\n");
  let content: string;
  const assigned = /^\s*[\w$.]+\s*=\s*(async\s+)?function\b/.test(flat.slice(codeStartOf(flat, languageOf(f.path))));
  if (f.kind !== "method" || ext === "go" || assigned) {
    const pkg = ext === "go" ? `${/^package\s+\w+/m.exec(originalContent)?.[0] ?? "package main"}\n\n` : "";
    content = `${pkg}${flat}\n`;
  } else if (ext === "py") content = `class BenchAdded${index}:\n${inner}\n`;
  else if (ext === "rs") content = `pub struct BenchAdded${index};\n\nimpl BenchAdded${index} {\n${inner}\n}\n`;
  else content = `class BenchAdded${index} {\n${inner}\n}\n`;
  return { file: `${dir}${stem}.${ext}`, content };
}

/**
 * Functions later commits (in `from..to`, first parent, newest first) added to usable files, that are
 * new to `from`: their name defined nowhere there and most of their lines not found there.
 */
export async function laterNewFunctions(mirror: string, from: string, to: string, count: number, random: () => number): Promise<(Original & { commit: string })[]> {
  const commits = git(mirror, ["rev-list", "--first-parent", "--no-merges", `${from}..${to}`]).split("\n").filter(Boolean);
  const out: (Original & { commit: string })[] = [];
  const seen = new Set<string>();
  for (const commit of commits) {
    if (out.length >= count * 10) break;
    const changed = git(mirror, ["diff-tree", "--no-commit-id", "--name-status", "-r", `${commit}^`, commit]).split("\n").filter(Boolean).map((l) => l.split("\t"));
    for (const [status, path] of changed) {
      if (!path || !usable(path) || status === "D") continue;
      const after = fileAt(mirror, commit, path);
      if (after === null) continue;
      const before = status === "A" ? "" : (fileAt(mirror, `${commit}^`, path) ?? "");
      const old = new Set((await functionsOf(path, before)).map((f) => `${f.parent}.${f.name}`));
      for (const f of await functionsOf(path, after)) {
        if (old.has(`${f.parent}.${f.name}`) || seen.has(f.name)) continue;
        seen.add(f.name);
        out.push({ ...f, commit });
      }
    }
  }
  // New to `from`: the name defined nowhere there, under half of its code lines found there as they are.
  const fresh: (Original & { commit: string })[] = [];
  for (const f of out) {
    const defined = tryGit(mirror, ["grep", "-q", "-E", `(def|function|fn|func)\\s+(\\([^)]*\\)\\s*)?${f.name}\\b`, from]);
    if (defined) continue;
    const lines = f.text.split("\n").map((l) => l.trim()).filter((l) => l.length >= 12 && !/^(#|\/\/|\*|\/\*)/.test(l));
    let found = 0;
    for (const l of lines) if (tryGit(mirror, ["grep", "-q", "-F", "-e", l, from])) found++;
    if (lines.length === 0 || found / lines.length >= 0.5) continue;
    fresh.push(f);
  }
  const shuffled = fresh.map((f) => ({ f, k: random() })).sort((a, b) => a.k - b.k).map((x) => x.f);
  return shuffled.slice(0, count);
}

function tryGit(dir: string, args: string[]): boolean {
  try {
    git(dir, args);
    return true;
  } catch {
    return false;
  }
}
