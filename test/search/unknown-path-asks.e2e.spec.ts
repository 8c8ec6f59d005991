/**
 * A path a report mentions asks for its kind of file (documentation, tests, typings) only when it names a
 * file of the searched repository: the reporter's own output file (`out/result.txt`) asks for no
 * documentation, and the manual that repeats the report's words stays behind the code. Through POST
 * /v2/search on a real server and a repository indexed from a real git host fixture.
 */
import { describe, expect, it } from "vitest";
import { withIndexedRepository } from "./support.ts";
import { analyzeQuery } from "../../src/retrieval/query-analysis.ts";
import { queryWants } from "../../src/retrieval/query-wants.ts";

const REPO = {
  "src/output.c": [
    "#include <stdio.h>",
    "#include \"output.h\"",
    "",
    "/* Writes the results to the output file, or to stdout when no output file is set. */",
    "int emit(const char *path, struct row *rows, int n) {",
    "  FILE *f = path ? fopen(path, \"w\") : stdout;",
    "  if (f == NULL) return -1;",
    "  for (int i = 0; i < n; i++) fprintf(f, \"%s\\n\", rows[i].text);",
    "  if (f != stdout) fclose(f);",
    "  return 0;",
    "}",
    "",
  ].join("\n"),
  "src/parse.c": [
    "#include \"parse.h\"",
    "",
    "int parse_arguments(int argc, char **argv, struct options *opts) {",
    "  for (int i = 1; i < argc; i++) {",
    "    if (argv[i][0] != '-') opts->inputs[opts->count++] = argv[i];",
    "  }",
    "  return 0;",
    "}",
    "",
  ].join("\n"),
  // The manual says the report's words more often than the code does.
  "docs/manual.md": [
    "# Results and the output file",
    "",
    "Results are written to stdout, or to the output file when one is set. The output file is created when it",
    "does not exist; its directory is not created: when the directory does not exist the output file is not",
    "opened, the results are lost and nothing is printed. No error is reported and the exit status is zero.",
    "Create the directory of the output file before you run the tool, and look for the results afterwards.",
  ].join("\n"),
};

const REPORT = [
  "Results are lost when the output file is in a directory that does not exist",
  "",
  "When I run the tool with the output file set to `out/result.txt` and its directory does not exist yet, the",
  "results are written nowhere: nothing is printed, no error is reported and the exit status is zero. I would",
  "expect either the directory to be created or an error saying the output file could not be opened.",
  "",
  "Steps: run the tool with an output file in a missing directory and look for the results afterwards.",
].join("\n");

describe("a mentioned path that names no file asks for nothing (e2e)", () => {
  const { search } = withIndexedRepository("acme/results", REPO);

  it("ranks the code that writes the output file before the manual that describes it", async () => {
    const files = [...new Set((await search(REPORT)).map((r) => r.filepath))];
    expect(files[0]).toBe("src/output.c");
    expect(files.indexOf("docs/manual.md")).toBeGreaterThan(files.indexOf("src/output.c"));
  });

  it("reads the documentation asked for from paths that name a file of the repository", () => {
    const analysis = analyzeQuery(REPORT);
    expect(queryWants(analysis, (path) => path === "out/result.txt").docs).toBe(true);
    expect(queryWants(analysis, () => false).docs).toBe(false);
  });
});
