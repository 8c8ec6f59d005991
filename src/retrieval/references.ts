/**
 * A file's references: the spans of its chunks that carry a query's evidence, best first (see
 * docs/search.md, "A report's references").
 */
import type { ChunkDocument } from "../codeindex/port.ts";
import { MAX_DEFINITION_LINES } from "../indexing/chunking/chunk-bounds.ts";
import { importsOnly, windowPartOf } from "../indexing/summary.ts";
import { definitionSpan } from "./definition-span.ts";
import { isConstructor, RANKING, type RankedChunk } from "./ranking.ts";

export type Reference = {
  linestart: number;
  lineend: number;
  score: number;
  /** In a reference widened to a whole definition (./whole-definitions.ts): the window the search matched. */
  focus?: { linestart: number; lineend: number };
};

/** How many spans a file contributes to a search's references, and how close to its best each must score. */
export const REFERENCES = {
  perFile: 3,
  /** The first file's: where a reader starts, and the likeliest home of what is asked. */
  firstFile: 4,
  /**
   * The spans each later file shows, its best ones (built from REFERENCES.perFile, so a neighbour still
   * joins them): a reader scanning a search's first ten references reaches more files.
   */
  laterFilesShown: 2,
  minShare: 0.5,
  /** A span this close (lines between) to one already given extends it instead of taking a place of its own... */
  adjacentGap: 2,
  /** ...while the joined span stays this short (the longest definition a chunk keeps whole). */
  joinedMaxLines: MAX_DEFINITION_LINES,
  /** The file's chunks read for its references, at most. */
  chunksRead: 8,
} as const;

export type ReferenceOptions = {
  /** Names whose definition inside a chunk is its span (strongest first). */
  names?: readonly string[];
  /** The query's words, lower case: which of a name's several definitions (overloads) is meant. */
  words?: readonly string[];
  /** Join neighbouring spans (a report's). */
  joinNeighbours?: boolean;
  /** Spans the file gives at most. */
  perFile?: number;
};

/**
 * A file's references from its ranked chunks (best first): distinct spans, the weaker ones dropped. A
 * chunk that holds the definition of a name the query mentions (a method in its class's chunk, a
 * function merged into a block) gives that definition's lines instead of its own.
 */
export function referencesOf(chunks: readonly { doc: ChunkDocument; score: number }[], options: ReferenceOptions = {}): Reference[] {
  const { names = [], words = [], joinNeighbours = false, perFile = REFERENCES.perFile } = options;
  const best = chunks[0]?.score ?? 0;
  const out: (Reference & { narrowed: boolean })[] = [];
  for (const c of chunks.slice(0, REFERENCES.chunksRead)) {
    if (out.length >= perFile) break;
    if (out.length > 0 && !(c.score >= best * REFERENCES.minShare && c.score > 0)) break;
    const named = c.doc.symbol && names.includes(c.doc.symbol) ? null : namedDefinition(c.doc, names, words);
    const { startLine: linestart, endLine: lineend } = named ?? c.doc;
    if (out.some((r) => r.linestart <= linestart && r.lineend >= lineend)) continue; // inside a span already given
    // For a report, neighbouring definitions that both carry evidence (small functions side by side, a
    // method and the next) are one place to read: their spans join, up to the size of a long definition.
    // A question keeps each definition apart (its answer names one), as does a definition narrowed to a
    // name the query asks for.
    const neighbour = named || !joinNeighbours ? undefined : out.find((r) => !r.narrowed && joinable(r, linestart, lineend));
    if (neighbour) {
      neighbour.linestart = Math.min(neighbour.linestart, linestart);
      neighbour.lineend = Math.max(neighbour.lineend, lineend);
      continue;
    }
    out.push({ linestart, lineend, score: c.score, narrowed: named !== null });
  }
  return out.map(({ linestart, lineend, score }) => ({ linestart, lineend, score }));
}

/** Whether lines `start`-`end` lie within REFERENCES.adjacentGap lines of `span` and joined stay under REFERENCES.joinedMaxLines. */
function joinable(span: { linestart: number; lineend: number }, start: number, end: number): boolean {
  const gap = Math.max(start - span.lineend, span.linestart - end) - 1;
  return gap <= REFERENCES.adjacentGap && Math.max(span.lineend, end) - Math.min(span.linestart, start) < REFERENCES.joinedMaxLines;
}

/** The first of `names` (strongest first) whose definition the chunk holds, as its line range. */
function namedDefinition(doc: ChunkDocument, names: readonly string[], words: readonly string[]): { startLine: number; endLine: number } | null {
  for (const name of names) {
    if (!doc.text.includes(name)) continue;
    const span = definitionSpan(doc.text, doc.startLine, name, doc.language, words);
    if (span) return span;
  }
  return null;
}

/** Kinds of chunk that contain definitions (a class, an interface, an impl, a module: the chunker's kinds, its labels aside). */
export const CONTAINER_KINDS: ReadonlySet<string> = new Set(["class", "interface", "enum", "type", "module"]);

/**
 * Within a file, a report's chunk weighs its length to this power: a longer definition holds more of the
 * code a fix may land in. Its evidence is lexical and length-normalised (BM25), which suits telling what a
 * chunk is about, not where in a file a defect sits; bug localisation work finds larger code more often
 * at fault (BugLocator's length prior, Zhou et al., ICSE 2012). Kept gentle: 10 lines weigh 1.26, 100
 * lines 1.58. Across files it is not applied (it lowered file ranks in three languages).
 */
export const LENGTH_PRIOR = 0.1;

/**
 * Within a file, a report's block of imports and nothing else weighs this share of its evidence: a few
 * lines naming the modules the report names too (`import dayjs from 'dayjs'`) score high on words
 * alone, and a fix that touches them changes the code that uses them as well.
 */
export const IMPORTS_SHARE = 0.5;

/**
 * Within a file, the share of the score for defining a name a report mentions that still orders the
 * file's references. The names a report writes are where its writer looked (the function called, the
 * entry point of a chain: `dayjs(...).format(...)`), and the fix is often in a definition they lead to
 * that the report describes in words; the named definition keeps most of its lead, not all of it.
 * Measured on both dev sets (docs/search.md): 0.75 and 0.65 rose too; at 0.5 a report naming the two
 * definitions its fix changed lost them to a third one (Java span@1 -5.6).
 */
export const DEFINITION_SHARE = 0.7;

/**
 * A report's order of a file's chunks by their own evidence, their length weighed (LENGTH_PRIOR): the
 * score a chunk takes for defining a name the report mentions counts DEFINITION_SHARE of itself, and
 * nothing for a constructor (named like its class: it does not define the class) nor for a container
 * whose members are chunks of their own (its header and fields; the members hold the code). Across files
 * that bonus still ranks the file whole; within it, every member shares it.
 */
export function byOwnEvidence(chunks: readonly RankedChunk[]): RankedChunk[] {
  const parents = new Set<string>();
  for (const c of chunks) if (c.doc.parent) parents.add(c.doc.parent);
  const own = (c: RankedChunk): number => {
    const { kind, symbol } = c.doc;
    const header = symbol !== null && CONTAINER_KINDS.has(kind) && parents.has(symbol);
    const base = c.score - (c.definition ?? 0) * (isConstructor(c.doc) || header ? 1 : 1 - DEFINITION_SHARE);
    return base * (importsOnly(c.doc.summary) ? IMPORTS_SHARE : 1) * Math.pow(c.doc.endLine - c.doc.startLine + 1, LENGTH_PRIOR);
  };
  return byDefinition(chunks.map((c) => ({ doc: c.doc, score: own(c) })));
}

/**
 * Kinds whose windows are one body of code, scored whole. The windows of a table (an enum's constants, a
 * long data literal) are entries side by side: each is a place of its own.
 */
const CODE_KINDS: ReadonlySet<string> = new Set(["function", "method"]);

/**
 * Scored chunks best first, the windows of one long function or method counted as that definition: its best
 * window stands for it (a report's reference to a window becomes the whole definition,
 * ./whole-definitions.ts) with the evidence of all its windows among the chunks, aggregated like a file's
 * (the best, then each next one decayed by RANKING.aggregateDecay); its other windows are left out.
 * Scored window by window, a long function whose evidence is spread over its windows lost its place to a
 * short one holding as much as its best window, and two windows of it took two of the file's places.
 */
export function byDefinition<T extends { doc: ChunkDocument; score: number }>(chunks: readonly T[]): T[] {
  const out: { chunk: T; score: number; part: { part: number; of: number } | null; windows: number }[] = [];
  for (const c of [...chunks].sort((a, b) => b.score - a.score)) {
    const part = CODE_KINDS.has(c.doc.kind) ? windowPartOf(c.doc.summary) : null;
    // Windows of one definition: the same name, container, kind and window count, their parts as far
    // apart as their lines (overloads each cut into as many windows stay apart).
    const whole = part && out.find((o) => o.part !== null && o.part.of === part.of && o.chunk.doc.symbol === c.doc.symbol && o.chunk.doc.parent === c.doc.parent && o.chunk.doc.kind === c.doc.kind
      && Math.abs(c.doc.startLine - o.chunk.doc.startLine) <= (Math.abs(part.part - o.part.part) + 1) * MAX_DEFINITION_LINES);
    if (whole) whole.score += c.score * Math.pow(RANKING.aggregateDecay, whole.windows++);
    else out.push({ chunk: c, score: c.score, part, windows: 1 });
  }
  return out.map((o) => (o.windows > 1 ? { ...o.chunk, score: o.score } : o.chunk)).sort((a, b) => b.score - a.score);
}
