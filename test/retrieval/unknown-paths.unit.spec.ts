import { describe, expect, it } from "vitest";
import { analyzeQuery } from "../../src/retrieval/query-analysis.ts";
import { namesAFile } from "../../src/retrieval/path-mentions.ts";
import { lexicalQueries } from "../../src/retrieval/search.ts";

const FILES = ["package.json", "src/index.js", "src/plugin/zone/index.js", "src/plugin/relative/index.js", "lib/core/Clock.ts"];

/** How many times `word` stands in the lexical queries' text (repetition carries a term's weight). */
const timesIn = (queries: { text: string }[], word: string) =>
  queries.map((q) => q.text.split(/\s+/).filter((w) => w.toLowerCase() === word).length).reduce((a, b) => a + b, 0);

describe("path mentions that name no file of the repositories", () => {
  it("a mention names a file when it is the path of one, or its suffix on a folder boundary", () => {
    expect(namesAFile("src/index.js", [FILES])).toBe(true);
    expect(namesAFile("plugin/zone/index.js", [FILES])).toBe(true);
    expect(namesAFile("/home/dev/clock/src/plugin/zone/index.js", [FILES])).toBe(true);
    expect(namesAFile("Clock.ts", [["x.py"], FILES])).toBe(true);
    expect(namesAFile("Clock.js", [FILES])).toBe(false); // the product, as an issue template asks for its version
    expect(namesAFile("one/zone/index.js", [FILES])).toBe(false);
    expect(namesAFile("src/index.js", [])).toBe(false);
  });

  it("weigh as words in the lexical queries, while a mention of a real file keeps a path's weight", () => {
    const report = analyzeQuery("Hour is wrong in another zone\n\nThe hour ignores the offset of the zone.\n\n - Clock.js Version: 2.1.0\n");
    expect(report.terms.find((t) => t.kind === "path")).toMatchObject({ text: "Clock.js" });
    const known = lexicalQueries(report, "", () => true);
    const unknown = lexicalQueries(report, "", (path) => namesAFile(path, [FILES]));
    expect(timesIn(known, "clock")).toBeGreaterThan(1);
    expect(timesIn(unknown, "clock")).toBe(1);
    // The other terms are the same.
    expect(timesIn(unknown, "zone")).toBe(timesIn(known, "zone"));
    expect(timesIn(unknown, "offset")).toBe(timesIn(known, "offset"));
  });
});
