/**
 * The evaluation's metrics (shared/eval/README.md), pure:
 * - file rank: the rank of the first gold file among the DISTINCT files returned (first occurrence order);
 * - span rank: the rank among ALL references returned of the first whose file is a gold file and whose
 *   [linestart, lineend] holds a line the fix changed in the old file (scripts/eval/diff.ts); a
 *   reference without lines never counts;
 * - Acc@k / span@k: the share of cases (percent, one decimal) whose rank is at most k.
 */
import type { ChangedLines } from "./diff.ts";

export const KS = [1, 3, 5, 10] as const;

export type Reference = { filepath: string; linestart: number | null; lineend: number | null };

/** 1-based rank of the first gold file among the distinct files of `files`, or null. */
export function fileRank(files: readonly string[], gold: readonly string[]): number | null {
  const goldSet = new Set(gold);
  const seen = new Set<string>();
  for (const f of files) {
    if (seen.has(f)) continue;
    seen.add(f);
    if (goldSet.has(f)) return seen.size;
  }
  return null;
}

/** Whether a reference's lines hold one of `lines` (ascending). */
export function overlaps(ref: Reference, lines: readonly number[] | undefined): boolean {
  if (!lines || lines.length === 0 || ref.linestart === null || ref.lineend === null) return false;
  const lo = Math.min(ref.linestart, ref.lineend);
  const hi = Math.max(ref.linestart, ref.lineend);
  return lines.some((l) => l >= lo && l <= hi);
}

/** 1-based rank among all `refs` of the first on a gold file that overlaps a changed line, or null. */
export function spanRank(refs: readonly Reference[], gold: readonly string[], changed: ChangedLines): number | null {
  const goldSet = new Set(gold);
  const i = refs.findIndex((r) => goldSet.has(r.filepath) && overlaps(r, changed.get(r.filepath)));
  return i === -1 ? null : i + 1;
}

/** Percent of `ranks` at most k, one decimal, for each k of KS (`prefix@k` keys). */
export function rates(ranks: readonly (number | null)[], prefix: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of KS) out[`${prefix}@${k}`] = ranks.length === 0 ? 0 : Math.round((1000 * ranks.filter((r) => r !== null && r <= k).length) / ranks.length) / 10;
  return out;
}

/** The value at quantile q (0..1) of ascending `sorted` (nearest rank); 0 when empty. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}
