import { describe, expect, it } from "vitest";
import { withIndexedRepository } from "./support.ts";
import { analyzeQuery } from "../../src/retrieval/query-analysis.ts";
import { queryWants } from "../../src/retrieval/query-wants.ts";

/**
 * A bug report that says how its writer tested ("I added a unit test", "tested on Linux") asks where the
 * fault is, not for the tests; the test file repeats the report's words more often than the code does.
 */
const LIBRARY = {
  "src/cache.js": [
    "// A least-recently-used cache of fixed capacity.",
    "function createCache(capacity) {",
    "  const entries = new Map();",
    "  return {",
    "    get(key) {",
    "      if (!entries.has(key)) return undefined;",
    "      const value = entries.get(key);",
    "      entries.delete(key);",
    "      entries.set(key, value);",
    "      return value;",
    "    },",
    "    set(key, value) {",
    "      entries.set(key, value);",
    "      if (entries.size > capacity) entries.delete(entries.keys().next().value);",
    "    },",
    "  };",
    "}",
    "module.exports = { createCache };",
    "",
  ].join("\n"),
  "test/cache.test.js": [
    "const { createCache } = require('../src/cache');",
    "test('a cache of zero capacity keeps no entry', () => {",
    "  const cache = createCache(0);",
    "  cache.set('a', 1);",
    "  expect(cache.get('a')).toBeUndefined();",
    "});",
    "test('a cache evicts the least recently used entry at capacity', () => {",
    "  const cache = createCache(1);",
    "  cache.set('a', 1);",
    "  cache.set('b', 2);",
    "  expect(cache.get('a')).toBeUndefined();",
    "});",
    "test('zero capacity cache entry eviction', () => {",
    "  const cache = createCache(0);",
    "  expect(cache.get('zero')).toBeUndefined();",
    "});",
    "",
  ].join("\n"),
};

const REPORT = [
  "Cache of zero capacity keeps an entry after set (failing unit test attached)",
  "",
  "When the cache is created with capacity 0, setting an entry and reading it back returns the value",
  "instead of undefined: the entry is evicted only once the capacity is exceeded, and with zero capacity",
  "the eviction runs after the entry was stored, so a zero capacity cache still keeps one entry.",
  "I added a unit test that reproduces it and tested on Linux and macOS with Node 20; the test fails.",
].join("\n");

describe("a bug report's words about testing do not ask for tests (e2e)", () => {
  const { search } = withIndexedRepository("acme/cache", LIBRARY);

  it("reads a long report's 'unit test' and 'tested' as how it was found, a short question's as asking", () => {
    expect(analyzeQuery(REPORT).isLongReport).toBe(true);
    expect(queryWants(analyzeQuery(REPORT)).tests).toBe(false);
    expect(queryWants(analyzeQuery("Where is the zero capacity cache tested?")).tests).toBe(true);
    expect(queryWants(analyzeQuery("zero capacity cache unit test")).tests).toBe(true);
    // A report that names a test file still asks for it.
    expect(queryWants(analyzeQuery(`${REPORT}\n\nSee test/cache.test.js for the failing case.`)).tests).toBe(true);
  });

  it("answers the report with the code at fault before the test that repeats its words", async () => {
    const results = await search(REPORT);
    expect(results[0]?.filepath).toBe("src/cache.js");
  });

  it("reads a commit message's 'add a test' as work beside the code, a request for tests as asking", () => {
    for (const said of ["Fix zero capacity cache eviction and add regression test", "zero capacity cache: update tests", "Add implementation/test for zero capacity"]) {
      expect(analyzeQuery(said).testWork, said).toBe(true);
      expect(queryWants(analyzeQuery(said)).tests, said).toBe(false);
    }
    for (const asked of ["Where is the zero capacity cache tested?", "tests for the zero capacity cache", "how are tests added for the cache?", "How do I add a test for the zero capacity cache"]) {
      expect(queryWants(analyzeQuery(asked)).tests, asked).toBe(true);
    }
  });

  it("answers a commit message that adds a test with the code it fixes, a question about tests with the tests", async () => {
    const [fixed] = await search("Fix least recently used entry eviction at capacity and add a unit test");
    expect(fixed?.filepath).toBe("src/cache.js");
    const [asked] = await search("least recently used entry eviction unit test");
    expect(asked?.filepath).toBe("test/cache.test.js");
  });
});
