import { describe, expect, it } from "vitest";
import { commitScopes, inScope } from "../../src/retrieval/query/commit-scope.ts";
import { analyzeQuery } from "../../src/retrieval/query-analysis.ts";

describe("a Conventional Commits title's scope", () => {
  it("reads the scope of a title's head, as keys, each section of a scope listing several", () => {
    expect(commitScopes("fix(vue-query): allow computed ref as queryKey")).toEqual(["vuequery"]);
    expect(commitScopes("feat(Blocking)!: add a timeout")).toEqual(["blocking"]);
    expect(commitScopes("fix(runtime-core/scheduler): sort jobs")).toEqual(["runtimecore", "scheduler"]);
    expect(commitScopes("- fix(utils): merge arrays")).toEqual([]); // a bullet is a body's line, not a title
  });

  it("reads none from a title without a head, a head without a scope, or a call", () => {
    expect(commitScopes("Fix hang on stream request cleanup")).toEqual([]);
    expect(commitScopes("fix: escape JSON Pointer characters")).toEqual([]);
    expect(commitScopes("fix(x) is called twice")).toEqual([]);
    expect(commitScopes("fix(x): drop the cache")).toEqual([]); // a one-letter scope names nothing
  });

  it("places a path in a section by one of its folders or its file's stem, however the name is written", () => {
    expect(inScope("packages/vue-query/src/queryOptions.ts", ["vuequery"])).toBe(true);
    expect(inScope("packages/vue_query/src/index.ts", ["vuequery"])).toBe(true);
    expect(inScope("lib/utils.js", ["utils"])).toBe(true);
    expect(inScope("packages/query-core/src/utils.ts", ["vuequery"])).toBe(false);
    expect(inScope("src/blocking_client.rs", ["blocking"])).toBe(false); // a stem's part is no section
  });

  it("gives the analysis of a title its scopes, and of a report without one none", () => {
    expect(analyzeQuery("fix(solid-query): enable prefetch in render by default").scopes).toEqual(["solidquery"]);
    expect(analyzeQuery("Where does the router find a handler?").scopes).toEqual([]);
  });
});
