import { describe, expect, it } from "vitest";
import { analyzeQuery } from "../../src/retrieval/query-analysis.ts";

const usagesOf = (q: string) => analyzeQuery(q).usages;

describe("questions about where a name is used", () => {
  it("takes the shapes of a usage question, with the code names it writes", () => {
    expect(usagesOf("Where is parseDate called?")).toEqual(["parseDate"]);
    expect(usagesOf("Who calls parse_config?")).toEqual(["parse_config"]);
    expect(usagesOf("Which functions call parse_config?")).toEqual(["parse_config"]);
    expect(usagesOf("Where is `get_signing_serializer` used?")).toEqual(["get_signing_serializer"]);
    expect(usagesOf("Find all callers of jv_cmp")).toEqual(["jv_cmp"]);
    expect(usagesOf("usages of FooBar")).toEqual(["FooBar"]);
  });

  it("does not take a definition question, a callee question, a purpose, a name-less question or a report", () => {
    expect(usagesOf("Where is parseDate defined?")).toEqual([]);
    expect(usagesOf("What does parseDate call?")).toEqual([]);
    expect(usagesOf("How is `format_to` used to write into a buffer?")).toEqual([]);
    expect(usagesOf("Where are the teardown functions called at the end of a request?")).toEqual([]);
    // A feature request that mentions a call is no usage question.
    expect(usagesOf("isToday helper\n\nWhat do you think? You simply call `dayjs(date).isToday()` to know it.")).toEqual([]);
    const report = `parse_config crashes\n\n${"When the file is empty the parser fails with an error. ".repeat(10)}\nWhere is parse_config called?`;
    expect(usagesOf(report)).toEqual([]);
  });
});
