/**
 * Stable fingerprints so a re-review never repeats a comment that already exists, even when lines
 * moved: sha256 over ruleId, path, custom context id and the whitespace-normalised text of the
 * finding's lines (not their numbers), or the subject of a finding on the file as a whole. When the
 * same text occurs several times in one file for the same rule, the 2nd, 3rd... occurrence (in line
 * order) get "#2", "#3"... so they stay distinct.
 */
import { createHash } from "node:crypto";
import type { DiffFile } from "./diff.ts";
import type { Finding } from "./findings.ts";
import { languageOf, splitCode } from "./analysers/context.ts";

export function normalizeLineText(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

export function fingerprint(finding: Pick<Finding, "ruleId" | "path" | "customContextId">, lineText: string, occurrence = 1): string {
  const h = createHash("sha256");
  h.update(`v1\0${finding.ruleId}\0${finding.path}\0${finding.customContextId ?? ""}\0${normalizeLineText(lineText)}`);
  if (occurrence > 1) h.update(`\0#${occurrence}`);
  return h.digest("hex").slice(0, 32);
}

/** Text of new-file lines start..end as shown by the diff ("" for lines it does not show). */
export function findingText(file: DiffFile, start: number, end: number): string {
  const parts: string[] = [];
  for (const h of file.hunks) for (const l of h.lines) if (l.newLine !== null && l.newLine >= start && l.newLine <= end) parts.push(l.text);
  return parts.join("\n");
}

export type FingerprintedFinding = Finding & { fingerprint: string };

/** Adds a fingerprint to every finding of one file. */
export function fingerprintFindings(findings: readonly Finding[], file: DiffFile): FingerprintedFinding[] {
  const sorted = [...findings].sort((a, b) => a.lineStart - b.lineStart || a.lineEnd - b.lineEnd);
  const seen = new Map<string, number>();
  const byFinding = new Map<Finding, string>();
  for (const f of sorted) {
    // A finding on the file as a whole has no line text: its subject, when it has one, stands for it.
    const text = f.subject ?? findingText(file, f.lineStart, f.lineEnd);
    const base = fingerprint(f, text);
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    byFinding.set(f, n === 1 ? base : fingerprint(f, text, n));
  }
  return findings.map((f) => ({ ...f, fingerprint: byFinding.get(f)! }));
}

/** Drops findings whose fingerprint is already known (posted earlier) or repeated within the batch. */
export function dedupeFindings<F extends { fingerprint: string }>(findings: readonly F[], existing: Iterable<string> = []): F[] {
  const known = new Set(existing);
  const out: F[] = [];
  for (const f of findings) {
    if (known.has(f.fingerprint)) continue;
    known.add(f.fingerprint);
    out.push(f);
  }
  return out;
}

/** Rules about the text of comments or literals, where a comment edit can be the fix. */
const TEXT_RULES = /^(todo-comment|secrets\/)/;

/**
 * Fingerprint of the code a finding flags, its lines' comments and whitespace dropped: an edit of a
 * comment on the line keeps it. Null for rules about comment text and for lines without code. A
 * re-review skips a finding whose code fingerprint an open earlier comment carries.
 */
export function codeFingerprint(finding: Pick<Finding, "ruleId" | "path" | "customContextId" | "lineStart" | "lineEnd">, file: DiffFile): string | null {
  if (TEXT_RULES.test(finding.ruleId)) return null;
  const language = languageOf(finding.path);
  const code = findingText(file, finding.lineStart, finding.lineEnd)
    .split("\n")
    .map((l) => {
      const { comment } = splitCode(l, language);
      return comment >= 0 ? l.slice(0, comment) : l;
    })
    .join("\n");
  if (normalizeLineText(code) === "") return null;
  return fingerprint({ ...finding, ruleId: `code\0${finding.ruleId}` }, code);
}
