import { describe, expect, it } from "vitest";
import { withIndexedRepository } from "./support.ts";
import { afterLeadingComments, COPIES, demoteCopies, jaccard, wordSet } from "../../src/retrieval/copies.ts";

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

  it("compares words of any script past a licence header, four in five shared; a chunk below the word count is no copy", () => {
    const arabic = wordSet("months: 'يناير_فبراير_مارس'.split('_'), weekdays: 'الأحد_الإثنين'");
    const kurdish = wordSet("months: 'کانونی دووەم_شوبات_ئازار'.split('_'), weekdays: 'یەکشەممە_دووشەممە'");
    expect(arabic.size).toBe(5); // months, split, weekdays and the two lists
    expect(jaccard(arabic, wordSet("MONTHS: 'يناير_فبراير_مارس'.split('_'), Weekdays: 'الأحد_الإثنين'"))).toBe(1);
    expect(jaccard(arabic, kurdish)).toBeLessThan(COPIES.similarity);
    const entry = (path: keyof typeof FILES, score: number) => ({ file: { chunks: [{ doc: { text: FILES[path] } }] }, score });
    const one = entry("src/locale/en-gb.js", 3);
    const other = entry("src/plugin/advanced-format.js", 1.5);
    const twin = entry("src/locale/en-au.js", 2);
    const scored = [one, twin, other];
    expect(demoteCopies(scored)).toBe(1);
    expect(scored).toEqual([one, other, twin]);
    expect(twin.score).toBe(2 * COPIES.factor);
    // Four words in five shared is a copy; half is not (two modules of one package share their vocabulary).
    const words = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `word${from + i}`).join(" ");
    const pair = (a: string, b: string) => [{ file: { chunks: [{ doc: { text: a } }] }, score: 2 }, { file: { chunks: [{ doc: { text: b } }] }, score: 1 }];
    expect(jaccard(wordSet(words(40)), wordSet(`${words(36)} ${words(4, 100)}`))).toBeGreaterThanOrEqual(COPIES.similarity);
    expect(demoteCopies(pair(words(40), `${words(36)} ${words(4, 100)}`))).toBe(1);
    expect(demoteCopies(pair(words(40), `${words(20)} ${words(20, 100)}`))).toBe(0);
    // Two files that only share the licence header every file repeats are not copies.
    const licence = `/*\n${Array.from({ length: 20 }, (_, i) => ` * term${i} condition${i} notice${i}`).join("\n")}\n */\n`;
    const parser = `package com.acme.json;\n\npublic final class Parser {\n  public Token next() { return lexer.read(buffer, offset); }\n}\n`;
    const writer = `package com.acme.json;\n\npublic final class Writer {\n  public void write(String value) { out.append(quote(value)); }\n}\n`;
    expect(jaccard(wordSet(licence.replace(/\/\*|\*\/|\*/g, "") + parser), wordSet(licence.replace(/\/\*|\*\/|\*/g, "") + writer))).toBeGreaterThanOrEqual(COPIES.similarity);
    expect(demoteCopies(pair(licence + parser, licence + writer))).toBe(0);
    expect(parser.slice(afterLeadingComments(parser))).toMatch(/^package com/);
    expect("// a\n# b\n\n-- c\nint x;".slice(afterLeadingComments("// a\n# b\n\n-- c\nint x;"))).toBe("int x;");
    for (const code of ["#include <stdio.h>\n", "#!/bin/sh\n", "#[derive(Debug)]\n", "/* one */ int x;\n", "--i;\n", "*p = 0;\n"]) expect(afterLeadingComments(code)).toBe(0);
    expect(afterLeadingComments("/**\n * Doc.\n */\n*p = 0;\n")).toBe("/**\n * Doc.\n */\n".length);
    expect(demoteCopies(pair("pad(s, n)", "pad(s, n)"))).toBe(0);
  });
});
