import { describe, expect, it } from "vitest";
import { contextForModel, instructionsFor, matchPatterns, patternCostProblem, patternNeedles, skippedPatterns, type CustomContextLike } from "../../src/review/patterns.ts";
import { added, diffOf } from "./helpers.ts";

const texts = (body: string) => patternNeedles(body).needles.map((n) => n.text);

describe("PATTERN needles", () => {
  it("takes the unwanted code spans and skips the recommended ones", () => {
    expect(texts("Use `logger.info` instead of `console.log`.")).toEqual(["console.log"]);
    expect(texts("Prefer `const` over `let`.")).toEqual(["let"]);
    expect(texts("Do not use `moment`; use `date-fns`.")).toEqual(["moment"]);
    expect(texts("Replace `fetchJson` with `http.get`")).toEqual(["fetchJson"]);
    expect(texts("Avoid `any`, `unknown as` or `@ts-ignore` in new code.")).toEqual(["any", "unknown as", "@ts-ignore"]);
    expect(texts("`var` is deprecated here")).toEqual(["var"]);
    expect(texts("`Result` instead, please")).toEqual([]);
  });

  it("compiles regex literals (bare or in code spans) and ignores fenced examples and paths", () => {
    const { needles, errors } = patternNeedles(
      "Never call /setTimeout\\(\\s*\\w+,\\s*0\\)/ or `/\\.only\\(/` in src/app/ files.\n```js\nbadThing()\n```",
    );
    expect(needles.map((n) => [n.kind, n.text])).toEqual([
      ["regex", "/setTimeout\\(\\s*\\w+,\\s*0\\)/"],
      ["regex", "/\\.only\\(/"],
    ]);
    expect(errors).toEqual([]);
    expect(patternNeedles("Avoid /(a)\\1/").errors[0]).toMatch(/backreference/);
  });
});

describe("matchPatterns", () => {
  const noConsole: CustomContextLike = {
    id: "11111111-1111-4111-8111-111111111111",
    type: "PATTERN",
    body: "Use `logger.info` instead of `console.log` in services.",
    status: "ACTIVE",
    scopes: { AND: [{ field: "filepath", operator: "MATCHES", value: "services/**" }] },
  };

  it("links a finding to the custom context and quotes its body", () => {
    const f = diffOf("services/a.ts", ["start();"], ["start();", "console.log(x);", "logger.info(x);"]);
    const found = matchPatterns(f, [noConsole], { repository: "acme/api" });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ ruleId: "custom-pattern", lineStart: 2, lineEnd: 2, severity: "medium", customContextId: noConsole.id });
    expect(found[0]!.message).toContain("> Use `logger.info` instead of `console.log` in services.");
  });

  it("respects scope, status, word boundaries and context lines", () => {
    expect(matchPatterns(added("web/a.ts", ["console.log(x);"]), [noConsole])).toEqual([]);
    expect(matchPatterns(added("services/a.ts", ["console.log(x);"]), [{ ...noConsole, status: "INACTIVE" }])).toEqual([]);
    expect(matchPatterns(added("services/a.ts", ["console.log(x);"]), [{ ...noConsole, status: "SUGGESTED" }])).toEqual([]);
    const letRule: CustomContextLike = { id: "c2", type: "PATTERN", body: "Prefer `const` over `let`.", metadata: { severity: "low" } };
    const found = matchPatterns(added("x.ts", ["let a = 1;", "const outlet = 2;", "  let b = 3;"]), [letRule]);
    expect(found.map((x) => [x.lineStart, x.severity])).toEqual([
      [1, "low"],
      [3, "low"],
    ]);
    const unchanged = diffOf("services/b.ts", ["console.log(old);"], ["console.log(old);", "ok();"]);
    expect(matchPatterns(unchanged, [noConsole])).toEqual([]);
  });

  it("matches regex needles", () => {
    const only: CustomContextLike = { id: "c3", type: "PATTERN", body: "No focused tests: /\\b(it|describe)\\.only\\(/" };
    expect(matchPatterns(added("a.spec.ts", ["it.only('x', () => {});", "it('y', () => {});"]), [only]).map((x) => x.lineStart)).toEqual([1]);
  });
});

describe("instructions for the model", () => {
  const contexts: CustomContextLike[] = [
    { id: "i1", type: "CUSTOM_INSTRUCTION", body: "Handlers must validate input with zod.", scopes: { AND: [{ field: "filepath", operator: "MATCHES", value: "src/handlers/**" }] } },
    { id: "i2", type: "CUSTOM_INSTRUCTION", body: "Everything needs docs.", scopes: {} },
    { id: "i3", type: "CUSTOM_INSTRUCTION", body: "Old rule.", status: "INACTIVE" },
    { id: "p1", type: "PATTERN", body: "Keep functions short and focused." },
    { id: "p2", type: "PATTERN", body: "Avoid `eval`." },
  ];
  it("selects active instructions in scope; needle-less patterns go to the model too", () => {
    expect(instructionsFor(contexts, { repository: "a/b", filepath: "src/handlers/u.ts" }).map((c) => c.id)).toEqual(["i1", "i2"]);
    expect(instructionsFor(contexts, { repository: "a/b", filepath: "lib/u.ts" }).map((c) => c.id)).toEqual(["i2"]);
    expect(contextForModel(contexts, { repository: "a/b", filepath: "lib/u.ts" }).map((c) => c.id)).toEqual(["i2", "p1"]);
  });
});

describe("a PATTERN whose regex is over the cost limit", () => {
  // About 4,800 automaton states: 4,800 steps for every character of every added line.
  const costly: CustomContextLike = { id: "c9", type: "PATTERN", body: "Never call `legacyFetch` or write /[a-z]{0,2400}y/ in handlers." };
  const cheap: CustomContextLike = { id: "c10", type: "PATTERN", body: "Never call `legacyFetch` or write /[a-z]{0,40}y/ in handlers." };

  it("is refused for creation, naming the field and the limit; an instruction with the same text is not a pattern", () => {
    const problem = patternCostProblem("PATTERN", costly.body);
    expect(problem).toMatch(/^body: \/\[a-z\]\{0,2400\}y\/: pattern is too large: it compiles to 4,801 states, over the limit of 500/);
    expect(patternCostProblem("PATTERN", cheap.body)).toBeNull();
    expect(patternCostProblem("CUSTOM_INSTRUCTION", costly.body)).toBeNull();
  });

  it("is skipped whole where it comes from elsewhere: no finding, not given to the model, named as skipped", () => {
    const file = added("handlers/a.ts", ["legacyFetch(url);", "abcy();"]);
    expect(matchPatterns(file, [costly])).toEqual([]);
    expect(matchPatterns(file, [cheap]).map((f) => f.lineStart)).toEqual([1, 2]);
    const target = { repository: "a/b", filepath: "handlers/a.ts" };
    expect(contextForModel([costly, cheap], target)).toEqual([]);
    expect(skippedPatterns([costly, cheap], target)).toEqual([{ context: costly, costly: { regex: "/[a-z]{0,2400}y/", message: expect.stringContaining("over the limit of 500") } }]);
  });
});
