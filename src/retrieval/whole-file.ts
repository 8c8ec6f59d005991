/**
 * Fusion of the ranking with a whole-file lexical ranking (CodeIndex.searchFiles): reciprocal-rank
 * fusion of the two orders. The chunk-based ranking finds where the evidence concentrates; the
 * whole-file one finds files whose words are spread over many chunks, which no single chunk ranks.
 * Only files the ranking would not demote take part (tests, docs, translations and non-code unless the
 * query asks).
 * Used for bug reports (long texts) only: see ./search.ts.
 */
import type { FileHit } from "../codeindex/port.ts";
import type { QueryAnalysis } from "./query-analysis.ts";
import { classifyPath } from "./path-classes.ts";
import type { Translations } from "./locales.ts";
import { targetKey, type RankedFile } from "./ranking.ts";
import { queryWants } from "./query-wants.ts";

export const WHOLE_FILE = {
  /** Files taken from the whole-file ranking. */
  limit: 50,
  /** Reciprocal-rank constant. */
  k: 10,
  /** Weight of the whole-file ranking against the chunk-based one (1). */
  weight: 0.3,
} as const;

const REASON = "words across the file";

/**
 * `ranked` (best first) fused with `files` (the whole-file ranking, best first). A file only the
 * whole-file ranking found comes with no chunks (the caller picks its spans). Scores are the fused
 * values scaled to the ranking's best score, so distances still say how far a file falls behind.
 */
export function withWholeFileRanking(ranked: readonly RankedFile[], files: readonly FileHit[], analysis: QueryAnalysis, namesFile?: (path: string) => boolean, translations?: Translations): RankedFile[] {
  if (files.length === 0) return [...ranked];
  const wants = queryWants(analysis, namesFile);
  const key = (f: { repoId: string; branch: string; path: string }) => `${f.repoId}\u0000${f.branch}\u0000${f.path}`;
  const fused = new Map<string, { file: RankedFile; score: number; first: number; whole: boolean }>();
  ranked.forEach((file, i) => fused.set(key(file), { file, score: 1 / (WHOLE_FILE.k + i + 1), first: i, whole: false }));
  let at = 0;
  for (const hit of files) {
    const cls = classifyPath(hit.path);
    const eligible = cls === "source" || (cls === "test" && wants.tests) || (cls === "doc" && wants.docs) || (cls === "declaration" && wants.declarations);
    if (!eligible || translations?.unasked(targetKey(hit.repoId, hit.branch), hit.path)) continue;
    const add = WHOLE_FILE.weight / (WHOLE_FILE.k + ++at);
    const entry = fused.get(key(hit));
    if (entry) {
      entry.score += add;
      entry.whole = true;
    } else {
      const file: RankedFile = { repoId: hit.repoId, branch: hit.branch, path: hit.path, score: 0, chunks: [], reasons: [] };
      fused.set(key(hit), { file, score: add, first: ranked.length + at, whole: true });
    }
  }
  const order = [...fused.values()].sort((a, b) => b.score - a.score || a.first - b.first);
  const best = order[0]?.score ?? 1;
  const scale = ranked[0]?.score ?? 1;
  return order.map(({ file, score, whole }) => ({
    ...file,
    score: (score / best) * scale,
    reasons: whole && !file.reasons.includes(REASON) ? [...file.reasons, REASON] : file.reasons,
  }));
}
