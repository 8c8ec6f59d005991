import { describe, expect, it } from "vitest";
import { intOption, parseArgs } from "../../src/cli/args.ts";

const spec = { string: ["limit", "remote"], multiple: ["repo"], boolean: ["json", "help"], alias: { h: "help" } };
const usage = (argv: string[]) => {
  try {
    parseArgs(argv, spec);
    return "parsed";
  } catch (error) {
    return `${(error as Error).name}: ${(error as Error).message}`;
  }
};

describe("parseArgs (node:util tokens, Loupe's checks)", () => {
  it("reads positionals, values, repeated options, aliases, --no-flag and --", () => {
    expect(parseArgs(["search", "text", "--limit", "5", "--repo=a", "--repo", "b", "--no-json", "-h", "--", "--x", "-"], spec)).toEqual({
      positionals: ["search", "text", "--x", "-"],
      strings: { limit: "5" },
      lists: { repo: ["a", "b"] },
      booleans: { json: false, help: true },
    });
  });

  it("takes a value that starts with one dash, or is `--` itself", () => {
    expect(parseArgs(["--limit", "-5"], spec).strings.limit).toBe("-5");
    expect(parseArgs(["--limit", "--"], spec).strings.limit).toBe("--");
    expect(parseArgs(["--limit="], spec).strings.limit).toBe("");
  });

  it("answers each mistake with its own message", () => {
    expect(usage(["--verbose"])).toBe("UsageError: unknown option --verbose");
    expect(usage(["--verbose=1"])).toBe("UsageError: unknown option --verbose");
    expect(usage(["-x"])).toBe("UsageError: unknown option -x");
    expect(usage(["-hx"])).toBe("UsageError: unknown option -x");
    expect(usage(["--no-limit"])).toBe("UsageError: unknown option --no-limit");
    expect(usage(["--limit"])).toBe("UsageError: option --limit needs a value");
    expect(usage(["--repo", "--json"])).toBe("UsageError: option --repo needs a value");
    expect(usage(["--json=yes"])).toBe("UsageError: option --json takes no value");
  });

  it("checks whole numbers against their range", () => {
    expect(intOption(parseArgs(["--limit", " 7 "], spec), "limit", { min: 1, max: 100 })).toBe(7);
    expect(intOption(parseArgs([], spec), "limit", { min: 1, max: 100 })).toBeUndefined();
    expect(() => intOption(parseArgs(["--limit", "abc"], spec), "limit", { min: 1, max: 100 })).toThrow('--limit must be a whole number from 1 to 100 (got "abc")');
    expect(() => intOption(parseArgs(["--limit", "101"], spec), "limit", { min: 1, max: 100 })).toThrow("from 1 to 100");
  });
});

describe("loupe-mcp options", () => {
  it("reads --url/--key/--timeout-ms (also with =) and the environment", async () => {
    const { parseOptions } = await import("../../src/cli/mcp-stdio.ts");
    expect(parseOptions(["--url", "http://localhost:8080", "--key=lp_x", "--timeout-ms", "5000"], {})).toEqual({ url: "http://localhost:8080/mcp", key: "lp_x", timeoutMs: 5000 });
    expect(parseOptions([], { LOUPE_URL: "http://h:1/base/", LOUPE_API_KEY: "lp_y" })).toEqual({ url: "http://h:1/base/mcp", key: "lp_y", timeoutMs: 120_000 });
  });

  it("answers help, unknown arguments and missing values with the usage", async () => {
    const { parseOptions } = await import("../../src/cli/mcp-stdio.ts");
    const first = (argv: string[]) => String(parseOptions(argv, {})).split("\n")[0];
    expect(first(["-h"])).toMatch(/^usage: loupe-mcp --url/);
    expect(first(["--verbose=1"])).toBe('unknown argument "--verbose=1"');
    expect(first(["stray"])).toBe('unknown argument "stray"');
    expect(first(["--url"])).toBe("--url needs a value");
    expect(first(["--url", "ftp://x"])).toBe("the URL must be http(s)://");
    expect(first(["--url", "http://x", "--timeout-ms", "0"])).toBe("--timeout-ms must be a positive number");
  });
});
