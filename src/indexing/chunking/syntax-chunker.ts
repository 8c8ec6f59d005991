import { readFile } from "node:fs/promises";
import { isMainThread } from "node:worker_threads";
import { Language, Parser, type Node, type Tree } from "web-tree-sitter";
import type { Chunk, ChunkedFile, ChunkKind } from "../chunk.ts";
import { summarizeChunk, summarizeFile, truncate, type ChunkSummaryInput } from "../summary.ts";
import { grammarFilePath, type LanguageInfo } from "./languages.ts";
import { isBlank, lineWindows, splitLines, trimBlankRows, type RowRange, type WindowLimits } from "./line-windows.ts";
import {
  bodyOf,
  childrenOf,
  definitionTypeOf,
  implTraitOf,
  importTargetsOf,
  isComment,
  isCommentType,
  nameOf,
  namedChildrenOf,
  PREFIX_TYPES,
  receiverTypeOf,
  unwrapDefinition,
} from "./syntax-rules.ts";
import { chunkByLines } from "./text-chunker.ts";
import { tuneWasmTiering } from "./wasm-tiering.ts";

/**
 * Size bounds (lines and characters; a chunk must satisfy both):
 * - a definition longer than MAX_DEFINITION_* is split: a class-like definition into a header chunk
 *   plus its members, anything else into FUNCTION_WINDOW windows keeping symbol and parent;
 * - definitions shorter than SMALL_DEFINITION_LINES and all other statements (imports, constants,
 *   expressions) are merged with their neighbours into "block" chunks of at most BLOCK_MAX_*.
 */
export const MAX_DEFINITION_LINES = 150;
export const MAX_DEFINITION_CHARS = 6_000;
export const BLOCK_MAX_LINES = 60;
export const BLOCK_MAX_CHARS = 2_500;
export const SMALL_DEFINITION_LINES = 4;
export const FUNCTION_WINDOW: WindowLimits = { maxLines: 80, maxChars: 4_000, overlap: 0 };
export const SIGNATURE_MAX_CHARS = 200;
export const DOC_MAX_CHARS = 1_200;
/** A parse taking longer than this is abandoned and the file is chunked by lines. */
export const DEFAULT_PARSE_TIMEOUT_MS = 5_000;
/** When syntax errors cover more than this share of the file, it is chunked by lines. */
export const MAX_ERROR_SHARE = 0.5;

export type SyntaxChunkerOptions = { parseTimeoutMs?: number };

export class GrammarLoadError extends Error {
  constructor(language: string, cause: unknown) {
    super(`cannot load the ${language} grammar: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = "GrammarLoadError";
  }
}

// ---- grammar loading (once per thread) --------------------------------------------------------

let parserReady: Promise<void> | null = null;
const languages = new Map<string, Promise<Language>>();
const parsers = new Map<string, Parser>();

const loadLanguage = (info: LanguageInfo): Promise<Language> => {
  let loading = languages.get(info.id);
  if (!loading) {
    const grammar = info.grammar;
    loading = (async () => {
      if (!grammar) throw new GrammarLoadError(info.id, "no grammar");
      if (isMainThread) tuneWasmTiering(); // a pool's threads: set by the pool (V8 flags are per process)
      parserReady ??= Parser.init();
      await parserReady;
      try {
        return await Language.load(new Uint8Array(await readFile(grammarFilePath(grammar))));
      } catch (error) {
        throw new GrammarLoadError(info.id, error);
      }
    })();
    languages.set(info.id, loading);
  }
  return loading;
};

const parserFor = async (info: LanguageInfo): Promise<Parser> => {
  const language = await loadLanguage(info);
  let parser = parsers.get(info.id);
  if (!parser) {
    parser = new Parser();
    parser.setLanguage(language);
    parsers.set(info.id, parser);
  }
  return parser;
};

// ---- units: top-level statements and definitions ---------------------------------------------

type Definition = {
  name: string;
  kind: ChunkKind;
  label: string;
  parent: string | null;
  parentLabel: string | null;
  signature: string | null;
  doc: string | null;
  /** Member units when the definition has a body with definitions in it (classes, impls, namespaces). */
  members: Unit[];
};

type Unit = {
  start: number;
  end: number;
  def: Definition | null;
  /** For block summaries. */
  imports: string[];
  names: string[];
  statements: number;
};

/** The last row a node really occupies (a node ending at column 0 ends on the previous line). */
const endRowOf = (node: Node): number => {
  const end = node.endPosition; // a call into the wasm module: read once
  return end.column === 0 && end.row > node.startPosition.row ? end.row - 1 : end.row;
};

const COMMENT_MARKERS = /^\s*(\/\/[/!]?|#+|--+|;+|%+)\s?/;

const cleanComment = (text: string): string => {
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
const docstringOf = (body: Node | null): string | null => {
  const first = body?.namedChild(0);
  if (!first || first.type !== "expression_statement") return null;
  const value = first.namedChild(0);
  return value && value.type === "string" && first.namedChildCount === 1 ? cleanDocstring(value.text) : null;
};

const ANNOTATION_LINE = /^\s*(@|#\[|\[)/;

type FileContext = {
  content: string;
  lines: string[];
  /** Character offset at which each row starts. */
  rowOffsets: number[];
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
  // C++ out-of-class definitions: `int Parser::parse()`.
  const qualified = /^(.*\w)::(~?\w+)$/.exec(name);
  if (qualified && kind === "function" && !(parent && CLASS_LIKE.has(parent.kind))) {
    parentName = qualified[1]!;
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
  };
  if (body && kind !== "function" && kind !== "method" && kind !== "variable") {
    def.members = unitsOf(ctx, memberNodesOf(defNode, body), def);
  }
  return def;
};

/** Member statements of a container: its body's children, plus comments between header and body (Ruby). */
const memberNodesOf = (defNode: Node, body: Node): Node[] => {
  const leading = namedChildrenOf(defNode).filter(
    (c) => isComment(c) && c.startIndex < body.startIndex && c.startPosition.row > defNode.startPosition.row,
  );
  return [...leading, ...namedChildrenOf(body)];
};

const newUnit = (start: number, end: number, def: Definition | null): Unit => ({ start, end, def, imports: [], names: [], statements: 0 });

/** Group a sequence of sibling nodes into units: definitions (with their doc comments/decorators) and statements. */
const unitsOf = (ctx: FileContext, nodes: readonly Node[], parent: Definition | null): Unit[] => {
  const units: Unit[] = [];
  let pending: Node[] = [];
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

  for (const node of nodes) {
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
    const attached = lastPending && node.startPosition.row <= endRowOf(lastPending) + 1 ? pending : [];
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
  return units;
};

// ---- chunk drafts -------------------------------------------------------------------------------

/** `summaryInput.startLine`/`endLine` are set when the draft is finalised (its rows may still move until then). */
type Draft = RowRange & { summaryInput: ChunkSummaryInput };

type Emitter = { ctx: FileContext; drafts: Draft[]; rowChars: (range: RowRange) => number };

const defDraft = (range: RowRange, def: Definition, part?: { index: number; count: number }): Draft => ({
  ...range,
  summaryInput: {
    startLine: 0,
    endLine: 0,
    kind: def.kind,
    symbol: def.name,
    parent: def.parent,
    parentLabel: def.parentLabel,
    signature: def.signature,
    doc: part && part.index > 1 ? null : def.doc,
    label: def.label,
    part,
  },
});

const tooBig = (em: Emitter, range: RowRange, maxLines: number, maxChars: number): boolean =>
  range.end - range.start + 1 > maxLines || em.rowChars(range) > maxChars;

const emitWindows = (em: Emitter, range: RowRange, def: Definition | null, parent: Definition | null): void => {
  const windows = lineWindows(em.ctx.lines, range, FUNCTION_WINDOW);
  windows.forEach((window, i) => {
    if (def) em.drafts.push(defDraft(window, def, windows.length > 1 ? { index: i + 1, count: windows.length } : undefined));
    else em.drafts.push(blockDraft(window, [], parent));
  });
};

const blockDraft = (range: RowRange, units: readonly Unit[], parent: Definition | null): Draft => ({
  ...range,
  summaryInput: {
    startLine: 0,
    endLine: 0,
    kind: "block",
    symbol: null,
    parent: parent?.name ?? null,
    parentLabel: parent?.label ?? null,
    signature: null,
    doc: null,
    contents: {
      imports: units.flatMap((u) => u.imports),
      names: units.flatMap((u) => [...(u.def ? [u.def.name] : []), ...u.names]),
      otherStatements: units.reduce((n, u) => n + u.statements, 0),
    },
  },
});

const emitDefinition = (em: Emitter, unit: Unit, parent: Definition | null): void => {
  const def = unit.def!;
  const range = { start: unit.start, end: unit.end };
  if (!tooBig(em, range, MAX_DEFINITION_LINES, MAX_DEFINITION_CHARS)) {
    em.drafts.push(defDraft(range, def));
    return;
  }
  const firstMember = def.members[0];
  if (!firstMember || !def.members.some((m) => m.def) || firstMember.start <= unit.start) {
    emitWindows(em, range, def, parent);
    return;
  }
  // Header: from the definition's first line up to its first member, plus leading non-definition
  // members (fields, constants) while it stays block-sized.
  let headerEnd = firstMember.start - 1;
  let next = 0;
  while (next < def.members.length) {
    const member = def.members[next]!;
    if (member.def && member.def.kind !== "variable") break;
    if (tooBig(em, { start: unit.start, end: member.end }, BLOCK_MAX_LINES, BLOCK_MAX_CHARS)) break;
    headerEnd = member.end;
    next++;
  }
  const header = { start: unit.start, end: headerEnd };
  if (tooBig(em, header, MAX_DEFINITION_LINES, MAX_DEFINITION_CHARS)) emitWindows(em, header, def, parent);
  else em.drafts.push(defDraft(header, def));
  emitUnits(em, def.members.slice(next), def);
  // The closing line(s) (`}`, `end`) join the last chunk.
  const last = em.drafts[em.drafts.length - 1];
  if (last && last.end < unit.end) last.end = unit.end;
};

const emitUnits = (em: Emitter, units: readonly Unit[], parent: Definition | null): void => {
  let block: Unit[] = [];
  const flush = (): void => {
    if (!block.length) return;
    const only = block[0]!;
    if (block.length === 1 && only.def) em.drafts.push(defDraft({ start: only.start, end: only.end }, only.def));
    else em.drafts.push(blockDraft({ start: block[0]!.start, end: block[block.length - 1]!.end }, block, parent));
    block = [];
  };
  for (const unit of units) {
    const range = { start: unit.start, end: unit.end };
    const lines = unit.end - unit.start + 1;
    if (unit.def && lines >= SMALL_DEFINITION_LINES) {
      flush();
      emitDefinition(em, unit, parent);
    } else if (tooBig(em, range, BLOCK_MAX_LINES, BLOCK_MAX_CHARS)) {
      flush();
      if (unit.def) emitDefinition(em, unit, parent);
      else emitWindows(em, range, null, parent);
    } else {
      const first = block[0];
      if (first && tooBig(em, { start: first.start, end: unit.end }, BLOCK_MAX_LINES, BLOCK_MAX_CHARS)) flush();
      block.push(unit);
    }
  }
  flush();
};

// ---- symbols, module doc, coverage ---------------------------------------------------------------

type SymbolEntry = ChunkedFile["symbols"][number] & { label: string };

const collectSymbols = (units: readonly Unit[], out: SymbolEntry[] = []): SymbolEntry[] => {
  for (const unit of units) {
    if (!unit.def) continue;
    const { name, kind, parent, label } = unit.def;
    out.push({ name, kind, parent, label, startLine: unit.start + 1, endLine: unit.end + 1 });
    collectSymbols(unit.def.members, out);
  }
  return out;
};

const LICENSE_TEXT = /copyright|licen[cs]e|spdx|all rights reserved/i;

const moduleDocOf = (root: Node, languageId: string): string | null => {
  if (languageId === "python") return docstringOf(root);
  const children = namedChildrenOf(root).slice(0, 20);
  // Rust `//!` inner docs, Go package comments, or a leading comment block that is not a licence.
  const inner = children.filter((c) => isComment(c) && /^\/\/!|^\/\*!/.test(c.text));
  if (inner.length) return cleanComment(inner.map((c) => c.text).join("\n"));
  const run: Node[] = [];
  for (const child of children) {
    if (!isComment(child)) {
      const attachedToDefinition = run.length > 0 && child.startPosition.row <= endRowOf(run[run.length - 1]!) + 1;
      if (child.type === "package_clause" || !attachedToDefinition || !unwrapDefinition(child)) break;
      return null;
    }
    if (child.text.startsWith("#!")) continue;
    if (run.length && child.startPosition.row > endRowOf(run[run.length - 1]!) + 1) {
      if (!LICENSE_TEXT.test(run.map((c) => c.text).join("\n"))) break;
      run.length = 0;
    }
    run.push(child);
  }
  const text = run.map((c) => c.text).join("\n");
  return run.length && !LICENSE_TEXT.test(text) ? cleanComment(text) : null;
};

/** Lines no chunk covers (other than blank ones) become line chunks, so search sees every line. */
const coverGaps = (em: Emitter, totalRows: number): void => {
  const covered = new Uint8Array(totalRows);
  for (const d of em.drafts) covered.fill(1, d.start, d.end + 1);
  let row = 0;
  while (row < totalRows) {
    if (covered[row] || isBlank(em.ctx.lines[row] ?? "")) {
      row++;
      continue;
    }
    let end = row;
    while (end + 1 < totalRows && !covered[end + 1]) end++;
    const range = trimBlankRows(em.ctx.lines, { start: row, end });
    if (range) emitWindows(em, range, null, null);
    row = end + 1;
  }
  em.drafts.sort((a, b) => a.start - b.start);
};

const errorRows = (root: Node): number => {
  if (root.type === "ERROR") return root.endPosition.row - root.startPosition.row + 1;
  if (!root.hasError) return 0;
  let rows = 0;
  for (const child of childrenOf(root)) if (child.type === "ERROR") rows += endRowOf(child) - child.startPosition.row + 1;
  return rows;
};

// ---- entry point ---------------------------------------------------------------------------------

const finalize = (ctx: FileContext, draft: Draft): Chunk => {
  // Each draft owns its summary input (made with it, finalised once): filled in place, not copied.
  const base = draft.summaryInput;
  base.startLine = draft.start + 1;
  base.endLine = draft.end + 1;
  return {
    startLine: base.startLine,
    endLine: base.endLine,
    kind: base.kind,
    symbol: base.symbol,
    parent: base.parent,
    signature: base.signature,
    doc: base.doc,
    text: ctx.content.slice(ctx.rowOffsets[draft.start] ?? 0, Math.max(0, (ctx.rowOffsets[draft.end + 1] ?? ctx.content.length + 1) - 1)),
    summary: summarizeChunk(base),
  };
};

const rowOffsetsOf = (lines: readonly string[]): number[] => {
  const offsets = new Array<number>(lines.length + 1);
  let offset = 0;
  for (let i = 0; i < lines.length; i++) {
    offsets[i] = offset;
    offset += lines[i]!.length + 1;
  }
  offsets[lines.length] = offset;
  return offsets;
};

export const lineFallback = (path: string, content: string, language: LanguageInfo, parseError: string): ChunkedFile => {
  const lines = splitLines(content);
  return {
    path,
    language: language.id,
    summary: summarizeFile({ path, languageName: language.name, chunking: "syntax", symbols: [], moduleDoc: null, lineCount: lines.length, parseError }),
    symbols: [],
    chunks: chunkByLines(path, lines, language),
    parseError,
  };
};

export type SyntaxChunker = { chunk(path: string, content: string, language: LanguageInfo): Promise<ChunkedFile> };

export const createSyntaxChunker = (options: SyntaxChunkerOptions = {}): SyntaxChunker => {
  const timeoutMs = options.parseTimeoutMs ?? DEFAULT_PARSE_TIMEOUT_MS;
  return {
    async chunk(path, content, language) {
      let parser: Parser;
      try {
        parser = await parserFor(language);
      } catch (error) {
        return lineFallback(path, content, language, error instanceof Error ? error.message : String(error));
      }
      let tree: Tree | null = null;
      try {
        const deadline = performance.now() + timeoutMs;
        const progressCallback = (): boolean => performance.now() > deadline;
        try {
          tree = parser.parse(content, null, { progressCallback });
        } catch (error) {
          parser.reset();
          return lineFallback(path, content, language, `parser failed: ${error instanceof Error ? error.message : String(error)}`);
        }
        if (!tree) {
          parser.reset();
          return lineFallback(path, content, language, `parse timed out after ${timeoutMs} ms`);
        }
        const root = tree.rootNode;
        const lines = splitLines(content);
        const bad = errorRows(root);
        if (bad > 0 && bad / Math.max(1, lines.length) > MAX_ERROR_SHARE) {
          return lineFallback(path, content, language, `syntax errors cover ${Math.round((100 * bad) / lines.length)}% of the file`);
        }
        const ctx: FileContext = { content, lines, rowOffsets: rowOffsetsOf(lines) };
        const units = unitsOf(ctx, childrenOf(root), null);
        const em: Emitter = {
          ctx,
          drafts: [],
          rowChars: (range) => (ctx.rowOffsets[range.end + 1] ?? content.length) - (ctx.rowOffsets[range.start] ?? 0),
        };
        emitUnits(em, units, null);
        coverGaps(em, lines.length);
        const symbols = collectSymbols(units);
        return {
          path,
          language: language.id,
          summary: summarizeFile({
            path,
            languageName: language.name,
            chunking: "syntax",
            symbols,
            moduleDoc: moduleDocOf(root, language.id),
            lineCount: lines.length,
          }),
          symbols: symbols.map(({ name, kind, parent, startLine, endLine }) => ({ name, kind, parent, startLine, endLine })),
          chunks: em.drafts.map((d) => finalize(ctx, d)),
        };
      } finally {
        tree?.delete();
      }
    },
  };
};
