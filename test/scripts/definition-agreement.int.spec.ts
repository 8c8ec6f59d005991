import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { git } from "../support/git-fixtures.ts";
import { repoRoot, tsxBin } from "../support/process.ts";

/**
 * scripts/definition-agreement.ts over a real bare mirror (`<mirrors>/<owner>+<name>/repo`): the parser's
 * methods inside a Ruby class kept whole, and how many the search's text reading finds with their ends.
 */
const RUBY = [
  "module Rack",
  "  class Request",
  "    def initialize(env)",
  "      @env = env",
  "    end",
  "",
  "    def params",
  "      query = parse_query(@env['QUERY_STRING']) || {}",
  "      query.each do |key, value|",
  "        query[key] = value.strip",
  "      end",
  "      query",
  "    end",
  "",
  "    def self.build(env)",
  "      new(env)",
  "    end",
  "  end",
  "end",
  "",
].join("\n");

const run = (args: string[]): { status: number; stdout: string; stderr: string } => {
  try {
    return { status: 0, stdout: execFileSync(tsxBin, ["scripts/definition-agreement.ts", ...args], { cwd: repoRoot, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }), stderr: "" };
  } catch (error) {
    const e = error as { status: number; stdout: string; stderr: string };
    return { status: e.status, stdout: String(e.stdout), stderr: String(e.stderr) };
  }
};

describe("the definition agreement check (scripts/definition-agreement.ts)", () => {
  const dir = mkdtempSync(join(tmpdir(), "loupe-agreement-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const work = join(dir, "work");
  const mirrors = join(dir, "mirrors");
  mkdirSync(join(work, "lib/rack"), { recursive: true });
  writeFileSync(join(work, "lib/rack/request.rb"), RUBY);
  git(work, "init", "--quiet", "--initial-branch=main");
  git(work, "add", "-A");
  git(work, "commit", "--quiet", "-m", "request");
  mkdirSync(mirrors, { recursive: true });
  git(dir, "clone", "--quiet", "--bare", work, join(mirrors, "acme+rack", "repo"));

  it("finds every method of the class at the parser's lines, `end`s and blocks inside them included", () => {
    const { status, stdout } = run(["--mirrors", mirrors, "--repo", "acme/rack", "--files", "\\.rb$"]);
    expect(status).toBe(0);
    expect(stdout).toBe("acme/rack HEAD (1 files): 3 definitions in container chunks, found 3 (100.0%), same last line 3 (100.0%)\n");
  });

  it("refuses a pattern that is no regular expression or a revision that reads as an option, naming the argument", () => {
    const bad = run(["--mirrors", mirrors, "--repo", "acme/rack", "--files", "("]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("--files: a regular expression");
    const option = run(["--mirrors", mirrors, "--repo", "acme/rack", "--files", "rb", "--rev=--all"]);
    expect(option.status).toBe(2);
    expect(option.stderr).toContain("--rev: a revision, not an option");
    const missing = run(["--mirrors", mirrors, "--repo", "acme/rack", "--files", "rb", "--rev"]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("'--rev <value>' argument missing");
    expect(missing.stdout + option.stdout + bad.stdout).toBe("");
  });
});
