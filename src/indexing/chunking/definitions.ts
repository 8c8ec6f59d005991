/**
 * The syntax walk of the chunker (./syntax-chunker.ts): a file's top-level statements become units, each a
 * definition (with its name, parent, signature, doc comment and members) or a run of other statements.
 */
import { type Node } from "web-tree-sitter";
import type { ChunkKind } from "../chunk.ts";
import { truncate } from "../summary.ts";
import { bodyOf, definitionTypeOf, implTraitOf, nameOf, PREFIX_TYPES, receiverTypeOf, unwrapDefinition, withoutConditionals } from "./syntax-rules.ts";
import { importTargetsOf } from "./import-targets.ts";
import { isComment, isCommentType, namedChildrenOf } from "./syntax-nodes.ts";
import { DOC_MAX_CHARS, SIGNATURE_MAX_CHARS } from "./chunk-bounds.ts";

export type Definition = {
  name: string;
  kind: ChunkKind;
  label: string;
  parent: string | null;
  parentLabel: string | null;
  signature: string | null;
  doc: string | null;
  /** Member units when the definition has a body with definitions in it (classes, impls, namespaces). */
  members: Unit[];
  /** The definition's node (valid until the tree is deleted; read by the code graph). */
  node: Node;
};

export type Unit = {
  start: number;
  end: number;
  def: Definition | null;
  /** For block summaries. */
  imports: string[];
  names: string[];
  statements: number;
};

/** The last row a node really occupies (a node ending at column 0 ends on the previous line). */
export const endRowOf = (node: Node): number => {
  const end = node.endPosition; // a call into the wasm module: read once
  return end.column === 0 && end.row > node.startPosition.row ? end.row - 1 : end.row;
};

const COMMENT_MARKERS = /^\s*(\/\/[/!]?|#+|--+|;+|%+)\s?/;

export const cleanComment = (text: string): string => {
  const trimmed = text.trim();
  let lines: string[];
  if (/^\/\*/.test(trimmed)) {
    lines = trimmed
      .replace(/^\/\*+!?/, "")
      .replace(/\*+\/$/, "")
      .split("\n")
      .map((line) => line.replace(/^\s*\*(?!\/) ?/, ""));
  } else if (/^--\[=*\[/.test(trimmed)) {
    lines = trimmed.replace(/^--\[=*\[/, "").replace(/\]=*\]$/, "").split("\n");
  } else if (/^=begin/.test(trimmed)) {
    lines = trimmed.replace(/^=begin\s*/, "").replace(/=end\s*$/, "").split("\n");
  } else {
    lines = trimmed.split("\n").map((line) => line.replace(COMMENT_MARKERS, ""));
  }
  return dedent(lines).trim();
};

const dedent = (lines: string[]): string => {
  const indents = lines.filter((l) => l.trim()).map((l) => /^\s*/.exec(l)![0].length);
  const common = indents.length ? Math.min(...indents) : 0;
  return lines.map((l) => l.slice(common).trimEnd()).join("\n");
};

const cleanDocstring = (text: string): string => {
  const body = text.replace(/^[rRuUbBfF]*("""|'''|"|')/, "").replace(/("""|'''|"|')$/, "");
  const [first = "", ...rest] = body.split("\n");
  return [first.trim(), dedent(rest)].join("\n").trim();
};

/** Python docstring: the first statement of a body, if it is a bare string. */
export const docstringOf = (body: Node | null): string | null => {
  const first = body?.namedChild(0);
  if (!first || first.type !== "expression_statement") return null;
  const value = first.namedChild(0);
  return value && value.type === "string" && first.namedChildCount === 1 ? cleanDocstring(value.text) : null;
};

const ANNOTATION_LINE = /^\s*(@|#\[|\[)/;

export type FileContext = {
  content: string;
  lines: string[];
  /** Character offset at which each row starts. */
  rowOffsets: number[];
  /**
   * Join a conditional's directive lines to the definitions they touch (`withDirectivesJoined`): the
   * chunks' reading; a review's outline keeps each definition from its own first line.
   */
  joinDirectives?: boolean;
  /** Read through syntax errors (C and C++: `withoutConditionals` in ./syntax-rules.ts). */
  throughErrors?: boolean;
};

const signatureOf = (ctx: FileContext, outer: Node, outerType: string, defNode: Node, body: Node | null): string | null => {
  // Keep `export`/`declare` from wrappers but not decorators or comments in front of the definition.
  const startNode = outerType === "export_statement" || outerType === "ambient_declaration" ? outer : defNode;
  let start = startNode.startIndex;
  const bodyStart = body && body.startIndex > start ? body.startIndex : null;
  let end = bodyStart ?? Math.min(startNode.endIndex, ctx.rowOffsets[startNode.startPosition.row + 1] ?? startNode.endIndex);
  // Skip annotation-only lines (@Override, #[derive], [Attr]) that precede the header.
  let row = startNode.startPosition.row;
  while (row < endRowOf(defNode) && ANNOTATION_LINE.test(ctx.lines[row] ?? "") && !/[({]\s*$/.test(ctx.lines[row] ?? "")) {
    row++;
    start = Math.max(start, ctx.rowOffsets[row] ?? start);
    if (bodyStart === null) end = Math.min(defNode.endIndex, ctx.rowOffsets[row + 1] ?? defNode.endIndex);
  }
  // Comments between the header and the body (Python) are not part of the signature.
  if (bodyStart !== null) {
    // Children are read one at a time: the loop stops at the body, so the rest need no Node objects.
    for (let i = 0, count = defNode.childCount; i < count; i++) {
      const child = defNode.child(i);
      if (!child) continue;
      if (child.startIndex >= end) break;
      if (child.startIndex > start && isComment(child)) {
        end = child.startIndex;
        break;
      }
    }
  }
  if (end <= start) return null;
  const raw = ctx.content.slice(start, Math.min(end, start + SIGNATURE_MAX_CHARS * 4));
  const sig = raw.replace(/\s+/g, " ").trim();
  return sig ? truncate(sig, SIGNATURE_MAX_CHARS) : null;
};

/** `SkipList<Key, Comparator>::Iterator` -> `SkipList::Iterator` (nested arguments too). */
const withoutTemplateArguments = (name: string): string => {
  let out = name;
  for (let before = ""; before !== out; ) {
    before = out;
    out = out.replace(/<[^<>]*>/g, "");
  }
  return out.replace(/\s+/g, "");
};

const CLASS_LIKE: ReadonlySet<ChunkKind> = new Set(["class", "interface", "enum"]);

const definitionOf = (ctx: FileContext, outer: Node, outerType: string, defNode: Node, parent: Definition | null, comments: Node[]): Definition | null => {
  const defType = defNode === outer ? outerType : defNode.type;
  const type = definitionTypeOf(defNode, defType);
  let name = nameOf(defNode, defType);
  if (!name && outerType === "export_statement" && /^export\s+default\b/.test(outer.text.slice(0, 40))) name = "default";
  if (!name) return null;
  let parentName = parent?.name ?? null;
  let parentLabel = parent?.label ?? null;
  let kind = type.kind;
  const receiver = receiverTypeOf(defNode, defType);
  if (receiver) {
    parentName = receiver;
    parentLabel = "type";
  }
  // C++ out-of-class definitions: `int Parser::parse()`, `SkipList<Key, Cmp>::Insert(...)` (the class
  // named without its template arguments).
  const qualified = /^(.*[\w>])::(~?\w+)$/.exec(name);
  if (qualified && kind === "function" && !(parent && CLASS_LIKE.has(parent.kind))) {
    parentName = withoutTemplateArguments(qualified[1]!);
    parentLabel = "class";
    name = qualified[2]!;
  }
  if (kind === "function" && (receiver || qualified || (parent && CLASS_LIKE.has(parent.kind)))) kind = "method";
  const body = bodyOf(defNode);
  const docstring = defType === "function_definition" || defType === "class_definition" ? docstringOf(body) : null;
  const commentDoc = comments.length ? cleanComment(comments.map((c) => c.text).join("\n")) : "";
  const doc = docstring || commentDoc || null;
  const trait = implTraitOf(defNode, defType);
  const def: Definition = {
    name,
    kind,
    label: trait ? `impl ${trait} for` : kind === "method" && type.label === "function" ? "method" : type.label,
    parent: parentName,
    parentLabel,
    signature: signatureOf(ctx, outer, outerType, defNode, body),
    doc: doc ? truncate(doc, DOC_MAX_CHARS) : null,
    members: [],
    node: defNode,
  };
  if (body && kind !== "function" && kind !== "method" && kind !== "variable") {
    def.members = unitsOf(ctx, memberNodesOf(defNode, body), def);
  }
  return def;
};

/** Member statements of a container: its body's children (a Java enum's declarations after its constants too), plus comments between header and body (Ruby). */
const memberNodesOf = (defNode: Node, body: Node): Node[] => {
  const leading = namedChildrenOf(defNode).filter(
    (c) => isComment(c) && c.startIndex < body.startIndex && c.startPosition.row > defNode.startPosition.row,
  );
  // A Java enum's fields and methods follow its constants in one node of their own: they are members too.
  const members = namedChildrenOf(body).flatMap((c) => (c.type === "enum_body_declarations" ? namedChildrenOf(c) : [c]));
  return [...leading, ...members];
};

/** Blank lines a doc block may leave before the definition it documents. */
const DOC_BLOCK_GAP = 2;

const isDocBlock = (node: Node): boolean => {
  const text = node.text;
  return (text.startsWith("/**") || text.startsWith("/*!")) && text.endsWith("*/");
};

const newUnit = (start: number, end: number, def: Definition | null): Unit => ({ start, end, def, imports: [], names: [], statements: 0 });

/** Group a sequence of sibling nodes into units: definitions (with their doc comments/decorators) and statements. */
export const unitsOf = (ctx: FileContext, nodes: readonly Node[], parent: Definition | null): Unit[] => {
  const units: Unit[] = [];
  let pending: Node[] = [];
  /** The units that are a conditional's directive line (./syntax-rules.ts, withoutConditionals). */
  const directives = new Map<Unit, "opens" | "closes">();
  /** Whether each pending node is a comment (its type was read when it was queued). */
  let pendingComment: boolean[] = [];

  const push = (unit: Unit): void => {
    const previous = units[units.length - 1];
    if (previous && unit.start <= previous.end) {
      // Shares a line with the previous unit: fold it in.
      previous.end = Math.max(previous.end, unit.end);
      previous.imports.push(...unit.imports);
      previous.names.push(...unit.names, ...(unit.def ? [unit.def.name] : []));
      previous.statements += unit.statements;
      return;
    }
    units.push(unit);
  };

  const flushPending = (): void => {
    for (let i = 0; i < pending.length; i++) {
      const node = pending[i]!;
      const unit = newUnit(node.startPosition.row, endRowOf(node), null);
      unit.statements = pendingComment[i] ? 0 : 1;
      push(unit);
    }
    pending = [];
    pendingComment = [];
  };

  for (const node of withoutConditionals(nodes, ctx.throughErrors)) {
    const type = node.type;
    const comment = isCommentType(type);
    if (comment || PREFIX_TYPES.has(type)) {
      const previous = units[units.length - 1];
      const last = pending[pending.length - 1];
      if (!last && previous && node.startPosition.row === previous.end) {
        previous.end = Math.max(previous.end, endRowOf(node)); // trailing comment
        continue;
      }
      if (last && node.startPosition.row > endRowOf(last) + 1) flushPending();
      pending.push(node);
      pendingComment.push(comment);
      continue;
    }
    const defNode = unwrapDefinition(node, type);
    const lastPending = pending[pending.length - 1];
    const gap = lastPending ? node.startPosition.row - endRowOf(lastPending) - 1 : 0;
    // A doc block (`/** ... */`) belongs to the definition after it across a blank line or two, as
    // JSDoc, Javadoc and Doxygen read it (Koa writes every member's doc that way); other comments only
    // when they touch it.
    const attached = lastPending && (gap <= 0 || (gap <= DOC_BLOCK_GAP && defNode !== null && isDocBlock(lastPending))) ? pending : [];
    if (!attached.length) flushPending();
    const comments = attached.filter((c, i) => pendingComment[i] && !c.text.startsWith("#!"));
    const def = defNode ? definitionOf(ctx, node, type, defNode, parent, comments) : null;
    if (!def) {
      flushPending();
      // Some grammars (Kotlin) put the next definition's doc comment inside the preceding statement.
      const trailing = node.lastChild;
      const ownsDoc = trailing !== null && isComment(trailing) && trailing.startPosition.row > node.startPosition.row;
      const unit = newUnit(node.startPosition.row, ownsDoc ? trailing.startPosition.row - 1 : endRowOf(node), null);
      const imports = importTargetsOf(node, type);
      if (imports) unit.imports.push(...imports);
      else unit.statements = 1;
      if (OPENS_PART.test(type)) directives.set(unit, "opens");
      else if (CLOSES_PART.test(type)) directives.set(unit, "closes");
      push(unit);
      if (ownsDoc) {
        pending.push(trailing);
        pendingComment.push(true);
      }
      continue;
    }
    const start = attached.length ? attached[0]!.startPosition.row : node.startPosition.row;
    pending = [];
    pendingComment = [];
    push(newUnit(start, endRowOf(node), def));
  }
  flushPending();
  return directives.size > 0 && ctx.joinDirectives ? withDirectivesJoined(units, directives) : units;
};

/** A conditional's directive that opens (or switches to) a part: `#if`, `#ifdef`, `#ifndef`, `#elif`, `#else`. */
const OPENS_PART = /^#(?:if|ifdef|ifndef|elif|elifdef|elifndef|else)$/;
/** The directive that closes a conditional. */
const CLOSES_PART = /^#endif$/;

/**
 * `units` with each conditional's directive line joined to the definition it governs, when it touches it:
 * an opening `#ifdef X` (or `#else`) to the definition right after it, a closing `#endif` to the one right
 * before it. The condition is read with its code, and a lone `#ifdef X` line is no place of its own (a
 * report naming the macro was led to that line, not to the function under it). A directive apart from
 * any definition (an include guard, `#ifdef __cplusplus` around `extern "C" {`) stays a statement.
 */
const withDirectivesJoined = (units: Unit[], directives: ReadonlyMap<Unit, "opens" | "closes">): Unit[] => {
  const out: Unit[] = [];
  for (let i = 0; i < units.length; i++) {
    const unit = units[i]!;
    const role = directives.get(unit);
    const next = units[i + 1];
    const previous = out[out.length - 1];
    if (role === "opens" && next?.def && next.start === unit.end + 1) next.start = unit.start;
    else if (role === "closes" && previous?.def && unit.start === previous.end + 1) previous.end = unit.end;
    else out.push(unit);
  }
  return out;
};

// ---- chunk drafts -------------------------------------------------------------------------------

/** `summaryInput.startLine`/`endLine` are set when the draft is finalised (its rows may still move until then). */
