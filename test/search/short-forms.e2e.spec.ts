import { describe, expect, it } from "vitest";
import { withIndexedRepository } from "./support.ts";
import { withVerbForms } from "../../src/retrieval/query/base-forms.ts";
import { shortForms } from "../../src/retrieval/query/abbreviations.ts";
import { coverage, questionTerms, stemsOf } from "../../src/retrieval/answer/terms.ts";

/**
 * Code says `value_cmp` and `dup_key`; a question says "compared" and "duplicate". The distractors hold
 * the question's other words (values, keys, order) without the action.
 */
const STORE = {
  "store/order.c": [
    "int value_cmp(const value *a, const value *b) {",
    "  if (a->kind != b->kind) return a->kind < b->kind ? -1 : 1;",
    "  return memcmp(a->bytes, b->bytes, a->size);",
    "}",
    "",
  ].join("\n"),
  "store/value.c": [
    "/* The values of the store and their order of kinds. */",
    "value *value_new(int kind) {",
    "  value *v = calloc(1, sizeof(value));",
    "  v->kind = kind;",
    "  return v;",
    "}",
    "",
  ].join("\n"),
  "store/keys.py": [
    "def dup_key(seen, key):",
    "    return key in seen",
    "",
  ].join("\n"),
  "store/table.py": [
    "class Table:",
    "    \"\"\"The keys of a table, in insertion order.\"\"\"",
    "",
    "    def __init__(self):",
    "        self.keys = []",
    "",
  ].join("\n"),
};

describe("questions in plain words find code named by the usual short forms (e2e)", () => {
  const { search } = withIndexedRepository("acme/store", STORE);
  const first = async (query: string) => (await search(query))[0];

  it("'compare' finds value_cmp()", async () => {
    expect(await first("How are two values compared to find their order?")).toMatchObject({ filepath: "store/order.c", linestart: 1, lineend: 4 });
  });

  it("'duplicate' finds dup_key()", async () => {
    expect(await first("Where is a duplicate key in a table noticed?")).toMatchObject({ filepath: "store/keys.py", linestart: 1, lineend: 2 });
  });

  it("counts a span that writes the short form as holding the question's word (the answer's coverage)", () => {
    const terms = questionTerms("How are values compared?");
    expect(terms.map((t) => t.word)).toEqual(["values", "compared"]);
    expect(coverage(terms, stemsOf(STORE["store/order.c"]))).toBe(1);
    expect(coverage(terms, stemsOf(STORE["store/value.c"]))).toBeLessThan(1);
  });

  it("adds the short forms of a question's words once each, and none for other words", () => {
    expect(shortForms("compare")).toEqual(["cmp"]);
    expect(shortForms("directory")).toEqual(["dir"]);
    expect(shortForms("table")).toEqual([]);
    expect(shortForms("constructor")).toEqual([]);
    expect(withVerbForms("Where is the buffer length compared?")).toBe("Where is the buffer length compared? compar compare buf len cmp");
  });
});
