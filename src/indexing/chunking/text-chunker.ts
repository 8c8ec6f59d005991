import type { Chunk, ChunkedFile } from "../chunk.ts";
import { summarizeChunk, summarizeFile } from "../summary.ts";
import type { LanguageInfo } from "./languages.ts";
import { isBlank, lineWindows, rowsText, splitLines, trimBlankRows, type RowRange, type WindowLimits } from "./line-windows.ts";

/** Plain text (config, data, prose): line windows with a small overlap, about 2-3 KB each. */
export const TEXT_WINDOW: WindowLimits = { maxLines: 60, maxChars: 3000, overlap: 5 };
/** Markdown/reStructuredText sections longer than this are cut into windows that keep the title. */
export const SECTION_WINDOW: WindowLimits = { maxLines: 80, maxChars: 4000, overlap: 3 };

const baseName = (path: string): string => path.slice(path.lastIndexOf("/") + 1);

const firstMeaningfulLine = (lines: readonly string[], range: RowRange, skip?: (line: string) => boolean): string | null => {
  for (let row = range.start; row <= range.end; row++) {
    const line = lines[row] ?? "";
    if (!isBlank(line) && !skip?.(line)) return line.trim();
  }
  return null;
};

/** Line-window chunks over the whole file (text files, and the fallback when parsing fails). */
export const chunkByLines = (path: string, lines: readonly string[], language: LanguageInfo, limits: WindowLimits = TEXT_WINDOW): Chunk[] =>
  lineWindows(lines, { start: 0, end: lines.length - 1 }, limits).map((range) => {
    const base = {
      startLine: range.start + 1,
      endLine: range.end + 1,
      kind: "lines" as const,
      symbol: null,
      parent: null,
      signature: null,
      doc: null,
    };
    return {
      ...base,
      text: rowsText(lines, range),
      summary: summarizeChunk({
        ...base,
        fileName: baseName(path),
        languageName: language.name,
        firstLine: firstMeaningfulLine(lines, range),
      }),
    };
  });

type Heading = { row: number; level: number; title: string };

const ATX_HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
const RST_ADORNMENT = /^([=\-~^"'`+#*:.])\1{2,}\s*$/;

const cleanTitle = (title: string): string =>
  title
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[`*_]/g, "")
    .trim();

const markdownHeadings = (lines: readonly string[]): Heading[] => {
  const headings: Heading[] = [];
  let fence: string | null = null;
  let row = 0;
  // YAML front matter belongs to the preamble.
  if (lines[0]?.trim() === "---") {
    const close = lines.findIndex((line, i) => i > 0 && /^(---|\.\.\.)\s*$/.test(line));
    if (close > 0) row = close + 1;
  }
  for (; row < lines.length; row++) {
    const line = lines[row]!;
    const fenceMatch = FENCE.exec(line);
    if (fenceMatch) {
      const marker = fenceMatch[1]!;
      if (fence === null) fence = marker[0]!.repeat(3);
      else if (marker.startsWith(fence)) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const atx = ATX_HEADING.exec(line);
    if (atx) {
      headings.push({ row, level: atx[1]!.length, title: cleanTitle(atx[2]!) });
      continue;
    }
    const next = lines[row + 1];
    if (next !== undefined && !isBlank(line) && SETEXT_UNDERLINE.test(next) && !/^\s*([-*+]|\d+\.)\s/.test(line) && !/^\s{4}/.test(line)) {
      headings.push({ row, level: next.trim().startsWith("=") ? 1 : 2, title: cleanTitle(line) });
      row++;
    }
  }
  return headings;
};

const rstHeadings = (lines: readonly string[]): Heading[] => {
  const headings: Heading[] = [];
  const styles: string[] = [];
  for (let row = 0; row + 1 < lines.length; row++) {
    const line = lines[row]!;
    const under = lines[row + 1]!;
    if (isBlank(line) || RST_ADORNMENT.test(line) || !RST_ADORNMENT.test(under)) continue;
    if (under.trimEnd().length < line.trimEnd().length) continue;
    const over = row > 0 && RST_ADORNMENT.test(lines[row - 1]!) ? lines[row - 1]![0] : "";
    const style = `${over}${under[0]}`;
    if (!styles.includes(style)) styles.push(style);
    headings.push({ row: over ? row - 1 : row, level: styles.indexOf(style) + 1, title: cleanTitle(line) });
    row++;
  }
  return headings;
};

type Section = { range: RowRange; title: string | null; parent: string | null };

const sectionsOf = (lines: readonly string[], headings: readonly Heading[]): Section[] => {
  const sections: Section[] = [];
  const first = headings[0];
  if (!first || first.row > 0) sections.push({ range: { start: 0, end: (first?.row ?? lines.length) - 1 }, title: null, parent: null });
  const stack: Heading[] = [];
  headings.forEach((heading, i) => {
    while (stack.length && stack[stack.length - 1]!.level >= heading.level) stack.pop();
    const parent = stack.length ? stack[stack.length - 1]!.title : null;
    stack.push(heading);
    const end = (headings[i + 1]?.row ?? lines.length) - 1;
    sections.push({ range: { start: heading.row, end }, title: heading.title || null, parent });
  });
  // A heading with nothing under it but a sub-heading joins the next section.
  const merged: Section[] = [];
  let carryStart: number | null = null;
  for (const [i, section] of sections.entries()) {
    const body = trimBlankRows(lines, { start: section.range.start + 1, end: section.range.end });
    const isLast = i === sections.length - 1;
    if (section.title !== null && !body && !isLast) {
      carryStart ??= section.range.start;
      continue;
    }
    merged.push(carryStart === null ? section : { ...section, range: { start: carryStart, end: section.range.end } });
    carryStart = null;
  }
  return merged;
};

const isHeadingLine = (line: string): boolean => ATX_HEADING.test(line) || RST_ADORNMENT.test(line) || SETEXT_UNDERLINE.test(line);

const chunkSections = (lines: readonly string[], sections: readonly Section[]): Chunk[] => {
  const chunks: Chunk[] = [];
  for (const section of sections) {
    const trimmed = trimBlankRows(lines, section.range);
    if (!trimmed) continue;
    const windows = lineWindows(lines, trimmed, SECTION_WINDOW);
    windows.forEach((range, index) => {
      const base = {
        startLine: range.start + 1,
        endLine: range.end + 1,
        kind: "section" as const,
        symbol: section.title,
        parent: section.parent,
        signature: null,
        doc: null,
      };
      chunks.push({
        ...base,
        text: rowsText(lines, range),
        summary: summarizeChunk({
          ...base,
          part: windows.length > 1 ? { index: index + 1, count: windows.length } : undefined,
          firstLine: firstMeaningfulLine(lines, range, (line) => isHeadingLine(line) || line.trim() === section.title),
        }),
      });
    });
  }
  return chunks;
};

const MAX_FACT_NAMES = 10;
const listFact = (label: string, names: readonly string[]): string[] => {
  const unique = [...new Set(names)].filter(Boolean);
  if (!unique.length) return [];
  const shown = unique.slice(0, MAX_FACT_NAMES).join(", ");
  return [`${label}: ${shown}${unique.length > MAX_FACT_NAMES ? ` (+${unique.length - MAX_FACT_NAMES} more)` : ""}`];
};

const matchAll = (lines: readonly string[], pattern: RegExp, limit = 200): string[] => {
  const out: string[] = [];
  for (const line of lines) {
    const m = pattern.exec(line);
    if (m?.[1]) out.push(m[1]);
    if (out.length >= limit) break;
  }
  return out;
};

const JSON_KEYS_MAX_BYTES = 1_000_000;

/** Cheap facts about data/config files that make their summaries useful. */
const textFacts = (languageId: string, content: string, lines: readonly string[]): string[] => {
  switch (languageId) {
    case "json": {
      if (content.length > JSON_KEYS_MAX_BYTES) return [];
      try {
        const value: unknown = JSON.parse(content);
        if (Array.isArray(value)) return [`array of ${value.length} items`];
        if (value && typeof value === "object") return listFact("top-level keys", Object.keys(value));
      } catch {
        return matchAll(lines, /^ {2}"([^"]+)"\s*:/).length ? listFact("keys", matchAll(lines, /^ {2}"([^"]+)"\s*:/)) : [];
      }
      return [];
    }
    case "yaml":
      return listFact("top-level keys", matchAll(lines, /^([A-Za-z_][\w.-]*)\s*:/));
    case "toml":
    case "ini":
      return listFact("sections", matchAll(lines, /^\s*\[{1,2}([^\]]+)\]{1,2}\s*$/));
    case "dockerfile":
      return listFact("base images", matchAll(lines, /^\s*FROM\s+(?:--\S+\s+)*(\S+)/i));
    case "makefile":
      return listFact("targets", matchAll(lines, /^([A-Za-z0-9_./-]+)\s*:(?!=)/).filter((t) => !t.startsWith(".")));
    case "sql":
      return listFact(
        "defines",
        matchAll(lines, /^\s*create\s+(?:or\s+replace\s+)?(?:unique\s+)?(?:table|view|index|function|procedure|trigger|type|materialized\s+view)\s+(?:if\s+not\s+exists\s+)?([\w."]+)/i),
      );
    case "protobuf":
      return listFact("messages/services", matchAll(lines, /^\s*(?:message|service|enum)\s+(\w+)/));
    case "graphql":
      return listFact("types", matchAll(lines, /^\s*(?:type|input|interface|enum|union|scalar)\s+(\w+)/));
    case "terraform":
      return listFact("blocks", matchAll(lines, /^(?:resource|module|variable|output|data)\s+"([^"]+)"/));
    default:
      return [];
  }
};

/** Chunk a text file: markdown and reStructuredText by sections, everything else by line windows. */
export const chunkText = (path: string, content: string, language: LanguageInfo): ChunkedFile => {
  const lines = splitLines(content);
  const headings = language.id === "markdown" ? markdownHeadings(lines) : language.id === "rst" ? rstHeadings(lines) : [];
  if (headings.length) {
    const sections = sectionsOf(lines, headings);
    const chunks = chunkSections(lines, sections);
    const symbols = sections
      .filter((s) => s.title !== null)
      .map((s) => ({ name: s.title!, kind: "section" as const, parent: s.parent, startLine: s.range.start + 1, endLine: s.range.end + 1 }));
    const title = headings.find((h) => h.level === 1)?.title ?? null;
    const topLevel = headings.filter((h) => h.level === Math.min(...headings.filter((x) => x.title !== title).map((x) => x.level)));
    const firstParagraph = firstMeaningfulLine(lines, { start: 0, end: lines.length - 1 }, (line) => isHeadingLine(line) || /^\s*(\[!\[|!\[|<|---)/.test(line));
    return {
      path,
      language: language.id,
      summary: summarizeFile({
        path,
        languageName: language.name,
        chunking: "text",
        symbols: [],
        moduleDoc: firstParagraph,
        facts: [...(title ? [`titled "${title}"`] : []), ...listFact("sections", topLevel.map((h) => h.title).filter((t) => t !== title))],
        lineCount: lines.length,
      }),
      symbols,
      chunks,
    };
  }
  return {
    path,
    language: language.id,
    summary: summarizeFile({
      path,
      languageName: language.name,
      chunking: "text",
      symbols: [],
      moduleDoc: null,
      facts: textFacts(language.id, content, lines),
      lineCount: lines.length,
    }),
    symbols: [],
    chunks: chunkByLines(path, lines, language),
  };
};
