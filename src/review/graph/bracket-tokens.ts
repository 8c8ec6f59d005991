/**
 * Brackets among a line's tokens, as the review's behaviour comparisons read them (same-behaviour.ts,
 * behaviour-form.ts, diagnostics-only.ts, inline-expressions.ts, inline-guards.ts).
 */

export const OPENERS: ReadonlySet<string> = new Set(["(", "[", "{"]);
export const CLOSERS: ReadonlySet<string> = new Set([")", "]", "}"]);

/** The index of the bracket that closes the one at `open` (any kind counts towards the depth); -1 when none does. */
export function closingIndex(tokens: readonly string[], open: number): number {
  let depth = 0;
  for (let i = open; i < tokens.length; i++) {
    if (OPENERS.has(tokens[i]!)) depth++;
    else if (CLOSERS.has(tokens[i]!) && --depth === 0) return i;
  }
  return -1;
}

/** `tokens` split at its commas of bracket depth 0 (an empty part where two commas meet or at the ends). */
export function commaParts(tokens: readonly string[]): string[][] {
  const out: string[][] = [[]];
  let depth = 0;
  for (const t of tokens) {
    if (OPENERS.has(t)) depth++;
    else if (CLOSERS.has(t)) depth--;
    if (t === "," && depth === 0) out.push([]);
    else out[out.length - 1]!.push(t);
  }
  return out;
}
