import { describe, expect, it } from "vitest";
import { excerptLineNumbers, excerptOf } from "../../src/retrieval/excerpt.ts";

/** A function of `n` body lines starting at line 1 after `doc` lines of doc comment. */
const longFunction = (n: number, doc: string[] = [], signature = ["function f(a, b) {"]) => [...doc, ...signature, ...Array.from({ length: n }, (_, i) => `  step${i}();`), "}"].join("\n");

describe("an excerpt of a long definition", () => {
  it("shows code that fits whole, and a long definition without a focus from its first line", () => {
    expect(excerptOf("a\nb", 10, { linestart: 11, lineend: 11 }, 5)).toBe("a\nb");
    const code = longFunction(20);
    expect(excerptOf(code, 1, undefined, 5)).toBe("function f(a, b) {\n  step0();\n  step1();\n  step2();\n  step3();\n… 17 more lines");
  });

  it("opens with the signature and a short doc comment, then the matched window after a marker", () => {
    const code = longFunction(100, ["/**", " * Does f.", " */"]);
    // The signature is line 4 (the file's line 13 when the definition starts at line 10); the focus is lines 60-79.
    const shown = excerptOf(code, 10, { linestart: 60, lineend: 79 }, 12).split("\n");
    expect(shown.slice(0, 6)).toEqual(["/**", " * Does f.", " */", "function f(a, b) {", "… lines 14-59 left out", "  step46();"]);
    expect(shown).toHaveLength(13);
    expect(shown.at(-1)).toBe("… 48 more lines"); // lines 67-114
    expect(excerptLineNumbers(shown.join("\n"), 10).slice(0, 7)).toEqual([10, 11, 12, 13, null, 60, 61]);
  });

  it("leaves a long doc comment out with a marker, and keeps a signature over several lines", () => {
    const doc = ["/*!", ...Array.from({ length: 10 }, (_, i) => `@param p${i} the ${i}th`), "*/"];
    const code = longFunction(100, doc, ["template<typename T>", "void f(T a,", "       T b) {"]);
    const shown = excerptOf(code, 1, { linestart: 70, lineend: 90 }, 10).split("\n");
    expect(shown.slice(0, 6)).toEqual(["… lines 1-12 left out", "template<typename T>", "void f(T a,", "       T b) {", "… lines 16-69 left out", "  step54();"]);
    expect(excerptLineNumbers(shown.join("\n"), 1).slice(0, 6)).toEqual([null, 13, 14, 15, null, 70]);
  });

  it("shows the first lines when the matched window starts within the signature's reach", () => {
    const code = longFunction(50);
    expect(excerptOf(code, 1, { linestart: 2, lineend: 30 }, 4).split("\n")[0]).toBe("function f(a, b) {");
    expect(excerptOf(code, 1, { linestart: 2, lineend: 30 }, 4)).not.toContain("left out");
  });
});
