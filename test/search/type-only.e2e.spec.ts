/**
 * TypeScript's interfaces and type aliases are erased when the program runs: a report of what the code
 * does ("method is undefined") is about the code that makes the value, not the interface describing it,
 * while a report about a type still finds the type first.
 * Through POST /v2/search on a real server and a repository indexed from a real git host fixture.
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
