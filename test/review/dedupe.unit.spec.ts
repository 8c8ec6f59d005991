import { describe, expect, it } from "vitest";
import { runAnalysers } from "../../src/review/analysers/index.ts";
import { dedupeFindings, fingerprint, fingerprintFindings } from "../../src/review/dedupe.ts";
import { added, diffOf } from "./helpers.ts";

describe("finding fingerprints", () => {
  const v1 = diffOf("src/a.ts", ["start();"], ["start();", "eval(input);", "done();"]);
  // a later commit adds lines above: the same finding moves from line 2 to line 5
  const v2 = diffOf("src/a.ts", ["start();"], ["// header", "// more", "// more", "start();", "eval(input);", "done();", "eval(other);"]);

  it("stays the same when the line shifts, so a re-review does not repeat the comment", () => {
    const first = fingerprintFindings(runAnalysers(v1), v1);
    const second = fingerprintFindings(runAnalysers(v2), v2);
    expect(first.map((f) => f.lineStart)).toEqual([2]);
    expect(second.map((f) => f.lineStart)).toEqual([5, 7]);
    expect(second[0]!.fingerprint).toBe(first[0]!.fingerprint);
    const fresh = dedupeFindings(second, first.map((f) => f.fingerprint));
    expect(fresh.map((f) => f.lineStart)).toEqual([7]);
  });

  it("differs by rule, path, custom context and text; ignores whitespace changes", () => {
    const base = fingerprint({ ruleId: "r", path: "a.ts" }, "eval(x);");
    expect(fingerprint({ ruleId: "r", path: "a.ts" }, "   eval(x);  ")).toBe(base);
    expect(fingerprint({ ruleId: "r2", path: "a.ts" }, "eval(x);")).not.toBe(base);
    expect(fingerprint({ ruleId: "r", path: "b.ts" }, "eval(x);")).not.toBe(base);
    expect(fingerprint({ ruleId: "r", path: "a.ts", customContextId: "c" }, "eval(x);")).not.toBe(base);
    expect(fingerprint({ ruleId: "r", path: "a.ts" }, "eval(y);")).not.toBe(base);
  });

  it("keeps identical lines in one file distinct by occurrence", () => {
    const f = added("src/a.ts", ["eval(x);", "ok();", "eval(x);"]);
    const fp = fingerprintFindings(runAnalysers(f), f);
    expect(fp).toHaveLength(2);
    expect(fp[0]!.fingerprint).not.toBe(fp[1]!.fingerprint);
    expect(dedupeFindings(fp)).toHaveLength(2);
  });
});
