/**
 * One version of a file's code graph as the indexer makes it (src/indexing/graph), for any language
 * the graph reads: its imports with their lines (./broken-imports.ts reads a file at the pull
 * request's head, which the indexed branch may not hold).
 */
import type { FileGraphContent } from "../../codeindex/port.ts";
import { unitsOf } from "../../indexing/chunking/definitions.ts";
import { childrenOf } from "../../indexing/chunking/syntax-nodes.ts";
import { extractGraph, hasGraph } from "../../indexing/graph/extract.ts";
import { readParsed } from "../parse-bounds.ts";

export type ParsedGraph = { language: string; graph: FileGraphContent; lines: string[] };

/** The graph of `content` as the file at `path`; null when its language has none or it cannot be parsed. */
export function fileGraphOf(path: string, content: string): Promise<ParsedGraph | null> {
  return readParsed(
    path,
    content,
    (tree, ctx, language) => {
      const graph = extractGraph(tree.rootNode, language.id, unitsOf(ctx, childrenOf(tree.rootNode), null));
      return graph ? { language: language.id, graph, lines: ctx.lines } : null;
    },
    (language) => hasGraph(language.id),
  );
}
