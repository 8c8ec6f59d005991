/**
 * The miner's own reading of a Python call against a parameter list (./mine.ts), independent of
 * Loupe's (src/review/graph/signature.ts): which parameter each positional argument binds to, or
 * null when the call does not fit (too many positional arguments, an unknown or doubled keyword, a
 * required parameter not passed). A call the commit updated is a stale call site only when it fitted
 * the old parameters and no longer fits the new ones, or a positional argument now binds to another
 * parameter (one renamed in place is not a move).
 */
export type PyParam = { name: string; hasDefault: boolean; marker: string };
export type PyCall = { positional: number; keywords: string[]; splat: boolean; keywordSplat: boolean };

function bind(params: readonly PyParam[], call: PyCall): string[] | null {
  const positional: PyParam[] = [];
  const keywordOnly: PyParam[] = [];
  let positionalOnly = new Set<string>();
  let varArgs = false;
  let varKeywords = false;
  let afterStar = false;
  for (const p of params) {
    if (p.name === "/") positionalOnly = new Set(positional.map((q) => q.name));
    else if (p.marker === "*") {
      afterStar = true;
      if (p.name !== "") varArgs = true;
    } else if (p.marker === "**") varKeywords = true;
    else (afterStar ? keywordOnly : positional).push(p);
  }
  if (call.positional > positional.length && !varArgs) return null;
  const taken = positional.slice(0, call.positional).map((p) => p.name);
  const bound = new Set(taken);
  const byKeyword = new Set([...positional.filter((p) => !positionalOnly.has(p.name)), ...keywordOnly].map((p) => p.name));
  for (const k of call.keywords) {
    if (byKeyword.has(k)) {
      if (bound.has(k)) return null;
      bound.add(k);
    } else if (!varKeywords) return null;
  }
  if ([...positional, ...keywordOnly].some((p) => !p.hasDefault && !bound.has(p.name))) return null;
  return taken;
}

/** "stale", or why the updated call is not a stale call site of this change. */
export function pythonCallAfterChange(before: readonly PyParam[], after: readonly PyParam[], call: PyCall): "stale" | "did not fit before" | "still fits" {
  // `*xs` / `**kw`: what the call passes is unknown; counted as the miner always did.
  if (call.splat || call.keywordSplat) return "stale";
  const was = bind(before, call);
  if (was === null) return "did not fit before";
  const now = bind(after, call);
  if (now === null) return "stale";
  const oldNames = new Set(before.map((p) => p.name));
  const newNames = new Set(after.map((p) => p.name));
  const moved = now.some((name, i) => name !== was[i] && !(!newNames.has(was[i]!) && !oldNames.has(name)));
  return moved ? "stale" : "still fits";
}
