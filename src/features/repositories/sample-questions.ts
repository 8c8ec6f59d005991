/** Sample questions shown with an indexed repository, drawn from the prominent definitions of its files. */
import type { SampleCandidate } from "./projection.ts";

const TEST_PATH = /(^|\/)(tests?|__tests__|spec|testing|examples?|fixtures?|benchmarks?)(\/|$)|(_test|\.test|\.spec|_spec)\.\w+$|(^|\/)test_[^/]*$/i;
const KIND_WORD: Record<string, string> = { class: "class", interface: "interface", type: "type", enum: "enum" };

/** A few real questions drawn from the prominent definitions of the indexed files. */
export function sampleQuestionsFor(candidates: SampleCandidate[], files: Map<string, string>, max = 5): string[] {
  const scored: { name: string; kind: string; path: string; score: number }[] = [];
  for (const c of candidates) {
    if (files.get(c.path) !== c.blobId) continue;
    const depthPenalty = c.path.split("/").length * 0.1;
    const testPenalty = TEST_PATH.test(c.path) ? 5 : 0;
    for (const s of c.symbols) {
      const kindWeight = s.kind in KIND_WORD ? 1.5 : s.kind === "function" ? 1.2 : 1;
      scored.push({ name: s.name, kind: s.kind, path: c.path, score: Math.log2(1 + s.lines) * kindWeight - depthPenalty - testPenalty });
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
    const word = KIND_WORD[s.kind];
    if (word) questions.push(`How does the \`${s.name}\` ${word} work?`);
    else if (questions.length % 2 === 0) questions.push(`Where is \`${s.name}\` implemented?`);
    else questions.push(`What does \`${s.name}\` in \`${s.path}\` do?`);
  }
  return questions;
}
