import { describe, expect, it } from "vitest";
import { matchPatterns, patternNeedles, patternWarning, type CustomContextLike } from "../../src/review/patterns.ts";
import { added } from "./helpers.ts";

const texts = (body: string) => patternNeedles(body).needles.map((n) => n.text);

describe("PATTERN needles without backticks", () => {
  it("takes code-like names from the prose, with the same cues as code spans", () => {
    expect(texts("Never call legacyFetch; use httpClient instead.")).toEqual(["legacyFetch"]);
    expect(texts("Do not use os.system in services, prefer subprocess.run.")).toEqual(["os.system"]);
    expect(texts("Avoid print() in library code.")).toEqual(["print("]);
    expect(texts("Do not call get_env_value directly.")).toEqual(["get_env_value"]);
    expect(texts("Raise ValidationError rather than ValueError.")).toEqual(["ValueError"]);
  });

  it("does not take ordinary words or abbreviations", () => {
    expect(texts("Keep functions short and focused, e.g. under 40 lines.")).toEqual([]);
    expect(texts("Do not use print statements.")).toEqual([]);
  });

  it("with backticks present, only the code spans count", () => {
    expect(texts("Never call `legacyFetch`; httpClient is fine.")).toEqual(["legacyFetch"]);
  });

  it("a prose needle matches added lines like a code span does", () => {
    const pattern: CustomContextLike = { id: "p", type: "PATTERN", body: "Never call legacyFetch; use httpClient instead." };
    const f = added("src/net.ts", ["export const a = legacyFetch('/x');", "export const b = httpClient.get('/y');", "const legacyFetchCount = 1;"]);
    expect(matchPatterns(f, [pattern]).map((x) => x.lineStart)).toEqual([1]);
  });
});

describe("a PATTERN that can never match", () => {
  it("gets a warning naming what to do; matchable patterns and instructions get none", () => {
    expect(patternWarning("PATTERN", "Do not use print statements.")).toMatch(/can never match.*backticks/s);
    expect(patternWarning("PATTERN", "Avoid /(a)\\1/ anywhere")).toMatch(/backreference/);
    expect(patternWarning("PATTERN", "Avoid `print(` in services.")).toBeNull();
    expect(patternWarning("PATTERN", "Never call legacyFetch.")).toBeNull();
    expect(patternWarning("CUSTOM_INSTRUCTION", "Keep functions short.")).toBeNull();
  });
});
