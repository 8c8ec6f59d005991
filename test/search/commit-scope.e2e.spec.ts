/**
 * A Conventional Commits title's scope (`fix(core): ...`) names the section of the code base the change
 * is about: of two files holding the title's words about alike, the one in that section comes first.
 * Through POST /v2/search on a real server and a repository indexed from a real git host fixture.
 */
import { describe, expect, it } from "vitest";
import { withIndexedRepository } from "./support.ts";

const REPO = {
  // Writes the title's words a little more often, `core` among them.
  "packages/shared/src/query-options.ts": [
    "/** Options of a query for the core and its adapters: the query key is kept as the hook receives it. */",
    "export function queryOptions(options: QueryOptions) {",
    "  return memo(() => ({ ...options, queryKey: options.queryKey }), [options])",
    "}",
    "",
  ].join("\n"),
  "packages/core/src/query-options.ts": [
    "/** Options of a query: the query key is kept as written, a wrapper read through unwrap. */",
    "export function queryOptions(options: Wrapped<QueryOptions>) {",
    "  const plain = unwrap(options)",
    "  return { ...plain, queryKey: plain.queryKey }",
    "}",
    "",
  ].join("\n"),
};

describe("a commit title's scope (e2e)", () => {
  const { search } = withIndexedRepository("acme/scopes", REPO);

  it("puts the file in the section the scope names first", async () => {
    const results = await search("fix(core): keep the query key of query options");
    expect(results.map((r) => r.filepath)).toEqual(["packages/core/src/query-options.ts", "packages/shared/src/query-options.ts"]);
  });

  it("the same words without a scope: the file writing them more often comes first", async () => {
    const results = await search("fix: keep the query key of core query options");
    expect(results.map((r) => r.filepath)).toEqual(["packages/shared/src/query-options.ts", "packages/core/src/query-options.ts"]);
  });
});
