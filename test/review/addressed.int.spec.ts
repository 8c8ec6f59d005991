import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isCommentAddressed, mapLineThroughDiff } from "../../src/review/addressed.ts";
import { stillFlaggedBy } from "../../src/review/still-flagged.ts";
import { gitDiffArgs, parseGitDiff } from "../../src/review/diff.ts";
import { makeRepo, type TempRepo } from "./helpers.ts";

const base = Array.from({ length: 30 }, (_, i) => `const v${i + 1} = ${i + 1};`);

describe("addressed detection through real follow-up commits", () => {
  let repo: TempRepo;
  let c0: string;
  beforeAll(async () => {
    repo = await makeRepo();
    await repo.write("src/a.ts", base.join("\n") + "\n");
    await repo.write("src/b.ts", "export const b = 1;\n");
    c0 = await repo.commit("reviewed commit");
  });
  afterAll(() => repo.cleanup());

  const diffTo = async (head: string, from = c0) => parseGitDiff(await repo.git(...gitDiffArgs(from, head, { threeDot: false })));
  const comment = (lineStart: number, lineEnd = lineStart, suggestedCode: string | null = null) => ({ path: "src/a.ts", lineStart, lineEnd, suggestedCode, commitSha: c0 });

  it("changing the commented line addresses the comment", async () => {
    await repo.git("checkout", "-q", "-b", "change-line", c0);
    const lines = [...base];
    lines[9] = "const v10 = computeTen();";
    await repo.write("src/a.ts", lines.join("\n") + "\n");
    const head = await repo.commit("fix line 10");
    const diff = await diffTo(head);
    expect(isCommentAddressed(comment(10), diff)).toEqual({ addressed: true, reason: "lines-changed" });
    expect(isCommentAddressed(comment(8, 12), diff)).toEqual({ addressed: true, reason: "lines-changed" });
    expect(isCommentAddressed(comment(20), diff)).toEqual({ addressed: false, path: "src/a.ts", lineStart: 20, lineEnd: 20 });
  });

  it("changing another line leaves it unaddressed and remaps its line", async () => {
    await repo.git("checkout", "-q", "-b", "other-line", c0);
    const lines = [...base];
    lines.splice(2, 0, "// a", "// b", "// c"); // 3 lines inserted above line 3
    lines.splice(27, 1); // delete old line 25 (now at index 27)
    await repo.write("src/a.ts", lines.join("\n") + "\n");
    const head = await repo.commit("unrelated edits");
    const diff = await diffTo(head);
    expect(isCommentAddressed(comment(10, 11), diff)).toEqual({ addressed: false, path: "src/a.ts", lineStart: 13, lineEnd: 14 });
    expect(isCommentAddressed(comment(29), diff)).toEqual({ addressed: false, path: "src/a.ts", lineStart: 31, lineEnd: 31 });
    expect(isCommentAddressed(comment(25), diff)).toEqual({ addressed: true, reason: "lines-changed" });
    const file = diff.find((f) => f.path === "src/a.ts");
    expect(mapLineThroughDiff(2, file)).toBe(2);
    expect(mapLineThroughDiff(3, file)).toBe(6);
    expect(mapLineThroughDiff(25, file)).toBeNull();
    expect(mapLineThroughDiff(26, file)).toBe(28);
    expect(isCommentAddressed({ ...comment(1), path: "src/b.ts" }, diff)).toEqual({ addressed: false, path: "src/b.ts", lineStart: 1, lineEnd: 1 });
  });

  it("applying the suggestion addresses the comment with reason suggestion-applied", async () => {
    await repo.git("checkout", "-q", "-b", "apply-suggestion", c0);
    const suggestion = "const v15 = Number(process.env.V15 ?? 15);";
    const lines = [...base];
    lines[14] = suggestion;
    const content = lines.join("\n") + "\n";
    await repo.write("src/a.ts", content);
    const head = await repo.commit("apply suggestion");
    const diff = await diffTo(head);
    expect(isCommentAddressed(comment(15, 15, suggestion), diff, content)).toEqual({ addressed: true, reason: "suggestion-applied" });
    expect(isCommentAddressed(comment(15, 15, "const v15 = somethingElse();"), diff, content)).toEqual({ addressed: true, reason: "lines-changed" });
  });

  it("follows renames and treats a deleted file as addressed", async () => {
    await repo.git("checkout", "-q", "-b", "rename", c0);
    await repo.git("mv", "src/a.ts", "src/renamed.ts");
    await repo.git("rm", "-q", "src/b.ts");
    const head = await repo.commit("rename and delete");
    const diff = await diffTo(head);
    expect(isCommentAddressed(comment(7), diff)).toEqual({ addressed: false, path: "src/renamed.ts", lineStart: 7, lineEnd: 7 });
    expect(isCommentAddressed({ ...comment(1), path: "src/b.ts" }, diff)).toEqual({ addressed: true, reason: "file-deleted" });
  });

  it("a comment-only edit of the flagged line leaves it open (relocated); a code edit or a fixed construct addresses it", async () => {
    await repo.git("checkout", "-q", "-b", "comment-only", c0);
    const lines = [...base];
    lines.splice(1, 0, "// inserted above");
    lines[10] = "const v10 = 10; // explained now";
    lines[16] = "const v16 = sixteen(); // and changed";
    const content = lines.join("\n") + "\n";
    await repo.write("src/a.ts", content);
    const diff = await diffTo(await repo.commit("comments"));
    // No rule to re-run (a model's comment): only comments changed on line 10, which is line 11 now.
    expect(isCommentAddressed(comment(10), diff, content)).toEqual({ addressed: false, path: "src/a.ts", lineStart: 11, lineEnd: 11 });
    expect(isCommentAddressed(comment(16), diff, content)).toEqual({ addressed: true, reason: "lines-changed" });
    // Without the new content nothing can be compared: changed lines address the comment, as before.
    expect(isCommentAddressed(comment(10), diff)).toEqual({ addressed: true, reason: "lines-changed" });
  });

  it("re-runs the comment's rule: a TODO removed from a comment addresses it, a bare except with a new comment does not", async () => {
    await repo.git("checkout", "-q", "-b", "rules", c0);
    await repo.write("app/x.py", "def f():\n    try:\n        g()  # TODO handle\n    except:\n        pass\n");
    const c1 = await repo.commit("python");
    const next = "def f():\n    try:\n        g()  # handled by the caller\n    except:  # the caller retries\n        pass\n";
    await repo.write("app/x.py", next);
    const diff = parseGitDiff(await repo.git(...gitDiffArgs(c1, await repo.commit("edit comments"), { threeDot: false })));
    const anchor = (line: number) => ({ path: "app/x.py", lineStart: line, lineEnd: line, suggestedCode: null, commitSha: c1 });
    const rerun = (ruleId: string) => stillFlaggedBy({ path: "app/x.py", ruleId }, { repository: "a/b", contexts: [] });
    expect(isCommentAddressed(anchor(3), diff, next, rerun("todo-comment"))).toEqual({ addressed: true, reason: "lines-changed" });
    expect(isCommentAddressed(anchor(4), diff, next, rerun("python/bare-except"))).toEqual({ addressed: false, path: "app/x.py", lineStart: 4, lineEnd: 4 });
  });
});
