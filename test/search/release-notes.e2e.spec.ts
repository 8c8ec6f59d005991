import { describe, expect, it } from "vitest";
import { withIndexedRepository } from "./support.ts";
import { analyzeQuery } from "../../src/retrieval/query-analysis.ts";
import { queryWants } from "../../src/retrieval/query-wants.ts";
import { classifyPath, RELEASE_NOTES } from "../../src/retrieval/path-classes.ts";

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

/**
 * Notes kept one file per release line, in a folder of their own, beside code that writes fewer of the
 * query's words than they do: documentation would come first, release notes do not.
 */
const VERSIONED = {
  "lib/router.js": [
    "function matchParams(route, path) {",
    "  const found = route.regexp.exec(path);",
    "  if (!found) return null;",
    "  const params = {};",
    "  for (let i = 1; i < found.length; i++) {",
    "    if (found[i] !== undefined) params[route.keys[i - 1].name] = decodeURIComponent(found[i]);",
    "  }",
    "  return params;",
    "}",
    "module.exports = { matchParams };",
    "",
  ].join("\n"),
  "changelogs/CHANGELOG-4.2.md": [
    "4.2.1 / 2015-03-01",
    "==================",
    "",
    "  * Fix optional route parameter matching when the parameter is absent",
    "  * Fix decoding of route parameters with optional parameter values",
    "",
    "4.2.0 / 2015-02-01",
    "==================",
    "",
    "  * Fix optional route parameter matching for an absent parameter at the end of the path",
    "",
  ].join("\n"),
};

/** The code first for a fix's words, the notes repeating them still among the results. */
async function expectCodeBeforeNotes(search: (query: string) => Promise<{ filepath: string }[]>, notes: string): Promise<void> {
  const results = await search("fix optional route parameter matching when the parameter is absent");
  expect(results[0]?.filepath).toBe("lib/router.js");
  expect(results.map((r) => r.filepath)).toContain(notes);
}

describe("release notes do not answer where something is done (e2e)", () => {
  const { search } = withIndexedRepository("acme/router", LIBRARY);

  it("answers with the code that matches optional route parameters, not the notes that repeat the words", async () => {
    await expectCodeBeforeNotes(search, "History.md");
  });

  it("reads a question that names the changelog or a release as asking for the notes", () => {
    expect(queryWants(analyzeQuery("which release changed optional route parameters? see the changelog")).releaseNotes).toBe(true);
    expect(queryWants(analyzeQuery("where are optional route parameters matched?")).releaseNotes).toBe(false);
  });
});

describe("release notes kept per release line are release notes too (e2e)", () => {
  const { search } = withIndexedRepository("acme/router-versioned", VERSIONED);

  it("answers with the code, not changelogs/CHANGELOG-4.2.md", async () => {
    await expectCodeBeforeNotes(search, "changelogs/CHANGELOG-4.2.md");
  });

  it("knows them by a release line's name and by the folders that keep them", () => {
    for (const path of ["CHANGELOG.md", "changelogs/CHANGELOG-3.2.md", "src/site/release-notes/RELEASE-NOTES-3.2.txt", "HISTORY_1.x.md", "changes/1234.bugfix.rst", ".changeset/quiet-dogs-run.md", "changelog.d/20240101_fix.md"]) {
      expect(RELEASE_NOTES.test(path), path).toBe(true);
    }
    for (const path of ["docs/guide.md", "README.md", "docs/history/intro.md", "docs/v2/index.md"]) expect(RELEASE_NOTES.test(path), path).toBe(false);
    // Documentation in the markup formats ecosystems write it in: Jekyll's `History.markdown`, Ruby's `.rdoc`.
    for (const path of ["History.markdown", "CHANGELOG.rdoc", "docs/guide.asciidoc"]) expect(classifyPath(path), path).toBe("doc");
    expect(RELEASE_NOTES.test("History.markdown")).toBe(true);
  });
});
