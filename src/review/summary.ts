/**
 * Markdown for the review: the summary comment (overview, findings by severity, file table,
 * confidence line) and inline comment bodies with GitHub/GitLab-style ```suggestion blocks.
 */
import type { DiffFile } from "./diff.ts";
import { SEVERITIES, severityRank, type Finding, type Severity } from "./findings.ts";
import { minSeverityFor, normalizeStrictness } from "./strictness.ts";

export const MAX_SUMMARY_FILES = 100;
export const MAX_SUMMARY_FINDINGS = 20;

export type SummaryInput = {
  files: readonly DiffFile[];
  /** Findings that will be posted (already filtered by strictness and deduplicated). */
  findings: readonly Finding[];
  strictness?: number;
  title?: string;
  /** Files left out of the review, e.g. ignored by `.loupe` rules or too large. */
  skipped?: readonly { path: string; reason: string }[];
};

export type Confidence = { score: 1 | 2 | 3 | 4 | 5; reason: string };

/**
 * Confidence that the change is safe to merge, from the findings alone:
 * 1 any critical; 2 two or more high; 3 one high or three or more medium; 4 one or two medium;
 * 5 nothing above low.
 */
export function confidenceFor(findings: readonly Pick<Finding, "severity">[]): Confidence {
  const count = (s: Severity) => findings.filter((f) => f.severity === s).length;
  const critical = count("critical");
  const high = count("high");
  const medium = count("medium");
  if (critical > 0) return { score: 1, reason: `${critical} critical issue${critical > 1 ? "s" : ""} must be fixed before merging` };
  if (high >= 2) return { score: 2, reason: `${high} high-severity issues need attention` };
  if (high === 1) return { score: 3, reason: "one high-severity issue needs attention" };
  if (medium >= 3) return { score: 3, reason: `${medium} medium-severity issues` };
  if (medium > 0) return { score: 4, reason: `${medium} medium-severity issue${medium > 1 ? "s" : ""}, otherwise looks safe` };
  return { score: 5, reason: "no issues above low severity found" };
}

export function escapeTableCell(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
}

function code(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((r) => r.length));
  const fence = "`".repeat(longest + 1);
  const pad = longest > 0 ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}

function fileLabel(f: DiffFile): string {
  if (f.status === "renamed" && f.oldPath && f.newPath) return `${code(f.oldPath)} → ${code(f.newPath)}`;
  return code(f.path);
}

function firstLine(message: string): string {
  const line = message.split("\n").find((l) => l.trim() !== "") ?? "";
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}

export function renderSummary(input: SummaryInput): string {
  const { files, findings } = input;
  const strictness = normalizeStrictness(input.strictness);
  const additions = files.reduce((n, f) => n + f.additions, 0);
  const deletions = files.reduce((n, f) => n + f.deletions, 0);
  const bySeverity = new Map<Severity, number>();
  for (const f of findings) bySeverity.set(f.severity, (bySeverity.get(f.severity) ?? 0) + 1);
  const perFile = new Map<string, number>();
  for (const f of findings) perFile.set(f.path, (perFile.get(f.path) ?? 0) + 1);

  const out: string[] = [];
  out.push(input.title ? `## Review: ${input.title}` : "## Review summary");
  out.push("");
  const counts = SEVERITIES.filter((s) => bySeverity.has(s)).map((s) => `${bySeverity.get(s)} ${s}`);
  out.push(
    `**${files.length} file${files.length === 1 ? "" : "s"} changed** (+${additions} / -${deletions}). ` +
      (findings.length === 0 ? "**No findings.**" : `**${findings.length} finding${findings.length === 1 ? "" : "s"}**: ${counts.join(", ")}.`),
  );

  if (findings.length > 0) {
    out.push("", "### Findings", "");
    const sorted = [...findings].sort((a, b) => severityRank(a.severity) - severityRank(b.severity) || (a.path < b.path ? -1 : a.path > b.path ? 1 : a.lineStart - b.lineStart));
    for (const f of sorted.slice(0, MAX_SUMMARY_FINDINGS)) {
      const where = f.lineStart === f.lineEnd ? `${f.lineStart}` : `${f.lineStart}-${f.lineEnd}`;
      out.push(`- **${f.severity}** ${code(`${f.path}:${where}`)}: ${firstLine(f.message)}`);
    }
    if (sorted.length > MAX_SUMMARY_FINDINGS) out.push(`- …and ${sorted.length - MAX_SUMMARY_FINDINGS} more (see the inline comments)`);
  }

  if (files.length > 0) {
    out.push("", "### Files", "", "| File | Change | + | - | Findings |", "|---|---|---:|---:|---:|");
    const sortedFiles = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    for (const f of sortedFiles.slice(0, MAX_SUMMARY_FILES)) {
      const change = f.binary ? `${f.status} (binary)` : f.status;
      out.push(`| ${escapeTableCell(fileLabel(f))} | ${change} | ${f.additions} | ${f.deletions} | ${perFile.get(f.path) ?? 0} |`);
    }
    if (sortedFiles.length > MAX_SUMMARY_FILES) out.push(`| …and ${sortedFiles.length - MAX_SUMMARY_FILES} more files | | | | |`);
  }

  if (input.skipped && input.skipped.length > 0) {
    out.push("", `<details><summary>${input.skipped.length} file${input.skipped.length === 1 ? "" : "s"} not reviewed</summary>`, "");
    for (const s of input.skipped.slice(0, MAX_SUMMARY_FILES)) out.push(`- ${code(s.path)}: ${s.reason}`);
    out.push("", "</details>");
  }

  const confidence = confidenceFor(findings);
  out.push("", `**Confidence score: ${confidence.score}/5**: ${confidence.reason}.`);
  out.push("", `<sub>Strictness ${strictness}: showing ${minSeverityFor(strictness)} and above.</sub>`);
  return `${out.join("\n")}\n`;
}

export type InlineComment = {
  path: string;
  lineStart: number;
  lineEnd: number;
  body: string;
  hasSuggestion: boolean;
  suggestedCode: string | null;
};

/** A ```suggestion block; the fence is longer than any backtick run in the code. */
export function suggestionBlock(suggestedCode: string): string {
  const longest = Math.max(0, ...(suggestedCode.match(/`{3,}/g) ?? []).map((r) => r.length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return `${fence}suggestion\n${suggestedCode === "" ? "" : `${suggestedCode.replace(/\n$/, "")}\n`}${fence}`;
}

export function renderInlineComment(finding: Finding): InlineComment {
  const hasSuggestion = finding.suggestion !== undefined;
  const body = hasSuggestion ? `${finding.message}\n\n${suggestionBlock(finding.suggestion!)}` : finding.message;
  return {
    path: finding.path,
    lineStart: finding.lineStart,
    lineEnd: finding.lineEnd,
    body,
    hasSuggestion,
    suggestedCode: hasSuggestion ? finding.suggestion! : null,
  };
}

/** The code of the first ```suggestion block in a comment body (any author), or null. */
export function parseSuggestion(body: string): string | null {
  const m = /^[ \t]*(`{3,}|~{3,})[ \t]*suggestion[^\n]*\n([\s\S]*?)^[ \t]*\1[`~]*[ \t]*$/m.exec(body);
  if (!m) return null;
  return m[2]!.replace(/\r?\n$/, "");
}
