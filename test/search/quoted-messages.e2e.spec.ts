/**
 * A report that pastes what the program printed finds the code that prints it: the message's fixed
 * text is in a string literal there, cut by its format placeholders (Python f-strings, C printf, Go
 * fmt, JavaScript templates). Through POST /v2/search on a real server and a repository indexed from a
 * real git host fixture.
 */
import { describe, expect, it } from "vitest";
import { withIndexedRepository } from "./support.ts";

const REPO = {
  // The loader is about loading a config and its timeout in words; it prints nothing of its own.
  "settings/loader.py": [
    '"""Loads the config file."""',
    "from settings.durations import parse_duration",
    "",
    "",
    "def load_config(path):",
    '    """Load the config file at path; the timeout is read as a duration such as five minutes."""',
    "    config = read_keys(path)",
    '    config["timeout"] = parse_duration(config.get("timeout", "30s"), "timeout")',
    "    return config",
    "",
  ].join("\n"),
  "settings/durations.py": [
    "import re",
    "",
    "UNITS = {'s': 1, 'm': 60, 'h': 3600}",
    "",
    "",
    "def parse_duration(text, key):",
    "    m = re.fullmatch(r'(\\d+)([smh])', text.strip())",
    "    if m is None:",
    "        raise ValueError(f\"cannot parse duration {text!r} for key {key}\")",
    "    return int(m.group(1)) * UNITS[m.group(2)]",
    "",
  ].join("\n"),
  // The C side: the index reader prints the error; the CLI talks about index files in words.
  "src/cli.c": [
    "#include <stdio.h>",
    "#include \"index.h\"",
    "",
    "/* The command line: opens the index file that --index names; a name may hold a space. */",
    "int run_cli(int argc, char **argv) {",
    "  const char *index_file = argc > 2 ? argv[2] : \"default.idx\";",
    "  struct index *idx = index_open(index_file);",
    "  if (!idx) return 1;",
    "  index_print(idx, stdout);",
    "  return 0;",
    "}",
    "",
  ].join("\n"),
  "src/index.c": [
    "#include <stdio.h>",
    "#include <stdlib.h>",
    "#include \"index.h\"",
    "",
    "struct index *index_open(const char *path) {",
    "  FILE *f = fopen(path, \"rb\");",
    "  if (!f) {",
    "    fprintf(stderr, \"%s: cannot read entries from %s: not an index file\\n\", progname, path);",
    "    return NULL;",
    "  }",
    "  return index_read(f);",
    "}",
    "",
  ].join("\n"),
};

const PYTHON_REPORT = [
  "Loading a config with a timeout of five minutes fails",
  "",
  "```",
  "$ app --config app.cfg",
  "ValueError: cannot parse duration '5 min' for key timeout",
  "```",
  "",
  "The config file has `timeout = 5 min`; I expected the duration to load.",
].join("\n");

const C_REPORT = [
  "Opening an index file with a space in its name fails",
  "",
  "```",
  "$ ./tool --index 'my index.idx'",
  "tool: cannot read entries from my index.idx: not an index file",
  "```",
].join("\n");

describe("reports that quote a printed message (e2e)", () => {
  const { search } = withIndexedRepository("acme/messages", REPO);

  it("a Python error message from an f-string: the function that raises it, before the loader the words are about", async () => {
    const results = await search(PYTHON_REPORT);
    expect(results[0]).toMatchObject({ filepath: "settings/durations.py" });
    expect(results[0]!.linestart).toBeLessThanOrEqual(9);
    expect(results[0]!.lineend).toBeGreaterThanOrEqual(9);
  });

  it("a C printf message: the function that prints it, before the command line that names the same things", async () => {
    const results = await search(C_REPORT);
    expect(results[0]).toMatchObject({ filepath: "src/index.c" });
    expect(results[0]!.linestart).toBeLessThanOrEqual(8);
    expect(results[0]!.lineend).toBeGreaterThanOrEqual(8);
  });
});
