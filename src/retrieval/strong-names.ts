/** Names a query stresses, and how they match definitions beyond their spelling (./ranking.ts, ./search.ts). */

/** A name the query stresses this much (a code span, a call, a trace symbol) is a strong name. */
export const STRONG_NAME_WEIGHT = 1.4;

/** What a name counts when a definition spells it otherwise: in another case, or under a C library prefix. */
export const OTHER_SPELLING = 0.7;

/**
 * A C function's name without its library prefix (`jv_contains` -> `contains`, `f_splits` -> `splits`),
 * or null. C has no namespaces, so a library names its functions `<prefix>_<name>` while its users (and
 * the language or API it implements) say `<name>`. Only C sources; the rest after the prefix must
 * start with a letter and have 3+ characters.
 */
export function cUnprefixed(symbol: string, language: string): string | null {
  if (language !== "c") return null;
  const m = /^[A-Za-z][A-Za-z0-9]{0,5}_([A-Za-z]\w{2,})$/.exec(symbol);
  return m ? m[1]!.toLowerCase() : null;
}
