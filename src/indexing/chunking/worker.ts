import type { ChunkedFile } from "../chunk.ts";
import { sourceText, type SourceFile } from "./source.ts";
import { fileTerms } from "../documents.ts";
import { createChunker } from "./chunker.ts";

/**
 * Piscina worker: chunks the files it is sent. Grammars load once per worker thread (module state in
 * syntax-chunker.ts) and stay cached for the thread's life.
 */
export type { SourceFile } from "./source.ts";

/**
 * Extension point: a later version may ask the worker to embed the chunks it just made, so texts need
 * not travel back to the main thread first. Not implemented yet; the field is reserved.
 */
export type EmbeddingRequest = { model: string; fields: ("text" | "summary")[] };

export type ParseTask = ({ files: SourceFile[] } | SourceFile) & {
  /** Also compute each file's index terms (ChunkedFile.terms), so the index writer need not tokenise. */
  terms?: boolean;
  embed?: EmbeddingRequest;
};

export type ParseTaskResult = ChunkedFile[];

export class EmbeddingNotSupportedError extends Error {
  constructor(model: string) {
    super(`the parse worker cannot embed chunks yet (model ${model})`);
    this.name = "EmbeddingNotSupportedError";
  }
}

const chunker = createChunker();

export const runParseTask = async (task: ParseTask): Promise<ParseTaskResult> => {
  const files = "files" in task ? task.files : [{ path: task.path, content: task.content }];
  const results: ChunkedFile[] = [];
  for (const file of files) {
    const chunked = await chunker.chunkFile(file.path, sourceText(file.content));
    if (task.terms) chunked.terms = fileTerms(chunked);
    results.push(chunked);
  }
  if (task.embed) throw new EmbeddingNotSupportedError(task.embed.model); // hook embeddings in here
  return results;
};

/**
 * The pool hands a thread several tasks at once (so it keeps working while the main thread is busy
 * writing); they run one after another in arrival order, so the oldest task, whose group the indexer
 * waits for first, is not slowed down by interleaving with the newer ones.
 */
let previous: Promise<unknown> = Promise.resolve();
const runInOrder = (task: ParseTask): Promise<ParseTaskResult> => {
  const run = previous.then(() => runParseTask(task));
  previous = run.catch(() => undefined);
  return run;
};

export default runInOrder;
