/**
 * Definitions inside a chunk: a chunk that holds, below its first line, the definition of a name (a
 * plugin's `proto.utcOffset = function` inside the one function it is, a method of a class kept whole, a
 * nested function). ./ranking.ts gives such a chunk a share of the definition bonus.
 */
import type { ChunkDocument } from "../codeindex/port.ts";
import { definitionsIn } from "./definition-span.ts";

/** Whether a chunk defines `name` below its first line (`definitionsIn`), remembered per chunk and name. */
export function definesInside(doc: ChunkDocument, name: string): boolean {
  let byName = insideCache.get(doc);
  if (!byName) insideCache.set(doc, (byName = new Map()));
  let yes = byName.get(name);
  if (yes === undefined) {
    // Only a line with the name before any assignment, string or `return` can define it.
    yes = startsALine(doc.text, name) && namesDefinedIn(doc).has(name);
    byName.set(name, yes);
  }
  return yes;
}
/** The chunks' answers, as long as the index keeps the chunk objects (they come back query after query). */
const insideCache = new WeakMap<ChunkDocument, Map<string, boolean>>();

/** The names a chunk defines below its first line, read once per chunk however many names are asked of it. */
function namesDefinedIn(doc: ChunkDocument): ReadonlySet<string> {
  let names = namesCache.get(doc);
  if (!names) namesCache.set(doc, (names = new Set(definitionsIn(doc.text, doc.startLine, doc.language).map((d) => d.name))));
  return names;
}
const namesCache = new WeakMap<ChunkDocument, ReadonlySet<string>>();

/** Whether a line of `text` has `name` before any assignment, string or `return` (where a definition names itself). */
function startsALine(text: string, name: string): boolean {
  for (let at = text.indexOf(name); at !== -1; at = text.indexOf(name, at + 1)) {
    const lineStart = text.lastIndexOf("\n", at) + 1;
    if (LINE_HEAD.test(text.slice(lineStart, at))) return true;
  }
  return false;
}
const LINE_HEAD = /^(?![^=;"'`]*\breturn\b)[^=;"'`]*$/;
