import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { commandLine, projectRoot } from "../../scripts/results.ts";

describe("commandLine", () => {
  const script = join(projectRoot, "scripts", "bench-x.ts");

  it("writes absolute paths relative to the project root, as an option's value too", () => {
    const mirror = resolve(projectRoot, "..", ".mirror", "pallets+flask", "repo");
    expect(commandLine(["node", script, "--mirror", mirror, `--data-dir=${join(projectRoot, "tmp")}`, "--runs", "5"])).toBe(
      "npx tsx scripts/bench-x.ts --mirror ../.mirror/pallets+flask/repo --data-dir=tmp --runs 5",
    );
  });

  it("keeps relative arguments and quotes what the shell would split", () => {
    expect(commandLine(["node", script, "--only", "diff limiter", "../shared/eval/a.jsonl"])).toBe("npx tsx scripts/bench-x.ts --only 'diff limiter' ../shared/eval/a.jsonl");
  });
});
