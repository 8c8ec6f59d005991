/**
 * Fusion of the ranking with a whole-file lexical ranking (CodeIndex.searchFiles): reciprocal-rank
 * fusion of the two orders. The chunk-based ranking finds where the evidence concentrates; the
 * whole-file one finds files whose words are spread over many chunks, which no single chunk ranks.
 * Only files the ranking would not demote take part (tests, docs, translations and non-code unless the
 * query asks).
 * Used for bug reports (long texts), and for a short query whose candidate chunks were all taken by files
 * the ranking demotes (`crowdedOut`): then the files it keeps come first (see ./search.ts).
 */
import type { FileHit } from "../codeindex/port.ts";
import type { QueryAnalysis } from "./query-analysis.ts";
import { classifyPath } from "./path-classes.ts";
import type { Translations } from "./locales.ts";
import { targetKey, type RankedFile } from "./ranking.ts";
import { demotedClass, queryWants } from "./query-wants.ts";

export const WHOLE_FILE = {
  /** Files taken from the whole-file ranking. */
  limit: 50,
  /** Reciprocal-rank constant. */
  k: 10,
  /** Weight of the whole-file ranking against the chunk-based one (1). */
  weight: 0.3,
  /**
   * A short query's candidates crowded out: fewer files than this among its candidate chunks that the
   * ranking would not demote (a changelog repeating every commit title fills the candidate list).
   */
  crowdedBelow: 3,
} as const;

const REASON = "words across the file";

/** One file of one target, as a map key. */
const fileKey = (repoId: string, branch: string, path: string): string => `${repoId}\u0000${branch}\u0000${path}`;

/**
 * `ranked` (best first) fused with `files` (the whole-file ranking, best first). A file only the
 * whole-file ranking found comes with no chunks (the caller picks its spans). Scores are the fused
 * values scaled to the ranking's best score, so distances still say how far a file falls behind.
 */
export function withWholeFileRanking(ranked: readonly RankedFile[], files: readonly FileHit[], analysis: QueryAnalysis, namesFile?: (path: string) => boolean, translations?: Translations, crowded = false): RankedFile[] {
  if (files.length === 0) return [...ranked];
  const eligible = eligibility(analysis, namesFile, translations);
  const key = (f: { repoId: string; branch: string; path: string }) => fileKey(f.repoId, f.branch, f.path);
  const fused = new Map<string, { file: RankedFile; score: number; first: number; whole: boolean }>();
  ranked.forEach((file, i) => fused.set(key(file), { file, score: 1 / (WHOLE_FILE.k + i + 1), first: i, whole: false }));
  let at = 0;
  for (const hit of files) {
    if (!eligible(hit)) continue;
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
  const fusedOrder = [...fused.values()].sort((a, b) => b.score - a.score || a.first - b.first);
  // Crowded out (crowdedOut): the ranking's candidates were files it demotes; the files it keeps at
  // their weight, found by the whole-file ranking, go before them as they would have had they been candidates.
  const order = crowded ? [...fusedOrder.filter((e) => eligible(e.file)), ...fusedOrder.filter((e) => !eligible(e.file))] : fusedOrder;
  const best = order[0]?.score ?? 1;
  const scale = ranked[0]?.score ?? 1;
  // Scores fall with the order (a demoted file moved after a kept one takes at most its score).
  let previous = Infinity;
  return order.map(({ file, score, whole }) => ({
    ...file,
    score: (previous = Math.min(previous, (score / best) * scale)),
    reasons: whole && !file.reasons.includes(REASON) ? [...file.reasons, REASON] : file.reasons,
  }));
}

/** Whether the ranking keeps a file at its weight for this query: source, or a class the query asks for (not an unasked translation). */
function eligibility(analysis: QueryAnalysis, namesFile?: (path: string) => boolean, translations?: Translations): (file: { repoId: string; branch: string; path: string }) => boolean {
  const wants = queryWants(analysis, namesFile);
  return (file) => {
    // The ranking's own demotion (./query-wants.ts): non-code files (`other`) weigh less too.
    const cls = classifyPath(file.path);
    return cls !== "other" && !demotedClass(cls, wants) && !translations?.unasked(targetKey(file.repoId, file.branch), file.path);
  };
}

/**
 * Whether a query's candidate chunks (a full list: the caller checks) come from fewer than
 * `WHOLE_FILE.crowdedBelow` files the ranking keeps at their weight: release notes, docs or tests
 * matching the query's words chunk after chunk took the candidate list, and the code never entered it.
 * The whole-file ranking then brings the code's files.
 */
export function crowdedOut(hits: Iterable<{ doc: { repoId: string; path: string }; branch: string }>, analysis: QueryAnalysis, namesFile?: (path: string) => boolean, translations?: Translations): boolean {
  const eligible = eligibility(analysis, namesFile, translations);
  const seen = new Set<string>();
  let kept = 0;
  for (const h of hits) {
    const k = fileKey(h.doc.repoId, h.branch, h.doc.path);
    if (seen.has(k)) continue;
    seen.add(k);
    if (eligible({ repoId: h.doc.repoId, branch: h.branch, path: h.doc.path }) && ++kept >= WHOLE_FILE.crowdedBelow) return false;
  }
  return true;
}
