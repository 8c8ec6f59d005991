import { Buffer } from "node:buffer";

/** A file sent to the parse pool. */
export type SourceFile = {
  path: string;
  /** The text, or its UTF-8 bytes (decoded in the worker, so the sending thread never builds the string). */
  content: string | Uint8Array;
};

export const sourceText = (content: string | Uint8Array): string =>
  typeof content === "string" ? content : Buffer.from(content.buffer, content.byteOffset, content.byteLength).toString("utf8");
