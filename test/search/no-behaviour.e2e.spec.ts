/**
 * Code that holds no behaviour comes after the code that does what a report describes. TypeScript's
 * interfaces and type aliases are erased when the program runs: a report of what the code does ("method
 * is undefined") is about the code that makes the value, not the interface describing it, while a report
 * about a type still finds the type first. An interface's methods, declared without a body, repeat the
 * words of their implementations in their doc comments.
 * Through POST /v2/search on a real server and repositories indexed from a real git host fixture.
 */
import { describe, expect, it } from "vitest";
import { withIndexedRepository } from "./support.ts";

const REPO = {
  "source/types/options.ts": [
    "/** Normalized options: what a request is made with once the defaults are in. */",
    "export interface NormalizedOptions {",
    "  /** The request method, upper case. */",
    "  method: string;",
    "  /** Options of the retries. */",
    "  retry: RetryOptions;",
    "  /** Prefix of every request's URL. */",
    "  prefixUrl: string;",
    "}",
    "",
  ].join("\n"),
  "source/core/client.ts": [
    "export class Client {",
    "  protected options: Options;",
    "",
    "  constructor(input: Input, options: Options = {}) {",
    "    this.options = {",
    "      ...options,",
    "      method: normalizeMethod(options.method),",
    "      prefixUrl: String(options.prefixUrl ?? ''),",
    "    };",
    "  }",
    "}",
    "",
  ].join("\n"),
};

describe("TypeScript's type-only declarations (e2e)", () => {
  const { search } = withIndexedRepository("acme/types", REPO);

  it("a report of what the code does finds the code before the interface naming the same fields", async () => {
    const results = await search("Fix options.method being undefined in normalized options");
    expect(results.map((r) => r.filepath)).toEqual(["source/core/client.ts", "source/types/options.ts"]);
  });

  it("a report about the type finds the interface first", async () => {
    const results = await search("Fix the type of method in normalized options");
    expect(results[0]?.filepath).toBe("source/types/options.ts");
  });
});

const PHP = {
  // The interface's declaration says it all in its doc comment; its path sorts first.
  "src/Carbon/CarbonInterface.php": [
    "<?php",
    "interface CarbonInterface",
    "{",
    "    /**",
    "     * Get the difference in weeks, rounded down: a week is seven days of difference, whatever the",
    "     * weeks of the year the two dates fall in.",
    "     */",
    "    public function diffInWeeks($date = null, bool $absolute = true): int;",
    "}",
    "",
  ].join("\n"),
  "src/Carbon/Traits/Difference.php": [
    "<?php",
    "trait Difference",
    "{",
    "    public function diffInWeeks($date = null, bool $absolute = true): int",
    "    {",
    "        return (int) ($this->diffInDays($date, $absolute) / static::DAYS_PER_WEEK);",
    "    }",
    "}",
    "",
  ].join("\n"),
};

describe("methods declared without a body (e2e)", () => {
  const { search } = withIndexedRepository("acme/dates", PHP);

  it("a report of what a method does finds its implementation before the interface declaring it", async () => {
    const results = await search("diffInWeeks is wrong when the two dates fall in different weeks of the year");
    expect(results.map((r) => r.filepath)).toEqual(["src/Carbon/Traits/Difference.php", "src/Carbon/CarbonInterface.php"]);
  });
});
