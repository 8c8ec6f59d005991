/**
 * A report's path through the repository's own installed package: a trace through `node_modules/<pkg>/`
 * or `site-packages/<pkg>/` of the package the repository is, and the module it names under the
 * language's resolution (`plugin/utc.js` is `plugin/utc/index.js`).
 */
import { describe, expect, it } from "vitest";
import { analyzeQuery } from "../../src/retrieval/query-analysis.ts";
import { moduleOf, namedFiles } from "../../src/retrieval/path-mentions.ts";
import { QUERY_WEIGHTS } from "../../src/retrieval/query/types.ts";

describe("a path names the files of its module", () => {
  const files = ["src/index.js", "src/plugin/utc/index.js", "src/plugin/timezone/index.ts", "lib/pkg/mod/__init__.py", "src/de/mod.rs", "src/plugin/utc.py"];

  it("reads each language's module of a path", () => {
    expect(moduleOf("src/plugin/utc/index.js")).toBe("js:src/plugin/utc");
    expect(moduleOf("dayjs/plugin/utc.js")).toBe("js:dayjs/plugin/utc");
    expect(moduleOf("src/plugin/timezone/index.ts")).toBe("js:src/plugin/timezone");
    expect(moduleOf("lib/pkg/mod/__init__.py")).toBe("py:lib/pkg/mod");
    expect(moduleOf("src/de/mod.rs")).toBe("rs:src/de");
    expect(moduleOf("src/index.c")).toBeNull();
  });

  it("a mention no path ends with names the files of its module by its last two parts or more", () => {
    expect(namedFiles("dayjs/plugin/utc.js", files)).toEqual([1]);
    expect(namedFiles("acme/plugin/timezone.js", files)).toEqual([2]);
    expect(namedFiles("pkg/mod.py", files)).toEqual([3]);
    expect(namedFiles("crate/src/de.rs", files)).toEqual([4]);
  });

  it("a file the mention names keeps it; one part, or another language's module, names nothing", () => {
    expect(namedFiles("plugin/utc.py", files)).toEqual([5]);
    expect(namedFiles("utc.js", files)).toEqual([]);
    expect(namedFiles("dayjs/plugin/zone.js", files)).toEqual([]);
    expect(namedFiles("plugin/timezone.py", files)).toEqual([]);
  });
});

describe("a frame through the repository's own installed package is the project's", () => {
  const REPORT = [
    "diff() throws after upgrading",
    "```",
    "TypeError: Cannot read property '$u' of undefined",
    "    at diff (/home/circleci/project/node_modules/dayjs/plugin/utc.js:1:1941)",
    "    at Object.<anonymous> (/home/circleci/project/test/app.test.js:12:5)",
    "```",
  ].join("\n");
  const files = ["src/index.js", "src/plugin/utc/index.js"];

  it("weighs as a project frame when its file is one of the repository's", () => {
    const own = analyzeQuery(REPORT, { ownsPath: (p) => namedFiles(p, files).length > 0 });
    expect(own.frames.find((f) => f.symbol === "diff")?.origin).toBe("project");
    expect(own.terms.find((t) => t.kind === "path" && t.text === "dayjs/plugin/utc.js")?.weight).toBeGreaterThanOrEqual(QUERY_WEIGHTS.projectFramePath);
  });

  it("stays a library frame otherwise", () => {
    const other = analyzeQuery(REPORT, { ownsPath: () => false });
    expect(other.frames.find((f) => f.symbol === "diff")?.origin).toBe("library");
    expect(other.terms.find((t) => t.kind === "path" && t.text === "dayjs/plugin/utc.js")?.weight).toBe(QUERY_WEIGHTS.libraryFramePath);
    expect(analyzeQuery(REPORT).frames.find((f) => f.symbol === "diff")?.origin).toBe("library");
  });
});
