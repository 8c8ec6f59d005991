import { describe, expect, it } from "vitest";
import { withIndexedRepository } from "./support.ts";
import { phrasalVerbs, verbBaseForms, withVerbForms } from "../../src/retrieval/query/base-forms.ts";

/**
 * Code says `lookup` and `print_stats`; a question says "looked up" and "printed". The distractors
 * hold the question's other words (views; statistics) without the action.
 */
const SITE = {
  "site/view.js": [
    "function lookup(name, roots) {",
    "  for (const root of roots) {",
    "    const candidate = join(root, name);",
    "    if (exists(candidate)) return candidate;",
    "  }",
    "  return null;",
    "}",
    "",
    "module.exports = { lookup };",
    "",
  ].join("\n"),
  "site/settings.js": [
    "// The views, tried in order.",
    "const settings = { views: ['views'] };",
    "",
    "module.exports = { settings };",
    "",
  ].join("\n"),
  "site/report.py": [
    "def print_stats(stats, out):",
    "    out.write(f\"{stats.matches} matches\\n\")",
    "    out.write(f\"{stats.elapsed:.3f} seconds\\n\")",
    "",
  ].join("\n"),
  "site/request.js": [
    "function buildRequest(method, url) {",
    "  return { method, url, headers: {} };",
    "}",
    "",
    "module.exports = { buildRequest };",
    "",
  ].join("\n"),
  "site/client.js": [
    "// The client of a site, and its method.",
    "const client = { name: 'site', method: 'GET' };",
    "",
    "module.exports = { client };",
    "",
  ].join("\n"),
  "site/stats.py": [
    "class Counts:",
    "    \"\"\"The statistics of a search.\"\"\"",
    "",
    "    def __init__(self):",
    "        self.matches = 0",
    "",
  ].join("\n"),
};

describe("questions in plain language find code named by the base form of their verbs (e2e)", () => {
  const { search } = withIndexedRepository("acme/site", SITE);
  const first = async (query: string) => (await search(query))[0];

  it("'looked up' finds lookup()", async () => {
    expect(await first("Where is a view file looked up in the views directories?")).toMatchObject({ filepath: "site/view.js", linestart: 1, lineend: 7 });
  });

  it("'printed' finds print_stats()", async () => {
    expect(await first("How are the statistics printed?")).toMatchObject({ filepath: "site/report.py", linestart: 1, lineend: 3 });
  });

  it("'built' finds buildRequest() (an irregular past form)", async () => {
    expect(await first("Where is the request of a client built?")).toMatchObject({ filepath: "site/request.js" });
  });

  it("base forms of -ed/-ing words and the one-word forms of phrasal verbs", () => {
    expect(verbBaseForms("stripped")).toEqual(["strip"]);
    expect(verbBaseForms("printed")).toContain("print");
    expect(verbBaseForms("parsing")).toContain("parse");
    expect(verbBaseForms("copied")).toEqual(["copy"]);
    expect(verbBaseForms("called")).toContain("call");
    expect(verbBaseForms("paths")).toEqual([]);
    // Irregular past forms, and none for words that are common names of their own (`left`, `bound`).
    expect(verbBaseForms("found")).toEqual(["find"]);
    expect(verbBaseForms("built")).toEqual(["build"]);
    expect(verbBaseForms("thrown")).toEqual(["throw"]);
    expect(verbBaseForms("written")).toEqual(["write"]);
    expect(verbBaseForms("left")).toEqual([]);
    expect(verbBaseForms("bound")).toEqual([]);
    // Nor those whose base form is a keyword of most languages (every loop has a `break`).
    expect(verbBaseForms("broken")).toEqual([]);
    expect(verbBaseForms("gone")).toEqual([]);
    // Words that are names of an object's own properties are words like others.
    expect(verbBaseForms("constructor")).toEqual([]);
    expect(withVerbForms("where is the constructor called")).toMatch(/^where is the constructor called call\b[a-z ]*$/);
    expect(phrasalVerbs(["view", "looked", "up", "in"], () => false)).toEqual(expect.arrayContaining(["lookup"]));
    expect(phrasalVerbs(["request", "timed", "out"], () => false)).toEqual(expect.arrayContaining(["timeout"]));
    expect(phrasalVerbs(["the", "up"], (w) => w === "the")).toEqual([]);
  });
});
