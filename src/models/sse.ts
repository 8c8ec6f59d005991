/**
 * Server-sent events, as used by the OpenAI-compatible and Anthropic streaming APIs.
 * `createSseParser` is the pure line parser (feed it decoded text in arbitrary pieces);
 * `readSse` decodes a byte stream (UTF-8 sequences may be split across chunks) and yields events.
 */

export type SseEvent = {
  /** The `event:` field, "message" when absent. */
  event: string;
  /** The `data:` lines of the event joined with "\n". */
  data: string;
  /** The `id:` field, when present. */
  id?: string;
};

export type SseParser = {
  /** Feeds more text; returns the events completed by it. */
  push(text: string): SseEvent[];
  /** Ends the input; returns a final event not terminated by a blank line, if any. */
  end(): SseEvent[];
};

export function createSseParser(): SseParser {
  let buffer = "";
  let first = true;
  let event = "";
  let id: string | undefined;
  let data: string[] = [];
  let hasData = false;

  const dispatch = (out: SseEvent[]) => {
    if (hasData) {
      const e: SseEvent = { event: event || "message", data: data.join("\n") };
      if (id !== undefined) e.id = id;
      out.push(e);
    }
    event = "";
    data = [];
    hasData = false;
  };

  const line = (text: string, out: SseEvent[]) => {
    if (text === "") return dispatch(out);
    if (text.startsWith(":")) return; // comment / keep-alive
    const colon = text.indexOf(":");
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? "" : text.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") {
      data.push(value);
      hasData = true;
    } else if (field === "event") {
      event = value;
    } else if (field === "id") {
      if (!value.includes("\0")) id = value;
    }
    // "retry" and unknown fields are ignored
  };

  return {
    push(text) {
      const out: SseEvent[] = [];
      buffer += text;
      if (first && buffer.length > 0) {
        if (buffer.charCodeAt(0) === 0xfeff) buffer = buffer.slice(1);
        first = false;
      }
      let start = 0;
      for (let i = 0; i < buffer.length; i++) {
        const c = buffer.charCodeAt(i);
        if (c !== 10 && c !== 13) continue;
        // A "\r" at the very end may be the first half of "\r\n": wait for more input.
        if (c === 13 && i === buffer.length - 1) break;
        line(buffer.slice(start, i), out);
        if (c === 13 && buffer.charCodeAt(i + 1) === 10) i++;
        start = i + 1;
      }
      buffer = buffer.slice(start);
      return out;
    },
    end() {
      const out: SseEvent[] = [];
      if (buffer !== "") {
        const rest = buffer.replace(/\r$/, "");
        buffer = "";
        if (rest !== "") line(rest, out);
      }
      dispatch(out);
      return out;
    },
  };
}

/** Decodes UTF-8 bytes and yields SSE events as they complete. */
export async function* readSse(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder("utf-8");
  const parser = createSseParser();
  for await (const chunk of chunks) {
    yield* parser.push(decoder.decode(chunk, { stream: true }));
  }
  yield* parser.push(decoder.decode());
  yield* parser.end();
}
