/**
 * Units to chunks (./syntax-chunker.ts): a definition as one chunk, split into members or windows when it is
 * too big; small definitions and other statements merged into blocks; gaps covered; symbols collected.
 */
import { type Node } from "web-tree-sitter";
import type { Chunk, ChunkedFile } from "../chunk.ts";
import { summarizeChunk, type ChunkSummaryInput } from "../summary.ts";
import { isBlank, lineWindows, trimBlankRows, type RowRange } from "./line-windows.ts";
import { CONDITIONAL_TYPES, unwrapDefinition } from "./syntax-rules.ts";
import { childrenOf, isComment, namedChildrenOf } from "./syntax-nodes.ts";
import { BLOCK_MAX_CHARS, BLOCK_MAX_LINES, FUNCTION_WINDOW, MAX_DEFINITION_CHARS, MAX_DEFINITION_LINES, SCOPE_NAMESPACE_SHARE, SMALL_DEFINITION_LINES } from "./chunk-bounds.ts";
import { type Definition, type FileContext, type Unit, cleanComment, docstringOf, endRowOf } from "./definitions.ts";

type Draft = RowRange & { summaryInput: ChunkSummaryInput };

export type Emitter = { ctx: FileContext; drafts: Draft[]; rowChars: (range: RowRange) => number };

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

/** A namespace that is the file's scope (SCOPE_NAMESPACE_SHARE): its members are chunks, not the namespace. */
const isFileScope = (em: Emitter, def: Definition, range: RowRange): boolean =>
  def.label === "namespace" && def.members.some((m) => m.def) && range.end - range.start + 1 >= SCOPE_NAMESPACE_SHARE * em.ctx.lines.length;

const emitDefinition = (em: Emitter, unit: Unit, parent: Definition | null): void => {
  const def = unit.def!;
  const range = { start: unit.start, end: unit.end };
  if (!isFileScope(em, def, range) && !tooBig(em, range, MAX_DEFINITION_LINES, MAX_DEFINITION_CHARS)) {
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

export const emitUnits = (em: Emitter, units: readonly Unit[], parent: Definition | null): void => {
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

export const collectSymbols = (units: readonly Unit[], out: SymbolEntry[] = []): SymbolEntry[] => {
  for (const unit of units) {
    if (!unit.def) continue;
    const { name, kind, parent, label } = unit.def;
    out.push({ name, kind, parent, label, startLine: unit.start + 1, endLine: unit.end + 1 });
    collectSymbols(unit.def.members, out);
  }
  return out;
};

const LICENSE_TEXT = /copyright|licen[cs]e|spdx|all rights reserved/i;

export const moduleDocOf = (root: Node, languageId: string): string | null => {
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
export const coverGaps = (em: Emitter, totalRows: number): void => {
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

const rowsOf = (node: Node): number => endRowOf(node) - node.startPosition.row + 1;

/**
 * The rows of a file's top level that its syntax errors cover. With `throughErrors` (C and C++, read
 * through their errors: ./syntax-rules.ts, `withoutConditionals`), an error's rows that a well-read node
 * inside it holds (a function the grammar parsed whole) are not counted.
 */
export const errorRows = (root: Node, throughErrors = false): number => {
  if (root.type === "ERROR") return throughErrors ? unreadRows(root) : rowsOf(root);
  if (!root.hasError) return 0;
  let rows = 0;
  for (const child of childrenOf(root)) {
    if (child.type === "ERROR") rows += throughErrors ? unreadRows(child) : rowsOf(child);
    // A preprocessor conditional's contents are top level too (an include guard holds a whole header).
    else if (child.hasError && CONDITIONAL_TYPES.test(child.type)) rows += errorRows(child, throughErrors);
  }
  return rows;
};

/** The rows of an error node that none of the nodes the grammar read inside it holds (at least 0). */
const unreadRows = (error: Node): number => {
  let read = 0;
  for (const child of namedChildrenOf(error)) {
    const bad = child.type === "ERROR" ? unreadRows(child) : child.hasError && CONDITIONAL_TYPES.test(child.type) ? errorRows(child, true) : 0;
    read += rowsOf(child) - bad;
  }
  return Math.max(0, rowsOf(error) - read);
};

// ---- entry point ---------------------------------------------------------------------------------

export const finalize = (ctx: FileContext, draft: Draft): Chunk => {
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
