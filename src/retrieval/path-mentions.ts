/**
 * Path mentions against a branch's file list: whether and which files a mention (`src/x.py`, an absolute
 * trace path, `jv.c`) names, and the module stems and Go packages a name can stand for.
 */
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
type PathFacts = { lower: string[]; byBase: Map<string, number[]>; byStem: Map<string, number[]> };
const pathFactsCache = new WeakMap<readonly string[], PathFacts>();
export function pathFacts(paths: readonly string[]): PathFacts {
  let facts = pathFactsCache.get(paths);
  if (!facts) {
    const lower = paths.map((p) => p.toLowerCase());
    const byBase = new Map<string, number[]>();
    const byStem = new Map<string, number[]>();
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
    });
    facts = { lower, byBase, byStem };
    pathFactsCache.set(paths, facts);
  }
  return facts;
}

const baseName = (path: string) => path.slice(path.lastIndexOf("/") + 1);

/** A path mention counts when it names at most this many files of a list: `__init__.py` names dozens. */
export const MAX_FILES_NAMED = 3;

/** The indices of the files of `paths` that a path mention names. */
export function namedFiles(mention: string, paths: readonly string[]): number[] {
  const m = mention.toLowerCase().replace(/^\/+/, "");
  const { lower, byBase } = pathFacts(paths);
  return (byBase.get(baseName(m)) ?? []).filter((i) => lowerPathMatches(lower[i]!, m));
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
