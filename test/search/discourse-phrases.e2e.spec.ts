import { describe, expect, it } from "vitest";
import { withIndexedRepository } from "./support.ts";
import { analyzeQuery } from "../../src/retrieval/query-analysis.ts";
import { queryWants } from "../../src/retrieval/query-wants.ts";

/**
 * "For example" leads in an illustration; it does not ask for example code. The documentation page
 * repeats the question's words more often than the code that does the work.
 */
const LIBRARY = {
  "src/patch.js": [
    "// Applies a merge patch to a document: a null removes the key, objects merge recursively.",
    "function mergePatch(target, patch) {",
    "  if (patch === null || typeof patch !== 'object') return patch;",
    "  const out = typeof target === 'object' && target !== null ? { ...target } : {};",
    "  for (const [key, value] of Object.entries(patch)) {",
    "    if (value === null) delete out[key];",
    "    else out[key] = mergePatch(out[key], value);",
    "  }",
    "  return out;",
    "}",
    "module.exports = { mergePatch };",
    "",
  ].join("\n"),
  "docs/merge-patch.md": [
    "# Merge patch",
    "",
    "A merge patch is applied to a document: a null in the patch removes a key from the document,",
    "and nested objects in the patch are merged into the document's objects recursively.",
    "Applying a merge patch to a document never fails: the patch describes the document you want.",
    "",
  ].join("\n"),
};

describe("a question's 'for example' does not ask for documentation (e2e)", () => {
  const { search } = withIndexedRepository("acme/patches", LIBRARY);

  it("answers with the code when the question illustrates with 'for example'", async () => {
    const [first] = await search("How is a merge patch applied to a document, for example where a null in the patch removes a key?");
    expect(first).toMatchObject({ filepath: "src/patch.js", linestart: 1, lineend: 10 });
  });

  it("still reads 'example' as asking for examples elsewhere", () => {
    expect(queryWants(analyzeQuery("How is a merge patch applied, for example where a null removes a key?")).docs).toBe(false);
    expect(queryWants(analyzeQuery("How is a merge patch applied, for instance, where a null removes a key?")).docs).toBe(false);
    expect(queryWants(analyzeQuery("Is there an example of applying a merge patch?")).docs).toBe(true);
    expect(queryWants(analyzeQuery("Which class is used for instance creation?")).docs).toBe(false);
    expect(analyzeQuery("Which class is used for instance creation?").terms.map((t) => t.text)).toContain("instance");
  });
});
