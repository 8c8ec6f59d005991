/**
 * The code graph of one file (definitions, references, imports), from the tree the chunker parsed
 * (src/indexing/chunking/syntax-chunker.ts), in the same worker thread: no second parse.
 *
 * Definitions come from the chunker's units (the same names, kinds and parents its chunks carry),
 * with each function's parameters read from its node. References and imports come from one query per
 * grammar (./queries.ts), matched inside the parser's wasm module.
 */
import { Query, type Language, type Node } from "web-tree-sitter";
import type { FileGraphContent, GraphDefinition, GraphDefinitionKind, GraphImport, GraphReference } from "../../codeindex/port.ts";
import { encodeGroupedGraph, sortedCodes, type GroupedGraph } from "../../codeindex/graph/codec.ts";
import { parametersOf } from "./params.ts";
import { BUILTIN_TYPES, GRAPH_QUERIES } from "./queries.ts";

/** The part of the chunker's units the graph reads (src/indexing/chunking/definitions.ts `Unit`). */
export type GraphUnit = {
  end: number;
  def: { name: string; kind: string; label: string; parent: string | null; node: Node; members: readonly GraphUnit[] } | null;
};

/** Bounds per file (generated files can hold hundreds of thousands of names). */
export const GRAPH_LIMITS = { definitions: 5000, references: 20000, imports: 2000, nameChars: 200, specChars: 500 };

/**
 * A file's graph query running longer than this is given up, and the file has no graph. The query's
 * matching grows with the square of the tree's depth: a generated chain of 10,000 calls
 * (`p.then(f).then(f)...`, 80 KB) took 16 s, a 1 MB one would take half an hour.
 */
export const GRAPH_QUERY_TIMEOUT_MS = 5_000;

const GRAPH_KINDS: ReadonlySet<string> = new Set<GraphDefinitionKind>(["function", "method", "class", "interface", "enum", "type"]);

export const hasGraph = (languageId: string): boolean => GRAPH_QUERIES[languageId] !== undefined;

// Compiled once per thread and language.
const queries = new Map<string, Query>();
const queryFor = (languageId: string, language: Language): Query => {
  let query = queries.get(languageId);
  if (!query) queries.set(languageId, (query = new Query(language, GRAPH_QUERIES[languageId]!)));
  return query;
};

/** A parent's name without its type arguments (Rust `impl<T> Foo<T>` -> "Foo"). */
const parentName = (parent: string): string => parent.replace(/\s*<[\s\S]*$/, "").slice(0, GRAPH_LIMITS.nameChars) || parent.slice(0, GRAPH_LIMITS.nameChars);

function definitionsOf(units: readonly GraphUnit[], out: GraphDefinition[]): GraphDefinition[] {
  for (const unit of units) {
    const def = unit.def;
    if (!def) continue;
    if (out.length >= GRAPH_LIMITS.definitions) break;
    // A Rust `impl` block is a container of methods (their parent), not a definition of its own.
    if (GRAPH_KINDS.has(def.kind) && !def.label.startsWith("impl")) {
      const callable = def.kind === "function" || def.kind === "method";
      const parameters = callable ? parametersOf(def.node) : null;
      out.push({
        name: def.name.slice(0, GRAPH_LIMITS.nameChars),
        kind: def.kind as GraphDefinitionKind,
        label: def.label,
        parent: def.parent === null ? null : parentName(def.parent),
        startLine: def.node.startPosition.row + 1,
        endLine: unit.end + 1,
        params: parameters?.params ?? (callable ? [] : null),
        paramsText: parameters?.text ?? null,
      });
    }
    definitionsOf(def.members, out);
  }
  return out;
}

const unquote = (text: string): string => text.replace(/^[<"'`]|[>"'`]$/g, "");
const collapse = (text: string): string => text.replace(/\s+/g, " ").trim();

function pythonFromImport(node: Node, line: number): GraphImport | null {
  const module = node.childForFieldName("module_name");
  if (!module) return null;
  const names: string[] = [];
  for (const name of node.childrenForFieldName("name")) {
    if (!name) continue;
    names.push(name.type === "aliased_import" ? (name.childForFieldName("name")?.text ?? name.text) : name.text);
  }
  if (names.length === 0 && node.text.includes("*")) names.push("*");
  return { spec: module.text.replace(/\s+/g, ""), kind: "import", line, names };
}

/** The code graph of a parsed file; null for a language without graph rules, or when the query runs out of time. */
export function extractGraph(root: Node, languageId: string, units: readonly GraphUnit[], timeoutMs = GRAPH_QUERY_TIMEOUT_MS): FileGraphContent | null {
  const grouped = extractGroupedGraph(root, languageId, units, timeoutMs);
  if (!grouped) return null;
  const references: GraphReference[] = [];
  for (const [name, codes] of grouped.referenceCodes) for (const code of codes) references.push({ name, line: code >> 1, call: (code & 1) === 1 });
  references.sort((a, b) => a.line - b.line || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) || Number(a.call) - Number(b.call));
  return { package: grouped.package, definitions: grouped.definitions, references, imports: grouped.imports };
}

/**
 * The code graph of a parsed file in its canonical encoding (src/codeindex/graph/codec.ts), as the
 * index stores it; null as for extractGraph. Equal to `encodeGraph(extractGraph(...))`, without a
 * reference object per use.
 */
export function extractEncodedGraph(root: Node, languageId: string, units: readonly GraphUnit[], timeoutMs = GRAPH_QUERY_TIMEOUT_MS): string | null {
  const grouped = extractGroupedGraph(root, languageId, units, timeoutMs);
  return grouped ? encodeGroupedGraph(grouped) : null;
}

/** The graph with its references grouped by name: each use once per (line, name, call), a name defined in place not a use. */
function extractGroupedGraph(root: Node, languageId: string, units: readonly GraphUnit[], timeoutMs: number): GroupedGraph | null {
  if (!hasGraph(languageId)) return null;
  const definitions = definitionsOf(units, []);
  const builtins = BUILTIN_TYPES[languageId];
  const query = queryFor(languageId, root.tree.language);
  // References by node start (a member called is captured as @ref and @call: it is a call): the
  // reference at refStarts[i] is refNames[i], with code line * 2 + 1 when a call.
  const refAt = new Map<number, number>();
  const refStarts: number[] = [];
  const refNames: string[] = [];
  const refCodes: number[] = [];
  const defined = new Set<number>();
  const imports: GraphImport[] = [];
  let pkg: string | null = null;
  // The query halts at the timeout and then answers no capture (a progress callback is not called for
  // queries by this build of the runtime, so the time limit is the query's own).
  const started = performance.now();
  const captures = query.captures(root, { timeoutMicros: timeoutMs * 1000 });
  if (captures.length === 0 && performance.now() - started >= timeoutMs) return null;
  for (let c = 0; c < captures.length; c++) {
    const capture = captures[c]!;
    const kind = capture.name;
    const node = capture.node;
    switch (kind) {
      case "call":
      case "ref":
      case "jsx": {
        const start = node.startIndex;
        const seen = refAt.get(start);
        if (seen !== undefined) {
          if (kind === "call" || (kind === "jsx" && /^[A-Z]/.test(node.text))) refCodes[seen]! |= 1;
          continue;
        }
        if (refAt.size >= GRAPH_LIMITS.references) continue;
        const name = node.text;
        const call = kind === "call" || (kind === "jsx" && /^[A-Z]/.test(name));
        if (name.length === 0 || name.length > GRAPH_LIMITS.nameChars || builtins?.has(name) || (kind === "jsx" && !call)) continue;
        refAt.set(start, refNames.length);
        refStarts.push(start);
        refNames.push(name);
        refCodes.push((node.startPosition.row + 1) * 2 + (call ? 1 : 0));
        break;
      }
      case "def":
        defined.add(node.startIndex);
        break;
      case "package":
        pkg ??= collapse(node.text).replace(/\s/g, "");
        break;
      default: {
        if (kind.startsWith("_") || imports.length >= GRAPH_LIMITS.imports) continue;
        const line = node.startPosition.row + 1;
        const spec = importOf(kind, node, line);
        if (spec && spec.spec.length > 0 && spec.spec.length <= GRAPH_LIMITS.specChars) imports.push(spec);
      }
    }
  }
  const referenceCodes = new Map<string, number[]>();
  for (let i = 0; i < refNames.length; i++) {
    if (defined.has(refStarts[i]!)) continue;
    const name = refNames[i]!;
    const codes = referenceCodes.get(name);
    if (codes) codes.push(refCodes[i]!);
    else referenceCodes.set(name, [refCodes[i]!]);
  }
  for (const codes of referenceCodes.values()) sortedCodes(codes);
  definitions.sort((a, b) => a.startLine - b.startLine || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { package: pkg, definitions, referenceCodes, imports: dedupeImports(imports) };
}

function importOf(kind: string, node: Node, line: number): GraphImport | null {
  switch (kind) {
    case "import":
      return { spec: unquote(node.text.trim()), kind: "import", line };
    case "from":
      return pythonFromImport(node, line);
    case "module":
      return { spec: node.text, kind: "module", line };
    case "use":
      return { spec: collapse(node.text), kind: "import", line };
    case "include":
      return { spec: unquote(node.text.trim()), kind: "include", line };
    case "sysinclude":
      return { spec: unquote(node.text.trim()), kind: "system-include", line };
    case "jimport": {
      const spec = node.text.replace(/^\s*import\s+/, "").replace(/;\s*$/, "").replace(/\s+/g, " ").replace(/\s*\.\s*/g, ".").trim();
      return { spec, kind: "import", line };
    }
    default:
      return null;
  }
}

/** One entry per (spec, kind, line, names): a spec captured by two patterns is one import. */
function dedupeImports(imports: GraphImport[]): GraphImport[] {
  const seen = new Set<string>();
  return imports.filter((imp) => {
    const key = JSON.stringify([imp.spec, imp.kind, imp.line, imp.names ?? null]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
