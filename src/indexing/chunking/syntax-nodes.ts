/**
 * Reading tree-sitter nodes: their children without the nulls web-tree-sitter may return, and comments.
 * A leaf: ./syntax-rules.ts and ./js-objects.ts (which syntax-rules imports) both read nodes with these.
 */
import type { Node } from "web-tree-sitter";

/** Named children (web-tree-sitter returns nullable entries). */
export const namedChildrenOf = (node: Node): Node[] => node.namedChildren.filter((c): c is Node => c !== null);
export const childrenOf = (node: Node): Node[] => node.children.filter((c): c is Node => c !== null);

export const isComment = (node: Node): boolean => isCommentType(node.type);
/** For callers that already hold the node's type (each `node.type` read is a call into the wasm module). */
export const isCommentType = (type: string): boolean => type.includes("comment");
