/** What an analyser (or a custom-context pattern) reports about a change. */
import type { DiffFile } from "./diff.ts";

export const SEVERITIES = ["critical", "high", "medium", "low", "info"] as const;
export type Severity = (typeof SEVERITIES)[number];

export type Finding = {
  /** Stable identifier of the rule, e.g. "secrets/aws-access-key-id" or "custom-pattern". */
  ruleId: string;
  severity: Severity;
  /** Path in the new revision of the change. */
  path: string;
  /**
   * New-file line range (1-based, inclusive); every line in it is an added line of the diff. Both
   * WHOLE_FILE_LINE for a finding on the file as a whole (a deleted or moved file has no added line).
   */
  lineStart: number;
  lineEnd: number;
  /** Markdown, concise and specific. Never contains a full secret. */
  message: string;
  /** Replacement code for exactly lines lineStart..lineEnd; "" deletes those lines. */
  suggestion?: string;
  /** Custom context (PATTERN) that produced the finding; becomes the comment's linkedMemory. */
  customContextId?: string;
  /**
   * A finding on the file as a whole that may have others of its rule beside it (one per removed
   * definition): what it is about, which keeps their fingerprints apart as the lines' text does for
   * the others (./dedupe.ts).
   */
  subject?: string;
};

/** The lines of a finding on a file as a whole: its comment has no line, and the summary carries its whole message. */
export const WHOLE_FILE_LINE = 0;

export const isWholeFile = (f: Pick<Finding, "lineStart">): boolean => f.lineStart === WHOLE_FILE_LINE;

/** 0 for critical .. 4 for info: lower is more severe. */
export function severityRank(severity: Severity): number {
  return SEVERITIES.indexOf(severity);
}

export function isSeverity(value: unknown): value is Severity {
  return typeof value === "string" && (SEVERITIES as readonly string[]).includes(value);
}

/** True when the finding points at added lines of `file` only (the rule every finding must satisfy). */
export function isValidFindingLocation(finding: Finding, file: DiffFile): boolean {
  if (finding.path !== file.path || finding.lineStart < 1 || finding.lineEnd < finding.lineStart) return false;
  const added = new Set<number>();
  for (const h of file.hunks) for (const l of h.lines) if (l.kind === "add" && l.newLine !== null) added.add(l.newLine);
  for (let n = finding.lineStart; n <= finding.lineEnd; n++) if (!added.has(n)) return false;
  return true;
}

/** Orders findings by path, line, then severity (most severe first), then rule id: deterministic output. */
export function compareFindings(a: Finding, b: Finding): number {
  if (a.path !== b.path) return a.path < b.path ? -1 : 1;
  if (a.lineStart !== b.lineStart) return a.lineStart - b.lineStart;
  const s = severityRank(a.severity) - severityRank(b.severity);
  if (s !== 0) return s;
  return a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0;
}
