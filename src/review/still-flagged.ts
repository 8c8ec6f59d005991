/**
 * Whether the rule that made a service comment still fires on the rewritten lines of a later version
 * (addressed detection, ./addressed.ts): the analysers, or the comment's PATTERN, are run again on a
 * window of the new file around the rewritten region. A model's finding cannot be re-run: undefined.
 */
import type { DiffFile } from "./diff.ts";
import { runAnalysers } from "./analysers/index.ts";
import { matchPatterns, type CustomContextLike } from "./patterns.ts";
import type { StillFlagged } from "./addressed.ts";

const WINDOW = 30;

/** New-file lines from..to (1-based) as the added lines of a change, so the analysers see them with their neighbours. */
export function addedWindow(path: string, newLines: readonly string[], from: number, to: number): DiffFile {
  const lines = newLines.slice(from - 1, to).map((text, i) => ({ kind: "add" as const, text, oldLine: null, newLine: from + i }));
  return {
    oldPath: path,
    newPath: path,
    path,
    status: "modified",
    binary: false,
    similarity: null,
    hunks: [{ oldStart: from, oldLines: 0, newStart: from, newLines: lines.length, section: "", lines }],
    additions: lines.length,
    deletions: 0,
  };
}

export function stillFlaggedBy(
  comment: { path: string; ruleId?: string | null | undefined; customContextId?: string | null | undefined },
  options: { repository: string; contexts: readonly CustomContextLike[] },
): StillFlagged | undefined {
  const ruleId = comment.ruleId;
  // A model's finding, or one from the code graph (graph/...: it needs the index and the rest of the repository), cannot be re-run on a window of one file.
  if (!ruleId || ruleId.startsWith("model") || ruleId.startsWith("graph/")) return undefined;
  const context = ruleId === "custom-pattern" ? options.contexts.find((c) => c.id === comment.customContextId) : undefined;
  if (ruleId === "custom-pattern" && !context) return undefined; // a `.loupe/` rule, or a pattern switched off since
  return (newLines, lo, hi) => {
    if (lo > hi) return null;
    const file = addedWindow(comment.path, newLines, Math.max(1, lo - WINDOW), Math.min(newLines.length, hi + WINDOW));
    const findings = context ? matchPatterns(file, [context], { repository: options.repository }) : runAnalysers(file);
    return findings.find((f) => f.ruleId === ruleId && f.lineStart >= lo && f.lineStart <= hi)?.lineStart ?? null;
  };
}
