/**
 * Added lines in the shapes that made a review pattern backtrack exponentially (a string literal full of
 * backslashes, no closing quote: each `\\` could be read two ways). Each runs through the real function
 * and completes; a hang fails by the test's timeout. No timing is asserted.
 */
import { describe, expect, it } from "vitest";
import { runAnalysers } from "../../src/review/analysers/index.ts";
import { namedSecretLiteral } from "../../src/review/analysers/secret-names.ts";
import { identifiersOf, type NewFunction } from "../../src/review/graph/existing-helper.ts";
import { identifiersOnAddedLines } from "../../src/features/code-reviews/related-code.ts";
import { added } from "./helpers.ts";
import { contentWords } from "../../src/review/learned-patterns.ts";

const backslashes = "\\\\\u0000".repeat(40) + "\\";

describe("string literals full of backslashes in a change", () => {
  it("the analysers read an unclosed literal of 40 `\\\\` (assignment and subscript forms)", () => {
    const lines = [`api_key = \`${backslashes}`, `config["token"] = "${backslashes}`, `B:\`${'\\"'.repeat(60)}\\`, `x["-"]="\\[\\[[\\${"[[\\\\".repeat(60)}`];
    expect(runAnalysers(added("settings.py", lines))).toEqual([]);
    expect(namedSecretLiteral(`password = "${backslashes}`)).toBeNull();
  });

  it("still finds a named secret, with escapes inside or a backslash ending it", () => {
    expect(namedSecretLiteral(`api_key = "Zx9\\"Qw7LmP2vR8tY"`)).toEqual({ name: "api_key", value: 'Zx9\\"Qw7LmP2vR8tY' });
    expect(namedSecretLiteral(`config["api_key"] = 'Zx9Qw7LmP2vR8tY\\'`)).toEqual({ name: "api_key", value: "Zx9Qw7LmP2vR8tY\\" });
  });

  it("the identifiers of added lines and of a new function skip such a literal", () => {
    const line = `const parsed = parseConfig("${backslashes}`;
    expect(identifiersOnAddedLines(added("a.js", [line, 'loadSettings("a\\"b", other)']))).toEqual(["parsed", "parseConfig", "loadSettings", "other"]);
    const fn: NewFunction = { path: "a.js", name: "f", parent: null, kind: "function", startLine: 1, endLine: 3, text: `function f() {\n  ${line}\n  return helper("x\\\\", y);\n}` } as NewFunction;
    expect(identifiersOf(fn)).toEqual(expect.arrayContaining(["function", "parsed", "parseConfig"]));
  });
});

describe("review comments a learned pattern reads (a host's comment may hold 65,000 characters)", () => {
  // The long comments only guard against a hang: the old patterns' cost on them was quadratic (seconds), not a
  // hang, and no time is asserted. The short comment checks that links, tags and fenced code are still dropped.
  it("reads a comment of brackets, angle brackets or fences, and still drops links, tags and fenced code", () => {
    for (const body of ["[".repeat(65_000), "<".repeat(65_000), "```\n~~~\n".repeat(30_000), "![".repeat(30_000)]) {
      expect(contentWords(body).size).toBeLessThan(3);
    }
    const words = contentWords("Prefer [the helper](https://x.test/h) over <b>copies</b>.\n```py\nsecret_value()\n```\nUse `fetch_all` here.");
    expect([...words]).toEqual(expect.arrayContaining(["helper", "copi", "`fetch_all"]));
    expect(words.has("secret_value")).toBe(false);
    expect(words.has("https")).toBe(false);
  });
});
