import { describe, expect, it } from "vitest";
import { withIndexedRepository } from "./support.ts";

/**
 * A date library's translations: a folder of locales, each a table of month and unit names. A question
 * about how months are counted is answered by the code that counts them, whatever the tables say; a
 * report naming a locale's language is about that locale's file, though no file says the language's
 * name (src/retrieval/locales.ts).
 */
const locale = (tag: string, months: string[], ordinal: string): string =>
  [
    "const locale = {",
    `  name: '${tag}',`,
    `  months: '${months.join("_")}'.split('_'),`,
    `  monthsShort: '${months.map((m) => m.slice(0, 3)).join("_")}'.split('_'),`,
    `  ordinal: n => \`\${n}${ordinal}\`,`,
    "  relativeTime: { future: 'in %s', past: '%s ago', M: 'a month', MM: '%d months', y: 'a year', yy: '%d years' },",
    "  monthsFormat: (n, months) => (n === 1 ? months.M : months.MM.replace('%d', n)),",
    "  formats: { LT: 'HH:mm', L: 'DD/MM/YYYY' },",
    "}",
    "// the number of months and the month of a date are written with these month names",
    "export default locale",
    "",
  ].join("\n");

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

const LIBRARY: Record<string, string> = {
  "src/locale/en.js": locale("en", MONTHS, "th"),
  "src/locale/sv.js": locale("sv", ["januari", "februari", "mars", "april", "maj", "juni", "juli", "augusti", "september", "oktober", "november", "december"], "e"),
  "src/locale/de.js": locale("de", ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember"], "."),
  "src/locale/fr.js": locale("fr", ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"], "e"),
  "src/locale/es.js": locale("es", ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"], "º"),
  "src/locale/it.js": locale("it", ["gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre", "ottobre", "novembre", "dicembre"], "º"),
  "src/utils.js": [
    "// The number of months from a to b, the last one as a fraction.",
    "export const monthDiff = (a, b) => {",
    "  if (a.date() < b.date()) return -monthDiff(b, a)",
    "  const wholeMonthDiff = ((b.year() - a.year()) * 12) + (b.month() - a.month())",
    "  const anchor = a.clone().add(wholeMonthDiff, 'M')",
    "  const c = b - anchor < 0",
    "  const anchor2 = a.clone().add(wholeMonthDiff + (c ? -1 : 1), 'M')",
    "  return +(-(wholeMonthDiff + ((b - anchor) / (c ? (anchor - anchor2) : (anchor2 - anchor)))) || 0)",
    "}",
    "",
    "export const absFloor = n => (n < 0 ? Math.ceil(n) || 0 : Math.floor(n))",
    "",
  ].join("\n"),
  "src/index.js": [
    "import { monthDiff, absFloor } from './utils'",
    "import en from './locale/en'",
    "",
    "export function diff(self, input, units, float) {",
    "  const that = parse(input)",
    "  let result = units === 'month' ? monthDiff(self, that) : self - that",
    "  return float ? result : absFloor(result)",
    "}",
    "",
    "export function format(self, template, locale = en) {",
    "  return template.replace('Do', locale.ordinal(self.date())).replace('MMMM', locale.months[self.month()])",
    "}",
    "",
  ].join("\n"),
};

describe("a project's translations in a search (e2e)", () => {
  const { search } = withIndexedRepository("acme/dates", LIBRARY);

  it("answers a question about months with the code that counts them, not the locales' month names", async () => {
    const results = await search("How is the number of months between two dates calculated, including the fractional part of a month?");
    expect(results[0]?.filepath).toBe("src/utils.js");
  });

  it("answers a report that names a locale's language with that locale's file", async () => {
    const results = await search("Ordinal formatting in Swedish is wrong: format('Do') prints 1e for every day of the month");
    expect(results[0]?.filepath).toBe("src/locale/sv.js");
  });

  it("keeps the locales in play when the question is about translations", async () => {
    const results = await search("In which locales are the months of a date named?");
    expect(results[0]?.filepath.startsWith("src/locale/")).toBe(true);
  });
});
