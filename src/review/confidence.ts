/**
 * The confidence line of a review summary: how sure the review is that the change is safe to merge,
 * from what it found and from what it could not check. Findings alone give
 *   1 any critical; 2 two or more high; 3 one high or three or more medium; 4 one or two medium;
 *   5 nothing above low;
 * and what was not checked caps that:
 *   - no chat model reviewed the files (or not all of them): at most 4, since the logic was not read;
 *   - team instructions that only a human can check here: at most 3;
 *   - definitions whose signature changed or that were renamed or removed, whose callers were not
 *     checked: at most 3 (a variable's new value is no signature change; a renamed or removed class
 *     counts once, not once per member).
 * So a review gives 5/5 only when a model read every file and nothing is left unchecked.
 */
import type { Finding, Severity } from "./findings.ts";

export type Confidence = { score: 1 | 2 | 3 | 4 | 5; reason: string };

export type Unchecked = {
  /** Whether a chat model reviewed every reviewed file, some of them, or none. */
  model: "all" | "some" | "none";
  /** Custom instructions in scope that no automatic check applied (listed for a human). */
  humanChecks: number;
  /** Definitions whose signature changed or that were renamed or removed; their callers were not checked. */
  interfaceChanges: number;
};

const OFFLINE: Unchecked = { model: "none", humanChecks: 0, interfaceChanges: 0 };

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function fromFindings(findings: readonly Pick<Finding, "severity">[]): Confidence {
  const count = (s: Severity) => findings.filter((f) => f.severity === s).length;
  const critical = count("critical");
  const high = count("high");
  const medium = count("medium");
  if (critical > 0) return { score: 1, reason: `${plural(critical, "critical issue")} must be fixed before merging` };
  if (high >= 2) return { score: 2, reason: `${high} high-severity issues need attention` };
  if (high === 1) return { score: 3, reason: "one high-severity issue needs attention" };
  if (medium >= 3) return { score: 3, reason: `${medium} medium-severity issues` };
  if (medium > 0) return { score: 4, reason: `${plural(medium, "medium-severity issue")}` };
  return { score: 5, reason: "no issues above low severity found" };
}

/** The confidence for these findings, capped by what was not checked (offline when not told). */
export function confidenceFor(findings: readonly Pick<Finding, "severity">[], unchecked: Unchecked = OFFLINE): Confidence {
  const base = fromFindings(findings);
  let score = base.score as number;
  const caps: string[] = [];
  const cap = (max: number, why: string) => {
    caps.push(why);
    score = Math.min(score, max);
  };
  if (unchecked.model === "none") cap(4, "no chat model read the change, so its logic was not reviewed");
  if (unchecked.model === "some") cap(4, "the chat model did not read every file");
  if (unchecked.humanChecks > 0) cap(3, `${plural(unchecked.humanChecks, "team instruction")} can only be checked by a human here`);
  if (unchecked.interfaceChanges > 0) {
    const one = unchecked.interfaceChanges === 1;
    cap(3, `${plural(unchecked.interfaceChanges, "definition")} changed signature or ${one ? "was" : "were"} renamed or removed, and ${one ? "its" : "their"} callers elsewhere were not checked`);
  }
  return { score: score as Confidence["score"], reason: [base.reason, ...caps].join("; ") };
}
