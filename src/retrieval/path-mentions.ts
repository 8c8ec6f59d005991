/**
 * Path mentions against a branch's file list: whether and which files a mention (`src/x.py`, an absolute
 * trace path, `jv.c`) names, and the module stems and Go packages a name can stand for; and the file
 * paths a report writes anywhere in its text (`withExtraPaths`).
 */
import type { QueryAnalysis } from "./query-analysis.ts";

/** True when `path` ends with `mention` on segment boundaries (or vice versa for absolute mentions). */
export function pathMatches(path: string, mention: string): boolean {
  const p = path.toLowerCase();
  const m = mention.toLowerCase().replace(/^\/+/, "");
  if (m === "") return false;
  if (p === m || p.endsWith("/" + m)) return true;
  // Absolute project paths from traces (/home/u/proj/src/x.py): the indexed path is their suffix.
  return m.endsWith("/" + p) && p.includes("/");
}

/** pathMatches with both sides already lowercased and the mention's leading slashes cut. */
function lowerPathMatches(p: string, m: string): boolean {
  if (m === "") return false;
  if (p === m || (p.endsWith(m) && p.charCodeAt(p.length - m.length - 1) === 47)) return true;
  return m.endsWith("/" + p) && p.includes("/");
}

/**
 * Facts of a file list, computed once per list: lowercased paths, and the files by lowercased base name
 * (every path a mention matches ends with the mention's base name) and by module stem (3+ characters).
 */
type PathFacts = { lower: string[]; byBase: Map<string, number[]>; byStem: Map<string, number[]>; modules: (string | null)[]; byModuleName: Map<string, number[]> };
const pathFactsCache = new WeakMap<readonly string[], PathFacts>();
export function pathFacts(paths: readonly string[]): PathFacts {
  let facts = pathFactsCache.get(paths);
  if (!facts) {
    const lower = paths.map((p) => p.toLowerCase());
    const byBase = new Map<string, number[]>();
    const byStem = new Map<string, number[]>();
    const modules = lower.map(moduleOf);
    const byModuleName = new Map<string, number[]>();
    const add = (map: Map<string, number[]>, key: string, i: number) => {
      const list = map.get(key);
      if (list) list.push(i);
      else map.set(key, [i]);
    };
    lower.forEach((p, i) => {
      add(byBase, baseName(p), i);
      const stem = moduleStem(paths[i]!)?.toLowerCase();
      if (stem && stem.length >= 3) add(byStem, stem, i);
      // A Go package is its folder: `mapping.Unmarshal` names every file of `.../mapping/`.
      const pkg = p.endsWith(".go") ? goPackageDir(p) : null;
      if (pkg && pkg !== stem && pkg.length >= 3) add(byStem, pkg, i);
      const module = modules[i];
      if (module) add(byModuleName, module.slice(module.lastIndexOf("/") + 1), i);
    });
    facts = { lower, byBase, byStem, modules, byModuleName };
    pathFactsCache.set(paths, facts);
  }
  return facts;
}

const baseName = (path: string) => path.slice(path.lastIndexOf("/") + 1);

/** A path mention counts when it names at most this many files of a list: `__init__.py` names dozens. */
export const MAX_FILES_NAMED = 3;

/**
 * The indices of the files of `paths` that a path mention names: the files whose path ends with it, else
 * the files of the same module under the language's resolution (`sameModuleFiles`).
 */
export function namedFiles(mention: string, paths: readonly string[]): number[] {
  const m = mention.toLowerCase().replace(/^\/+/, "");
  const facts = pathFacts(paths);
  const named = (facts.byBase.get(baseName(m)) ?? []).filter((i) => lowerPathMatches(facts.lower[i]!, m));
  return named.length > 0 ? named : sameModuleFiles(m, facts);
}

/**
 * A path's module where the language resolves one name to several files, lowercased, with its module
 * system: JavaScript and TypeScript `a/b.js`, `a/b.ts`, `a/b/index.js` are `js:a/b`; Python `a/b.py` and
 * `a/b/__init__.py` are `py:a/b`; Rust `a/b.rs` and `a/b/mod.rs` are `rs:a/b`. Null for other files.
 */
export function moduleOf(path: string): string | null {
  const p = path.toLowerCase();
  const js = /^(.+?)(?:\/index)?\.[cm]?[jt]sx?$/.exec(p);
  if (js) return `js:${js[1]}`;
  const py = /^(.+?)(?:\/__init__)?\.pyi?$/.exec(p);
  if (py) return `py:${py[1]}`;
  const rs = /^(.+?)(?:\/mod)?\.rs$/.exec(p);
  return rs ? `rs:${rs[1]}` : null;
}

/** A module mention names files by its last folders and name: at least this many parts of it. */
const MODULE_PARTS = 2;

/**
 * The files of the mention's module (`moduleOf`) whose module ends with the mention's longest tail of
 * MODULE_PARTS or more parts: a trace through the installed package `node_modules/dayjs/plugin/utc.js`
 * (cut to `dayjs/plugin/utc.js`) names the repository's `src/plugin/utc/index.js`, and `pkg/mod.py`
 * names `pkg/mod/__init__.py`. Lines of such a file are not the mention's (a build's output is not
 * its source), so only the file is named (./located.ts reads lines by `pathMatches`).
 */
function sameModuleFiles(mention: string, facts: PathFacts): number[] {
  const module = moduleOf(mention);
  if (!module) return [];
  const colon = module.indexOf(":");
  const system = module.slice(0, colon);
  const parts = module.slice(colon + 1).split("/").filter((p) => p !== "" && p !== ".");
  const files = facts.byModuleName.get(parts[parts.length - 1] ?? "") ?? [];
  for (let n = parts.length; n >= MODULE_PARTS && files.length > 0; n--) {
    const tail = parts.slice(-n).join("/");
    const found = files.filter((i) => {
      const m = facts.modules[i]!;
      return m.startsWith(`${system}:`) && (m === `${system}:${tail}` || m.endsWith(`/${tail}`));
    });
    if (found.length > 0) return found;
  }
  return [];
}

/** Whether a path mention names a file of one of the lists. */
export function namesAFile(mention: string, lists: Iterable<readonly string[]>): boolean {
  for (const paths of lists) if (namedFiles(mention, paths).length > 0) return true;
  return false;
}

function goPackageDir(path: string): string | null {
  const parts = path.split("/");
  return parts.length >= 2 ? (parts[parts.length - 2] ?? null) : null;
}

/** Stem used for module-name mentions: `a/b/irradiance.py` -> irradiance; `a/b/__init__.py` -> b. */
export function moduleStem(path: string): string | null {
  const parts = path.split("/");
  const base = parts[parts.length - 1] ?? "";
  const stem = base.replace(/\.[^.]+$/, "");
  if (/^(__init__|index|mod|main|__main__)$/.test(stem)) return parts.length >= 2 ? (parts[parts.length - 2] ?? null) : null;
  return stem || null;
}

/** Runs of characters a file path is written with (a drive letter's `C:` included). */
const PATH_RUN = /(?:[A-Za-z]:)?[\w.~\-\\/]+/g;
/** A code file's name ending inside a run: a name character, a dot and a code extension, no name character or dot after it. */
const CODE_FILE_END = /[\w-]\.(?:py|pyi|pyx|js|mjs|cjs|jsx|ts|tsx|mts|go|rs|java|kt|rb|php|c|h|cc|cpp|hpp|cs|swift|scala|vue|svelte)(?![\w.])/g;

/**
 * The file mentions of a text: each run of path characters up to the last code file name it ends with
 * (`./pkg/sub/mod.py`, `C:\\app\\main.go`). Linear in the text: a run is read once, and the end is found
 * by a fixed-width pattern, so a pasted hex dump or one 20,000-character word costs what its length does
 * (one pattern for both, `[path chars]*[name chars]+\.ext`, backtracked cubically on such words).
 */
export function* fileMentions(text: string): Generator<string> {
  let after = 0;
  for (const run of text.matchAll(PATH_RUN)) {
    if (!run[0].includes(".")) continue;
    let end = -1;
    for (const m of run[0].matchAll(CODE_FILE_END)) end = m.index + m[0].length;
    if (end < 0) continue;
    const at = run.index;
    // A letter and a colon just before the run read as a drive (`https://host/a.py` gives `s://host/a.py`,
    // as the single pattern read it), unless an earlier mention ends past that letter.
    const drive = at - 2 >= after && text[at - 1] === ":" && /[A-Za-z]/.test(text[at - 2] ?? "") && !/^[A-Za-z]:/.test(run[0]);
    after = at + end;
    yield (drive ? text.slice(at - 2, at) : "") + run[0].slice(0, end);
  }
}

/**
 * File paths written anywhere in the text (warnings, log lines, prose) that the query analysis did not
 * take as paths, normalised like trace paths: library prefixes cut to the package
 * (`.../site-packages/astroid/raw_building.py` -> `astroid/raw_building.py`), backslashes to slashes.
 */
export function withExtraPaths(analysis: QueryAnalysis, text: string): QueryAnalysis {
  const known = new Set(analysis.terms.filter((t) => t.kind === "path").map((t) => t.text));
  const extra: QueryAnalysis["terms"] = [];
  for (const mention of fileMentions(text.slice(0, 50_000))) {
    let path = mention.replace(/\\/g, "/").replace(/^\.\//, "");
    const cut = /(?:^|\/)(?:site-packages|dist-packages|node_modules|vendor)\/(.+)$/.exec(path);
    if (cut) path = cut[1]!;
    if (!path.includes("/") || known.has(path)) continue;
    known.add(path);
    extra.push({ text: path, weight: 2.0, kind: "path" });
  }
  if (extra.length === 0) return analysis;
  return { ...analysis, terms: [...analysis.terms, ...extra.slice(0, 20)], paths: [...analysis.paths, ...extra.slice(0, 20).map((e) => e.text)] };
}
