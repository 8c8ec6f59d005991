import { describe, expect, it } from "vitest";
import { withIndexedRepository } from "./support.ts";

/**
 * A report whose words point at one function (`renderWidth`, named and described) while its writer links
 * the line of another (`clampWidth`, line 14): the linked definition leads the file's references.
 */
const LAYOUT = [
  "// Layout of a table's columns.", // 1
  "",
  "function renderWidth(column, rows) {", // 3
  "  // The render width of a column: its widest cell, padded.",
  "  let widest = 0;",
  "  for (const row of rows) widest = Math.max(widest, String(row[column.key]).length);",
  "  const padded = widest + column.padding * 2;",
  "  return padded;",
  "}", // 9
  "",
  "function clampWidth(width, limits) {", // 11
  "  const low = limits.min ?? 0;",
  "  const high = limits.max ?? Infinity;",
  "  return Math.min(low, Math.max(high, width));", // 14
  "}", // 15
  "",
  "module.exports = { renderWidth, clampWidth };",
  "",
].join("\n");

const words = `Column render width ignores the limits of the table

The render width of a column is its widest cell plus padding, but when a table sets a maximum width
for its columns the rendered column is still as wide as its widest cell plus padding. I expected the
render width to stay within the limits of the table. renderWidth computes the widest cell and the
padding for each column of the rows, and the rendered table is then too wide for the terminal.
`;

describe("references start at the line a report's writer points at (e2e)", () => {
  const { search: searchAll } = withIndexedRepository("acme/layout", {
    "lib/layout.js": LAYOUT,
    "lib/other.js": "function other() {\n  return 1;\n}\n",
    // Three more files named layout.js: a mention of `layout.js` alone names four files.
    ...Object.fromEntries(["a", "b", "c"].map((d) => [`lib/${d}/layout.js`, `function layout${d}(items) {\n  return items.length;\n}\n`])),
  });
  const first = async (query: string) => (await searchAll(query)).find((s) => s.filepath === "lib/layout.js");

  it("without a line, the words choose renderWidth", async () => {
    expect(await first(words)).toMatchObject({ linestart: 3, lineend: 9 });
  });

  it("a blob link with #L14 puts clampWidth first", async () => {
    const linked = `${words}\nThe clamp looks inverted: https://github.com/acme/layout/blob/main/lib/layout.js#L14\n`;
    const refs = (await searchAll(linked)).filter((s) => s.filepath === "lib/layout.js");
    expect(refs[0]).toMatchObject({ linestart: 11, lineend: 15 });
    // The words' choice is still there, after it.
    expect(refs.slice(1)).toEqual(expect.arrayContaining([expect.objectContaining({ linestart: 3, lineend: 9 })]));
  });

  it("a blank line between two definitions points at the one after it", async () => {
    // Line 10 is blank: a link to another version's lines lands between definitions.
    expect(await first(`${words}\nThe clamp: https://github.com/acme/layout/blob/main/lib/layout.js#L10\n`)).toMatchObject({ linestart: 11, lineend: 15 });
  });

  it("a range whose first line is blank points at the definition it covers", async () => {
    const refs = (await searchAll(`${words}\nSee https://github.com/acme/layout/blob/main/lib/layout.js#L10-L12\n`)).filter((s) => s.filepath === "lib/layout.js");
    expect(refs[0]).toMatchObject({ linestart: 11, lineend: 15 });
    expect(refs.filter((r) => r.linestart === 11)).toHaveLength(1);
  });

  it("so does `lib/layout.js:14` in the text", async () => {
    expect(await first(`${words}\nThe clamp at \`lib/layout.js:14\` looks inverted.\n`)).toMatchObject({ linestart: 11, lineend: 15 });
  });

  it("so does a line written in words: \"lib/layout.js, line 14\" or \"line 14 of lib/layout.js\"", async () => {
    expect(await first(`${words}\nThe clamp in lib/layout.js, line 14, looks inverted.\n`)).toMatchObject({ linestart: 11, lineend: 15 });
    expect(await first(`${words}\nThe clamp at line 14 of \`lib/layout.js\` looks inverted.\n`)).toMatchObject({ linestart: 11, lineend: 15 });
  });

  it("a line of a name that four files share changes nothing", async () => {
    expect(await first(`${words}\nThe clamp at layout.js:14 looks inverted.\n`)).toMatchObject({ linestart: 3, lineend: 9 });
  });

  it("a line of a file the results do not hold changes nothing", async () => {
    expect(await first(`${words}\nSee also lib/missing.js:14 for the old code.\n`)).toMatchObject({ linestart: 3, lineend: 9 });
  });
});
