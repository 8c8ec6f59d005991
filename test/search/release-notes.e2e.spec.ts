import { describe, expect, it } from "vitest";
import { withIndexedRepository } from "./support.ts";
import { analyzeQuery } from "../../src/retrieval/query-analysis.ts";
import { queryWants } from "../../src/retrieval/query-wants.ts";

/**
 * A project's release notes repeat, a line each, what changed in the words users write; they hold no
 * code. A question about where something is done is answered by the code, whatever the notes repeat.
 */
const LIBRARY = {
  "lib/router.js": [
    "// The values of a route's parameters in a path.",
    "function matchParams(route, path) {",
    "  const names = route.keys;",
    "  const found = route.regexp.exec(path);",
    "  if (!found) return null;",
    "  const params = {};",
    "  for (let i = 1; i < found.length; i++) {",
    "    const name = names[i - 1].name;",
    "    if (found[i] !== undefined) params[name] = decodeURIComponent(found[i]);",
    "  }",
    "  return params;",
    "}",
    "module.exports = { matchParams };",
    "",
  ].join("\n"),
  "History.md": [
    "4.2.1 / 2015-03-01",
    "==================",
    "",
    "  * Fix optional route parameter matching when the parameter is absent",
    "  * Fix decoding of route parameters with optional parameter values",
    "  * Optional route parameters: matching no longer fails on an absent optional parameter",
    "",
    "4.2.0 / 2015-02-01",
    "==================",
    "",
    "  * Add optional route parameters",
    "  * Fix optional route parameter matching for an absent parameter at the end of the path",
    "",
    "4.1.0 / 2015-01-01",
    "==================",
    "",
    "  * Fix route parameter matching when an optional parameter is absent",
    "  * Optional parameter matching: an absent optional route parameter no longer fails the match",
    "",
  ].join("\n"),
};

describe("release notes do not answer where something is done (e2e)", () => {
  const { search } = withIndexedRepository("acme/router", LIBRARY);

  it("answers with the code that matches optional route parameters, not the notes that repeat the words", async () => {
    const results = await search("fix optional route parameter matching when the parameter is absent");
    expect(results[0]?.filepath).toBe("lib/router.js");
    expect(results.map((r) => r.filepath)).toContain("History.md");
  });

  it("reads a question that names the changelog or a release as asking for the notes", () => {
    expect(queryWants(analyzeQuery("which release changed optional route parameters? see the changelog")).releaseNotes).toBe(true);
    expect(queryWants(analyzeQuery("where are optional route parameters matched?")).releaseNotes).toBe(false);
  });
});
