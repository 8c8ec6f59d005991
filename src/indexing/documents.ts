/**
 * A chunked file as code-index documents, and the index terms of those documents. Both are built from
 * the same fields here, so terms computed in a parse worker (fileTerms) describe exactly the documents
 * the indexer stores (chunkDocuments) for the same file.
 */
import { analyseDocuments } from "../codeindex/analysis.ts";
import type { DocumentTerms } from "../codeindex/port.ts";
import type { IndexedFields } from "../codeindex/fields.ts";
import type { ChunkDocument, FileGraphRecord } from "../codeindex/port.ts";
import type { Chunk, ChunkedFile } from "./chunk.ts";
import { chunkId } from "./repo-id.ts";

const indexedFields = (file: Pick<ChunkedFile, "path" | "summary">, chunk: Chunk): IndexedFields => ({
  symbol: chunk.symbol,
  parent: chunk.parent,
  path: file.path,
  signature: chunk.signature,
  doc: chunk.doc,
  summary: chunk.summary,
  fileSummary: file.summary,
  text: chunk.text,
});

/** The code-index documents of one chunked file (`at.path` must be the file's path). */
export function chunkDocuments(file: ChunkedFile, at: DocumentPlace): ChunkDocument[] {
  return file.chunks.map((chunk, ordinal) => ({
    id: chunkId(at.repoId, at.path, at.blobId, ordinal),
    orgId: at.orgId,
    repoId: at.repoId,
    blobId: at.blobId,
    ordinal,
    language: at.language,
    kind: chunk.kind,
    startLine: chunk.startLine,
    endLine: chunk.endLine,
    ...indexedFields({ path: at.path, summary: file.summary }, chunk),
  }));
}

/** Index terms of chunkDocuments(file, ...) (see searchindex/analysis.ts). */
export const fileTerms = (file: ChunkedFile): DocumentTerms => analyseDocuments(file.chunks.map((chunk) => indexedFields(file, chunk)));

export type DocumentPlace = { orgId: string; repoId: string; path: string; blobId: string; language: string };

/**
 * The documents of several chunked files, in order, with their index terms when every file carries
 * terms made for its documents (otherwise the code index tokenises them itself).
 */
export function filesDocuments(files: readonly { file: ChunkedFile; at: DocumentPlace }[]): { docs: ChunkDocument[]; terms?: DocumentTerms[] } {
  const docs: ChunkDocument[] = [];
  const terms: DocumentTerms[] = [];
  let complete = true;
  for (const { file, at } of files) {
    for (const doc of chunkDocuments(file, at)) docs.push(doc);
    if (file.terms && file.path === at.path && file.terms.docCount === file.chunks.length) terms.push(file.terms);
    else complete = false;
  }
  return complete ? { docs, terms } : { docs };
}

/** The code graphs of several chunked files (those whose language has graph rules), in order. */
export function filesGraphs(files: readonly { file: ChunkedFile; at: DocumentPlace }[]): FileGraphRecord[] {
  const graphs: FileGraphRecord[] = [];
  for (const { file, at } of files) {
    if (file.graph === undefined) continue;
    graphs.push({ orgId: at.orgId, repoId: at.repoId, path: at.path, blobId: at.blobId, language: file.language, graph: file.graph });
  }
  return graphs;
}
