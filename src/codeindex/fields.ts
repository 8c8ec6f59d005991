/**
 * Searchable fields of a chunk and their BM25F parameters (embedded adapter; the Elasticsearch adapter
 * uses the same weights as query boosts).
 */
import type { ChunkDocument } from "./port.ts";
import { forEachToken } from "./tokenize.ts";

/** The fields of a chunk that are tokenised for search (all a chunker knows, without ids or vectors). */
export type IndexedFields = Pick<ChunkDocument, "symbol" | "parent" | "path" | "signature" | "doc" | "summary" | "fileSummary" | "text">;

export type FieldSpec = { name: string; weight: number; b: number; value(doc: IndexedFields): string | null };

/** At most 8 fields: the posting format keeps a one-byte field mask. */
export const FIELDS: readonly FieldSpec[] = [
  { name: "symbol", weight: 6, b: 0.5, value: (d) => d.symbol },
  { name: "parent", weight: 1.5, b: 0.5, value: (d) => d.parent },
  { name: "path", weight: 2.5, b: 0.5, value: (d) => d.path },
  { name: "signature", weight: 2.5, b: 0.6, value: (d) => d.signature },
  { name: "doc", weight: 1.5, b: 0.75, value: (d) => d.doc },
  { name: "summary", weight: 1, b: 0.6, value: (d) => d.summary },
  { name: "fileSummary", weight: 0.3, b: 0.75, value: (d) => d.fileSummary },
  { name: "text", weight: 1, b: 0.75, value: (d) => d.text },
];

export const FIELD_COUNT = FIELDS.length;

export type AnalysedDoc = {
  /** term -> term frequency per field (length FIELD_COUNT). */
  terms: Map<string, Uint16Array>;
  /** Token count per field. */
  lengths: number[];
};

export function analyseDoc(doc: IndexedFields): AnalysedDoc {
  const terms = new Map<string, Uint16Array>();
  const lengths = new Array<number>(FIELD_COUNT).fill(0);
  for (let f = 0; f < FIELD_COUNT; f++) {
    const value = FIELDS[f]!.value(doc);
    if (!value) continue;
    let length = 0;
    forEachToken(value, (token) => {
      length++;
      let tfs = terms.get(token);
      if (!tfs) {
        tfs = new Uint16Array(FIELD_COUNT);
        terms.set(token, tfs);
      }
      if (tfs[f]! < 0xffff) tfs[f] = tfs[f]! + 1;
    });
    lengths[f] = length;
  }
  return { terms, lengths };
}
