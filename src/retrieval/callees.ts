/**
 * What chunks call. `referencedNames` reads the names a chunk calls; `wrapperCallees` reads the
 * wrappers a report names: a short definition of a name the report mentions often only hands the work
 * to what it calls (`UnmarshalJsonReader` -> `Unmarshal`), and the fix lies there. The names such
 * definitions call are looked up as definitions and join the candidates at a lower weight: structure from
 * the code, not from the report's words.
 */
import type { ChunkDocument } from "../codeindex/port.ts";
import { classifyPath } from "./path-classes.ts";

/** Identifiers a chunk calls or instantiates that it does not define itself. */
export function referencedNames(doc: ChunkDocument, max = 8): string[] {
  const seen = new Map<string, number>();
  for (const m of doc.text.matchAll(/(?<![\w$.])(?:[A-Za-z_$][\w$]*\.)*([A-Za-z_$][\w$]{2,})\s*\(/g)) {
    const name = m[1]!;
    if (name === doc.symbol || /^(if|for|while|switch|return|print|len|range|str|int|float|dict|list|tuple|set|isinstance|super|function|catch|typeof|require)$/.test(name)) continue;
    seen.set(name, (seen.get(name) ?? 0) + 1);
  }
  return [...seen].sort((a, b) => b[1] - a[1]).slice(0, max).map(([n]) => n);
}

export const WRAPPERS = {
  /** A definition this short (lines) is read as a wrapper. */
  maxLines: 8,
  /** The strongest names of the report whose definitions are read. */
  names: 6,
  /** Callees taken from each wrapper. */
  callees: 4,
  /** Candidate weight of a callee's definition (a query-name definition is 0.3, and gets the definition bonus too). */
  weight: 0.5,
} as const;

/** The names the short definitions of the report's strongest names call (not those names themselves). */
export function wrapperCallees(definitions: readonly { doc: ChunkDocument }[], strongest: readonly string[]): string[] {
  const strong = strongest.slice(0, WRAPPERS.names);
  const named = new Set(strong.map((n) => n.toLowerCase()));
  const exact = new Set(strong);
  const out = new Set<string>();
  for (const { doc } of definitions) {
    if (!doc.symbol || !named.has(doc.symbol.toLowerCase())) continue;
    if (doc.endLine - doc.startLine + 1 > WRAPPERS.maxLines || classifyPath(doc.path) === "test") continue;
    // Exact names only: Go's exported `UnmarshalJsonBytes` often hands over to `unmarshalJsonBytes`.
    for (const callee of referencedNames(doc, WRAPPERS.callees)) if (!exact.has(callee)) out.add(callee);
  }
  return [...out];
}
