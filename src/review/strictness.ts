/**
 * Review strictness (1..5, interface.md 2.5 `metadata.strictness`) decides the least severe finding
 * that is still posted:
 *
 *   1: critical only
 *   2: high and above
 *   3: medium and above (the default)
 *   4: low and above
 *   5: everything, including info
 *
 * Out-of-range or non-integer input is clamped/rounded into 1..5; missing input means the default.
 */
import { severityRank, type Finding, type Severity } from "./findings.ts";

export type Strictness = 1 | 2 | 3 | 4 | 5;

export const DEFAULT_STRICTNESS: Strictness = 3;

export const STRICTNESS_MIN_SEVERITY: Readonly<Record<Strictness, Severity>> = Object.freeze({
  1: "critical",
  2: "high",
  3: "medium",
  4: "low",
  5: "info",
});

export function normalizeStrictness(value: unknown): Strictness {
  if (typeof value !== "number" || !Number.isFinite(value)) return DEFAULT_STRICTNESS;
  return Math.min(5, Math.max(1, Math.round(value))) as Strictness;
}

export function minSeverityFor(strictness: unknown): Severity {
  return STRICTNESS_MIN_SEVERITY[normalizeStrictness(strictness)];
}

export function isShownAt(severity: Severity, strictness: unknown): boolean {
  return severityRank(severity) <= severityRank(minSeverityFor(strictness));
}

export function filterByStrictness<F extends Pick<Finding, "severity">>(findings: readonly F[], strictness: unknown): F[] {
  return findings.filter((f) => isShownAt(f.severity, strictness));
}
