import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkTree, folderOf, layerOf } from "../../scripts/check-imports.ts";
import { execFileSync } from "node:child_process";
import { repoRoot, tsxBin } from "../support/process.ts";


describe("the import graph check (scripts/check-imports.ts)", () => {
  it("finds no circle, no upward import and no file over 450 lines in this checkout", () => {
    let output: string;
    try {
      output = execFileSync(tsxBin, ["scripts/check-imports.ts"], { cwd: repoRoot, encoding: "utf8" });
    } catch (error) {
      output = String((error as { stdout?: string }).stdout);
    }
    expect(output).toMatch(/no circle, no upward import, no file over 450 lines\n$/);
  });

  const dir = mkdtempSync(join(tmpdir(), "loupe-imports-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };

  it("reports a file circle, a folder circle, an upward import and a long file", () => {
    write("src/features/a/service.ts", 'import { b } from "../b/service.ts";\nexport const a = 1;\n');
    write("src/features/b/service.ts", 'import type { X } from "../a/model.ts";\nexport const b = 2;\n');
    write("src/features/a/model.ts", "export type X = number;\n");
    write("src/eventstore/port.ts", 'import { c } from "../faces/http/app.ts";\nexport const p = c;\n');
    write("src/faces/http/app.ts", 'import { p } from "../../eventstore/port.ts";\nexport const c = p;\n');
    write("src/review/long.ts", "export const x = 1;\n".repeat(20));
    const { problems } = checkTree(dir, { maxLines: 10 });
    const kinds = problems.map((p) => p.kind).sort();
    expect(kinds).toEqual(["circle", "folder-circle", "folder-circle", "size", "upward"]);
    expect(problems.find((p) => p.kind === "upward")!.message).toBe("src/eventstore/port.ts (mechanisms) imports src/faces/http/app.ts (faces)");
    expect(problems.find((p) => p.kind === "size")!.message).toBe("src/review/long.ts: 20 lines (limit 10)");
    expect(problems.filter((p) => p.kind === "folder-circle").map((p) => p.message)).toContain("folder circle: src/features/a -> src/features/b -> src/features/a");
  });

  it("places files in layers and folders", () => {
    expect(layerOf("src/faces/http/app.ts")).toBeGreaterThan(layerOf("src/features/access/service.ts"));
    expect(layerOf("src/features/access/service.ts")).toBeGreaterThan(layerOf("src/review/diff.ts"));
    expect(layerOf("src/review/diff.ts")).toBeGreaterThan(layerOf("src/eventstore/port.ts"));
    expect(layerOf("src/eventstore/port.ts")).toBeGreaterThan(layerOf("src/ids.ts"));
    expect(layerOf("src/somewhere-new/x.ts")).toBe(-1);
    expect(folderOf("src/features/access/service.ts")).toBe("src/features/access");
    expect(folderOf("src/codeindex/embedded/postings.ts")).toBe("src/codeindex");
    expect(folderOf("projections/runner.ts")).toBe("projections");
  });
});
