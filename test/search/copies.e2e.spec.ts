import { describe, expect, it } from "vitest";
import { withIndexedRepository } from "./support.ts";
import { afterLeadingComments, COPIES, demoteCopies, isAssembledFrom, jaccard, wordSet } from "../../src/retrieval/copies.ts";

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

/** A short method of few words: a merge patch applied to a JSON value. */
const MERGE = [
  "void merge_patch(const value& patch)",
  "{",
  "    if (patch.is_object())",
  "    {",
  "        if (!is_object())",
  "        {",
  "            *this = object();",
  "        }",
  "        for (auto it = patch.begin(); it != patch.end(); ++it)",
  "        {",
  "            if (it.value().is_null())",
  "            {",
  "                erase(it.key());",
  "            }",
  "            else",
  "            {",
  "                operator[](it.key()).merge_patch(it.value());",
  "            }",
  "        }",
  "    }",
  "    else",
  "    {",
  "        *this = patch;",
  "    }",
  "}",
].join("\n");

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
    const entry = (path: keyof typeof FILES, score: number) => ({ file: { chunks: [{ doc: { text: FILES[path], startLine: 1 } }] }, score });
    const one = entry("src/locale/en-gb.js", 3);
    const other = entry("src/plugin/advanced-format.js", 1.5);
    const twin = entry("src/locale/en-au.js", 2);
    const scored = [one, twin, other];
    expect(demoteCopies(scored)).toBe(1);
    expect(scored).toEqual([one, other, twin]);
    expect(twin.score).toBe(2 * COPIES.factor);
    // Four words in five shared is a copy; half is not (two modules of one package share their vocabulary).
    const words = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `word${from + i}`).join(" ");
    const pair = (a: string, b: string) => [{ file: { chunks: [{ doc: { text: a, startLine: 1 } }] }, score: 2 }, { file: { chunks: [{ doc: { text: b, startLine: 1 } }] }, score: 1 }];
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
    // A short function copied whole (an amalgamated header repeats every part): fewer words than a copy
    // needs, but repeated to the letter at some length, it is one; the same text cut short, or changed, is not.
    expect(wordSet(MERGE).size).toBeLessThan(COPIES.minWords);
    expect(MERGE.length).toBeGreaterThanOrEqual(COPIES.verbatimChars);
    expect(demoteCopies(pair(MERGE, MERGE))).toBe(1);
    expect(demoteCopies(pair(MERGE.slice(0, COPIES.verbatimChars - 1), MERGE.slice(0, COPIES.verbatimChars - 1)))).toBe(0);
    expect(demoteCopies(pair(MERGE, MERGE.replace("erase", "erose")))).toBe(0);
    // The amalgamated copy (far further down its file) yields to the part it was made from, even listed first.
    const whole = { file: { chunks: [{ doc: { text: MERGE, startLine: 24423 } }] }, score: 1.1 };
    const partOf = { file: { chunks: [{ doc: { text: MERGE, startLine: 5120 } }] }, score: 1.1 };
    const both = [whole, partOf];
    expect(demoteCopies(both)).toBe(1);
    expect(both).toEqual([partOf, whole]);
  });
});

/** A header library's parts and its amalgamated single header, made by pasting every part in after the others. */
const part = (name: string, body: string) => `#pragma once\n\n#include <string>\n\nnamespace lib {\nnamespace detail {\n\n${body}\n}  // namespace detail\n}  // namespace lib\n`;
/** Forty small functions of their own words: a part that comes before the escaping in the amalgamation. */
const conversions = Array.from({ length: 40 }, (_, i) =>
  [
    `// Converts a value of kind ${i} into its stored form.`,
    `inline long convert_kind_${i}(long value, int scale_${i})`,
    "{",
    ...Array.from({ length: 24 }, (_, j) => `    value = value * ${i + 2} + scale_${i} * ${j + 1};`),
    "    return value;",
    "}",
    "",
  ].join("\n"),
).join("\n");
const ESCAPE = [
  "// Escapes a string for JSON output: quotes and backslashes get a backslash, control characters",
  "// become a backslash-u escape of four hex digits.",
  "inline std::string escape_string(const std::string& text)",
  "{",
  "    std::string escaped;",
  "    for (char c : text)",
  "    {",
  "        if (c == '\"' || c == '\\\\')",
  "        {",
  "            escaped += '\\\\';",
  "            escaped += c;",
  "        }",
  "        else if (static_cast<unsigned char>(c) < 0x20)",
  "        {",
  "            static const char* hex_digits = \"0123456789abcdef\";",
  "            escaped += \"\\\\u00\";",
  "            escaped += hex_digits[(c >> 4) & 0xF];",
  "            escaped += hex_digits[c & 0xF];",
  "        }",
  "        else",
  "        {",
  "            escaped += c;",
  "        }",
  "    }",
  "    return escaped;",
  "}",
].join("\n");
/** The part that writes strings out: it shares some of the question's words, so the amalgamation holds two matches. */
const WRITER = [
  "// Writes a string value out as JSON text: the opening quote, its escaped characters, the closing quote.",
  "inline void write_string(std::string& out, const std::string& value)",
  "{",
  "    out.push_back('\"');",
  "    out.append(escape_string(value));",
  "    out.push_back('\"');",
  "}",
].join("\n");
const PARTS = {
  "include/lib/detail/conversions.hpp": part("conversions", conversions),
  "include/lib/detail/escape.hpp": part("escape", ESCAPE),
  "include/lib/detail/writer.hpp": part("writer", WRITER),
};

describe("an assembled file yields to the part it was made from (e2e)", () => {
  const { search } = withIndexedRepository("acme/headerlib", {
    ...PARTS,
    "single_include/lib/lib.hpp": `// lib: every header in one file.\n\n${Object.values(PARTS).join("\n")}`,
  });

  it("lists the header a reader edits before the amalgamation that repeats it a thousand lines down", async () => {
    const refs = await search("How are quotes, backslashes and control characters escaped when a string is written out as JSON?");
    const files = [...new Set(refs.map((r) => r.filepath))];
    // The amalgamation holds both matching parts, so it led; now each part comes before it, and it stays listed.
    expect(files.slice(0, 3)).toEqual(["include/lib/detail/escape.hpp", "include/lib/detail/writer.hpp", "single_include/lib/lib.hpp"]);
    const inAmalgamation = refs.find((r) => r.filepath === "single_include/lib/lib.hpp");
    expect(inAmalgamation?.linestart).toBeGreaterThan(1000);
  });

  it("calls a copy assembled from another only when it sits a thousand lines further down and at least twice as deep", () => {
    expect(isAssembledFrom(1040, 8)).toBe(true);
    expect(isAssembledFrom(3000, 1500)).toBe(true);
    expect(isAssembledFrom(900, 8)).toBe(false); // the first part of an amalgamation: too close to tell
    expect(isAssembledFrom(3000, 1800)).toBe(false); // versioned documents grow a little
    const text = Array.from({ length: 40 }, (_, i) => `word${i}`).join(" ");
    const copy = (startLine: number, score: number) => ({ file: { chunks: [{ doc: { text, startLine } }] }, score });
    const amalgamation = copy(1040, 2);
    const header = copy(8, 1.9);
    const scored = [amalgamation, header];
    expect(demoteCopies(scored)).toBe(1);
    expect(scored).toEqual([header, amalgamation]);
    expect(amalgamation.score).toBe(2 * COPIES.factor);
    expect(header.score).toBe(1.9);
  });
});
