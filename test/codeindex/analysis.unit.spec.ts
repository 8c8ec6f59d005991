import { describe, expect, it } from "vitest";
import { analyseDocuments } from "../../src/codeindex/analysis.ts";
import type { DocumentTerms } from "../../src/codeindex/port.ts";
import { FIELD_COUNT, analyseDoc, type IndexedFields } from "../../src/codeindex/fields.ts";
import {
  BLOCK_SIZE,
  appendRun,
  appendSegment,
  blockOf,
  decodeBlock,
  encodeBlock,
  encodePayload,
  newSegmentArena,
  type AppendSegment,
  type Posting,
} from "../../src/codeindex/embedded/postings.ts";

const doc = (overrides: Partial<IndexedFields>): IndexedFields => ({
  symbol: null,
  parent: null,
  path: "src/parser/http_parser.ts",
  signature: null,
  doc: null,
  summary: "",
  fileSummary: "TypeScript module src/parser/http_parser.ts: defines HttpParser, parseRequest",
  text: "",
  ...overrides,
});

const sample: IndexedFields[] = [
  doc({ symbol: "HttpParser", signature: "export class HttpParser", text: "export class HttpParser {\n  parseHeader(line: string) {}\n}", summary: "class HttpParser" }),
  doc({ symbol: "parseHeader", parent: "HttpParser", signature: "parseHeader(line: string)", doc: "Parses one header line.", text: "parseHeader(line: string) {\n  return line.split(':');\n}", summary: "method parseHeader of class HttpParser" }),
  doc({ text: "" }),
  doc({ symbol: "parseRequest", text: `function parseRequest(raw) { ${"header ".repeat(300)} }`, summary: "function parseRequest" }),
  doc({ path: "src/other.ts", fileSummary: "another file", text: "const x = parseRequest(raw);" }),
];

const termsOf = (terms: DocumentTerms): string[] => (terms.ends.length > 0 ? terms.termList.split("\n") : []);

/** The postings each document gets, decoded from DocumentTerms: term -> local document -> payload bytes. */
function entriesOf(terms: DocumentTerms): Map<string, Map<number, number[]>> {
  const out = new Map<string, Map<number, number[]>>();
  termsOf(terms).forEach((term, i) => {
    const from = i === 0 ? 0 : terms.ends[i - 1]!;
    // The entries are a block body whose first ordinal is 0: decode them as a block of their own.
    const header = new Uint8Array(8);
    new DataView(header.buffer).setUint32(0, terms.counts[i]!, true);
    const block = new Uint8Array(8 + terms.ends[i]! - from);
    block.set(header);
    block.set(terms.postings.subarray(from, terms.ends[i]!), 8);
    const decoded = decodeBlock(block, 0);
    expect(decoded).toHaveLength(terms.counts[i]!);
    expect(decoded[decoded.length - 1]!.ordinal).toBe(terms.lasts[i]);
    out.set(term, new Map(decoded.map((p) => [p.ordinal, [...p.payload]])));
  });
  return out;
}

describe("analyseDocuments", () => {
  it("gives every document the postings analyseDoc gives it alone", () => {
    const terms = analyseDocuments(sample);
    expect(terms.docCount).toBe(sample.length);
    const entries = entriesOf(terms);
    const expected = new Map<string, Map<number, number[]>>();
    const lengthSums = new Array<number>(FIELD_COUNT).fill(0);
    sample.forEach((d, local) => {
      const analysed = analyseDoc(d);
      analysed.lengths.forEach((n, f) => (lengthSums[f]! += n));
      for (const [term, tfs] of analysed.terms) {
        if (!expected.has(term)) expected.set(term, new Map());
        expected.get(term)!.set(local, [...encodePayload(tfs, analysed.lengths)]);
      }
    });
    expect(entries).toEqual(expected);
    expect(terms.lengthSums).toEqual(lengthSums);
  });

  it("gives the same result whatever ran before it (scratch state is reset)", () => {
    const first = analyseDocuments(sample);
    analyseDocuments([doc({ text: "unrelated words ".repeat(5000) })]);
    expect(analyseDocuments(sample)).toEqual(first);
    expect(analyseDocuments([])).toMatchObject({ docCount: 0, termList: "" });
  });
});

describe("appendRun", () => {
  /** Posting blocks built one posting at a time, the reference encoding. */
  const reference = (postings: Posting[]) => {
    const byBlock = new Map<number, Posting[]>();
    for (const p of postings) {
      const block = blockOf(p.ordinal);
      if (!byBlock.has(block)) byBlock.set(block, []);
      byBlock.get(block)!.push(p);
    }
    return new Map([...byBlock].map(([block, list]) => [block, [...encodeBlock(list, block)]]));
  };

  for (const base of [0, 17, BLOCK_SIZE - 3, 2 * BLOCK_SIZE - 1]) {
    it(`appends runs at ordinal ${base}, across block boundaries too`, () => {
      const docs = Array.from({ length: 9 }, (_, i) => doc({ text: i % 2 ? "alpha beta" : `alpha gamma${i}`, symbol: i === 4 ? "beta" : null }));
      const terms = analyseDocuments(docs);
      const segments = new Map<string, AppendSegment[]>();
      const arena = newSegmentArena();
      termsOf(terms).forEach((term, i) => {
        segments.set(term, []);
        appendRun(segments.get(term)!, base, terms.postings, i === 0 ? 0 : terms.ends[i - 1]!, terms.ends[i]!, terms.lasts[i]!, terms.counts[i]!, arena);
      });
      for (const [term, segs] of segments) {
        const postings: Posting[] = [];
        docs.forEach((d, local) => {
          const analysed = analyseDoc(d);
          const tfs = analysed.terms.get(term);
          if (tfs) postings.push({ ordinal: base + local, payload: encodePayload(tfs, analysed.lengths) });
        });
        const built = new Map(segs.map((seg) => [seg.block, [...appendSegment(undefined, seg)]]));
        expect(built).toEqual(reference(postings));
      }
    });
  }

  it("keeps every segment's bytes when segments of several batches share a small arena", () => {
    // Three batches of documents, each appended term by term: a term's segment grows in place while it
    // is the arena's last region and moves when another term's segment came after it.
    const batches = [0, 1, 2].map((b) =>
      Array.from({ length: 40 }, (_, i) => doc({ text: `alpha ${i % 3 ? "beta" : "gamma"} delta${b}`, symbol: i % 7 === 0 ? "alpha" : null })),
    );
    const arena = newSegmentArena(16);
    const segments = new Map<string, AppendSegment[]>();
    let base = BLOCK_SIZE - 50; // the second batch crosses into the next block
    const postingsOf = new Map<string, Posting[]>();
    for (const docs of batches) {
      const terms = analyseDocuments(docs);
      termsOf(terms).forEach((term, i) => {
        if (!segments.has(term)) segments.set(term, []);
        appendRun(segments.get(term)!, base, terms.postings, i === 0 ? 0 : terms.ends[i - 1]!, terms.ends[i]!, terms.lasts[i]!, terms.counts[i]!, arena);
      });
      docs.forEach((d, local) => {
        const analysed = analyseDoc(d);
        for (const [term, tfs] of analysed.terms) {
          if (!postingsOf.has(term)) postingsOf.set(term, []);
          postingsOf.get(term)!.push({ ordinal: base + local, payload: encodePayload(tfs, analysed.lengths) });
        }
      });
      base += docs.length;
    }
    expect(arena.bytes.length).toBeGreaterThan(16);
    for (const [term, segs] of segments) {
      const built = new Map(segs.map((seg) => [seg.block, [...appendSegment(undefined, seg)]]));
      expect(built, term).toEqual(reference(postingsOf.get(term)!));
    }
  });

  it("extends an existing block like a rewrite of the whole block would", () => {
    const existing: Posting[] = [{ ordinal: 3, payload: Uint8Array.from([1, 2, 4]) }];
    const docs = [doc({ text: "alpha" }), doc({ text: "alpha alpha" })];
    const terms = analyseDocuments(docs);
    const i = termsOf(terms).indexOf("alpha");
    const segs: AppendSegment[] = [];
    appendRun(segs, 10, terms.postings, i === 0 ? 0 : terms.ends[i - 1]!, terms.ends[i]!, terms.lasts[i]!, terms.counts[i]!, newSegmentArena());
    const grown = appendSegment(encodeBlock(existing, 0), segs[0]!);
    const added = docs.map((d, local) => {
      const analysed = analyseDoc(d);
      return { ordinal: 10 + local, payload: encodePayload(analysed.terms.get("alpha")!, analysed.lengths) };
    });
    expect([...grown]).toEqual([...encodeBlock([...existing, ...added], 0)]);
  });
});
