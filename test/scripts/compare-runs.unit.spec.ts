/** scripts/eval/compare.ts: two runs of the eval or of answer-quality side by side. */
import { describe, expect, it } from "vitest";
import { compareAnswers, compareEval, type EvalFigures } from "../../scripts/eval/compare.ts";
import { tables, type CaseResult } from "../../scripts/eval/report.ts";

/** A case result as `npm run eval` stores it, with only what the tables and the comparison read. */
const result = (id: string, language: string, fileRank: number | null, spanRank: number | null): CaseResult =>
  ({ instance_id: id, language, loupe: { fileRank, spanRank }, bm25: { fileRank: 3, spanRank: 3 } }) as unknown as CaseResult;

const run = (results: CaseResult[], digest: string): EvalFigures => ({ digest, tables: tables(results), cases: results as unknown as EvalFigures["cases"] });

describe("comparing two eval runs", () => {
  it("shows both runs per language, the differences where figures moved, and the cases that moved", () => {
    const before = run([result("go-1", "Go", 2, 4), result("go-2", "Go", 1, 1), result("c-1", "C", 1, null)], "d1");
    const after = run([result("go-1", "Go", 1, 1), result("go-2", "Go", 1, 1), result("c-1", "C", 3, null)], "d2");
    const text = compareEval(before, after);
    const lines = text.split("\n");
    const goBefore = lines.find((l) => /^Go\s+before/.test(l))!;
    const goAfter = lines.find((l) => /^Go\s+after/.test(l))!;
    expect(goBefore.split(/\s+/).slice(2, 4)).toEqual(["2", "50.0"]);
    expect(goAfter.split(/\s+/).slice(2, 4)).toEqual(["2", "100.0"]);
    expect(lines[lines.indexOf(goAfter) + 1]).toMatch(/^\s+change\s+\+50\.0/);
    expect(text).toContain("2 cases moved:");
    expect(text).toMatch(/up\s+Go\s+go-1\s+file 2 -> 1, span 4 -> 1/);
    expect(text).toMatch(/down\s+C\s+c-1\s+file 1 -> 3, span - -> -/);
    expect(text).toContain("digests differ");
    expect(text).not.toContain("warning");
  });

  it("warns when the runs do not cover the same cases", () => {
    const text = compareEval(run([result("a", "Go", 1, 1)], "d"), run([result("b", "Go", 1, 1)], "d"));
    expect(text).toContain("warning: the runs cover different cases (2 in one run only)");
  });
});

describe("comparing two answer-quality runs", () => {
  it("counts named answers per language and lists the questions that changed", () => {
    const q = (repo: string, question: string, named: boolean, language?: string) => ({ repo, question, named, ...(language ? { language } : {}) });
    // The "before" run predates per-language results: the languages come from the other run.
    const before = { questions: [q("a/go", "Where is X?", false), q("a/go", "How is Y?", true), q("b/rs", "Why Z?", true)] };
    const after = { questions: [q("a/go", "Where is X?", true, "Go"), q("a/go", "How is Y?", true, "Go"), q("b/rs", "Why Z?", false, "Rust")] };
    const text = compareAnswers(before, after);
    expect(text).toMatch(/^Go\s+1\s+2\s+\(2\)$/m);
    expect(text).toMatch(/^Rust\s+1\s+0\s+\(1\)$/m);
    expect(text).toMatch(/^overall\s+2\s+2\s+\(3\)$/m);
    expect(text).toContain("named now  a/go: Where is X?");
    expect(text).toContain("lost       b/rs: Why Z?");
  });

  it("counts answers whose file comes first when both runs rank files, and lists a question whose file moved", () => {
    const q = (question: string, named: boolean, fileRank: number | null) => ({ repo: "a/c", question, named, fileRank, language: "C" });
    const before = { questions: [q("Where is X?", false, 3), q("How is Y?", true, 1), q("Why Z?", false, null)] };
    const after = { questions: [q("Where is X?", false, 1), q("How is Y?", true, 1), q("Why Z?", true, 2)] };
    const text = compareAnswers(before, after);
    expect(text).toMatch(/^C\s+1\s+2\s+1\s+2\s+\(3\)$/m);
    expect(text).toContain("file moved a/c: Where is X? (file 3 -> 1)");
    expect(text).toContain("named now  a/c: Why Z? (file - -> 2)");
    expect(text).not.toContain("How is Y?");
  });
});
