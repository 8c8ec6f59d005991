import { describe, expect, it } from "vitest";
import type { ChunkDocument, IndexHit } from "../../src/codeindex/port.ts";
import { analyzeQuery } from "../../src/retrieval/query-analysis.ts";
import { classifyPath } from "../../src/retrieval/path-classes.ts";
import { distances, rankFiles } from "../../src/retrieval/ranking.ts";
import { withExtraPaths } from "../../src/retrieval/path-mentions.ts";
import { moduleStem, pathMatches } from "../../src/retrieval/path-mentions.ts";
import { cUnprefixed } from "../../src/retrieval/strong-names.ts";

let ordinal = 0;
function chunk(path: string, over: Partial<ChunkDocument> = {}): ChunkDocument {
  const n = ordinal++;
  return {
    id: `r|${path}|b|${n}`, orgId: "o", repoId: "r", path, blobId: "b", ordinal: n, language: "python", kind: "function",
    symbol: null, parent: null, signature: null, doc: null, startLine: 1, endLine: 10, text: "", summary: "", fileSummary: `File ${path}`,
    ...over,
  };
}
const hit = (doc: ChunkDocument, score: number): IndexHit => ({ doc, score, branch: "main" });
const rank = (query: string, hits: IndexHit[], files?: string[]) =>
  rankFiles({ analysis: withExtraPaths(analyzeQuery(query), query), lists: [{ name: "lexical", weight: 1, hits }], ...(files ? { files: new Map([["r\u0000main", files]]) } : {}), limit: 10 }).map((f) => f.path);

describe("ranking", () => {
  it("a definition of a named symbol beats a chunk that merely mentions it", () => {
    const user = chunk("app/cli.py", { symbol: "main", text: "def main():\n    cfg = parse_config(path)\n" });
    const def = chunk("app/config.py", { symbol: "parse_config", text: "def parse_config(path):\n    ...\n" });
    expect(rank("why does `parse_config` drop keys?", [hit(user, 10), hit(def, 9)])).toEqual(["app/config.py", "app/cli.py"]);
  });

  it("a chunk defining a named function inside it (a plugin's prototype method) counts as defining it, with a smaller bonus", () => {
    const plugin = [
      "export default (option, Moment) => {",
      "  const proto = Moment.prototype",
      "  proto.utc = function () {",
      "    return this.clone().set('utc', true)",
      "  }",
      "  proto.utcOffset = function (input, keepLocalTime) {",
      "    if (input === undefined) return this.$offset",
      "    const ins = this.utc()",
      "    ins.$offset = input",
      "    return keepLocalTime ? ins.add(-input, 'minute') : ins",
      "  }",
      "}",
    ].join("\n");
    const inPlugin = chunk("src/plugin/utc/index.js", { language: "javascript", symbol: "default", startLine: 3, endLine: 14, text: plugin });
    const user = chunk("src/format.js", { language: "javascript", symbol: "format", startLine: 1, endLine: 12, text: `function format(m) {\n${"  // offset\n".repeat(9)}  return m.utcOffset()\n}` });
    const query = "`utcOffset(-5, true)` should keep the local time of day";
    expect(rank(query, [hit(user, 10), hit(inPlugin, 8)])).toEqual(["src/plugin/utc/index.js", "src/format.js"]);
    const ranked = rankFiles({ analysis: analyzeQuery(query), lists: [{ name: "lexical", weight: 1, hits: [hit(user, 10), hit(inPlugin, 8)] }], limit: 10 });
    expect(ranked[0]!.reasons).toContain("defines utcOffset");
    // Its own definition of the name weighs more than one inside another chunk.
    const own = chunk("src/core.js", { language: "javascript", symbol: "utcOffset", startLine: 1, endLine: 12, text: "utcOffset(input) {\n  return this.$offset\n}" });
    expect(rank(query, [hit(inPlugin, 8), hit(own, 8)])[0]).toBe("src/core.js");
  });

  it("the innermost project frame, where the exception was raised, outweighs several outer frames of another file", () => {
    const trace = [
      "Solar output fails for a single reading",
      "```",
      "Traceback (most recent call last):",
      '  File "/home/u/.local/lib/python3.10/site-packages/solar/chain.py", line 1770, in run_model',
      "    self._run_from_irradiance(weather)",
      '  File "/home/u/.local/lib/python3.10/site-packages/solar/chain.py", line 1858, in _run_from_irradiance',
      "    self.dc_model()",
      '  File "/home/u/.local/lib/python3.10/site-packages/solar/chain.py", line 772, in _singlediode',
      "    self.results.dc = tuple(itertools.starmap(",
      '  File "/home/u/.local/lib/python3.10/site-packages/solar/tools.py", line 364, in _golden_section',
      '    raise Exception("Iterations exceeded maximum")',
      "Exception: Iterations exceeded maximum",
      "```",
    ].join("\n");
    const files = ["solar/chain.py", "solar/tools.py"];
    const chain = [
      chunk("solar/chain.py", { symbol: "run_model", parent: "Chain", kind: "method", text: "def run_model(self, weather):\n    self._run_from_irradiance(weather)\n" }),
      chunk("solar/chain.py", { symbol: "_run_from_irradiance", parent: "Chain", kind: "method", text: "def _run_from_irradiance(self, weather):\n    self.dc_model()\n" }),
      chunk("solar/chain.py", { symbol: "_singlediode", parent: "Chain", kind: "method", text: "def _singlediode(self):\n    self.results.dc = tuple(itertools.starmap(f, args))\n" }),
    ];
    const tools = chunk("solar/tools.py", { symbol: "_golden_section", text: 'def _golden_section(params, lower, upper):\n    raise Exception("Iterations exceeded maximum")\n' });
    const analysis = withExtraPaths(analyzeQuery(trace, { ownsPath: (p) => files.some((f) => pathMatches(f, p)) }), trace);
    const ranked = rankFiles({ analysis, lists: [{ name: "lexical", weight: 1, hits: [...chain.map((c) => hit(c, 5)), hit(tools, 10)] }], files: new Map([["r\u0000main", files]]), limit: 10 });
    expect(ranked[0]!.path).toBe("solar/tools.py");
  });

  it("source beats tests and docs unless the query asks for them", () => {
    const test = chunk("tests/test_config.py", { symbol: "test_merge" });
    const docs = chunk("docs/config.md", { kind: "section" });
    const src = chunk("app/merge.py", { symbol: "merge" });
    expect(rank("merge of nested settings loses values", [hit(test, 10), hit(docs, 10), hit(src, 8)])[0]).toBe("app/merge.py");
    expect(rank("the test test_merge fails in tests/test_config.py", [hit(test, 10), hit(src, 9)])[0]).toBe("tests/test_config.py");
  });

  it("a Go package named by a qualified call (`mapping.UnmarshalJson`) lifts the files of its folder", () => {
    const other = chunk("rest/httpc/responses.go", { language: "go", symbol: "Parse", text: "func Parse(r *http.Response, val any) error {\n\treturn unmarshalJson(body, val)\n}" });
    const inPackage = chunk("core/mapping/unmarshaler.go", { language: "go", symbol: "Unmarshal", text: "func (u *Unmarshaler) Unmarshal(i, v any) error {" });
    const query = "mapping.UnmarshalJson does not support uuid.UUID fields: type mismatch for field uid";
    expect(rank(query, [hit(other, 10), hit(inPackage, 8)])[0]).toBe("core/mapping/unmarshaler.go");
    // The same folder name in another language is no package: its files are ranked by their words.
    const py = chunk("core/mapping/unmarshaler.py", { symbol: "unmarshal" });
    const pyOther = chunk("rest/httpc/responses.py", { symbol: "parse" });
    expect(rank(query, [hit(pyOther, 10), hit(py, 8)])[0]).toBe("rest/httpc/responses.py");
  });

  it("a path mentioned in the query wins over a better lexical match elsewhere", () => {
    const a = chunk("app/io/readers.py", { symbol: "read_csv" });
    const b = chunk("app/io/writers.py", { symbol: "write_csv" });
    expect(rank("encoding bug in app/io/writers.py when the file is read back", [hit(a, 10), hit(b, 4)])[0]).toBe("app/io/writers.py");
    // Mentioned but not among the hits: found through the file list.
    expect(rank("see app/io/formats.py", [hit(a, 10)], ["app/io/readers.py", "app/io/formats.py"])[0]).toBe("app/io/formats.py");
  });

  it("stack-trace frames point at the project file and function", () => {
    const trace = [
      "Crash when running a step:",
      "```",
      "Traceback (most recent call last):",
      '  File "/home/me/proj/app/cli.py", line 12, in main',
      "    engine.run()",
      '  File "/home/me/proj/app/core/engine.py", line 88, in run_step',
      "    value = self.cache[key]",
      "KeyError: 'alpha'",
      "```",
    ].join("\n");
    const cli = chunk("app/cli.py", { symbol: "main", text: "engine.run()" });
    const engine = chunk("app/core/engine.py", { symbol: "run_step", parent: "Engine", text: "value = self.cache[key]" });
    const other = chunk("app/core/cache.py", { symbol: "Cache", kind: "class", text: "class Cache: key alpha" });
    const ranked = rank(trace, [hit(other, 10), hit(cli, 6), hit(engine, 5)], ["app/cli.py", "app/core/engine.py", "app/core/cache.py"]);
    expect(ranked[0]).toBe("app/core/engine.py");
  });

  it("aggregates chunks per file: several relevant chunks beat one", () => {
    const a1 = chunk("pkg/a.py", { symbol: "one" });
    const a2 = chunk("pkg/a.py", { symbol: "two" });
    const b = chunk("pkg/b.py", { symbol: "three" });
    expect(rank("numbers", [hit(b, 10), hit(a1, 9), hit(a2, 9)])[0]).toBe("pkg/a.py");
  });

  it("a name the report stresses finds a C function under its library prefix; a passing word does not", () => {
    const report = [
      '"contains" filter behaves improperly with NUL characters',
      "",
      "The `contains(needle)` filter does not match an input that contains `needle` only after a NUL character.",
      "",
      'Filter: `[contains("x"), contains("x\\u0000y"), contains("y")]`',
    ].join("\n");
    const caller = chunk("src/builtin.c", { language: "c", symbol: "f_length", text: "static jv f_length(jq_state *jq, jv input) {\n  return jv_contains(input, a);\n}" });
    const def = chunk("src/jv.c", { language: "c", symbol: "jv_contains", text: "int jv_contains(jv a, jv b) {\n  int r = 1;\n}" });
    expect(rank(report, [hit(caller, 10), hit(def, 8)])[0]).toBe("src/jv.c");
    // The same prefixed name in a language with namespaces is a name of its own.
    const py = chunk("pkg/jv.py", { symbol: "jv_contains" });
    const pyOther = chunk("pkg/other.py", { symbol: "helper", text: "def helper():\n    return jv_contains(a, b)\n" });
    expect(rank(report, [hit(pyOther, 10), hit(py, 8)])[0]).toBe("pkg/other.py");
    // `error` printed in a reproduction is no stressed name: set_error gets no definition bonus from it.
    const crash = [
      "gsub loops forever with an empty pattern",
      "",
      "```",
      "$ echo '{\"key\": \"value\"}' | jq '.key|=gsub(\"^\";\"\")'",
      "error: cannot allocate memory",
      "Aborted (core dumped)",
      "```",
      "",
      "Expected: the match is not tried again at the same location.",
    ].join("\n");
    const setError = chunk("src/execute.c", { language: "c", symbol: "set_error", text: "static void set_error(jq_state *jq, jv value) {\n}" });
    const gsub = chunk("src/builtin.jq", { language: "jq", kind: "block", symbol: null, text: "def gsub($re; str): sub($re; str; \"g\");" });
    expect(rank(crash, [hit(gsub, 10), hit(setError, 9)])[0]).toBe("src/builtin.jq");
  });

  it("helpers: path suffix matching, module stems, classes, distances", () => {
    expect(cUnprefixed("jv_contains", "c")).toBe("contains");
    expect(cUnprefixed("f_splits", "c")).toBe("splits");
    expect(cUnprefixed("contains", "c")).toBeNull();
    expect(cUnprefixed("jv_x", "c")).toBeNull();
    expect(cUnprefixed("jv_contains", "cpp")).toBeNull();
    expect(pathMatches("src/pkg/mod.py", "pkg/mod.py")).toBe(true);
    expect(pathMatches("src/pkg/mod.py", "kg/mod.py")).toBe(false);
    expect(pathMatches("pkg/mod.py", "/home/u/proj/pkg/mod.py")).toBe(true);
    expect(moduleStem("pkg/sub/__init__.py")).toBe("sub");
    expect(moduleStem("pkg/irradiance.py")).toBe("irradiance");
    expect(classifyPath("tests/unit/x.py")).toBe("test");
    expect(classifyPath("src/x.test.ts")).toBe("test");
    expect(classifyPath("docs/guide.md")).toBe("doc");
    expect(classifyPath("src/x.py")).toBe("source");
    // A file named test or tests is a test file (hiredis's `test.c`, a crate's `tests.rs`), not `attest.c`.
    expect(classifyPath("test.c")).toBe("test");
    expect(classifyPath("src/tests.rs")).toBe("test");
    expect(classifyPath("src/attest.c")).toBe("source");
    // Benchmarks under any of their usual folder names weigh like examples (spdlog's `bench/`, Rust's `benches/`).
    expect(classifyPath("bench/formatter-bench.cpp")).toBe("doc");
    expect(classifyPath("benches/parse.rs")).toBe("doc");
    expect(classifyPath("benchmarks/run.py")).toBe("doc");
    expect(classifyPath("src/benchmark.c")).toBe("source");
    // Test projects, source sets and test classes of the CamelCase ecosystems (.NET, Gradle, SwiftPM, PHPUnit, RSpec).
    expect(classifyPath("Src/Newtonsoft.Json.Tests/Issues/Issue1234.cs")).toBe("test");
    expect(classifyPath("src/UnitTests/Bug/CustomIEnumerableBug.cs")).toBe("test");
    expect(classifyPath("okio/src/jvmTest/kotlin/okio/Utf8Test.kt")).toBe("test");
    expect(classifyPath("okio/src/commonMain/kotlin/okio/BufferTestKt.kt")).toBe("source");
    expect(classifyPath("Source/Core/SessionTests.swift")).toBe("test");
    expect(classifyPath("src/Handler/CurlHandlerTest.php")).toBe("test");
    expect(classifyPath("src/main/java/com/acme/ServerIT.java")).toBe("test");
    expect(classifyPath("lib/rack/request_spec.rb")).toBe("test");
    expect(classifyPath("src/Serilog/Core/Logger.cs")).toBe("source");
    expect(classifyPath("src/latest/Manifest.java")).toBe("source");
    expect(classifyPath("src/Contest.kt")).toBe("source");
    expect(classifyPath("src/main/java/com/acme/crypto/KeySpec.java")).toBe("source");
    expect(classifyPath("src/test/scala/acme/ParserSpec.scala")).toBe("test");
    expect(classifyPath("core/src/acme/ParserSpec.groovy")).toBe("test");
    // A folder named with test as a word, tsd's type tests, and benchmarks by folder or vitest's file name.
    expect(classifyPath("__performance_tests__/todo.js")).toBe("test");
    expect(classifyPath("packages-private/dts-test/reactivity.ts")).toBe("test");
    expect(classifyPath("tracing/test-log-support/src/lib.rs")).toBe("test");
    expect(classifyPath("src/query/tests/queryLifecycle.test-d.tsx")).toBe("test");
    expect(classifyPath("src/queryLifecycle.test-d.tsx")).toBe("test");
    expect(classifyPath("net/http/httptest/server.go")).toBe("source");
    expect(classifyPath("src/contest-entries/list.ts")).toBe("source");
    expect(classifyPath("packages/reactivity/__benchmarks__/computed.bench.ts")).toBe("doc");
    expect(classifyPath("src/computed.bench.ts")).toBe("doc");
    expect(classifyPath("src/bench.ts")).toBe("source");
    expect(distances([{ score: 4 }, { score: 2 }, { score: 0.5 }])).toEqual([0, 0.5, 0.875]);
  });
});
