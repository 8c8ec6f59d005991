/**
 * Markdown for the review: the summary comment (overview, what the change does, findings by
 * severity, what was checked, what a human should check, file table, confidence line) and inline
 * comment bodies with GitHub/GitLab-style ```suggestion blocks.
 */
import type { DiffFile } from "./diff.ts";
import { SEVERITIES, isWholeFile, severityRank, type Finding, type Severity } from "./findings.ts";
import { minSeverityFor, normalizeStrictness } from "./strictness.ts";
import { confidenceFor } from "./confidence.ts";
import { cutMarkdown, findingLine } from "./finding-line.ts";
import type { DefinitionChange, FileOutline } from "./change-outline.ts";
import { declaredSameBehaviour, untestedSection, type UntestedChange, type UntestedReport } from "./graph/untested-change.ts";
import { callLanguageOf } from "./graph/calls.ts";
import { removedFilesOf } from "./graph/broken-imports.ts";

export { confidenceFor, type Confidence } from "./confidence.ts";

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
  /** The definitions each changed file adds, changes and removes (./change-outline.ts). */
  outline?: readonly FileOutline[];
  /** What the review ran. Absent: the built-in checks only, no model. */
  checks?: ReviewChecks;
  /** Custom instructions in scope that no automatic check applied: for a human, with the changed files they scope. */
  humanChecks?: readonly { id: string; body: string; files: readonly string[] }[];
  /**
   * Team patterns and `.loupe/` rules in scope that were not applied for a regex over the cost limit: the
   * rule's id, its `.loupe/` file (null: a custom context), the regex and why, and the files they scope.
   */
  skippedRules?: readonly { id: string; source: string | null; regex: string; reason: string; files: readonly string[] }[];
  /** A re-review: service comments from earlier reviews still open. */
  openEarlier?: number;
  /** Changed public functions whose tests the change does not touch (./graph/untested-change.ts): one note, never inline. */
  untested?: readonly UntestedChange[];
  /** Changed functions with untouched tests left out of that note as one mechanical edit they repeat (./graph/repeated-edit.ts). */
  mechanical?: UntestedReport["mechanical"];
  /** Reviewed files held to another strictness by a `.loupe/config.json` over them: the folder that set it and the level. */
  folderStrictness?: readonly { path: string; folder: string; strictness: number }[];
};

export type ReviewChecks = {
  /** Files the checks ran on. */
  reviewedFiles: number;
  /** Team PATTERNs checked against the added lines. */
  patterns: number;
  /** `.loupe/` PATTERN rules checked against the added lines. */
  rules?: number;
  /** Whether a chat model read every reviewed file, some, or none. */
  model: "all" | "some" | "none";
  /** The indexed branch whose code graph was read for the callers of changed definitions; absent when none. */
  callersBranch?: string;
};

const MAX_OUTLINE_LINES = 30;

const definitionLabel = (d: DefinitionChange, name = d.name) => `${d.parent ? `${d.parent}.` : ""}${name}${d.kind === "function" || d.kind === "method" ? "()" : ""}`;

/** A change as the outline lists it: `name()`, marked when its signature changed; a rename with its old name. */
const changeLabel = (c: DefinitionChange) =>
  `${c.renamedFrom !== undefined ? `${code(definitionLabel(c, c.renamedFrom))} → ` : ""}${code(definitionLabel(c))}${c.signatureChanged ? " (signature)" : ""}`;

/** "What the change does": per file, the definitions added, changed (signature marked) and removed. */
function outlineSection(outline: readonly FileOutline[]): string[] {
  const lines: string[] = [];
  const unparsed: string[] = [];
  for (const f of outline) {
    if (!f.parsed) {
      unparsed.push(f.path);
      continue;
    }
    if (f.changes.length === 0) continue;
    const part = (kind: DefinitionChange["change"], verb: string) => {
      // Overloads (and a getter with its setter) share a label: listed once.
      const labels = [...new Set(f.changes.filter((c) => c.change === kind).map(changeLabel))];
      if (labels.length === 0) return null;
      return `${verb} ${labels.slice(0, 8).join(", ")}${labels.length > 8 ? ` and ${labels.length - 8} more` : ""}`;
    };
    const parts = [part("added", "adds"), part("changed", "changes"), part("renamed", "renames"), part("removed", "removes")].filter((p): p is string => p !== null);
    lines.push(`- ${code(f.path)}: ${parts.join("; ")}`);
  }
  const out = lines.slice(0, MAX_OUTLINE_LINES);
  if (lines.length > MAX_OUTLINE_LINES) out.push(`- …and ${lines.length - MAX_OUTLINE_LINES} more files`);
  const parsed = outline.length - unparsed.length;
  if (lines.length === 0 && parsed > 0) out.push("- No function, class or other definition is added, changed or removed.");
  if (unparsed.length > 0) out.push(`- Not parsed (no grammar for the language, or too large): ${unparsed.slice(0, 10).map(code).join(", ")}${unparsed.length > 10 ? ` and ${unparsed.length - 10} more` : ""}.`);
  return out;
}

/**
 * The definitions of a file whose callers a change can break: signature changed (a variable's value is
 * no signature), renamed, or removed; each once (overloads share one), and a removed or renamed
 * container's members not on their own.
 */
function interfaceChangesOf(f: FileOutline): DefinitionChange[] {
  const gone = new Set(f.changes.filter((c) => c.change === "removed" || c.change === "renamed").map((c) => c.renamedFrom ?? c.name));
  const seen = new Set<string>();
  return f.changes.filter((c) => {
    if (!(c.change === "removed" || c.change === "renamed" || c.signatureChanged)) return false;
    if (c.change === "removed" && c.parent !== null && gone.has(c.parent)) return false;
    const key = `${c.change}\0${c.parent ?? ""}\0${c.name}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Definitions whose signature changed or that were renamed or removed and whose callers were not looked up. */
function uncheckedInterfaceChanges(outline: readonly FileOutline[] | undefined, checks: ReviewChecks): number {
  return (outline ?? [])
    .filter((f) => checks.callersBranch === undefined || callLanguageOf(f.path) === null)
    .flatMap(interfaceChangesOf)
    .filter((c) => !c.callersCheckedInFile).length;
}

function checksSection(checks: ReviewChecks, outline: readonly FileOutline[] | undefined, removed: number): string[] {
  const out = [
    checks.reviewedFiles === 0
      ? "- Built-in checks (hard-coded secrets, debugging leftovers, risky calls, SQL built from strings, conflict markers, TODOs): no added lines to run them on."
      : `- Built-in checks (hard-coded secrets, debugging leftovers, risky calls, SQL built from strings, conflict markers, TODOs) on the added lines of ${checks.reviewedFiles} file${checks.reviewedFiles === 1 ? "" : "s"}.`,
  ];
  // Checked, whether or not one matched: the findings say which did.
  const rules = checks.rules ?? 0;
  const counted = [checks.patterns > 0 ? `${checks.patterns} team pattern${checks.patterns === 1 ? "" : "s"}` : "", rules > 0 ? `${rules} repository rule${rules === 1 ? "" : "s"}` : ""].filter(Boolean);
  if (counted.length > 0) out.push(`- ${counted.join(" and ")} checked against the added lines.`);
  if (checks.model === "all") out.push("- A chat model read every reviewed file with its diff, the pull request's description and the code before the change.");
  else if (checks.model === "some") out.push("- A chat model read some of the files; for the others it failed, and only the checks above ran.");
  else out.push("- Not reviewed: the change's logic and behaviour (no chat model is configured).");
  const interfaceChanges = (outline ?? []).flatMap(interfaceChangesOf).length;
  const unchecked = uncheckedInterfaceChanges(outline, checks);
  const inFile = (outline ?? []).flatMap(interfaceChangesOf).filter((c) => c.callersCheckedInFile).length;
  if (inFile > 0 && checks.callersBranch === undefined) {
    out.push(`- The calls of ${inFile === 1 ? "1 private definition" : `${inFile} private definitions`} whose signature changed or that ${inFile === 1 ? "was" : "were"} renamed or removed, in ${inFile === 1 ? "its" : "their"} own file${inFile === 1 ? "" : "s"} (no other file can call ${inFile === 1 ? "it" : "them"}), read at this pull request's head.`);
  }
  if (interfaceChanges > unchecked && checks.callersBranch !== undefined) {
    out.push(`- The calls elsewhere in the repository (Python, JavaScript, TypeScript, Go and Rust) of the definitions whose signature changed or that were renamed or removed, from the code graph of ${code(checks.callersBranch)} as indexed, read at this pull request's head.`);
  }
  // Files the change deletes or moves (./graph/broken-imports.ts): whether other files still import them.
  const files = `${removed} file${removed === 1 ? "" : "s"} this change deletes or moves`;
  if (removed > 0 && checks.callersBranch !== undefined) {
    out.push(`- The imports elsewhere in the repository (tests included) of the ${files}, from the code graph of ${code(checks.callersBranch)} as indexed, each importer read at this pull request's head.`);
  } else if (removed > 0) {
    out.push(`- Not checked: whether other files still import the ${files} (the repository is not indexed).`);
  }
  if (unchecked > 0) {
    out.push(`- Not checked: the callers elsewhere in the repository of the definitions whose signature changed or that were renamed or removed${checks.callersBranch === undefined ? " (the repository is not indexed)" : " in languages the callers check does not read"}.`);
  }
  return out;
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

/** The first line of a text, at most 160 characters, never leaving a code span open. */
function firstLine(message: string): string {
  return cutMarkdown(message.split("\n").find((l) => l.trim() !== "") ?? "", 160);
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
  const open = input.openEarlier ?? 0;
  const none = open > 0 ? `**No new findings**; ${open} earlier comment${open === 1 ? " is" : "s are"} still open.` : "**No findings.**";
  out.push(
    `**${files.length} file${files.length === 1 ? "" : "s"} changed** (+${additions} / -${deletions}). ` +
      (findings.length === 0 ? none : `**${findings.length} finding${findings.length === 1 ? "" : "s"}**: ${counts.join(", ")}.`),
  );

  if (input.outline && input.outline.length > 0) out.push("", "### What the change does", "", ...outlineSection(input.outline));

  if (findings.length > 0) {
    out.push("", "### Findings", "");
    // A finding on a file as a whole has no inline comment on the host: it comes first, whole, nested under its line.
    const sorted = [...findings].sort(
      (a, b) => severityRank(a.severity) - severityRank(b.severity) || Number(isWholeFile(b)) - Number(isWholeFile(a)) || (a.path < b.path ? -1 : a.path > b.path ? 1 : a.lineStart - b.lineStart),
    );
    for (const f of sorted.slice(0, MAX_SUMMARY_FINDINGS)) {
      if (isWholeFile(f)) {
        out.push(`- **${f.severity}** ${code(f.path)}: ${f.message.trim().replace(/\n/g, "\n  ").replace(/\n {2}\n/g, "\n\n")}`);
        continue;
      }
      const where = f.lineStart === f.lineEnd ? `${f.lineStart}` : `${f.lineStart}-${f.lineEnd}`;
      out.push(`- **${f.severity}** ${code(`${f.path}:${where}`)}: ${findingLine(f.message)}`);
    }
    if (sorted.length > MAX_SUMMARY_FINDINGS) out.push(`- …and ${sorted.length - MAX_SUMMARY_FINDINGS} more (see the inline comments)`);
  }

  // Tests not updated: not for a pull request whose title declares it keeps behaviour (a refactoring).
  const declared = declaredSameBehaviour(input.title);
  const untested = input.untested ?? [];
  const mechanical = input.mechanical ?? null;
  out.push(...untestedSection(declared ? [] : untested));

  const checks = input.checks ?? { reviewedFiles: files.length, patterns: 0, model: "none" as const };
  out.push("", "### What was checked", "", ...checksSection(checks, input.outline, removedFilesOf(files).length));
  for (const r of (input.skippedRules ?? []).slice(0, 20)) {
    const rule = r.source === null ? `the custom context ${code(r.id)}` : `the rule ${code(r.id)} of ${code(r.source)}`;
    const files = r.files.slice(0, 5).map(code).join(", ") + (r.files.length > 5 ? ` and ${r.files.length - 5} more` : "");
    out.push(`- Not applied: ${rule} (in ${files}), whose regex ${code(r.regex)} is refused: ${escapeTableCell(firstLine(r.reason))}.`);
  }
  const functions = (n: number) => `${n} changed function${n === 1 ? "" : "s"}`;
  const leftOut = untested.length + (mechanical?.functions ?? 0);
  if (declared && leftOut > 0) {
    out.push(`- Tests of ${functions(leftOut)} left untouched: not listed, as the title declares a change that keeps behaviour (\`${declared}\`).`);
  } else if (mechanical) {
    const names = (list: readonly string[]) => list.map(code).join(", ");
    const edit = [mechanical.removed.length > 0 ? `removes ${names(mechanical.removed)}` : "", mechanical.added.length > 0 ? `adds ${names(mechanical.added)}` : ""].filter(Boolean).join(" and ");
    out.push(`- Tests of ${functions(mechanical.functions)} left untouched: not listed, as each makes the same edit as another changed function (${edit}), a mechanical change.`);
  }

  const human = input.humanChecks ?? [];
  if (human.length > 0) {
    out.push("", "### For a human to check", "");
    out.push(checks.model === "none" ? "No chat model is configured, so these team instructions were not checked in the files they cover:" : "Team instructions the model may not have covered:");
    for (const h of human.slice(0, 20)) {
      const files = h.files.slice(0, 5).map(code).join(", ") + (h.files.length > 5 ? ` and ${h.files.length - 5} more` : "");
      out.push(`- ${escapeTableCell(firstLine(h.body))} (in ${files})`);
    }
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

  const interfaceChanges = uncheckedInterfaceChanges(input.outline, checks);
  const confidence = confidenceFor(findings, { model: checks.model, humanChecks: human.length, interfaceChanges });
  out.push("", `**Confidence score: ${confidence.score}/5**: ${confidence.reason}.`);
  out.push("", `<sub>Strictness ${strictness}: showing ${minSeverityFor(strictness)} and above.${folderStrictnessNote(input.folderStrictness ?? [], strictness)}</sub>`);
  return `${out.join("\n")}\n`;
}

/** " `.loupe/config.json` sets another strictness for N files: 2 in `a/` (2 files), ..." (folders in path order). */
function folderStrictnessNote(files: readonly { folder: string; strictness: number }[], strictness: number): string {
  const other = files.filter((f) => f.strictness !== strictness);
  if (other.length === 0) return "";
  const byFolder = new Map<string, { strictness: number; files: number }>();
  for (const f of other) byFolder.set(f.folder, { strictness: f.strictness, files: (byFolder.get(f.folder)?.files ?? 0) + 1 });
  const plural = (n: number) => `${n} file${n === 1 ? "" : "s"}`;
  const parts = [...byFolder]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([folder, g]) => `${g.strictness} in ${folder === "" ? "the repository root" : code(`${folder}/`)} (${plural(g.files)})`);
  return ` ${code(".loupe/config.json")} sets another strictness for ${plural(other.length)}: ${parts.join(", ")}.`;
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
