/**
 * The words of a question, to tell which span of the retrieved code answers it best and whether any
 * answers it well: identifiers split at case and underscores, lowercased, English function words left
 * out; a word matches another that shares its first letters (`signs` ~ `signing`, `cookie` ~ `cookies`).
 */

const FUNCTION_WORDS = new Set(
  ("a about above after again all also am an and any are as at be been before being below between both but by can could did do does doing done down during each else " +
    "for from further get gets got had has have having he her here hers him his how i if in into is it its itself just like make makes me more most my no nor not now " +
    "of off on once only or other our out over own same she should so some such than that the their them then there these they this those through to too under until " +
    "up use used uses using very want was way we were what when where which while who whom why will with work works would you your").split(" "),
);

/** The words of a text: identifiers split into their parts, lowercased. */
export function wordsOf(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/**
 * The question's content words (distinct, in order): words of 3+ letters, and acronyms of two capitals
 * (`IP`, `ID`, `OS`, `DB`), which name things in code as much as longer words do.
 */
export function questionTerms(question: string): string[] {
  const acronyms = new Set([...question.matchAll(/(?<![\p{L}\p{N}])\p{Lu}{2}(?![\p{L}\p{N}])/gu)].map((m) => m[0].toLowerCase()));
  return [...new Set(wordsOf(question).filter((w) => (w.length >= 3 || acronyms.has(w)) && !FUNCTION_WORDS.has(w)))];
}

const STEM = 5;
const stem = (w: string) => w.slice(0, STEM);

/** A text's words as stems, for `coverage`. */
export const stemsOf = (text: string): Set<string> => new Set(wordsOf(text).map(stem));

/** The share of `terms` a text's stems hold (1 when there are no terms). */
export function coverage(terms: readonly string[], stems: ReadonlySet<string>): number {
  if (terms.length === 0) return 1;
  return terms.filter((t) => stems.has(stem(t))).length / terms.length;
}
