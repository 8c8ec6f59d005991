import { describe, expect, it } from "vitest";
import { withIndexedRepository } from "./support.ts";

/**
 * A report about the Bulgarian file of a date library names the library and the language. The file opens
 * with a comment and the library's import (two lines, a block of imports and nothing else), then a helper,
 * then the locale's object, where the week's first day is set. The two short lines hold the report's
 * names densely; the object holds the code to change and leads the file's references.
 */
const LOCALE = [
  "// Bulgarian [bg] locale of datekit", // 1
  "import datekit from 'datekit'",
  "",
  "function ordinal(n) {", // 4
  "  const rest = n % 100",
  "  if (rest > 10 && rest < 20) return `${n}-ти`",
  "  return `${n}-${['ви', 'ри', 'ги'][(n % 10) - 1] ?? 'ти'}`",
  "}",
  "",
  "const locale = {", // 10
  "  weekdays: 'неделя_понеделник_вторник_сряда_четвъртък_петък_събота'.split('_'),",
  "  weekdaysShort: 'нед_пон_вто_сря_чет_пет_съб'.split('_'),",
  "  weekdaysMin: 'нд_пн_вт_ср_чт_пт_сб'.split('_'),",
  "  months: 'януари_февруари_март_април_май_юни_юли_август_септември_октомври_ноември_декември'.split('_'),",
  "  monthsShort: 'янр_фев_мар_апр_май_юни_юли_авг_сеп_окт_ное_дек'.split('_'),",
  "  weekStart: 1,",
  "  ordinal,",
  "  formats: {",
  "    LT: 'H:mm',",
  "    LTS: 'H:mm:ss',",
  "    L: 'D.MM.YYYY',",
  "    LL: 'D MMMM YYYY',",
  "    LLL: 'D MMMM YYYY H:mm',",
  "    LLLL: 'dddd, D MMMM YYYY H:mm'",
  "  },",
  "  relativeTime: {",
  "    future: 'след %s',",
  "    past: 'преди %s',",
  "    s: 'няколко секунди',",
  "    m: 'минута',",
  "    mm: '%d минути',",
  "    h: 'час',",
  "    hh: '%d часа',",
  "    d: 'ден',",
  "    dd: '%d дена',",
  "    M: 'месец',",
  "    MM: '%d месеца',",
  "    y: 'година',",
  "    yy: '%d години'",
  "  }",
  "}", // 41
  "",
  "export default locale",
  "",
].join("\n");

const REPORT = `Bulgarian datekit: Sunday comes first

When I use datekit in Bulgarian (bg), Sunday comes first: datekit shows Sunday where Bulgarian
calendars begin with Monday, so the week starts on the wrong day. I expected datekit in Bulgarian to
begin with Monday. Steps: import datekit, import the Bulgarian file of datekit (bg), show a calendar
and read its first day. datekit version 1.10.4, any browser; only Bulgarian: the other languages of
datekit are right.
`;

describe("a report's references: a block of imports and nothing else does not lead (e2e)", () => {
  const { search } = withIndexedRepository("acme/datekit", {
    "src/locale/bg.js": LOCALE,
    "src/index.js": "export default function datekit(date) {\n  return new Date(date)\n}\n",
  });

  it("the locale's object leads its file's references, ahead of the two lines importing the library", async () => {
    const refs = (await search(REPORT)).filter((s) => s.filepath === "src/locale/bg.js");
    expect(refs[0]).toMatchObject({ linestart: 10, lineend: 41 });
  });
});
