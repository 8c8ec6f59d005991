/**
 * Why files of a pull request were not reviewed, in words a reader of a SKIPPED review's reason
 * understands: `src/logo.png (binary), src/old.py (deleted) and 2 more`.
 */
import type { DiffFile } from "./diff.ts";
import { isSkippedPath } from "./analysers/context.ts";

export type SkippedFile = { path: string; reason: string };

/**
 * The reason a changed file is left out of the review, or null when it is reviewed. A deleted file, or
 * one without added lines, that has findings on the file as a whole (`wholeFileFindings`: others still
 * import it, src/review/graph/broken-imports.ts, or still call a definition it removes,
 * src/review/graph/broken-callers.ts) is reviewed.
 */
export function skipReasonOf(file: DiffFile, ignored: (path: string) => boolean, options: { wholeFileFindings?: boolean } = {}): string | null {
  const found = options.wholeFileFindings === true && !file.binary;
  if (file.status === "deleted" && !found) return "deleted";
  if (file.binary) return "binary";
  if (ignored(file.path)) return "ignored by .loupe rules";
  if (isSkippedPath(file.path)) return "generated, vendored or lock file";
  if (file.additions === 0 && !found) {
    if (file.status === "renamed" && file.deletions === 0) return `renamed from ${file.oldPath ?? "another path"} without changes`;
    return "no added lines";
  }
  return null;
}

/** The first `limit` skipped files with their reasons, then how many more. */
export function describeSkipped(skipped: readonly SkippedFile[], limit = 5): string {
  const shown = skipped.slice(0, limit).map((s) => `${s.path} (${s.reason})`);
  const more = skipped.length - shown.length;
  if (more > 0) return `${shown.join(", ")} and ${more} more`;
  if (shown.length <= 1) return shown.join("");
  return `${shown.slice(0, -1).join(", ")} and ${shown[shown.length - 1]}`;
}
