import { describe, expect, it } from "vitest";
import { sourcesOfTest, withSourcesOfTests } from "../../src/retrieval/test-sources.ts";
import { analyzeQuery } from "../../src/retrieval/query-analysis.ts";

describe("the source files behind a test file", () => {
  it("follows each language's conventions", () => {
    expect(sourcesOfTest("pkg/rest/router_test.go")).toEqual(["pkg/rest/router.go"]);
    expect(sourcesOfTest("tests/unit/test_fields.py")).toEqual(["fields.py"]);
    expect(sourcesOfTest("src/app/fields_test.py")).toEqual(["fields.py"]);
    expect(sourcesOfTest("src/plugin/__tests__/utc.test.js")).toEqual(["src/plugin/utc.js", "src/plugin/utc.ts"]);
    expect(sourcesOfTest("lib/parse.spec.ts")).toEqual(["lib/parse.ts", "lib/parse.js"]);
    expect(sourcesOfTest("src/test/java/com/acme/core/ParserTest.java")).toEqual(["src/main/java/com/acme/core/Parser.java"]);
    expect(sourcesOfTest("src/test/java/com/acme/TestJsonWriter.java")).toEqual(["src/main/java/com/acme/JsonWriter.java"]);
    expect(sourcesOfTest("tracing/tests/macros.rs")).toEqual(["tracing/src/macros.rs"]);
    expect(sourcesOfTest("src/span/tests.rs")).toEqual(["src/span.rs", "src/span/mod.rs"]);
    expect(sourcesOfTest("test/ostream-test.cc")).toEqual(["ostream.cc", "ostream.h", "ostream.hpp"]);
    expect(sourcesOfTest("tests/test_jv.c")).toEqual(["jv.c", "jv.h", "jv.hpp"]);
  });

  it("leaves source files and other languages' tests alone", () => {
    expect(sourcesOfTest("src/router.go")).toEqual([]);
    expect(sourcesOfTest("src/main.rs")).toEqual([]);
    expect(sourcesOfTest("docs/latest-test.md")).toEqual([]);
  });

  it("adds the sources of a report's test paths as path mentions", () => {
    const analysis = withSourcesOfTests(analyzeQuery("The test in pkg/rest/router_test.go fails since the last release: the route is not matched."));
    expect(analysis.terms.find((t) => t.kind === "path" && t.text === "pkg/rest/router.go")).toBeTruthy();
  });
});
