/**
 * One version of a file as the broken-callers finding reads it (./broken-callers.ts): its code graph
 * (definitions with their parameters, imports; the indexer's own extraction, src/indexing/graph) and
 * the calls of a few names with the shape of their arguments (how many positional ones, which
 * keywords, whether a `*args` / `**kwargs` / `...spread` is passed), from one tree-sitter parse.
 */
import type { Node } from "web-tree-sitter";
import type { FileGraphContent } from "../../codeindex/port.ts";
import { detectLanguage } from "../../indexing/chunking/languages.ts";
import { unitsOf } from "../../indexing/chunking/definitions.ts";
import { childrenOf } from "../../indexing/chunking/syntax-nodes.ts";
import { extractGraph } from "../../indexing/graph/extract.ts";
import { readParsed } from "../parse-bounds.ts";
import type { CallSite } from "./call-site.ts";
import { goCalls, goImportNames, rustCalls, rustDefinitionLines } from "./go-rust-calls.ts";

/** Languages whose calls are read (the finding's languages). */
export const CALL_LANGUAGES: ReadonlySet<string> = new Set(["python", "javascript", "typescript", "tsx", "go", "rust"]);

export type { CallSite };

export type ParsedFile = {
  language: string;
  graph: FileGraphContent;
  calls: CallSite[];
  lines: string[];
  /** Go: the name each import binds and its path (./go-rust-calls.ts). */
  goImports?: { name: string; path: string }[];
  /** Rust: start lines of the public functions and methods, and of the methods of trait impls. */
  publicLines?: Set<number>;
  /** Rust: start line of each method of a trait's impl -> the trait's name. */
  traitImplLines?: Map<number, string>;
  traitLines?: Set<number>;
};


/** The language id of a path when the finding reads it, else null. */
export function callLanguageOf(path: string): string | null {
  const language = detectLanguage(path);
  return language && language.chunking === "syntax" && CALL_LANGUAGES.has(language.id) ? language.id : null;
}

/** Parses one version of a file: its graph and the calls of `names` (all calls when `names` is null). Null when it cannot be parsed. */
export async function parseForCalls(path: string, content: string, names: ReadonlySet<string> | null): Promise<ParsedFile | null> {
  return readParsed(
    path,
    content,
    (tree, ctx, language) => {
      const graph = extractGraph(tree.rootNode, language.id, unitsOf(ctx, childrenOf(tree.rootNode), null));
      if (!graph) return null;
      const root = tree.rootNode;
      const id = language.id;
      if (id === "go") return { language: id, graph, calls: goCalls(root, names, ctx.lines), lines: ctx.lines, goImports: goImportNames(root) };
      if (id === "rust") return { language: id, graph, calls: rustCalls(root, names, ctx.lines), lines: ctx.lines, ...rustDefinitionLines(root) };
      const calls = id === "python" ? pythonCalls(root, names, ctx.lines) : scriptCalls(root, names, ctx.lines);
      return { language: id, graph, calls, lines: ctx.lines };
    },
    (language) => CALL_LANGUAGES.has(language.id),
  );
}

/** Parses a file's version for the broken-callers finding (`parseForCalls`, or one review run's `ParseCache`). */
export type ParseFile = (path: string, content: string, names: ReadonlySet<string> | null) => Promise<ParsedFile | null>;

/**
 * Parses for one review run, each version of a file once, with every call: the calls of some names
 * are picked from it (the same calls, in the same order, as a parse asking for those names), and a
 * question about its graph only gets it without calls. A file read for the calls of each of many
 * changed definitions, or by several checks, is parsed once instead of once per name and check
 * (reading every call of a file costs little beside parsing it). What it hands out is shared: callers
 * read it and never change it.
 */
export function createParseCache(): ParseFile {
  const parses = new Map<string, Promise<ParsedFile | null>>();
  return async (path, content, names) => {
    const key = `${path}\0${content}`;
    if (!parses.has(key)) parses.set(key, parseForCalls(path, content, null));
    const parsed = await parses.get(key)!;
    return parsed && names !== null ? { ...parsed, calls: names.size === 0 ? [] : parsed.calls.filter((c) => names.has(c.name)) } : parsed;
  };
}

const isComment = (n: Node) => n.type === "comment" || n.type.endsWith("_comment");

function callee(fn: Node | null): { name: string; receiver: string | null; nameNode: Node } | null {
  if (!fn) return null;
  if (fn.type === "identifier") return { name: fn.text, receiver: null, nameNode: fn };
  if (fn.type === "attribute") {
    const attr = fn.childForFieldName("attribute");
    const object = fn.childForFieldName("object");
    return attr ? { name: attr.text, receiver: object?.text.replace(/\s+/g, "") ?? null, nameNode: attr } : null;
  }
  if (fn.type === "member_expression") {
    const property = fn.childForFieldName("property");
    const object = fn.childForFieldName("object");
    return property && property.type === "property_identifier" ? { name: property.text, receiver: object?.text.replace(/\s+/g, "") ?? null, nameNode: property } : null;
  }
  return null;
}

function pythonCalls(root: Node, names: ReadonlySet<string> | null, lines: readonly string[]): CallSite[] {
  const out: CallSite[] = [];
  for (const call of root.descendantsOfType("call")) {
    if (!call) continue;
    const target = callee(call.childForFieldName("function"));
    if (!target || (names && !names.has(target.name))) continue;
    const args = call.childForFieldName("arguments");
    let positional = 0;
    const keywords: string[] = [];
    let splat = false;
    let keywordSplat = false;
    if (args?.type === "generator_expression") positional = 1;
    else if (args) {
      for (const a of args.namedChildren) {
        if (!a || isComment(a)) continue;
        if (a.type === "keyword_argument") keywords.push(a.childForFieldName("name")?.text ?? "");
        else if (a.type === "list_splat") splat = true;
        else if (a.type === "dictionary_splat") keywordSplat = true;
        else positional++;
      }
    }
    const row = target.nameNode.startPosition.row;
    out.push({ name: target.name, line: row + 1, endLine: call.endPosition.row + 1, form: target.receiver === null ? "bare" : "member", receiver: target.receiver, positional, keywords, splat, keywordSplat, lineText: lines[row] ?? "" });
  }
  return out;
}

function scriptCalls(root: Node, names: ReadonlySet<string> | null, lines: readonly string[]): CallSite[] {
  const out: CallSite[] = [];
  for (const call of root.descendantsOfType(["call_expression", "new_expression"])) {
    if (!call) continue;
    const isNew = call.type === "new_expression";
    const target = callee(call.childForFieldName(isNew ? "constructor" : "function"));
    if (!target || (names && !names.has(target.name))) continue;
    const args = call.childForFieldName("arguments");
    if (args && args.type !== "arguments") continue; // a tagged template
    let positional = 0;
    let splat = false;
    for (const a of args?.namedChildren ?? []) {
      if (!a || isComment(a)) continue;
      if (a.type === "spread_element") splat = true;
      else positional++;
    }
    const row = target.nameNode.startPosition.row;
    out.push({
      name: target.name,
      line: row + 1,
      endLine: call.endPosition.row + 1,
      form: isNew ? "new" : target.receiver === null ? "bare" : "member",
      receiver: target.receiver,
      positional,
      keywords: [],
      splat,
      keywordSplat: false,
      lineText: lines[row] ?? "",
    });
  }
  return out;
}
