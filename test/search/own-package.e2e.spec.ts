import { describe, expect, it } from "vitest";
import { withIndexedRepository } from "./support.ts";

/**
 * A report pasted from an application that installed the repository's package: its trace goes through
 * `node_modules/timekit/plugin/zone.js`, the build of the repository's `src/plugin/zone/index.js`. That
 * frame is the repository's own code and names that file, ahead of the core file that defines `diff` too.
 */
const CORE = [
  "class Moment {",
  "  constructor(date) {",
  "    this.date = date",
  "    this.offset = 0",
  "  }",
  "",
  "  diff(other, unit) {",
  "    const that = other instanceof Moment ? other : new Moment(other)",
  "    const ms = this.date - that.date - (this.offset - that.offset) * 60000",
  "    if (unit === 'day') return Math.floor(ms / 86400000)",
  "    if (unit === 'hour') return Math.floor(ms / 3600000)",
  "    return ms",
  "  }",
  "",
  "  utcOffset() {",
  "    return this.offset",
  "  }",
  "}",
  "",
  "export default function timekit(date) {",
  "  return new Moment(date)",
  "}",
  "",
].join("\n");

const ZONE = [
  "export default (option, Moment) => {",
  "  const proto = Moment.prototype",
  "  const oldDiff = proto.diff",
  "  proto.diff = function (input, units) {",
  "    const other = input.$zone ? input : input.local()",
  "    if (this.$zone === other.$zone) return oldDiff.call(this, other, units)",
  "    return oldDiff.call(this.local(), other, units)",
  "  }",
  "}",
  "",
].join("\n");

const REPORT = [
  "diff() throws TypeError since 1.9.5",
  "",
  "Calling `diff()` with no argument on a moment now throws:",
  "",
  "```",
  "TypeError: Cannot read property '$zone' of undefined",
  "    at diff (/home/circleci/project/node_modules/timekit/plugin/zone.js:1:1941)",
  "    at Object.<anonymous> (/home/circleci/project/test/dates.test.js:12:5)",
  "```",
  "",
  "In 1.9.4 `timekit('2020-11-02T02:58:28.000-08:00').diff()` returned a number of milliseconds.",
].join("\n");

describe("a trace through the repository's installed package names its source (e2e)", () => {
  const { search } = withIndexedRepository("acme/timekit", {
    "src/index.js": CORE,
    "src/plugin/zone/index.js": ZONE,
    "src/plugin/week/index.js": "export default (option, Moment) => {\n  Moment.prototype.week = function () {\n    return Math.ceil(this.date.getDate() / 7)\n  }\n}\n",
  });

  it("the plugin whose build the frame is in comes first", async () => {
    const sources = await search(REPORT);
    expect(sources[0]?.filepath).toBe("src/plugin/zone/index.js");
    expect(sources.map((s) => s.filepath)).toContain("src/index.js");
  });
});
