import { describe, expect, it } from "vitest";
import { compileSafeRegex, SafeRegexError, validateSafeRegex } from "../../src/review/safe-regex.ts";

const t = (src: string, input: string, flags = "") => compileSafeRegex(src, flags).test(input);

describe("safe regex engine", () => {
  it("agrees with RegExp on ordinary expressions", () => {
    const cases: [string, string, string][] = [
      ["console\\.log\\(", "  console.log(x)", ""],
      ["console\\.log\\(", "consoleXlog(x)", ""],
      ["^\\s*import\\s+\\w+$", "  import foo", ""],
      ["^\\s*import\\s+\\w+$", "  import foo.bar", ""],
      ["\\bfoo\\b", "a foo b", ""],
      ["\\bfoo\\b", "afoob", ""],
      ["colou?r", "color", ""],
      ["(ab|cd){2}x", "abcdx", ""],
      ["(ab|cd){2}x", "abx", ""],
      ["[^a-c]+z", "abcz", ""],
      ["[^a-c]+z", "abdz", ""],
      ["a{2,3}b", "aab", ""],
      ["a{2,3}b", "ab", ""],
      ["(?:get|set)Item", "localStorage.setItem", ""],
      ["SELECT", "select * from t", "i"],
      ["\\d{3}-\\d{4}", "call 555-1234", ""],
      ["x$", "abx", ""],
      ["x$", "xab", ""],
    ];
    for (const [src, input, flags] of cases) expect([src, input, t(src, input, flags)]).toEqual([src, input, new RegExp(src, flags).test(input)]);
  });

  it("rejects backreferences, lookaround and oversized repeats", () => {
    expect(() => compileSafeRegex("(a)\\1")).toThrow(SafeRegexError);
    expect(() => compileSafeRegex("foo(?=bar)")).toThrow(SafeRegexError);
    expect(() => compileSafeRegex("(?<!x)y")).toThrow(SafeRegexError);
    expect(validateSafeRegex("(a{1000}){1000}")).toMatch(/too large/);
    expect(validateSafeRegex("a(b")).not.toBeNull();
  });

  it("runs catastrophic-backtracking patterns in linear time", () => {
    const evil = ["(a+)+$", "(a|a)*b", "(a*)*b", "(.*a){12}"];
    const input = "a".repeat(5000) + "!";
    const start = performance.now();
    for (const src of evil) expect(t(src, input)).toBe(src === "(.*a){12}");
    expect(performance.now() - start).toBeLessThan(2000);
  });
});
