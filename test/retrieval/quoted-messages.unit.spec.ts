import { describe, expect, it } from "vitest";
import type { ChunkDocument } from "../../src/codeindex/port.ts";
import { literalsOf, normalized, quotedMessageScores } from "../../src/retrieval/quoted-messages.ts";

let ordinal = 0;
function chunk(language: string, text: string): ChunkDocument {
  const n = ordinal++;
  return {
    id: `r|f|b|${n}`, orgId: "o", repoId: "r", path: `f${n}`, blobId: "b", ordinal: n, language, kind: "function",
    symbol: null, parent: null, signature: null, doc: null, startLine: 1, endLine: 5, text, summary: "", fileSummary: "",
  };
}
const pieces = (doc: ChunkDocument) => literalsOf(doc).map((l) => l.pieces.map((p) => p.text));

describe("quoted messages", () => {
  it("cuts literals at the placeholders of each language's formatting, escapes and clause marks", () => {
    expect(pieces(chunk("go", 'return fmt.Errorf("error: type mismatch for field %s", name)'))).toEqual([["type mismatch for field"]]);
    expect(pieces(chunk("rust", 'panic!("no subscriber for callsite {} in {:?} found", id, meta)'))).toEqual([["no subscriber for callsite"]]);
    expect(pieces(chunk("javascript", "throw new Error(`Unknown locale ${name}, expected one of the loaded locales`)"))).toEqual([["unknown locale", "expected one of the loaded locales"]]);
    expect(pieces(chunk("c", 'fprintf(stderr, "%s: cannot open %s for reading\\n", prog, path);'))).toEqual([["cannot open", "for reading"]]);
  });

  it("reads no message from character literals, apostrophes in comments or short strings", () => {
    expect(literalsOf(chunk("c", "if (c == '\\n' || c == 'x') return 0; /* don't stop here, it's fine to go on */"))).toEqual([]);
    expect(literalsOf(chunk("python", "# don't retry: the server's answer is final\nx = 'ok'"))).toEqual([]);
  });

  it("scores a chunk by the words of its literal the report repeats, shared among the chunks that hold it", () => {
    const prints = chunk("python", 'raise ValueError(f"cannot parse duration {text!r} for key {key}")');
    const other = chunk("python", 'log.info("loaded the configuration file")');
    const report = normalized("Loading fails:\nValueError: cannot parse duration '5 min' for key timeout");
    const scores = quotedMessageScores(report, [prints, other]);
    expect(scores.get(prints)).toBeCloseTo(5 / 6);
    expect(scores.has(other)).toBe(false);
    // The same message printed from two places: each gets half.
    const again = chunk("python", 'raise ValueError(f"cannot parse duration {value!r} for key {name}")');
    expect(quotedMessageScores(report, [prints, again]).get(again)).toBeCloseTo(5 / 12);
    // A piece must stand as whole words in the report (`parse durations` is not `parse duration`).
    expect(quotedMessageScores(normalized("cannot parse durationsx for key"), [prints]).size).toBe(0);
  });

  it("a query of one or two words quotes nothing, not even a literal that repeats them", () => {
    const twice = chunk("python", 'raise ValueError(f"config file {a}: config file {b}")');
    expect(quotedMessageScores(normalized("config file"), [twice]).size).toBe(0);
    expect(quotedMessageScores(normalized("cannot read config file"), [twice]).get(twice)).toBeCloseTo(4 / 6);
  });
});
