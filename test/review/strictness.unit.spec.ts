import { describe, expect, it } from "vitest";
import type { Finding, Severity } from "../../src/review/findings.ts";
import { DEFAULT_STRICTNESS, filterByStrictness, minSeverityFor, STRICTNESS_MIN_SEVERITY } from "../../src/review/strictness.ts";

const f = (severity: Severity): Finding => ({ ruleId: severity, severity, path: "a", lineStart: 1, lineEnd: 1, message: "m" });
const all = (["critical", "high", "medium", "low", "info"] as const).map(f);
const shown = (s: unknown) => filterByStrictness(all, s).map((x) => x.severity);

describe("strictness", () => {
  it("maps 1..5 to the minimum severity shown", () => {
    expect(STRICTNESS_MIN_SEVERITY).toEqual({ 1: "critical", 2: "high", 3: "medium", 4: "low", 5: "info" });
    expect(shown(1)).toEqual(["critical"]);
    expect(shown(2)).toEqual(["critical", "high"]);
    expect(shown(3)).toEqual(["critical", "high", "medium"]);
    expect(shown(4)).toEqual(["critical", "high", "medium", "low"]);
    expect(shown(5)).toEqual(["critical", "high", "medium", "low", "info"]);
  });
  it("defaults to 3 and clamps out-of-range input", () => {
    expect(DEFAULT_STRICTNESS).toBe(3);
    expect(shown(undefined)).toEqual(shown(3));
    expect(minSeverityFor(0)).toBe("critical");
    expect(minSeverityFor(9)).toBe("info");
    expect(minSeverityFor(Number.NaN)).toBe("medium");
  });
});
