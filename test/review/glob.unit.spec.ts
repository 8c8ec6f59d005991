import { describe, expect, it } from "vitest";
import { compileGlob, expandBraces, GlobError, globMatch, MAX_BRACE_EXPANSIONS, validateGlob } from "../../src/review/glob.ts";

const m = (p: string, s: string, o = {}) => globMatch(p, s, o);

describe("glob syntax", () => {
  it("* stays within a segment, ** crosses segments and may match none", () => {
    expect(m("*.js", "a.js")).toBe(true);
    expect(m("*.js", "src/a.js")).toBe(false);
    expect(m("**/*.js", "a.js")).toBe(true);
    expect(m("**/*.js", "src/deep/a.js")).toBe(true);
    expect(m("**/*.js", "src/a.ts")).toBe(false);
    expect(m("src/**/test/*.ts", "src/test/a.ts")).toBe(true);
    expect(m("src/**/test/*.ts", "src/x/y/test/a.ts")).toBe(true);
    expect(m("src/**/test/*.ts", "src/x/ytest/a.ts")).toBe(false);
    expect(m("src/**", "src/a/b/c")).toBe(true);
    expect(m("src/**", "lib/a")).toBe(false);
    expect(m("a**b", "axxb")).toBe(true);
    expect(m("a**b", "ax/xb")).toBe(false);
  });

  it("?, classes, negated classes, braces and escapes", () => {
    expect(m("file?.txt", "file1.txt")).toBe(true);
    expect(m("file?.txt", "file/.txt")).toBe(false);
    expect(m("[abc].ts", "b.ts")).toBe(true);
    expect(m("[a-c].ts", "d.ts")).toBe(false);
    expect(m("[!a-c].ts", "d.ts")).toBe(true);
    expect(m("[^a-c].ts", "a.ts")).toBe(false);
    expect(m("*.{js,ts}", "x.ts")).toBe(true);
    expect(m("*.{js,ts}", "x.py")).toBe(false);
    expect(m("{src,lib}/**/*.{js,{m,c}js}", "lib/a/b.cjs")).toBe(true);
    expect(m("{a}", "{a}")).toBe(true);
    expect(m("\\*.md", "*.md")).toBe(true);
    expect(m("\\*.md", "a.md")).toBe(false);
    expect(m("[unclosed", "[unclosed")).toBe(true);
  });

  it("options: nocase and matchBase; leading ./ and / are ignored", () => {
    expect(m("Acme/*", "acme/API", { nocase: true })).toBe(true);
    expect(m("Acme/*", "acme/API")).toBe(false);
    expect(m("*.lock", "deep/dir/yarn.lock", { matchBase: true })).toBe(true);
    expect(m("/src/*.ts", "./src/a.ts")).toBe(true);
  });

  it("rejects over-long patterns and brace bombs", () => {
    expect(() => compileGlob("a".repeat(1001))).toThrow(GlobError);
    expect(() => expandBraces("{a,b}".repeat(8))).toThrow(GlobError);
    expect(expandBraces("{a,b}{c,d}")).toEqual(["ac", "ad", "bc", "bd"]);
    expect(validateGlob("{a,b}".repeat(8))).toMatch(/more than/);
    expect(MAX_BRACE_EXPANSIONS).toBeLessThan(2 ** 8);
  });
});

describe("glob matching cannot be made to hang", () => {
  const time = (fn: () => void) => {
    const t = performance.now();
    fn();
    return performance.now() - t;
  };

  it("a*a*a*...b against a long run of a", () => {
    const pattern = "a*".repeat(40) + "b";
    const input = "a".repeat(4000);
    let result = true;
    const ms = time(() => (result = m(pattern, input)));
    expect(result).toBe(false);
    expect(ms).toBeLessThan(500);
  });

  it("**/**/**/... against a deep path", () => {
    const pattern = "**/".repeat(300) + "x";
    const input = "a/".repeat(2000) + "y";
    let result = true;
    const ms = time(() => (result = m(pattern, input)));
    expect(result).toBe(false);
    expect(m(pattern, "a/".repeat(2000) + "x")).toBe(true);
    expect(ms).toBeLessThan(500);
  });

  it("mixed stars, ? and classes near the length cap", () => {
    const pattern = ("*?[a-z]" + "*").repeat(120).slice(0, 990) + "!";
    const input = "abc".repeat(1300);
    const ms = time(() => expect(m(pattern, input)).toBe(false));
    expect(ms).toBeLessThan(1500);
  });

  it("paths beyond the length limit never match", () => {
    expect(m("**", "a".repeat(5000))).toBe(false);
  });
});
