import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addedLines, changedNewLineRanges, gitDiffArgs, parseGitDiff, type DiffFile } from "../../src/review/diff.ts";
import { makeRepo, type TempRepo } from "./helpers.ts";

const lines = (n: number, prefix = "line") => Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}`);

describe("parseGitDiff on real git output", () => {
  let repo: TempRepo;
  let files: DiffFile[];
  let raw: string;
  const byPath = (p: string) => {
    const f = files.find((x) => x.path === p);
    if (!f) throw new Error(`no diff entry for ${p}; have ${files.map((x) => x.path).join(", ")}`);
    return f;
  };

  beforeAll(async () => {
    repo = await makeRepo();
    await repo.write("a.txt", lines(20).join("\n") + "\n");
    await repo.write("img.bin", new Uint8Array([0, 1, 2, 3, 0, 255, 0, 9]));
    await repo.write("src/old-name.ts", lines(30, "export const v").join("\n") + "\n");
    await repo.write("gone.txt", "bye\nbye again\n");
    await repo.write("nonl.txt", "first\nlast without newline");
    await repo.write("query.sql", "select 1;\n-- comment\n++ not a header\nselect 2;\n");
    await repo.write("dir with space/file name.txt", "one\ntwo\n");
    await repo.write("ümlaut.txt", "alpha\n");
    const base = await repo.commit("base");
    await repo.git("checkout", "-q", "-b", "feature");

    const a = lines(20);
    a[4] = "line 5 changed";
    a.splice(8, 0, "inserted after 8");
    await repo.write("a.txt", a.join("\n") + "\n");
    await repo.write("img.bin", new Uint8Array([0, 1, 2, 3, 0, 254, 0, 9, 7]));
    await repo.git("mv", "src/old-name.ts", "src/new-name.ts");
    const renamed = lines(30, "export const v");
    renamed[14] = "export const v15 = 'changed';";
    await repo.write("src/new-name.ts", renamed.join("\n") + "\n");
    await repo.git("rm", "-q", "gone.txt");
    await repo.write("nonl.txt", "first\nlast without newline\nnow with newline\n");
    await repo.write("query.sql", "select 1;\nselect 2;\n");
    await repo.write("dir with space/file name.txt", "one\n2\n");
    await repo.write("ümlaut.txt", "alpha\nbeta\n");
    await repo.write("new/file.py", "print('hi')\n");
    await repo.commit("feature");
    raw = await repo.git(...gitDiffArgs(base, "HEAD"));
    files = parseGitDiff(raw);
  });
  afterAll(() => repo.cleanup());

  it("finds every changed file once", () => {
    expect(files.map((f) => f.path).sort()).toEqual(
      ["a.txt", "dir with space/file name.txt", "gone.txt", "img.bin", "new/file.py", "nonl.txt", "query.sql", "src/new-name.ts", "ümlaut.txt"].sort(),
    );
  });

  it("numbers lines of a modified file and exposes added lines and ranges", () => {
    const a = byPath("a.txt");
    expect(a.status).toBe("modified");
    expect(a.oldPath).toBe("a.txt");
    expect(a.newPath).toBe("a.txt");
    expect(a.additions).toBe(2);
    expect(a.deletions).toBe(1);
    expect(addedLines(a)).toEqual([
      { line: 5, text: "line 5 changed" },
      { line: 9, text: "inserted after 8" },
    ]);
    expect(changedNewLineRanges(a)).toEqual([
      { start: 5, end: 5 },
      { start: 9, end: 9 },
    ]);
    const del = a.hunks.flatMap((h) => h.lines).find((l) => l.kind === "del");
    expect(del).toEqual({ kind: "del", text: "line 5", oldLine: 5, newLine: null });
    const ctx = a.hunks.flatMap((h) => h.lines).find((l) => l.kind === "context" && l.text === "line 10");
    expect(ctx).toMatchObject({ oldLine: 10, newLine: 11 });
  });

  it("reports binary files without hunks", () => {
    const b = byPath("img.bin");
    expect(b.binary).toBe(true);
    expect(b.hunks).toEqual([]);
    expect(b.status).toBe("modified");
  });

  it("detects renames with their old path and the changed line", () => {
    const r = byPath("src/new-name.ts");
    expect(r.status).toBe("renamed");
    expect(r.oldPath).toBe("src/old-name.ts");
    expect(r.newPath).toBe("src/new-name.ts");
    expect(r.similarity).toBeGreaterThan(50);
    expect(addedLines(r)).toEqual([{ line: 15, text: "export const v15 = 'changed';" }]);
  });

  it("reports deletions and additions", () => {
    const g = byPath("gone.txt");
    expect(g.status).toBe("deleted");
    expect(g.newPath).toBeNull();
    expect(g.deletions).toBe(2);
    const n = byPath("new/file.py");
    expect(n.status).toBe("added");
    expect(n.oldPath).toBeNull();
    expect(addedLines(n)).toEqual([{ line: 1, text: "print('hi')" }]);
  });

  it('handles "\\ No newline at end of file"', () => {
    const f = byPath("nonl.txt");
    const all = f.hunks.flatMap((h) => h.lines);
    const oldLast = all.find((l) => l.kind === "del");
    expect(oldLast).toMatchObject({ text: "last without newline", noNewlineAtEnd: true, oldLine: 2 });
    expect(addedLines(f)).toEqual([
      { line: 2, text: "last without newline" },
      { line: 3, text: "now with newline" },
    ]);
    expect(all.some((l) => l.text.startsWith("\\") || l.text.includes("No newline"))).toBe(false);
  });

  it("does not mistake removed '-- comment' / '++ x' lines for file headers", () => {
    expect(raw).toContain("\n--- comment\n");
    const q = byPath("query.sql");
    expect(q.deletions).toBe(2);
    expect(q.hunks.flatMap((h) => h.lines).filter((l) => l.kind === "del").map((l) => l.text)).toEqual(["-- comment", "++ not a header"]);
    expect(files.filter((f) => f.path === "query.sql")).toHaveLength(1);
  });

  it("decodes quoted and spaced paths", () => {
    expect(raw).toContain('"a/\\303\\274mlaut.txt"');
    expect(byPath("ümlaut.txt").additions).toBe(1);
    const s = byPath("dir with space/file name.txt");
    expect(s.oldPath).toBe("dir with space/file name.txt");
    expect(addedLines(s)).toEqual([{ line: 2, text: "2" }]);
  });
});
