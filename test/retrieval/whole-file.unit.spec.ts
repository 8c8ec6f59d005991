import { describe, expect, it } from "vitest";
import type { FileHit } from "../../src/codeindex/port.ts";
import { analyzeQuery } from "../../src/retrieval/query-analysis.ts";
import type { RankedFile } from "../../src/retrieval/ranking.ts";
import { withWholeFileRanking } from "../../src/retrieval/whole-file.ts";

const ranked = (paths: string[]): RankedFile[] =>
  paths.map((path, i) => ({ repoId: "r", branch: "main", path, score: 10 - i, chunks: [], reasons: [`chunk ${i}`] }));
const whole = (paths: string[]): FileHit[] => paths.map((path, i) => ({ repoId: "r", branch: "main", path, score: 5 - i * 0.1 }));
const paths = (files: RankedFile[]) => files.map((f) => f.path);

describe("whole-file ranking fused with the chunk ranking", () => {
  const question = analyzeQuery("the parser drops the last token of a quoted header value");

  it("lifts a file both rankings find over those only the chunks found, and adds files only the whole-file ranking found", () => {
    const out = withWholeFileRanking(ranked(["src/a.py", "src/b.py", "src/c.py", "src/d.py"]), whole(["src/c.py", "src/e.py"]), question);
    // c.py: 1/13 + 0.3/11 = 0.104 beats a.py's 1/11 = 0.091; e.py comes after the chunk ranking's own files (0.3/12).
    expect(paths(out)).toEqual(["src/c.py", "src/a.py", "src/b.py", "src/d.py", "src/e.py"]);
    const e = out.find((f) => f.path === "src/e.py")!;
    expect(e.chunks).toEqual([]);
    expect(e.reasons).toEqual(["words across the file"]);
    expect(out.find((f) => f.path === "src/c.py")!.reasons).toEqual(["chunk 2", "words across the file"]);
    expect(out.find((f) => f.path === "src/b.py")!.reasons).toEqual(["chunk 1"]);
  });

  it("keeps scores ordered like the list, the best at the ranking's best score", () => {
    const out = withWholeFileRanking(ranked(["src/a.py", "src/b.py"]), whole(["src/b.py", "src/z.py"]), question);
    expect(out[0]!.score).toBe(10);
    for (let i = 1; i < out.length; i++) expect(out[i]!.score).toBeLessThan(out[i - 1]!.score);
  });

  it("leaves out tests and docs the question does not ask for, and takes them when it does", () => {
    const files = whole(["tests/test_parser.py", "docs/parser.md", "src/parser.py"]);
    expect(paths(withWholeFileRanking(ranked(["src/a.py"]), files, question))).toEqual(["src/a.py", "src/parser.py"]);
    const aboutTests = analyzeQuery("which test covers the parser of quoted header values");
    expect(paths(withWholeFileRanking(ranked(["src/a.py"]), files, aboutTests))).toContain("tests/test_parser.py");
  });

  it("leaves out the translations the question does not ask for", () => {
    const files = whole(["src/locale/sv.js", "src/utils.js"]);
    const translations = { named: [], unasked: (_target: string, path: string) => path.startsWith("src/locale/") };
    expect(paths(withWholeFileRanking(ranked(["src/a.js"]), files, question, undefined, translations))).toEqual(["src/a.js", "src/utils.js"]);
    expect(paths(withWholeFileRanking(ranked(["src/a.js"]), files, question))).toContain("src/locale/sv.js");
  });

  it("changes nothing without whole-file hits", () => {
    expect(paths(withWholeFileRanking(ranked(["src/a.py", "src/b.py"]), [], question))).toEqual(["src/a.py", "src/b.py"]);
  });
});
