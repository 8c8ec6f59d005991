/**
 * A short query whose candidate chunks are all taken by files the ranking demotes (here a changelog
 * repeating a commit title release after release, each release a chunk) still finds the code: the
 * whole-file ranking brings the files the candidates left out, and they come before the notes.
 * Through POST /v2/search on a real server and a repository indexed from a real git host fixture.
 */
import { describe, expect, it } from "vitest";
import { withIndexedRepository } from "./support.ts";

const RELEASES = 220;
const changelog = Array.from({ length: RELEASES }, (_, i) => [
  `## 2.${RELEASES - i}.0`,
  "",
  `* fix(router): optional route parameter matching when the parameter is absent (#${1000 + i})`,
  "",
].join("\n")).join("\n");

const REPO = {
  "CHANGELOG.md": `# Changelog\n\n${changelog}`,
  "lib/router.js": [
    "function paramsOf(route, path) {",
    "  const found = route.regexp.exec(path);",
    "  if (!found) return null;",
    "  const values = {};",
    "  for (let i = 1; i < found.length; i++) {",
    "    // an optional one that is absent stays undefined",
    "    if (found[i] !== undefined) values[route.keys[i - 1].name] = decodeURIComponent(found[i]);",
    "  }",
    "  return values;",
    "}",
    "module.exports = { paramsOf };",
    "",
  ].join("\n"),
  "lib/view.js": [
    "function render(name, options, callback) {",
    "  const view = new View(name, options);",
    "  view.render(options, callback);",
    "}",
    "module.exports = { render };",
    "",
  ].join("\n"),
};

describe("candidates crowded out by release notes (e2e)", () => {
  const { search } = withIndexedRepository("acme/crowded", REPO);

  it("answers a commit title with the code it is about, not with the notes repeating it", async () => {
    const results = await search("fix(router): optional route parameter matching when the parameter is absent");
    expect(results[0]?.filepath).toBe("lib/router.js");
    expect(results.map((r) => r.filepath)).toContain("CHANGELOG.md");
    // Distances still say how far each result falls behind the first, in [0, 1], in the order given.
    const distances = results.map((r) => (r as { distance?: number }).distance ?? NaN);
    expect(distances[0]).toBe(0);
    for (let i = 1; i < distances.length; i++) {
      expect(distances[i]).toBeGreaterThanOrEqual(distances[i - 1]!);
      expect(distances[i]).toBeLessThanOrEqual(1);
    }
  });
});
