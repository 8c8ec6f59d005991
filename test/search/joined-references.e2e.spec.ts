import { describe, expect, it } from "vitest";
import { withIndexedRepository } from "./support.ts";

/**
 * Two small functions side by side both carry a report's evidence (the padding width and the padding
 * character); a third one far below carries a little of it. For a report they are one place to read;
 * a question keeps each definition apart.
 */
const fill = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `const unrelated${from + i} = ${from + i};`);
const PAD = [
  "// Padding of formatted numbers.",
  "",
  "function padWidth(spec, value) {",
  "  const width = spec.width ?? 0;",
  "  return Math.max(0, width - String(value).length);",
  "}",
  "",
  "function padChar(spec) {",
  "  if (spec.zero) return '0';",
  "  return spec.fill ?? ' ';",
  "}",
  "",
  ...fill(12, 71),
  "",
  "function describeSpec(spec) {",
  "  return `width ${spec.width} fill ${spec.fill}`;",
  "}",
  "",
  "module.exports = { padWidth, padChar, describeSpec };",
  "",
].join("\n");

const REPORT = `Padding with a fill character ignores the width for negative numbers

When I format a negative number with a width and a fill character, the padding is wrong: the fill
character is repeated one time too many, as if the width were computed from the digits without the
minus sign, and the zero flag then pads on the wrong side of the sign. I expected the width to count
the sign like every other character, and the padding to be the fill character repeated to the width.

Steps: format -42 with a width of 6 and a fill of '*'. Expected "***-42", got "****-42". With the zero
flag the result is "-00042" in other libraries, here it is "00-42". The padWidth and padChar helpers
look like the place where the width and the fill character are chosen.
`;

/** Five functions apart from each other, each holding the report's words: five places to read of one file. */
const spread = (prefix: string) =>
  ["retry", "backoff", "jitter", "deadline", "attempts"]
    .flatMap((word, i) => [
      `function ${prefix}${i}(policy) {`,
      `  const base = policy.${word};`,
      "  const factor = policy.retry * policy.backoff;",
      "  const total = base + factor;",
      "  return total;",
      "}",
      "",
      `function unrelated${i}(items) {`,
      "  const sorted = items.slice().sort();",
      "  const first = sorted[0];",
      "  const last = sorted[sorted.length - 1];",
      "  return [first, last];",
      "}",
      "",
    ])
    .join("\n");

describe("a report's references join neighbouring definitions that both carry its evidence (e2e)", () => {
  const { search: searchAll } = withIndexedRepository("acme/pad", {
    "lib/pad.js": PAD,
    "lib/other.js": "function other() {\n  return 1;\n}\n",
    "lib/retry.js": spread("retryStep"),
    "lib/policy.js": spread("policyStep"),
  });
  const search = async (query: string) => (await searchAll(query)).filter((s) => s.filepath === "lib/pad.js");

  it("a report gets padWidth and padChar as one reference", async () => {
    const refs = await search(REPORT);
    expect(refs[0]).toMatchObject({ linestart: 3, lineend: 11 });
    // The function far below stays a reference of its own.
    expect(refs.every((r) => r.lineend! - r.linestart! < 150)).toBe(true);
  });

  it("a question keeps the two definitions apart", async () => {
    const refs = await search("Where are padWidth and padChar defined?");
    const spans = refs.map((r) => [r.linestart, r.lineend]);
    expect(spans).toEqual(expect.arrayContaining([[3, 6], [8, 11]]));
  });

  it("the first file gives four references, the next ones two (their best)", async () => {
    const report = `Retry policy: the retry backoff ignores jitter and the deadline

With a retry policy whose backoff is exponential, the jitter is never added and the deadline is
exceeded after a few attempts. I expected every retry to wait the backoff plus jitter, and the retry
loop to stop at the deadline whatever the attempts left. The retry, backoff, jitter, deadline and
attempts settings are all read from the policy object, so the bug must be where the wait is computed.
Tried with retryStep and policyStep: both give the same wrong waits for the same retry policy.
`;
    const refs = await searchAll(report);
    const files = [...new Set(refs.map((r) => r.filepath))];
    expect(files.slice(0, 2).sort()).toEqual(["lib/policy.js", "lib/retry.js"]);
    expect(refs.filter((r) => r.filepath === files[0])).toHaveLength(4);
    // Each file after the first shows its best two: the first ten references reach more files.
    expect(refs.filter((r) => r.filepath === files[1])).toHaveLength(2);
  });
});
