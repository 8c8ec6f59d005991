/**
 * A project's translations: the files of a folder that holds one file (or one folder) per locale, each
 * named by its locale's tag (`src/locale/sv.js`, `src/Carbon/Lang/en_GB.php`, `config/locales/de.yml`,
 * `_locales/pt_BR/messages.json`). They are tables of words, dozens side by side, and a question about
 * code matches their month and unit names before the code that uses them; the ranking demotes them
 * unless the query asks about translations or names a locale's language (./ranking.ts). A locale's
 * language is named in the words the platform's locale data (CLDR, through `Intl.DisplayNames`) gives it
 * in English: `sv` Swedish, `zgh` Standard Moroccan Tamazight, `es-DO` Spanish. No list of our own.
 */
import { classifyPath } from "./path-classes.ts";

/**
 * A folder is a collection of locales when it holds English (`en`, `en-US`: the language a project's
 * messages are keyed in, which modules named by country code, `de/`, `fr/`, `br/`, lack) or gettext
 * catalogs (`.po`, whose source language has none), and at least this many of its entries are named by
 * the tag of a language the locale data knows...
 */
const MIN_LOCALES = 5;
/**
 * ...tag-shaped names make at least this share of its entries, and known languages at least half of them
 * (runtimes ship different locale data: Node names 797 of Carbon's 823 locales, Deno 595).
 */
const MIN_SHARE = 0.7;

/** A locale tag as projects name their files: a language subtag, then script or region subtags (`-` or `_`). */
const TAG_SHAPE = /^[a-z]{2,3}(?:[-_][a-z0-9]{2,8}){0,2}$/i;
/** In a collection of locales, a tag with a variant (glibc's `tt_RU@iqtelif`) is one too, named or not. */
const MEMBER_SHAPE = /^[a-z]{2,3}(?:[-_][a-z0-9]{2,8}){0,3}(?:@[a-z0-9]+)?$/i;

const displayNames = new Intl.DisplayNames(["en"], { type: "language", fallback: "none" });
const languageNames = new Map<string, string | null>();

/** The English name of a locale tag's language (`es_DO` -> `spanish`), lower case; null when it is no locale. */
export function languageOf(tag: string): string | null {
  tag = tag.replace(/@[a-z0-9]+$/i, ""); // a variant says nothing of the language
  if (!TAG_SHAPE.test(tag)) return null;
  const language = tag.split(/[-_]/)[0]!.toLowerCase();
  let name = languageNames.get(language);
  if (name === undefined) {
    try {
      name = displayNames.of(language)?.toLowerCase() ?? null;
    } catch {
      name = null; // not a well-formed subtag
    }
    if (languageNames.size < 10_000) languageNames.set(language, name);
  }
  return name;
}

/**
 * A locale file: its tag (as written) and its language's name (null for a language the locale data does
 * not name, `tzl` or `nhn_MX`: such a file is still one of the collection, and demoted with it).
 */
export type LocaleFile = { tag: string; language: string | null };

const cache = new WeakMap<readonly string[], Map<string, LocaleFile>>();

/**
 * The entries a file makes, its own first: its stem in its folder, then each folder on its path (`sv/`) in
 * the folder above, each with the tag it would be (its name without extension: `de.lproj/` is `de`).
 */
function entriesOf(path: string): { dir: string; entry: string; tag: string }[] {
  const parts = path.split("/");
  const name = parts[parts.length - 1]!;
  const dot = name.indexOf(".");
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const out: { dir: string; entry: string; tag: string }[] = [];
  let dir = "";
  for (let i = 0; i < parts.length - 1; i++) {
    out.push({ dir, entry: `${parts[i]}/`, tag: parts[i]!.replace(/\.[^.]*$/, "") });
    dir = i === 0 ? parts[0]! : `${dir}/${parts[i]}`;
  }
  out.push({ dir, entry: stem, tag: stem });
  return out.reverse();
}

/** The locale files among `paths` (one repository's files), by path. */
export function localeFiles(paths: readonly string[]): Map<string, LocaleFile> {
  let out = cache.get(paths);
  if (out) return out;
  // Each folder's entries: its files by stem and its subfolders by name, each tag-shaped or not, and of a
  // known language or not; and the folders holding gettext catalogs at any depth (`po/de.po`,
  // `locale/de/LC_MESSAGES/x.po`).
  const folders = new Map<string, Map<string, { shaped: boolean; known: boolean; english: boolean }>>();
  const catalogs = new Set<string>();
  for (const path of paths) {
    const po = path.endsWith(".po");
    for (const { dir, entry, tag } of entriesOf(path)) {
      if (po) catalogs.add(dir);
      let entries = folders.get(dir);
      if (!entries) folders.set(dir, (entries = new Map()));
      if (!entries.has(entry)) entries.set(entry, { shaped: MEMBER_SHAPE.test(tag), known: languageOf(tag) !== null, english: /^en(?:[-_]|$)/i.test(tag) });
    }
  }
  const collections = new Set<string>();
  for (const [dir, entries] of folders) {
    let shaped = 0;
    let known = 0;
    let english = false;
    for (const e of entries.values()) {
      if (e.shaped) shaped++;
      if (e.known) known++;
      if (e.english) english = true;
    }
    if (known >= MIN_LOCALES && shaped >= MIN_SHARE * entries.size && known >= 0.5 * shaped && (english || catalogs.has(dir))) collections.add(dir);
  }
  out = new Map();
  if (collections.size > 0) {
    for (const path of paths) {
      const cls = classifyPath(path);
      if (cls === "doc" || cls === "test") continue; // a translated manual is documentation; fixtures are tests
      // The file itself (`locale/sv.js`), or a folder per locale it lies in (`locale/hu/_lib/x.js`).
      const e = entriesOf(path).find(({ dir, tag }) => collections.has(dir) && MEMBER_SHAPE.test(tag));
      if (e) out.set(path, { tag: e.tag, language: languageOf(e.tag) });
    }
  }
  cache.set(paths, out);
  return out;
}

/** Words that ask about translations themselves (`Fix the German translation`, `locales that throw`). */
const ABOUT_TRANSLATIONS = /^(locales?|locali[sz](ations?|ed|e)|translations?|translated|translators?|i18n|l10n|internationali[sz]ation)$/;

/** Whether the query's words ask about translations. */
export function asksAboutTranslations(words: Iterable<string>): boolean {
  for (const w of words) if (ABOUT_TRANSLATIONS.test(w)) return true;
  return false;
}

/**
 * The locale files a query names: their language in words (`Ordinal formatting in Swedish`: every Swedish
 * file) or their tag quoted as code (`.locale('sv')`, `setLocale("en_GB")`). `report` is the query's
 * normalized text (lower case, single spaces).
 */
export function namedLocaleFiles(report: string, files: ReadonlyMap<string, LocaleFile>): string[] {
  // The report is read once (a report runs to 100,000 characters; a project to hundreds of locales).
  const words = new Set(report.match(/\p{L}+/gu));
  const quoted = new Set(Array.from(report.matchAll(QUOTED_TAG), (m) => m[2]!.replace(/_/g, "-")));
  const said = new Map<string, boolean>();
  const says = (language: string): boolean => {
    let named = said.get(language);
    // Each word of the name is a word of the report before the phrase is looked for.
    if (named === undefined) said.set(language, (named = language.split(/\P{L}+/u).every((w) => w === "" || words.has(w)) && saysWords(report, language)));
    return named;
  };
  const out: string[] = [];
  for (const [path, f] of files) {
    if ((f.language !== null && says(f.language)) || quoted.has(f.tag.toLowerCase().replace(/_/g, "-"))) out.push(path);
  }
  return out;
}

/** A tag quoted as a string literal (`'sv'`, `"en_gb"`, `` `de` ``), in a normalized (lower-case) text. */
const QUOTED_TAG = /(['"`])([a-z]{2,3}(?:[-_][a-z0-9]{2,8}){0,3}(?:@[a-z0-9]+)?)\1/g;

/** Whether `text` holds `words` with no letter running on at either end. */
function saysWords(text: string, words: string): boolean {
  for (let at = text.indexOf(words); at !== -1; at = text.indexOf(words, at + 1)) {
    if (!/\p{L}/u.test(text[at - 1] ?? "") && !/\p{L}/u.test(text[at + words.length] ?? "")) return true;
  }
  return false;
}

/** A query's view of the searched repositories' translations. */
export type Translations = {
  /** The locale files the query names, each with its share of one mention. */
  named: { target: string; path: string; share: number }[];
  /** Whether a file is a translation the query does not ask for (the ranking demotes it). */
  unasked(target: string, path: string): boolean;
};

/**
 * The translations of each target (its files by target key) as a query sees them: the locales it names
 * share one mention among them (1 / sqrt of their number: `Spanish` names five locales, each still well
 * above the locales it does not name; every file of a locale kept as a folder takes its locale's share);
 * when its words ask about translations none is demoted.
 */
export function translationsFor(files: ReadonlyMap<string, readonly string[]> | undefined, report: string, words: Iterable<string>): Translations {
  const about = asksAboutTranslations(words);
  const byTarget = new Map<string, { locales: Map<string, LocaleFile>; named: Set<string> }>();
  for (const [target, paths] of files ?? []) {
    const locales = localeFiles(paths);
    if (locales.size > 0) byTarget.set(target, { locales, named: new Set(namedLocaleFiles(report, locales)) });
  }
  const named: Translations["named"] = [];
  for (const [target, t] of byTarget) {
    // Shared among the locales named, not their files: a folder per locale splits one into several.
    const tags = new Set([...t.named].map((path) => t.locales.get(path)!.tag.toLowerCase()));
    for (const path of t.named) named.push({ target, path, share: 1 / Math.sqrt(tags.size) });
  }
  return {
    named,
    unasked(target, path) {
      const t = byTarget.get(target);
      return !about && t !== undefined && t.locales.has(path) && !t.named.has(path);
    },
  };
}
