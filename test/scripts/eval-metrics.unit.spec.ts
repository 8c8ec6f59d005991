/**
 * The pure parts of `npm run eval` (scripts/eval/): the fix's changed old-file lines from its diff,
 * span and file ranks, test-file classification, BM25, the digest. The diffs are taken from the dev
 * sets' patches (../shared/eval), verbatim.
 */
import { describe, expect, it } from "vitest";
import { changedOldLines, hunkOffset, parseDiff, type Placement } from "../../scripts/eval/diff.ts";
import { fileRank, quantile, rates, spanRank, type Reference } from "../../scripts/eval/metrics.ts";
import { isBaselineFile, isSourceFile, isTestFile, knownLanguage } from "../../scripts/eval/languages.ts";
import { bm25Corpus, bm25Rank, bm25Tokens, lineCount } from "../../scripts/eval/bm25.ts";
import { digestOf, digestReference } from "../../scripts/eval/report.ts";
import { filterCases, type Case } from "../../scripts/eval/cases.ts";

const lines = (...ls: string[]) => ls.join("\n") + "\n";

// iamkun__dayjs-1319: a pure insertion of three lines after old line 9.
const DAYJS_1319 = lines(
  "diff --git a/src/plugin/weekYear/index.js b/src/plugin/weekYear/index.js",
  "index 1fa7577b7..b7a93e0d5 100644",
  "--- a/src/plugin/weekYear/index.js",
  "+++ b/src/plugin/weekYear/index.js",
  "@@ -7,6 +7,9 @@ export default (o, c) => {",
  "     if (weekOfYear === 1 && month === 11) {",
  "       return year + 1",
  "     }",
  "+    if (month === 0 && weekOfYear >= 52) {",
  "+      return year - 1",
  "+    }",
  "     return year",
  "   }",
  " }",
);

// pvlib__pvlib-python-1072: two lines replaced by three (no `index` line in this dataset's patches).
const PVLIB_1072 = lines(
  "diff --git a/pvlib/temperature.py b/pvlib/temperature.py",
  "--- a/pvlib/temperature.py",
  "+++ b/pvlib/temperature.py",
  "@@ -599,8 +599,9 @@ def fuentes(poa_global, temp_air, wind_speed, noct_installed, module_height=5,",
  "     # n.b. the way Fuentes calculates the first timedelta makes it seem like",
  "     # the value doesn't matter -- rather than recreate it here, just assume",
  "     # it's the same as the second timedelta:",
  "-    timedelta_hours = np.diff(poa_global.index).astype(float) / 1e9 / 60 / 60",
  "-    timedelta_hours = np.append([timedelta_hours[0]], timedelta_hours)",
  "+    timedelta_seconds = poa_global.index.to_series().diff().dt.total_seconds()",
  "+    timedelta_hours = timedelta_seconds / 3600",
  "+    timedelta_hours.iloc[0] = timedelta_hours.iloc[1]",
  " ",
  "     tamb_array = temp_air + 273.15",
  "     sun_array = poa_global * absorp",
);

// iamkun__dayjs-857 (one of its new files): not in the old tree.
const DAYJS_857_NEW_FILE = lines(
  "diff --git a/src/plugin/isToday/index.js b/src/plugin/isToday/index.js",
  "new file mode 100644",
  "index 000000000..fe97a8b6f",
  "--- /dev/null",
  "+++ b/src/plugin/isToday/index.js",
  "@@ -0,0 +1,9 @@",
  "+export default (o, c, d) => {",
  "+  const proto = c.prototype",
  "+  proto.isToday = function () {",
  "+    const comparisonTemplate = 'YYYY-MM-DD'",
  "+    const now = d()",
  "+",
  "+    return this.format(comparisonTemplate) === now.format(comparisonTemplate)",
  "+  }",
  "+}",
);

// iamkun__dayjs-569 (the last hunk of docs/ja/API-reference.md): the old file had no final newline.
const DAYJS_569_NO_NEWLINE = lines(
  "diff --git a/docs/ja/API-reference.md b/docs/ja/API-reference.md",
  "index 329be48e1..27d06a143 100644",
  "--- a/docs/ja/API-reference.md",
  "+++ b/docs/ja/API-reference.md",
  "@@ -519,4 +513,4 @@ UTCでパースや表示をしたい場合は、[`UTC`](./Plugin.md#utc)プラ",
  " ",
  " `.calendar`で与えた日付のカレンダー上の情報が得られます。",
  " ",
  "-プラグイン [`Calendar`](./Plugin.md#calendar)",
  "\\ No newline at end of file",
  "+プラグイン [`Calendar`](./Plugin.md#calendar)",
);

// tokio-rs__tracing-1015 (one hunk of a rename with edits): lines count under the OLD path.
const TRACING_1015_RENAME = lines(
  "diff --git a/tracing/src/dispatcher.rs b/tracing/src/dispatch.rs",
  "similarity index 63%",
  "rename from tracing/src/dispatcher.rs",
  "rename to tracing/src/dispatch.rs",
  "index a7e2a7c5aa..448dc5b98e 100644",
  "--- a/tracing/src/dispatcher.rs",
  "+++ b/tracing/src/dispatch.rs",
  "@@ -157,4 +157,4 @@ pub use tracing_core::dispatcher::{",
  " /// stability guarantees. If you use it, and it breaks or disappears entirely,",
  " /// don't say we didn;'t warn you.",
  " #[doc(hidden)]",
  "-pub use tracing_core::dispatcher::has_been_set;",
  "+pub use tracing_core::dispatch::has_been_set;",
);

// tokio-rs__tracing-1017 (a deleted file, its first lines; the hunk header counted to match).
const TRACING_1017_DELETED = lines(
  "diff --git a/tracing-core/src/lazy_static/core_lazy.rs b/tracing-core/src/lazy_static/core_lazy.rs",
  "deleted file mode 100644",
  "index c61d36202d..0000000000",
  "--- a/tracing-core/src/lazy_static/core_lazy.rs",
  "+++ /dev/null",
  "@@ -1,4 +0,0 @@",
  "-// Copyright 2016 lazy-static.rs Developers",
  "-//",
  "-// Licensed under the Apache License, Version 2.0, <LICENSE-APACHE or",
  "-// http://apache.org/licenses/LICENSE-2.0> or the MIT license <LICENSE-MIT or",
);

// fmtlib__fmt-2317: made against a commit 4 lines off from its base_commit (git apply: "offset 4 lines").
const FMT_2317 = lines(
  "diff --git a/include/fmt/format.h b/include/fmt/format.h",
  "index 6df5d849de52..4237bb42d125 100644",
  "--- a/include/fmt/format.h",
  "+++ b/include/fmt/format.h",
  "@@ -1304,14 +1304,14 @@ constexpr OutputIt write_padded(OutputIt out,",
  "   return write_padded<align>(out, specs, size, size, f);",
  " }",
  " ",
  "-template <typename Char, typename OutputIt>",
  "+template <align::type align = align::left, typename Char, typename OutputIt>",
  " FMT_CONSTEXPR OutputIt write_bytes(OutputIt out, string_view bytes,",
  "                                    const basic_format_specs<Char>& specs) {",
  "-  return write_padded(out, specs, bytes.size(),",
  "-                      [bytes](reserve_iterator<OutputIt> it) {",
  "-                        const char* data = bytes.data();",
  "-                        return copy_str<Char>(data, data + bytes.size(), it);",
  "-                      });",
  "+  return write_padded<align>(",
  "+      out, specs, bytes.size(), [bytes](reserve_iterator<OutputIt> it) {",
  "+        const char* data = bytes.data();",
  "+        return copy_str<Char>(data, data + bytes.size(), it);",
  "+      });",
  " }",
  " ",
  " template <typename Char, typename OutputIt, typename UIntPtr>",
  "@@ -1793,7 +1793,8 @@ OutputIt write(OutputIt out, T value, basic_format_specs<Char> specs,",
  "   if (fspecs.format == float_format::hex) {",
  "     if (fspecs.sign) buffer.push_back(data::signs[fspecs.sign]);",
  "     snprintf_float(promote_float(value), specs.precision, fspecs, buffer);",
  "-    return write_bytes(out, {buffer.data(), buffer.size()}, specs);",
  "+    return write_bytes<align::right>(out, {buffer.data(), buffer.size()},",
  "+                                     specs);",
  "   }",
  "   int precision = specs.precision >= 0 || !specs.type ? specs.precision : 6;",
  "   if (fspecs.format == float_format::exp) {",
);

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe("changed old-file lines from a fix's diff (scripts/eval/diff.ts)", () => {
  it("counts removed lines by their old line numbers", () => {
    expect(changedOldLines(PVLIB_1072)).toEqual(new Map([["pvlib/temperature.py", [602, 603]]]));
  });

  it("counts the lines just before and after a pure insertion", () => {
    expect(changedOldLines(DAYJS_1319)).toEqual(new Map([["src/plugin/weekYear/index.js", [9, 10]]]));
  });

  it("reads each hunk of each file, and a replacement's added lines add nothing", () => {
    const changed = changedOldLines(FMT_2317);
    expect(changed).toEqual(new Map([["include/fmt/format.h", [1307, ...range(1310, 1314), 1796]]]));
  });

  it("counts nothing for a new file, every line of a deleted one, and a rename's lines under its old path", () => {
    const patch = DAYJS_1319 + DAYJS_857_NEW_FILE + TRACING_1015_RENAME + TRACING_1017_DELETED;
    const changed = changedOldLines(patch);
    expect([...changed.keys()]).toEqual(["src/plugin/weekYear/index.js", "tracing/src/dispatcher.rs", "tracing-core/src/lazy_static/core_lazy.rs"]);
    expect(changed.get("tracing/src/dispatcher.rs")).toEqual([160]);
    expect(changed.get("tracing-core/src/lazy_static/core_lazy.rs")).toEqual([1, 2, 3, 4]);
    expect(changed.has("src/plugin/isToday/index.js")).toBe(false);
    expect(parseDiff(patch).map((f) => [f.oldPath, f.newPath])).toEqual([
      ["src/plugin/weekYear/index.js", "src/plugin/weekYear/index.js"],
      [null, "src/plugin/isToday/index.js"],
      ["tracing/src/dispatcher.rs", "tracing/src/dispatch.rs"],
      ["tracing-core/src/lazy_static/core_lazy.rs", null],
    ]);
  });

  it("skips `\\ No newline at end of file` and goes on with the next file", () => {
    const changed = changedOldLines(DAYJS_569_NO_NEWLINE + PVLIB_1072);
    expect(changed.get("docs/ja/API-reference.md")).toEqual([522]);
    expect(changed.get("pvlib/temperature.py")).toEqual([602, 603]);
  });

  it("reads a removed line that looks like a file header as a line, by the hunk's counts", () => {
    const patch = lines("diff --git a/a.sql b/a.sql", "--- a/a.sql", "+++ b/a.sql", "@@ -3,2 +3,1 @@", "--- comment", "+++ b", " select 1");
    expect(changedOldLines(patch)).toEqual(new Map([["a.sql", [3]]]));
  });

  it("an insertion at the very top counts only the line after it; a header without counts means one line", () => {
    const top = lines("diff --git a/x.py b/x.py", "--- a/x.py", "+++ b/x.py", "@@ -0,0 +1 @@", "+import os");
    expect(changedOldLines(top)).toEqual(new Map([["x.py", [1]]]));
    const one = lines("diff --git a/x.py b/x.py", "--- a/x.py", "+++ b/x.py", "@@ -5 +5 @@", "-a = 1", "+a = 2");
    expect(changedOldLines(one)).toEqual(new Map([["x.py", [5]]]));
  });

  it("places a hunk where its old side matches the old file, as git apply does (fmt-2317: offset 4)", () => {
    // The old file as it is at fmtlib__fmt-2317's base_commit: both hunks' old sides 4 lines further down.
    const old: string[] = range(1, 2000).map((i) => `// filler ${i}`);
    for (const hunk of parseDiff(FMT_2317)[0]!.hunks) hunk.oldSide.forEach((text, j) => (old[hunk.start + 4 + j - 1] = text));
    const placement: Placement = { hunks: 0, moved: 0, unmatched: 0 };
    const changed = changedOldLines(FMT_2317, (path) => (path === "include/fmt/format.h" ? old.join("\n") + "\n" : undefined), placement);
    expect(changed.get("include/fmt/format.h")).toEqual([1311, ...range(1314, 1318), 1800]);
    expect(placement).toEqual({ hunks: 2, moved: 2, unmatched: 0 });
    // Where it matches as written, nothing moves; where it matches nowhere, the header's lines stay.
    expect(hunkOffset(["a", "b", "c"], 2, ["b", "c"])).toBe(0);
    expect(hunkOffset(["a", "b", "c"], 1, ["x"])).toBeNull();
    expect(changedOldLines(PVLIB_1072, () => "nothing alike\n", placement).get("pvlib/temperature.py")).toEqual([602, 603]);
    expect(placement.unmatched).toBe(1);
  });
});

describe("ranks (scripts/eval/metrics.ts)", () => {
  const gold = ["src/plugin/weekYear/index.js"];
  const changed = changedOldLines(DAYJS_1319); // lines 9 and 10
  const ref = (filepath: string, linestart: number | null, lineend: number | null): Reference => ({ filepath, linestart, lineend });

  it("file rank counts distinct files in order of first appearance", () => {
    expect(fileRank(["src/index.js", "src/index.js", "src/utils.js", "src/plugin/weekYear/index.js"], gold)).toBe(3);
    expect(fileRank(["src/index.js"], gold)).toBeNull();
    expect(fileRank([], gold)).toBeNull();
  });

  it("span rank counts every reference, and only a gold file's reference that holds a changed line", () => {
    const refs = [
      ref("src/index.js", 1, 400),
      ref("src/plugin/weekYear/index.js", 1, 5), // gold file, lines before the change
      ref("src/plugin/weekYear/index.js", null, null), // no lines: never counts
      ref("src/index.js", 9, 10), // the changed lines, but not a gold file
      ref("src/plugin/weekYear/index.js", 10, 14), // holds line 10
    ];
    expect(spanRank(refs, gold, changed)).toBe(5);
    expect(spanRank(refs.slice(0, 4), gold, changed)).toBeNull();
    expect(spanRank([ref("src/plugin/weekYear/index.js", 1, 9)], gold, changed)).toBe(1);
    // A gold file the fix only adds has no old lines: no reference to it counts.
    expect(spanRank([ref("src/plugin/isToday/index.js", 1, 9)], ["src/plugin/isToday/index.js"], changedOldLines(DAYJS_857_NEW_FILE))).toBeNull();
  });

  it("Acc@k and span@k are the percent of cases ranked at most k; quantiles by nearest rank", () => {
    expect(rates([1, 2, null, 7], "Acc")).toEqual({ "Acc@1": 25, "Acc@3": 50, "Acc@5": 50, "Acc@10": 75 });
    expect(rates([1, 4, 11], "span")).toEqual({ "span@1": 33.3, "span@3": 33.3, "span@5": 66.7, "span@10": 66.7 });
    expect(quantile([10, 20, 30, 40], 0.5)).toBe(20);
    expect(quantile([10, 20, 30], 1)).toBe(30);
  });
});

describe("test files and source files by language (scripts/eval/languages.ts)", () => {
  it.each([
    ["Python", "test/rules/std_test.py", true],
    ["Python", "tests/test_temperature.py", true],
    ["Python", "tests/testdata/python3/data/module.py", true],
    ["Python", "plugins/sqlfluff-templater-dbt/test/conftest.py", true],
    ["Python", "pvlib/test_helpers.py", true],
    ["Python", "src/sqlfluff/core/rules/base.py", false],
    ["Python", "pvlib/temperature.py", false],
    ["JavaScript", "test/plugin/weekYear.test.js", true],
    ["JavaScript", "src/components/__tests__/button.tsx", true],
    ["JavaScript", "lib/parse.spec.ts", true],
    ["JavaScript", "src/plugin/weekYear/index.js", false],
    ["JavaScript", "types/plugin/weekYear.d.ts", false],
    ["Rust", "tracing/tests/span.rs", true],
    ["Rust", "tracing-subscriber/benches/filter.rs", true],
    ["Rust", "tracing-core/src/dispatcher.rs", false],
    ["Go", "core/logx/logs_test.go", true],
    ["Go", "core/stores/testdata/fixture.go", true],
    ["Go", "core/logx/logs.go", false],
    ["Java", "src/test/java/com/fasterxml/jackson/core/read/NumberParsingTest.java", true],
    ["Java", "src/main/java/com/example/ParserTests.java", true],
    ["Java", "src/main/java/com/fasterxml/jackson/core/io/NumberInput.java", false],
    ["C", "src/jq_test.c", true],
    ["C", "tests/jq.test.c", true],
    ["C", "src/builtin.c", false],
    ["C++", "test/format-test.cc", true],
    ["C++", "src/os_unittest.cc", true],
    ["C++", "include/fmt/format.h", false],
    ["Ruby", "spec/rack/request_spec.rb", true],
    ["Ruby", "lib/rack/test_helpers_spec.rb", true],
    ["Ruby", "lib/rack/request.rb", false],
    ["PHP", "tests/Handler/CurlHandlerTest.php", true],
    ["PHP", "src/Handler/CurlHandler.php", false],
    ["C#", "Src/Newtonsoft.Json.Tests/Issues/Issue1234.cs", true],
    ["C#", "src/Serilog/Core/LoggerTests.cs", true],
    ["C#", "Src/Newtonsoft.Json/JsonReader.cs", false],
    ["Kotlin", "okio/src/commonTest/kotlin/okio/BufferTest.kt", true],
    ["Kotlin", "okio/src/jvmMain/kotlin/okio/Latest.kt", false],
    ["Swift", "Tests/AlamofireTests/SessionTests.swift", true],
    ["Swift", "Source/Core/Session.swift", false],
  ])("%s: %s is a test file: %s", (language, path, expected) => {
    expect(isTestFile(path, language)).toBe(expected);
  });

  it("source files by extension; languages case-insensitive", () => {
    expect(isSourceFile("include/fmt/format.h", "c++")).toBe(true);
    expect(isSourceFile("src/jv.h", "C")).toBe(true);
    expect(isSourceFile("include/fmt/core.hpp", "C")).toBe(false);
    expect(isSourceFile("types/index.d.ts", "javascript")).toBe(true);
    expect(isSourceFile("src/plugin/weekYear/index.js", "Python")).toBe(false);
    expect(isSourceFile("README.md", "Go")).toBe(false);
    expect(isBaselineFile("test/plugin/weekYear.test.js", "JavaScript")).toBe(false);
    expect(isBaselineFile("src/plugin/weekYear/index.js", "JavaScript")).toBe(true);
    expect(knownLanguage("rust")).toBe(true);
    expect(knownLanguage("Kotlin")).toBe(true);
    expect(knownLanguage("Haskell")).toBe(false);
    expect(() => isTestFile("a.hs", "Haskell")).toThrow(/unknown language/);
  });
});

describe("the BM25 baseline and the digest", () => {
  it("splits identifiers, ranks whole files, leaves out files that match nothing", () => {
    expect(bm25Tokens("weekYear get_week_of_year 52")).toEqual(["weekyear", "week", "year", "get_week_of_year", "get", "week", "of", "year", "52"]);
    const corpus = bm25Corpus([
      { path: "src/plugin/weekYear/index.js", text: "const weekYear = () => {\n  return year + 1\n}\n" },
      { path: "src/plugin/isoWeek/index.js", text: "const isoWeek = 1\n" },
      { path: "src/locale/en.js", text: "export default { name: 'en' }\n" },
    ]);
    const ranked = bm25Rank(corpus, "weekYear returns the wrong year in January");
    // isoWeek shares the part "week" of weekYear; en.js matches nothing and is left out.
    expect(ranked.map((f) => [f.path, f.lines])).toEqual([["src/plugin/weekYear/index.js", 3], ["src/plugin/isoWeek/index.js", 1]]);
    expect(lineCount("a\nb")).toBe(2);
    expect(lineCount("a\nb\n")).toBe(2);
    expect(lineCount("")).toBe(0);
  });

  it("the digest covers every reference in order, with distances rounded to 6 decimals", () => {
    const refs = [digestReference({ filepath: "a.py", linestart: 1, lineend: 9, distance: 0.12345649 }), digestReference({ filepath: "b.py", linestart: null, lineend: null, distance: -0 })];
    expect(refs).toEqual([["a.py", 1, 9, 0.123456], ["b.py", null, null, 0]]);
    const one = digestOf([{ instanceId: "x", refs }]);
    expect(one).toMatch(/^[0-9a-f]{64}$/);
    expect(digestOf([{ instanceId: "x", refs: [refs[0]!] }])).not.toBe(one);
    expect(digestOf([{ instanceId: "x", refs: [...refs].reverse() }])).not.toBe(one);
    expect(digestOf([{ instanceId: "x", refs: refs.map((r) => [...r] as typeof r) }])).toBe(one);
  });

  it("filters cases by language and repository case-insensitively, then keeps the first N", () => {
    const c = (id: string, language: string, repo: string) => ({ instance_id: id, language, repo }) as Case;
    const all = [c("a-1", "Python", "pvlib/pvlib-python"), c("b-1", "Rust", "tokio-rs/tracing"), c("b-2", "Rust", "tokio-rs/tracing"), c("c-1", "C++", "fmtlib/fmt")];
    expect(filterCases(all, { language: "rust" }).map((x) => x.instance_id)).toEqual(["b-1", "b-2"]);
    expect(filterCases(all, { repo: "FMTLIB/fmt" }).map((x) => x.instance_id)).toEqual(["c-1"]);
    expect(filterCases(all, { only: "-1", cases: 2 }).map((x) => x.instance_id)).toEqual(["a-1", "b-1"]);
  });
});
