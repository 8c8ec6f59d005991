/** Sample questions shown with an indexed repository, drawn from the prominent definitions of its files. */
import type { SampleCandidate } from "./projection.ts";
import { classifyPath } from "../../retrieval/path-classes.ts";

const TEST_PATH = /(^|\/)(tests?|__tests__|spec|testing|test[-_]helpers?|examples?|fixtures?|benchmarks?)(\/|$)|(_test|\.test|\.spec|_spec)\.\w+$|(^|\/)test_[^/]*$|(^|\/)tests?\.\w+$/i;
/** Tests, examples and benchmarks by these names, and tests by the ranking's (each ecosystem's: `Foo.Tests/`, `jvmTest/`, `BufferTest.kt`). */
const isAuxiliary = (path: string): boolean => TEST_PATH.test(path) || classifyPath(path) === "test";
const KIND_WORD: Record<string, string> = { class: "class", interface: "interface", type: "type", enum: "enum" };
/** The language's words for a type, as a question says them (a C `typedef` is a type). */
const LABEL_WORD: Record<string, string> = {
  class: "class", "abstract class": "class", struct: "struct", union: "union", record: "record", "record struct": "struct", object: "object",
  interface: "interface", trait: "trait", protocol: "protocol", enum: "enum", type: "type", typedef: "type", "type alias": "type",
};
/** Per language, what a definition of kind "class" is when no label says (files recorded before labels were). */
const CLASS_BY_LANGUAGE: Record<string, string> = { go: "struct", rust: "struct", c: "struct" };

/**
 * The word a question uses for a type definition: the language's (`struct`, `enum`, `trait`), from the
 * definition's label, else from its kind and language; undefined for what is not a type.
 */
export function typeWord(kind: string, label: string | undefined, language: string | undefined): string | undefined {
  if (!(kind in KIND_WORD)) return undefined;
  if (label) return LABEL_WORD[label] ?? KIND_WORD[kind];
  return (kind === "class" && language ? CLASS_BY_LANGUAGE[language] : undefined) ?? KIND_WORD[kind];
}

/**
 * A few real questions drawn from the prominent definitions of the indexed files, each naming the
 * definition with the language's word for it: "How does the `Value` enum work?" (a question that called
 * a Rust enum a class was answered with the methods its words matched, not the enum).
 */
export function sampleQuestionsFor(candidates: SampleCandidate[], files: Map<string, string>, max = 5): string[] {
  const scored: { name: string; word: string | undefined; path: string; score: number }[] = [];
  for (const c of candidates) {
    if (files.get(c.path) !== c.blobId) continue;
    const depthPenalty = c.path.split("/").length * 0.1;
    const testPenalty = isAuxiliary(c.path) ? 5 : 0;
    for (const s of c.symbols) {
      const kindWeight = s.kind in KIND_WORD ? 1.5 : s.kind === "function" ? 1.2 : 1;
      scored.push({ name: s.name, word: typeWord(s.kind, s.label, c.language), path: c.path, score: Math.log2(1 + s.lines) * kindWeight - depthPenalty - testPenalty });
    }
  }
  scored.sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : 1));
  const seen = new Set<string>();
  const seenPaths = new Set<string>();
  const questions: string[] = [];
  for (const s of scored) {
    if (questions.length >= max) break;
    if (seen.has(s.name) || seenPaths.has(s.path)) continue;
    seen.add(s.name);
    seenPaths.add(s.path);
    if (s.word) questions.push(`How does the \`${s.name}\` ${s.word} work?`);
    else if (questions.length % 2 === 0) questions.push(`Where is \`${s.name}\` implemented?`);
    else questions.push(`What does \`${s.name}\` in \`${s.path}\` do?`);
  }
  return questions;
}
