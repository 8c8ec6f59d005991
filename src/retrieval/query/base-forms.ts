/**
 * Verb forms of a question's words as code writes them. Code names an action by its base form
 * (`strip_dot_prefix`, `print_stats`, `lookup`, `shutdown`) while a question inflects it ("where is the
 * prefix stripped", "how are the statistics printed") and splits a phrasal verb ("where is a view looked
 * up"). The index matches words as written (no stemming), so a short query adds, once each, the likely
 * base forms of its `-ed`/`-ing` words and the one-word forms of its phrasal verbs. A form no indexed
 * text holds matches nothing.
 *
 * Measured with `npx tsx scripts/answer-quality.ts`: plural forms (`paths` -> `path`) and noun
 * compounds (`file name` -> `filename`) were tried too and named fewer answers (the added terms pulled
 * other code up), so they are not made.
 */

import { forEachWord } from "../../codeindex/tokenize.ts";
import { REPORT_NOISE, STOP_WORDS } from "./lexicon.ts";
import { shortForms } from "./abbreviations.ts";

const VOWEL = /[aeiou]/;

/**
 * Irregular past forms a question writes ("where is the request built", "how is the key found", "when
 * is the error thrown") with the base form code names the action by (`build`, `find`, `throw`). Forms
 * that are common words of their own in code are left out (`left`, `bound`, `bit`, `led`, `lit`, `fell`,
 * `saw`, `rose`, `ground`, `wound`, `laid`), and so are those whose base form is a keyword of most
 * languages and would match every loop (`broken` ~ `break`: "split", as in "broken into words"; `gone`
 * ~ `go`). A map, not an object: `constructor` is no past form.
 */
const IRREGULAR: ReadonlyMap<string, string> = new Map(
  (
    "began:begin begun:begin bent:bend bitten:bite blew:blow blown:blow brought:bring built:build " +
    "bought:buy caught:catch chose:choose chosen:choose came:come dealt:deal dug:dig drew:draw drawn:draw drove:drive driven:drive " +
    "ate:eat eaten:eat fed:feed felt:feel fought:fight found:find fled:flee flew:fly flown:fly forbade:forbid forbidden:forbid " +
    "forgot:forget forgotten:forget froze:freeze frozen:freeze gave:give given:give grew:grow grown:grow hung:hang " +
    "heard:hear hid:hide hidden:hide held:hold kept:keep knew:know known:know lent:lend lost:lose made:make meant:mean met:meet " +
    "overrode:override overridden:override paid:pay rebuilt:rebuild rewrote:rewrite rewritten:rewrite rode:ride ridden:ride " +
    "rang:ring rung:ring ran:run said:say seen:see sought:seek sold:sell sent:send shook:shake shaken:shake shone:shine shot:shoot " +
    "showed:show shown:show shrank:shrink shrunk:shrink sang:sing sung:sing sank:sink sunk:sink slept:sleep slid:slide spoke:speak " +
    "spoken:speak spent:spend spun:spin sprang:spring sprung:spring stood:stand stole:steal stolen:steal stuck:stick stung:sting " +
    "struck:strike strove:strive striven:strive swept:sweep swung:swing took:take taken:take taught:teach tore:tear torn:tear " +
    "told:tell thought:think threw:throw thrown:throw understood:understand undid:undo undone:undo upheld:uphold woke:wake " +
    "woken:wake wore:wear worn:wear wove:weave woven:weave won:win withdrew:withdraw withdrawn:withdraw wrote:write written:write"
  )
    .split(" ")
    .map((pair) => pair.split(":") as [string, string]),
);

/** Likely base forms of a lowercase past form or `-ed`/`-ing` word (not the word itself), most likely first. */
export function verbBaseForms(word: string): string[] {
  const w = word.toLowerCase();
  if (!/^[a-z]+$/.test(w)) return [];
  const irregular = IRREGULAR.get(w);
  if (irregular) return [irregular];
  const out: string[] = [];
  const add = (form: string) => {
    if (form.length >= 3 && form !== w && VOWEL.test(form) && !out.includes(form)) out.push(form);
  };
  // A final consonant the ending doubled: stripped -> strip, mapping -> map (not -ll, -ss, -zz).
  const undoubled = (stem: string) => (stem.length >= 4 && stem.at(-1) === stem.at(-2) && !VOWEL.test(stem.at(-1)!) && !/[lsz]/.test(stem.at(-1)!) ? stem.slice(0, -1) : null);
  const stemOf = (stem: string, restoreE: string) => {
    const single = undoubled(stem);
    if (single) add(single);
    else {
      add(stem); // printed -> print
      add(restoreE); // parsed -> parse, parsing -> parse
    }
  };
  if (w.length > 4 && w.endsWith("ied")) add(w.slice(0, -3) + "y");
  else if (w.length > 4 && w.endsWith("ed")) stemOf(w.slice(0, -2), w.slice(0, -1));
  else if (w.length > 5 && w.endsWith("ing")) stemOf(w.slice(0, -3), w.slice(0, -3) + "e");
  return out;
}

/** Particles that make one name with their verb in code: look up -> lookup, shut down -> shutdown. */
const PARTICLES = new Set(["up", "out", "down", "in", "on", "off", "back", "over"]);

/**
 * The one-word forms of phrasal verbs among neighbouring words: `looked up` -> lookup, `timed out` ->
 * timeout (also the verb as written: `setup`). `isStop` tells filler words, which start none.
 */
export function phrasalVerbs(words: readonly string[], isStop: (word: string) => boolean): string[] {
  const out = new Set<string>();
  for (let i = 0; i + 1 < words.length; i++) {
    const verb = words[i]!.toLowerCase();
    const particle = words[i + 1]!.toLowerCase();
    if (!PARTICLES.has(particle) || !/^[a-z]{3,}$/.test(verb) || isStop(verb)) continue;
    for (const form of [verb, ...verbBaseForms(verb)]) out.add(form + particle);
  }
  return [...out];
}

/**
 * A short query's text with the base forms of its `-ed`/`-ing` words, the one-word forms of its
 * phrasal verbs and the usual short forms of its words (./abbreviations.ts) added once each: "where is
 * the view looked up" also asks for `look` and `lookup`, "how are two values compared" for `cmp`.
 */
export function withVerbForms(text: string): string {
  const words: string[] = [];
  forEachWord(text, (w) => {
    if (/^[A-Za-z]+$/.test(w)) words.push(w);
  });
  const seen = new Set(words.map((w) => w.toLowerCase()));
  const added: string[] = [];
  const add = (form: string) => {
    if (!seen.has(form)) {
      seen.add(form);
      added.push(form);
    }
  };
  // Filler and the words every report template has (expected, tried, happened) add nothing.
  const filler = (w: string) => STOP_WORDS.has(w) || REPORT_NOISE.has(w);
  for (const w of words) if (w === w.toLowerCase() && !filler(w)) verbBaseForms(w).filter((f) => !filler(f)).forEach(add);
  phrasalVerbs(words, filler).forEach(add);
  for (const w of words) if (w === w.toLowerCase() && !filler(w)) shortForms(w).forEach(add);
  return added.length > 0 ? `${text} ${added.join(" ")}` : text;
}
