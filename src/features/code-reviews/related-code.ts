/**
 * Related code for the chat model's review of one file, from the code index of the pull request's
 * repository (its indexed target/default branch): the definitions of identifiers used on added lines
 * that live elsewhere in the repository. Bounded: a few definitions, MAX_CHARS in all. (The changed
 * file as it was before the change comes from the pull request's base commit, not from the index:
 * see reviewer.ts.)
 */
import type { DiffFile } from "../../review/diff.ts";
import { STRING_LITERAL } from "../../review/graph/similarity.ts";
import type { ChunkDocument, CodeIndex } from "../../codeindex/port.ts";

const MAX_CHARS = 6000;
const MAX_CHUNK_CHARS = 1500;
const MAX_IDENTIFIERS = 16;
const MAX_DEFINITIONS = 6;

const KEYWORDS = new Set(
  (
    "abstract and as async await boolean break case catch class const continue def default del delete do elif else enum except export extends " +
    "false final finally fn for from func function get global if impl implements import in instanceof interface is let match mod module mut new " +
    "nil none not null number object of or package pass private protected pub public raise readonly return self set static string struct super " +
    "switch this throw true try type typeof undefined use var void while with yield console Math JSON Object Array Promise String Number Date Error"
  ).split(" "),
);

/** Identifiers on the added lines, in order of first use (keywords and very short names left out). */
export function identifiersOnAddedLines(file: DiffFile, max = MAX_IDENTIFIERS): string[] {
  const seen = new Set<string>();
  for (const h of file.hunks) {
    for (const l of h.lines) {
      if (l.kind !== "add") continue;
      const code = l.text.replace(STRING_LITERAL, " ").replace(/\/\/.*$|#.*$/, "");
      for (const m of code.matchAll(/[A-Za-z_$][\w$]*/g)) {
        const name = m[0];
        if (name.length < 3 || KEYWORDS.has(name) || seen.has(name)) continue;
        seen.add(name);
        if (seen.size >= max) return [...seen];
      }
    }
  }
  return [...seen];
}

const block = (doc: ChunkDocument) =>
  `--- ${doc.path}:${doc.startLine}-${doc.endLine}${doc.symbol ? ` (${doc.kind} ${doc.symbol})` : ""}\n${doc.text.length > MAX_CHUNK_CHARS ? `${doc.text.slice(0, MAX_CHUNK_CHARS)}\n...` : doc.text}`;

export async function relatedCodeFor(
  codeIndex: CodeIndex,
  target: { orgId: string; repoId: string; branch: string },
  file: DiffFile,
): Promise<string | undefined> {
  const parts: string[] = [];
  let used = 0;
  const add = (text: string) => {
    if (used + text.length > MAX_CHARS) return false;
    parts.push(text);
    used += text.length + 1;
    return true;
  };

  // Definitions of identifiers used on added lines, found elsewhere in the repository.
  const names = identifiersOnAddedLines(file);
  if (names.length > 0) {
    const hits = await codeIndex.searchLexical(names.join(" "), { orgId: target.orgId, targets: [{ repoId: target.repoId, branch: target.branch }] }, 100);
    const taken = new Set<string>();
    const definitions: string[] = [];
    // In the order the names are used on the added lines.
    for (const name of names) {
      const hit = hits.find((h) => h.doc.symbol === name && h.doc.path !== file.path && !taken.has(h.doc.id));
      if (!hit) continue;
      taken.add(hit.doc.id);
      definitions.push(block(hit.doc));
      if (definitions.length >= MAX_DEFINITIONS) break;
    }
    if (definitions.length > 0) add("Definitions used by the added lines:");
    for (const d of definitions) if (!add(d)) break;
  }

  return parts.length > 0 ? parts.join("\n") : undefined;
}
