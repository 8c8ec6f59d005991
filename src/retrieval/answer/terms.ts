/**
 * The words of a question, to tell which span of the retrieved code answers it best and whether any
 * answers it well: identifiers split at case and underscores, lowercased, English function words left
 * out; a word matches another that shares its first letters (`signs` ~ `signing`, `cookie` ~ `cookies`).
 */

import { phrasalVerbs, verbBaseForms } from "../query/base-forms.ts";
import { shortForms } from "../query/abbreviations.ts";

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
    // Before the capital that starts a word after capitals (`HTTPServer` -> `HTTP Server`); found by looking
    // around one position (`([A-Z]+)([A-Z][a-z])` tried every start of a run of capitals to its end:
    // 100,000 capitals took 20 s).
    .replace(/(?<=[A-Z])(?=[A-Z][a-z])/g, " ")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** A question's content word with the stems it matches by: its own, and those of its verb forms. */
export type QuestionTerm = { word: string; stems: readonly string[] };

/**
 * The question's content words (distinct, in order): words of 3+ letters, and acronyms of two capitals
 * (`IP`, `ID`, `OS`, `DB`), which name things in code as much as longer words do. An inflected verb also
 * matches its base forms and a phrasal verb its one-word form as code writes them ("looked up" ~
 * `lookup`, "parsing" ~ `parse`: ../query/base-forms.ts), which share no first five letters with it,
 * and a word its usual short forms ("compared" ~ `cmp`, "directory" ~ `dir`: ../query/abbreviations.ts).
 */
export function questionTerms(question: string): QuestionTerm[] {
  const acronyms = new Set([...question.matchAll(/(?<![\p{L}\p{N}])\p{Lu}{2}(?![\p{L}\p{N}])/gu)].map((m) => m[0].toLowerCase()));
  const words = wordsOf(question);
  const forms = new Map<string, Set<string>>();
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const set = forms.get(word) ?? new Set<string>();
    for (const form of [word, ...verbBaseForms(word)]) {
      set.add(stem(form));
      for (const short of shortForms(form)) set.add(stem(short));
    }
    const next = words[i + 1];
    if (next !== undefined) for (const compound of phrasalVerbs([word, next], (w) => FUNCTION_WORDS.has(w))) set.add(stem(compound));
    forms.set(word, set);
  }
  const kept = [...new Set(words.filter((w) => (w.length >= 3 || acronyms.has(w)) && !FUNCTION_WORDS.has(w)))];
  return kept.map((word) => ({ word, stems: [...(forms.get(word) ?? [stem(word)])] }));
}

const STEM = 5;
const stem = (w: string) => w.slice(0, STEM);

/** A text's words as stems, for `coverage`. */
export const stemsOf = (text: string): Set<string> => new Set(wordsOf(text).map(stem));

/** The share of `terms` a text's stems hold (1 when there are no terms). */
export function coverage(terms: readonly QuestionTerm[], stems: ReadonlySet<string>): number {
  if (terms.length === 0) return 1;
  return terms.filter((t) => t.stems.some((s) => stems.has(s))).length / terms.length;
}
