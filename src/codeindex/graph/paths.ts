/**
 * The files of a branch, indexed for import resolution (./resolve.ts): membership, files by directory
 * and by base name, and the choice between several files matching a path suffix.
 */
export type PathIndex = {
  has(path: string): boolean;
  /** Files directly in `dir` ("" for the root), sorted. */
  filesIn(dir: string): readonly string[];
  hasDir(dir: string): boolean;
  /** Directories whose path is `suffix` or ends with `/${suffix}`, sorted. */
  dirsWithSuffix(suffix: string): string[];
  /** Files whose path is `suffix` or ends with `/${suffix}`, sorted. */
  withSuffix(suffix: string): string[];
};

export const dirname = (path: string): string => {
  const slash = path.lastIndexOf("/");
  return slash === -1 ? "" : path.slice(0, slash);
};

export const basename = (path: string): string => path.slice(path.lastIndexOf("/") + 1);

export const joinPath = (dir: string, rest: string): string => (dir === "" ? rest : rest === "" ? dir : `${dir}/${rest}`);

/** Joins and normalises `.` and `..` segments; null when the path climbs above the root. */
export function normalisePath(dir: string, rest: string): string | null {
  const out: string[] = [];
  for (const part of joinPath(dir, rest).split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(part);
  }
  return out.join("/");
}

export function createPathIndex(paths: readonly string[]): PathIndex {
  const all = new Set(paths);
  const byDir = new Map<string, string[]>();
  const byBase = new Map<string, string[]>();
  const dirs = new Set<string>();
  for (const path of [...all].sort()) {
    const dir = dirname(path);
    let inDir = byDir.get(dir);
    if (!inDir) byDir.set(dir, (inDir = []));
    inDir.push(path);
    const base = basename(path);
    let same = byBase.get(base);
    if (!same) byBase.set(base, (same = []));
    same.push(path);
    for (let d = dir; d !== "" && !dirs.has(d); d = dirname(d)) dirs.add(d);
  }
  return {
    has: (path) => all.has(path),
    filesIn: (dir) => byDir.get(dir) ?? [],
    hasDir: (dir) => dir === "" || dirs.has(dir),
    dirsWithSuffix(suffix) {
      const tail = `/${suffix}`;
      return [...dirs].filter((d) => d === suffix || d.endsWith(tail)).sort();
    },
    withSuffix(suffix) {
      const candidates = byBase.get(basename(suffix)) ?? [];
      return candidates.filter((p) => p === suffix || p.endsWith(`/${suffix}`));
    },
  };
}

const commonPrefixSegments = (a: string, b: string): number => {
  const x = a.split("/");
  const y = b.split("/");
  let n = 0;
  while (n < x.length && n < y.length && x[n] === y[n]) n++;
  return n;
};

/**
 * Of several files matching an import, the one nearest the importer: most leading directories in
 * common, then the shortest path, then the first by name (so the choice is stable).
 */
export function nearest(candidates: readonly string[], importer: string): string | null {
  let best: string | null = null;
  let bestShared = -1;
  const from = dirname(importer);
  for (const candidate of candidates) {
    const shared = commonPrefixSegments(dirname(candidate), from);
    if (
      best === null ||
      shared > bestShared ||
      (shared === bestShared && (candidate.length < best.length || (candidate.length === best.length && candidate < best)))
    ) {
      best = candidate;
      bestShared = shared;
    }
  }
  return best;
}
