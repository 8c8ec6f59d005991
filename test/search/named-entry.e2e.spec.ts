import { describe, expect, it } from "vitest";
import { withIndexedRepository } from "./support.ts";

/**
 * A report writes the call it made, `makeClock(...).format('YYYY')`: the factory it names is where the
 * writer entered the library, and the words it spends (a year below 1000, its leading zeroes) describe
 * the function the factory's object formats the year with. Within the file the named factory keeps most
 * of its lead for being named, not all of it: the function the words describe is among the file's
 * references too (with the whole bonus, it fell under half the factory's score and out of them).
 */
const CLOCK = [
  "import { pad } from './pad'", // 1
  "",
  "export default function makeClock(date) {", // 3
  "  const parsed = new Date(date)",
  "  const clock = { date: parsed, year: parsed.getFullYear(), month: parsed.getMonth() }",
  "  clock.format = (pattern) => format(clock, pattern)",
  "  return clock",
  "}", // 8
  "",
  "function monthName(clock, names) {", // 10
  "  const index = clock.month % 12",
  "  const name = names[index]",
  "  if (!name) throw new RangeError(`no month ${index}`)",
  "  return name",
  "}",
  "",
  "function formatYear(clock, pattern) {", // 17
  "  // Two digits for YY, else the year as it is: a year below 1000 gets no leading zeroes",
  "  if (pattern === 'YY') return String(clock.year).slice(-2)",
  "  const year = clock.year",
  "  return String(year)",
  "}", // 22
  "",
  "function weekOfYear(clock) {",
  "  const start = new Date(clock.date.getFullYear(), 0, 1)",
  "  const days = Math.floor((clock.date - start) / 86400000)",
  "  return Math.ceil((days + start.getDay() + 1) / 7)",
  "}",
  "",
  "function format(clock, pattern) {", // 30
  "  return pattern.replace(/Y+|M+/g, (token) =>",
  "    token[0] === 'Y' ? formatYear(clock, token) : pad(clock.month + 1, token.length),",
  "  )",
  "}",
  "",
].join("\n");

const REPORT = `'YYYY' drops the leading zeroes of a year below 1000

If the year of a date is less than 1000, formatting it with 'YYYY' omits the leading zeroes:

\`\`\`js
makeClock(Date.parse('0001-01-01')).format('YYYY') //=> '1'
makeClock(Date.parse('0010-01-01')).format('YYYY') //=> '10'
makeClock(Date.parse('0100-01-01')).format('YYYY') //=> '100'
\`\`\`

Expected: the year padded with leading zeroes to four digits ('0001', '0010', '0100'), as the
pattern asks. Information: version 1.11.7, Windows 11, Firefox and Node.js console.
`;

describe("within a file, a report's named definition keeps most of its lead, not all of it (e2e)", () => {
  const { search } = withIndexedRepository("acme/clock", {
    "src/clock.js": CLOCK,
    "src/pad.js": "export const pad = (n, width) => String(n).padStart(width, '0')\n",
  });

  it("the function the report's words describe is among the file's references, after the factory it names", async () => {
    const refs = (await search(REPORT)).filter((s) => s.filepath === "src/clock.js");
    expect(refs[0]).toMatchObject({ linestart: 3, lineend: 8 });
    expect(refs).toContainEqual(expect.objectContaining({ linestart: 17, lineend: 22 }));
  });
});
