import type { Chunk, ChunkKind } from "./chunk.ts";

/**
 * Deterministic, model-free summaries. They are shown as `summary` in search results, so they say
 * what a chunk defines (kind, signature, enclosing symbol) and the first sentence of its doc.
 */

/** Upper bounds on summary length (characters). */
export const CHUNK_SUMMARY_MAX = 300;
export const FILE_SUMMARY_MAX = 600;
const SIGNATURE_IN_SUMMARY_MAX = 140;
const NAMES_PER_GROUP = 8;

/** What the chunkers know about a chunk beyond the fixed Chunk fields. */
export type ChunkSummaryInput = Omit<Chunk, "summary" | "text"> & {
  /** Language-specific word for the definition: "struct", "trait", "impl", "namespace"... */
  label?: string | null;
  /** Label of the parent ("class", "impl"...). */
  parentLabel?: string | null;
  /** For merged blocks: the definitions and statements it contains. */
  contents?: { imports: string[]; names: string[]; otherStatements: number };
  /** For line windows of a bigger definition: which part this is. */
  part?: { index: number; count: number };
  /** For text chunks: file base name and first meaningful line. */
  fileName?: string;
  firstLine?: string | null;
  languageName?: string;
};

export type FileSummaryInput = {
  path: string;
  languageName: string;
  chunking: "syntax" | "text";
  symbols: { name: string; kind: ChunkKind; parent: string | null; label?: string | null }[];
  /** Module docstring / package comment / first heading. */
  moduleDoc: string | null;
  /** Extra text facts, e.g. "top-level keys: name, version" or "sections: Install, Usage". */
  facts?: string[];
  lineCount: number;
  parseError?: string;
};

const squeeze = (text: string): string => text.replace(/\s+/g, " ").trim();

export const truncate = (text: string, max: number): string =>
  text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1)).trimEnd()}…`;

/** The first sentence of a doc comment (tags and markup removed), or "". */
export const firstSentence = (doc: string | null | undefined, max = 160): string => {
  if (!doc) return "";
  const paragraph = doc.trim().split(/\n\s*\n/)[0] ?? "";
  const prose = paragraph
    .split("\n")
    .filter((line) => !/^\s*[@:]\w/.test(line)) // JSDoc/Sphinx tags
    .join(" ");
  const clean = squeeze(prose.replace(/<\/?[a-zA-Z][^>]*>/g, " ").replace(/[`*_]{2,}/g, ""));
  if (!clean) return "";
  const match = /^(.+?[.!?])(\s|$)/.exec(clean);
  return truncate(match?.[1] ?? clean, max);
};

const capitalize = (word: string): string => (word ? word[0]!.toUpperCase() + word.slice(1) : word);

const KIND_WORD: Record<ChunkKind, string> = {
  function: "function",
  method: "method",
  class: "class",
  interface: "interface",
  type: "type",
  enum: "enum",
  module: "module",
  variable: "variable",
  block: "block",
  section: "section",
  lines: "lines",
};

const LEADING_MODIFIERS =
  /^(?:(?:export|default|declare|public|private|protected|internal|static|final|abstract|async|override|virtual|inline|extern|const|unsafe|pub(?:\([^)]*\))?|open|sealed|data|suspend|operator|partial|readonly|local|def|fn|func|function\*?|fun|sub|class|struct|interface|trait|enum|type|impl|module|mod|namespace|object|record|protocol|extension|union)\s+)+/;

/** A compact signature for summaries: modifiers and keywords dropped, body openers trimmed. */
export const compactSignature = (signature: string | null, symbol: string | null): string | null => {
  if (!signature) return symbol;
  let sig = squeeze(signature)
    .replace(/\s*(\{|:|;|=>|=|\bdo|\bthen|\bis|\bwhere\b.*)\s*$/, "")
    .replace(/\s+(struct|interface)$/, "");
  if (symbol) {
    const at = sig.indexOf(symbol);
    // Keep the receiver/qualifier for Go/C++ style methods, otherwise start at the name.
    if (at > 0 && !/[(:.]\s*$/.test(sig.slice(0, at))) sig = sig.slice(at);
  }
  sig = sig.replace(LEADING_MODIFIERS, "");
  return truncate(sig || symbol || "", SIGNATURE_IN_SUMMARY_MAX);
};

const listNames = (names: readonly string[], max = NAMES_PER_GROUP): string => {
  const unique = [...new Set(names)];
  const shown = unique.slice(0, max).join(", ");
  return unique.length > max ? `${shown} (+${unique.length - max} more)` : shown;
};

/**
 * How a chunk's summary says it is one window of a longer definition or section (`(part 2/4, lines
 * 80-159)`, `(part 2/4)`); read back by retrieval to find a definition's other windows.
 */
export const WINDOW_PART = /\(part (\d+)\/(\d+)[,)]/;

/** The part number and count of a window (WINDOW_PART) a chunk's summary names, or null. */
export function windowPartOf(summary: string): { part: number; of: number } | null {
  const m = WINDOW_PART.exec(summary);
  return m ? { part: Number(m[1]), of: Number(m[2]) } : null;
}

/**
 * Whether a chunk's summary says it is a block of imports and nothing else (`Code block (lines 1-2):
 * imports dayjs`: no name defined, no other statement; comments aside); read back by retrieval.
 */
export const importsOnly = (summary: string): boolean => /^Code block\b[^:]*: imports [^;]*$/.test(summary);

export const summarizeChunk = (input: ChunkSummaryInput): string => {
  const doc = firstSentence(input.doc);
  const inParent = input.parent ? ` in ${input.parentLabel ?? "scope"} \`${input.parent}\`` : "";
  let head: string;
  switch (input.kind) {
    case "block": {
      const parts: string[] = [];
      const contents = input.contents;
      if (contents?.imports.length) parts.push(`imports ${listNames(contents.imports, 5)}`);
      if (contents?.names.length) parts.push(`defines ${listNames(contents.names)}`);
      if (contents?.otherStatements) parts.push(`${contents.otherStatements} other statement${contents.otherStatements > 1 ? "s" : ""}`);
      head = `Code block${inParent} (lines ${input.startLine}-${input.endLine})${parts.length ? `: ${parts.join("; ")}` : ""}`;
      return truncate(head, CHUNK_SUMMARY_MAX);
    }
    case "section": {
      const title = input.symbol ? `Section "${input.symbol}"` : "Preamble";
      const under = input.parent ? ` under "${input.parent}"` : "";
      const body = input.firstLine ? `: ${truncate(squeeze(input.firstLine), 180)}` : "";
      const part = input.part ? ` (part ${input.part.index}/${input.part.count})` : "";
      return truncate(`${title}${under}${part}${body}`, CHUNK_SUMMARY_MAX);
    }
    case "lines": {
      const where = input.fileName ? ` of ${input.fileName}` : "";
      const lang = input.languageName ? ` (${input.languageName})` : "";
      const first = input.firstLine ? `: ${truncate(squeeze(input.firstLine), 160)}` : "";
      return truncate(`Lines ${input.startLine}-${input.endLine}${where}${lang}${first}`, CHUNK_SUMMARY_MAX);
    }
    default: {
      const word = capitalize(input.label ?? KIND_WORD[input.kind]);
      const sig = compactSignature(input.signature, input.symbol) ?? "(anonymous)";
      const part = input.part ? ` (part ${input.part.index}/${input.part.count}, lines ${input.startLine}-${input.endLine})` : "";
      head = `${word} \`${sig}\`${inParent}${part}`;
      return truncate(doc ? `${head}: ${doc}` : head, CHUNK_SUMMARY_MAX);
    }
  }
};

const GROUP_ORDER: { kinds: ChunkKind[]; singular: string; plural: string }[] = [
  { kinds: ["module"], singular: "module", plural: "modules" },
  { kinds: ["class"], singular: "class", plural: "classes" },
  { kinds: ["interface"], singular: "interface", plural: "interfaces" },
  { kinds: ["enum"], singular: "enum", plural: "enums" },
  { kinds: ["type"], singular: "type", plural: "types" },
  { kinds: ["function"], singular: "function", plural: "functions" },
  { kinds: ["variable"], singular: "constant/variable", plural: "constants/variables" },
];

const LABEL_PLURAL: Record<string, string> = {
  class: "classes",
  namespace: "namespaces",
  protocol: "protocols",
};

const pluralOf = (label: string): string => LABEL_PLURAL[label] ?? (label.endsWith("s") ? `${label}es` : `${label}s`);

export const summarizeFile = (input: FileSummaryInput): string => {
  const topLevel = input.symbols.filter((s) => s.parent === null);
  const groups: string[] = [];
  const grouped = (names: string[], singular: string, plural: string): string =>
    `${new Set(names).size === 1 ? singular : plural} ${listNames(names)}`;
  // Containers are grouped by their language word (structs, traits, impls...), the rest by kind.
  const byLabel = new Map<string, string[]>();
  const rest: typeof topLevel = [];
  for (const s of topLevel) {
    if (s.kind === "class" || s.kind === "interface" || s.kind === "module") {
      const label = s.label ?? s.kind;
      byLabel.set(label, [...(byLabel.get(label) ?? []), s.name]);
    } else rest.push(s);
  }
  for (const [label, names] of byLabel) groups.push(grouped(names, label, pluralOf(label)));
  for (const group of GROUP_ORDER) {
    const names = rest.filter((s) => group.kinds.includes(s.kind)).map((s) => s.name);
    if (names.length) groups.push(grouped(names, group.singular, group.plural));
  }
  const methods = input.symbols.filter((s) => s.kind === "method").length;
  const noun = input.chunking === "text" ? "file" : input.languageName === "Python" ? "module" : "source file";
  let text = `${input.languageName} ${noun}`;
  if (groups.length) text += ` defining ${groups.join("; ")}`;
  if (methods) text += `${groups.length ? "; " : " with "}${methods} method${methods > 1 ? "s" : ""}`;
  if (input.facts?.length) text += `${groups.length ? ";" : ","} ${input.facts.join("; ")}`;
  if (!groups.length && !input.facts?.length) text += ` (${input.lineCount} lines)`;
  text += ".";
  const doc = firstSentence(input.moduleDoc, 220);
  if (doc) text += ` ${doc}`;
  if (input.parseError) text += ` Chunked by lines: ${input.parseError}.`;
  return truncate(squeeze(text), FILE_SUMMARY_MAX);
};
