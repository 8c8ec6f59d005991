import { describe, expect, it } from "vitest";
import { withIndexedRepository } from "./support.ts";
import { COPIES, demoteCopies, jaccard, wordSet } from "../../src/retrieval/copies.ts";

/** One locale written three times (regional variants made by copying) and the code that uses them. */
const locale = (name: string, months: string) =>
  [
    `// ${name} locale`,
    "const locale = {",
    `  name: '${name}',`,
    "  weekdays: 'Sunday_Monday_Tuesday_Wednesday_Thursday_Friday_Saturday'.split('_'),",
    `  months: '${months}'.split('_'),`,
    "  weekStart: 1,",
    "  ordinal: (n) => {",
    "    const s = ['th', 'st', 'nd', 'rd']",
    "    const v = n % 100",
    "    return `[${n}${(s[(v - 20) % 10] || s[v] || s[0])}]`",
    "  },",
    "  formats: { LT: 'HH:mm', LTS: 'HH:mm:ss', L: 'DD/MM/YYYY', LL: 'D MMMM YYYY' },",
    "  relativeTime: { future: 'in %s', past: '%s ago', s: 'a few seconds', m: 'a minute', h: 'an hour', d: 'a day' }",
    "}",
    "",
    "export default locale",
    "",
  ].join("\n");
const MONTHS = "January_February_March_April_May_June_July_August_September_October_November_December";

const FILES = {
  "src/locale/en-gb.js": locale("en-gb", MONTHS),
  "src/locale/en-au.js": locale("en-au", MONTHS),
  "src/locale/en-ie.js": locale("en-ie", MONTHS),
  "src/plugin/advanced-format.js": [
    "// Formats the day of the month with the locale's ordinal suffix (Do).",
    "export default (option, Dayjs) => {",
    "  const proto = Dayjs.prototype",
    "  proto.formatOrdinal = function (day) {",
    "    const locale = this.$locale()",
    "    const ordinal = locale.ordinal || ((n) => `${n}`)",
    "    return ordinal(day)",
    "  }",
    "}",
    "",
  ].join("\n"),
  "src/utils.js": "export const pad = (s, n) => String(s).padStart(n, '0')\n",
};

describe("copies among the results make room for other code (e2e)", () => {
  const { search } = withIndexedRepository("acme/dates", FILES);

  it("lists the first copy at its place and the code that uses it before the other copies", async () => {
    const refs = await search("Where are the English locale's ordinal, weekdays and months defined?");
    const files = [...new Set(refs.map((r) => r.filepath))];
    const copies = files.filter((f) => f.startsWith("src/locale/"));
    expect(copies).toHaveLength(3);
    expect(files[0]).toMatch(/^src\/locale\//);
    expect(files[1]).toBe("src/plugin/advanced-format.js");
  });

  it("compares words of any script; a file below the word count is no copy", () => {
    const arabic = wordSet("months: 'يناير_فبراير_مارس'.split('_'), weekdays: 'الأحد_الإثنين'");
    const kurdish = wordSet("months: 'کانونی دووەم_شوبات_ئازار'.split('_'), weekdays: 'یەکشەممە_دووشەممە'");
    expect(arabic.size).toBe(5); // months, split, weekdays and the two lists
    expect(jaccard(arabic, wordSet("MONTHS: 'يناير_فبراير_مارس'.split('_'), Weekdays: 'الأحد_الإثنين'"))).toBe(1);
    expect(jaccard(arabic, kurdish)).toBeLessThan(COPIES.similarity);
    const one = { file: { chunks: [{ doc: { text: FILES["src/locale/en-gb.js"] } }] }, score: 3 };
    const other = { file: { chunks: [{ doc: { text: FILES["src/plugin/advanced-format.js"] } }] }, score: 1.5 };
    const twin = { file: { chunks: [{ doc: { text: FILES["src/locale/en-au.js"] } }] }, score: 2 };
    const scored = [one, twin, other];
    expect(demoteCopies(scored)).toBe(1);
    expect(scored).toEqual([one, other, twin]);
    expect(twin.score).toBe(2 * COPIES.factor);
    const small = [{ file: { chunks: [{ doc: { text: "pad(s, n)" } }] }, score: 2 }, { file: { chunks: [{ doc: { text: "pad(s, n)" } }] }, score: 1 }];
    expect(demoteCopies(small)).toBe(0);
  });
});
