import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.ts";
import { createGitHostFixture, type GitHostFixture } from "../support/git-fixtures.ts";
import { indexRepository } from "./support.ts";

type Source = { filepath: string; linestart: number | null; lineend: number | null };

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

describe("a report's references join neighbouring definitions that both carry its evidence (e2e)", () => {
  let server: TestServer;
  let host: GitHostFixture;
  const site = { remote: "github", repository: "acme/pad", branch: "main" };

  beforeAll(async () => {
    host = createGitHostFixture();
    host.createRepo("acme/pad", { "lib/pad.js": PAD, "lib/other.js": "function other() {\n  return 1;\n}\n" });
    server = await startTestServer({ env: { LOUPE_GITHUB_URL: host.baseUrl } });
    await indexRepository(server, site);
  }, 120_000);

  afterAll(async () => {
    await server?.stop({ remove: true });
    host?.cleanup();
  });

  const search = async (query: string) => {
    const res = await server.api("/v2/search", { method: "POST", json: { query, repositories: [site] } });
    expect(res.status).toBe(200);
    return ((await res.json()) as Source[]).filter((s) => s.filepath === "lib/pad.js");
  };

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
});
