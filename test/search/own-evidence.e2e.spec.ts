import { describe, expect, it } from "vitest";
import { withIndexedRepository } from "./support.ts";

/**
 * A report names a class and describes what one of its methods does. The class is long enough to be cut
 * into its own lines (the header and fields), its constructor and its methods; the first two share the
 * class's name, the method holds the code the report is about and leads the file's references.
 */
const fields = Array.from({ length: 20 }, (_, i) => `    protected int _counter${i};`);
/** Methods of other concerns between the constructor and the method at fault (the class passes 150 lines). */
const others = Array.from({ length: 20 }, (_, i) => [
  "",
  `    public long checksum${i}(byte[] bytes) {`,
  "        long sum = 0;",
  "        for (byte b : bytes) {",
  `            sum = sum * 31 + b + ${i};`,
  "        }",
  "        return sum;",
  "    }",
]).flat();
const DELEGATE = [
  "package com.acme.filter;", // 1
  "",
  "public class FilteringDelegate extends GeneratorDelegate {",
  "    protected TokenFilter rootFilter;",
  "    protected TokenFilter itemFilter;",
  "    protected FilterContext filterContext;",
  ...fields,
  "",
  "    public FilteringDelegate(Generator d, TokenFilter f) {",
  "        super(d, false);",
  "        rootFilter = f;",
  "        itemFilter = f;",
  "        filterContext = FilterContext.createRootContext(f);",
  "    }",
  ...others,
  "",
  "    public void writeStartObject() {",
  "        if (itemFilter == null) {",
  "            filterContext = filterContext.createChildObjectContext(null, false);",
  "            return;",
  "        }",
  "        TokenFilter f = filterContext.checkValue(itemFilter);",
  "        if (f == null) {",
  "            return;",
  "        }",
  "        filterContext = filterContext.createChildObjectContext(f, true);",
  "        delegate.writeStartObject();",
  "    }",
  "",
  "    public void writeNumber(int value) {",
  "        if (itemFilter == null) {",
  "            return;",
  "        }",
  "        delegate.writeNumber(value);",
  "    }",
  "}",
  "",
].join("\n");

const REPORT = `FilteringDelegate does not create a child object context when the filter is null

When a FilteringDelegate writes the start of an object while its item filter is null, the child object
context is created without the filter, so every property written afterwards is matched against the
parent context and the filtered output loses the nested object. The start of an array creates its child
context correctly. I expected the start of an object to create a child object context with the token
filter checked, like arrays do. The FilteringDelegate is built with a root filter and an item filter.
`;

describe("a report's references follow each definition's own evidence (e2e)", () => {
  const { search: searchAll } = withIndexedRepository("acme/filter", {
    "src/main/java/com/acme/filter/FilteringDelegate.java": DELEGATE,
    "src/main/java/com/acme/filter/Other.java": "package com.acme.filter;\n\npublic class Other {\n    public int other() {\n        return 1;\n    }\n}\n",
  });

  it("the method the report describes leads, not the class's fields or its constructor", async () => {
    const refs = (await searchAll(REPORT)).filter((s) => s.filepath === "src/main/java/com/acme/filter/FilteringDelegate.java");
    expect(refs.length).toBeGreaterThan(0);
    const lines = DELEGATE.split("\n");
    const method = lines.indexOf("    public void writeStartObject() {") + 1;
    const constructor = lines.indexOf("    public FilteringDelegate(Generator d, TokenFilter f) {") + 1;
    // The method leads (joined with its neighbour, which carries the report's words too)...
    expect(refs[0]!.linestart).toBe(method);
    expect(refs[0]!.lineend).toBeGreaterThanOrEqual(method + 11);
    // ...and the constructor follows.
    expect(refs.slice(1).some((r) => r.linestart! <= constructor && r.lineend! >= constructor)).toBe(true);
  });

  it("a question about the class gets the class's own lines first, not its constructor", async () => {
    const refs = (await searchAll("Where is the FilteringDelegate class defined?")).filter((s) => s.filepath.endsWith("FilteringDelegate.java"));
    expect(refs[0]!.linestart).toBeLessThanOrEqual(3);
  });
});
