import { describe, expect, it } from "vitest";
import { createSseParser, readSse, type SseEvent } from "../../src/models/sse.ts";

const sample =
  "\uFEFF: comment\r\n" +
  "event: content_block_delta\r\n" +
  "data: {\"a\":1}\r\n\r\n" +
  "data: line one\n" +
  "data:line two\n" +
  "id: 7\n\n" +
  "retry: 100\r\r" + // a retry-only block dispatches nothing
  "data: cr only\r\r" +
  "data: no blank line at the end";

const expected: SseEvent[] = [
  { event: "content_block_delta", data: '{"a":1}' },
  { event: "message", data: "line one\nline two", id: "7" },
  { event: "message", data: "cr only", id: "7" },
  { event: "message", data: "no blank line at the end", id: "7" },
];

function parseAll(pieces: string[]): SseEvent[] {
  const p = createSseParser();
  return [...pieces.flatMap((x) => p.push(x)), ...p.end()];
}

describe("createSseParser", () => {
  it("parses fields, comments, multi-line data and every line ending", () => {
    expect(parseAll([sample])).toEqual(expected);
  });

  it("gives the same events wherever the input is split", () => {
    for (let i = 0; i <= sample.length; i++) {
      expect(parseAll([sample.slice(0, i), sample.slice(i)])).toEqual(expected);
    }
    expect(parseAll([...sample])).toEqual(expected);
  });

  it("does not mistake a split \\r\\n for two line ends", () => {
    expect(parseAll(["data: a\r", "\ndata: b\r\n\r\n"])).toEqual([{ event: "message", data: "a\nb" }]);
  });
});

describe("readSse", () => {
  it("decodes UTF-8 split across byte chunks", async () => {
    const bytes = new TextEncoder().encode("data: héllo 😀 wörld\n\n");
    async function* oneByteAtATime() {
      for (const b of bytes) yield new Uint8Array([b]);
    }
    const events: SseEvent[] = [];
    for await (const e of readSse(oneByteAtATime())) events.push(e);
    expect(events).toEqual([{ event: "message", data: "héllo 😀 wörld" }]);
  });
});
