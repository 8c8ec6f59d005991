import { describe, expect, it } from "vitest";
import { nearCopy, newFile, type Original } from "../../scripts/existing-helper/cases.ts";

const original = (path: string, name: string, parent: string | null, kind: string, text: string): Original => ({
  path,
  name,
  parent,
  kind,
  startLine: 1,
  endLine: text.split("\n").length,
  codeLines: text.split("\n").length,
  text,
});

// A definition's text starts with its doc block, also one a blank line above it (express's members).
const cookie = original(
  "lib/response.js",
  "cookie",
  "res",
  "method",
  [
    "/**",
    " * Set cookie `name` to `val`; it expires after 15 minutes unless `options` say otherwise.",
    " *",
    " * @param {String} name",
    " * @param {Object} options",
    " */",
    "",
    "res.cookie = function(name, val, options){",
    "  var opts = options || {};",
    "  var signed = opts.signed;",
    "  if (!opts.maxAge) opts.expires = new Date(Date.now() + 900000);",
    "  this.append('Set-Cookie', name + '=' + String(val));",
    "  return this;",
    "};",
  ].join("\n"),
);

describe("existing-helper benchmark cases: a near-copy of a function documented above its header", () => {
  it("renames the assigned member and the parameters, and changes a literal of the code, not of the doc block", () => {
    const copy = nearCopy(cookie, 1);
    const lines = copy.text.split("\n");
    expect(lines).toContain("res.cookieAlt = function(nameAlt, valAlt, optionsAlt){");
    expect(lines).toContain("  if (!optsAlt.maxAge) optsAlt.expires = new Date(Date.now() + 900001);");
    expect(copy.text).toContain("it expires after 15 minutes");
    expect(copy.edits).toContain("literal 900000 -> 900001");
    expect(copy.name).toBe("cookieAlt");
  });

  it("puts a method assigned to an object in the new file as written, not inside a class", () => {
    const copy = nearCopy(cookie, 0);
    const placed = newFile(cookie, copy.text, 0, "");
    expect(placed.file).toBe("lib/benchAdded0.js");
    expect(placed.content).toBe(`${copy.text}\n`);
  });

  it("reads a Rust function's parameters after its doc comments, braces in them aside", () => {
    const f = original(
      "src/pairs.rs",
      "parse_pairs",
      null,
      "function",
      [
        "/// Parses `{key}={value}` pairs, at most `limit` of them.",
        "pub fn parse_pairs(input: &str, limit: usize) -> Vec<String> {",
        "    let mut out = Vec::new();",
        "    for part in input.split(',').take(limit) {",
        "        out.push(part.trim().to_string());",
        "    }",
        "    out",
        "}",
      ].join("\n"),
    );
    const copy = nearCopy(f, 0);
    expect(copy.text.split("\n")).toContain("pub fn parse_pairs_alt(input_alt: &str, limit_alt: usize) -> Vec<String> {");
  });
});
