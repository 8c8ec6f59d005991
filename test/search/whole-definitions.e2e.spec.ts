import { describe, expect, it } from "vitest";
import { withIndexedRepository } from "./support.ts";
import { WHOLE_DEFINITION_MAX_LINES } from "../../src/retrieval/whole-definitions.ts";

/**
 * A function longer than a chunk (150 lines) is cut into windows when it is indexed. A report or a question
 * whose words sit in one window gets the whole function as its reference: a client that opens it sees the
 * definition, not a third of it. Where the code is shown (`search_code`, an answer's quote), a long
 * function shows its opening and then the window that matched. A function longer than
 * WHOLE_DEFINITION_MAX_LINES keeps its windows.
 */
const body = (name: string, n: number, special: string) =>
  [
    `function ${name}(options) {`,
    "  let total = 0;",
    ...Array.from({ length: n }, (_, i) => (i === Math.floor(n * 0.75) ? `  ${special}` : `  total += options.step${i} ?? ${i};`)),
    "  return total;",
    "}",
  ].join("\n");

/** Like `body`, with a line of its own at each of `at` (fractions of its length). */
const bodyWith = (name: string, n: number, lines: [number, string][]) =>
  [
    `function ${name}(options) {`,
    "  let total = 0;",
    ...Array.from({ length: n }, (_, i) => lines.find(([at]) => i === Math.floor(n * at))?.[1] ?? `  total += options.step${i} ?? ${i};`),
    "  return total;",
    "}",
  ].join("\n");

const FILES = {
  "lib/layout.js": [body("computeLayout", 220, "const gutter = options.marginGutter * options.columnCount; // gutter between columns"), "", "module.exports = { computeLayout };", ""].join("\n"),
  "lib/huge.js": [body("generatedTable", WHOLE_DEFINITION_MAX_LINES + 100, "const overflow = options.tableOverflowRows * options.pageRows; // overflow rows"), "", "module.exports = { generatedTable };", ""].join("\n"),
  // Two windows of one function hold a report's words (lines 80-160 and 161-224 are its second and third).
  "lib/columns.js": [
    bodyWith("computeColumns", 220, [
      [0.55, "  const spacing = options.columnSpacing * options.columnCount; // spacing between columns"],
      [0.9, "  const spacingTotal = options.columnSpacing * (options.columnCount - 1); // total spacing"],
    ]),
    "",
    "module.exports = { computeColumns };",
    "",
  ].join("\n"),
  // A table of 200 entries (cut into windows) and the function reading it; a report's words sit in two
  // of the table's windows and, denser, in the function.
  "lib/units.js": [
    "const UNITS = {", // 1
    ...Array.from({ length: 200 }, (_, i) =>
      i === 60 ? "  nauticalMile: { factor: 1852, label: 'nautical mile' }, // conversion to metres" : i === 140 ? "  nauticalMileHour: { factor: 0.514, label: 'knot' }, // conversion of nautical miles per hour" : `  unit${i}: { factor: ${i + 1}, label: 'u${i}' },`),
    "}", // 202
    "",
    "function convertNautical(value, unit) {", // 204
    "  // conversion of nautical miles to metres: the factor of the unit's entry",
    "  const entry = UNITS[unit]",
    "  if (!entry) throw new RangeError(`unknown unit ${unit}`)",
    "  return value * entry.factor",
    "}", // 209
    "",
    "module.exports = { UNITS, convertNautical };",
    "",
  ].join("\n"),
  "lib/other.js": "function other() {\n  return 1;\n}\n",
};

const REPORT = (words: string) => `Wrong result with several columns

When I lay out a page with more than one column, ${words} is computed wrong: the result is off by one
column every time, as if the count started at zero. I expected the total width to include every column
and the space between them, and nothing else. It happens with any page size and any number of columns
greater than one; with a single column the result is right. Steps: create a page of three columns and
read the computed width back.
`;

describe("a reference to a window of a long definition is the whole definition (e2e)", () => {
  const { search, searchCode, ask } = withIndexedRepository("acme/layout", FILES);

  it("a report gets the whole function, from its first line to its last", async () => {
    const refs = (await search(REPORT("the marginGutter between columns (columnCount)"))).filter((r) => r.filepath === "lib/layout.js");
    expect(refs[0]).toMatchObject({ linestart: 1, lineend: 224 });
  });

  it("a report whose words sit in two windows of one function gets that function once, whole", async () => {
    // Scored window by window, the two windows were two places, joined side by side into lines 81-224:
    // neither a window nor the function.
    const refs = (await search(REPORT("the columnSpacing between columns (columnCount)"))).filter((r) => r.filepath === "lib/columns.js");
    expect(refs[0]).toMatchObject({ linestart: 1, lineend: 224 });
    expect(refs.filter((r) => r.linestart! <= 224 && r.lineend! >= 1)).toHaveLength(1);
  });

  it("a table's windows are entries side by side: the function the report's words describe leads, not the table", async () => {
    const refs = (await search(`Wrong conversion of nautical miles to metres

Converting a distance in nautical miles to metres gives a wrong result: the conversion factor seems to
be the one of another unit. I expected one nautical mile to be 1852 metres after the conversion, and a
knot (nautical miles per hour) to convert with its own factor. It happens with every value converted.
`)).filter((r) => r.filepath === "lib/units.js");
    expect(refs[0]).toMatchObject({ linestart: 204, lineend: 209 });
  });

  it("an answer to a report names the whole function and quotes it from its first line", async () => {
    const answer = await ask(REPORT("the marginGutter between columns (columnCount)"));
    expect(answer).toContain("**`computeLayout`** (function) in `lib/layout.js`, lines 1–224");
    expect(answer).toContain("`lib/layout.js:1-224`\n```javascript\nfunction computeLayout(options) {");
  });

  it("a question gets the whole function too", async () => {
    const refs = (await search("Where is the margin gutter between columns computed?")).filter((r) => r.filepath === "lib/layout.js");
    expect(refs[0]).toMatchObject({ linestart: 1, lineend: 224 });
  });

  it("search_code shows a long function's opening, then the window that matched, with the lines left out named", async () => {
    const refs = (await searchCode("Where is the margin gutter between columns computed?")).filter((r) => r.filepath === "lib/layout.js");
    expect(refs[0]).toMatchObject({ linestart: 1, lineend: 224 });
    const lines = refs[0]!.code.split("\n");
    expect(lines[0]).toBe("function computeLayout(options) {");
    // The gutter line is line 167 (the body's line 165 of 220); the matched window holds it.
    expect(lines[1]).toMatch(/^… lines 2-\d+ left out$/);
    expect(refs[0]!.code).toContain("const gutter = options.marginGutter * options.columnCount;");
    expect(lines.length).toBeLessThanOrEqual(121);
  });

  it("an answer to a question quotes the function's opening and the window that holds its words", async () => {
    const answer = await ask("Where is the margin gutter between columns computed?");
    expect(answer).toContain("`lib/layout.js:1-224`\n```javascript\nfunction computeLayout(options) {\n… lines 2-");
  });

  it("a function longer than the bound keeps its windows", async () => {
    const refs = (await search(REPORT("the tableOverflowRows of the page (pageRows)"))).filter((r) => r.filepath === "lib/huge.js");
    expect(refs.length).toBeGreaterThan(0);
    expect(refs[0]!.lineend! - refs[0]!.linestart!).toBeLessThan(150);
  });
});
