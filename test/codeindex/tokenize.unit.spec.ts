import { describe, expect, it } from "vitest";
import { STOP_WORDS, forEachWord, identifierParts, scanWords, termFrequencies, tokenize, wordHash, wordTokens } from "../../src/codeindex/tokenize.ts";
import { createWordTable } from "../../src/codeindex/word-table.ts";

describe("tokenize", () => {
  it("splits camelCase and acronyms, keeping the whole identifier", () => {
    expect(tokenize("getHTTPResponse")).toEqual(["gethttpresponse", "get", "http", "response", "gethttp", "httpresponse"]);
    expect(tokenize("XMLParser")).toEqual(["xmlparser", "xml", "parser"]);
    expect(tokenize("parseConfig")).toEqual(["parseconfig", "parse", "config"]);
  });

  it("splits snake_case, SCREAMING_CASE and kebab-case", () => {
    expect(tokenize("parse_config")).toEqual(["parse_config", "parse", "config"]);
    expect(tokenize("MAX_RETRY_COUNT")).toEqual(["max_retry_count", "max", "retry", "count", "maxretry", "retrycount"]);
    expect(tokenize("code-index")).toEqual(["code-index", "code", "index"]);
    expect(tokenize("__init__")).toEqual(["init"]);
  });

  it("splits at digit boundaries without joining digits", () => {
    expect(tokenize("base64Encode")).toEqual(["base64encode", "base", "64", "encode"]);
    expect(tokenize("sha256")).toEqual(["sha256", "sha", "256"]);
  });

  it("tokenizes paths into directories, file name parts and extension", () => {
    expect(tokenize("src/foo/bar_baz.py")).toEqual(["src", "foo", "bar_baz", "bar", "baz", "py"]);
  });

  it("drops English filler words, single characters and overlong tokens, keeps programming keywords", () => {
    expect(tokenize("The value is a string of the type")).toEqual(["value", "string", "type"]);
    expect(tokenize("if not x in list: return None for class def import")).toEqual(["if", "not", "in", "list", "return", "none", "for", "class", "def", "import"]);
    expect(tokenize(`x ${"a".repeat(200)} y`)).toEqual([]);
    for (const keyword of ["if", "for", "return", "class", "function", "import", "not", "in", "new", "null"]) {
      expect(STOP_WORDS.has(keyword)).toBe(false);
    }
  });

  it("reads stack traces", () => {
    const tokens = tokenize('File "/usr/lib/python3.13/asyncio/streams.py", line 660, in readuntil');
    expect(tokens).toEqual(expect.arrayContaining(["asyncio", "streams", "readuntil", "660", "python3", "13"]));
    expect(tokens).not.toContain("line".toUpperCase());
  });

  it("counts term frequencies", () => {
    expect(termFrequencies("fooBar foo bar")).toEqual(new Map([["foobar", 1], ["foo", 2], ["bar", 2]]));
  });

  it("gives query and document the same tokens", () => {
    expect(identifierParts("HTTPServer_v2")).toEqual(["http", "server", "v", "2"]);
    expect(tokenize("HttpServer")).toEqual(tokenize("httpServer"));
  });
});

describe("Elasticsearch analyser", () => {
  it("uses the same stop words as the embedded tokenizer", async () => {
    const { default: definition } = await import("../../schema/elasticsearch/chunks.json", { with: { type: "json" } });
    expect(new Set(definition.settings.analysis.filter.code_stop.stopwords)).toEqual(STOP_WORDS);
  });

  it("scans words exactly as /[A-Za-z0-9_]+(?:-[A-Za-z0-9_]+)*/g matches them", () => {
    const samples = [
      "a--b -c d- e-f-g x_y-z9 _-_ ü-a naïve-ascii 9-9 -- - a-",
      "getHTTPResponse(code-index, __init__) => x.y['z-1'] // TODO: fix-me\n\tself.read_chunked()",
      "\u{1F600}emoji-word x\u00A0y tab\tsep end",
      "",
      "trailing-",
      "-leading",
    ];
    for (const text of samples) {
      const words: string[] = [];
      forEachWord(text, (w) => words.push(w));
      expect(words).toEqual([...text.matchAll(/[A-Za-z0-9_]+(?:-[A-Za-z0-9_]+)*/g)].map((m) => m[0]));
    }
  });

  it("gives a word's tokens from its memo the same as splitting it afresh", () => {
    for (const word of ["getHTTPResponse", "code-index", "MAX_RETRY_COUNT", "a", "the", "x".repeat(200)]) {
      expect(wordTokens(word)).toEqual(tokenize(word));
      expect(wordTokens(word)).toBe(wordTokens(word));
    }
  });

  it("hashes a word while scanning it as wordHash does", () => {
    const text = "getHTTPResponse(code-index, x) é naïve-ascii a-b-c";
    scanWords(text, (t, start, end, hash) => expect(hash).toBe(wordHash(t.slice(start, end))));
  });
});

describe("word table", () => {
  it("gives each distinct word one id, in order of first sight, across texts and growth", () => {
    const table = createWordTable();
    const seen: number[] = [];
    table.scan("alpha beta alpha code-index beta", (id) => seen.push(id));
    expect(seen).toEqual([0, 1, 0, 2, 1]);
    expect([0, 1, 2].map((id) => table.word(id))).toEqual(["alpha", "beta", "code-index"]);
    // Enough words to grow the table several times; every id maps back to its word.
    const many = Array.from({ length: 200_000 }, (_, i) => `w${i.toString(36)}`);
    const ids: number[] = [];
    table.scan(many.join(" "), (id) => ids.push(id));
    table.scan(many.slice(0, 1000).join(" "), (id) => ids.push(id));
    expect(table.size()).toBe(3 + many.length);
    expect(ids.slice(0, many.length).every((id, i) => id === 3 + i)).toBe(true);
    expect(ids.slice(many.length)).toEqual(ids.slice(0, 1000));
    expect(ids.every((id, i) => table.word(id) === many[i % many.length] || i >= many.length)).toBe(true);
    table.clear();
    expect(table.size()).toBe(0);
  });
});
