import { describe, expect, it } from "vitest";
import { loadRepoRules, repoRuleAsContext, strictnessOf } from "../../src/review/repo-rules.ts";
import { matchPatterns } from "../../src/review/patterns.ts";
import { added } from "./helpers.ts";

const files: Record<string, string> = {
  ".loupe/config.json": JSON.stringify({
    strictness: 2,
    ignore: ["*.generated.ts", "fixtures/", "!keep.generated.ts"],
    rules: [
      { id: "no-console", body: "Avoid `console.log` in shipped code.", type: "PATTERN", severity: "low" },
      { id: "tests-only", body: "Tests use factories.", scope: "**/*.test.ts" },
    ],
  }),
  ".loupe/style.md": "Prefer small modules and explicit return types.\n",
  "services/.loupe/config.json": JSON.stringify({
    strictness: 4,
    ignore: ["legacy/**"],
    rules: [{ id: "no-console", body: "Never call `console.log` in services; use `log.info`.", type: "PATTERN", severity: "high" }],
  }),
  "services/.loupe/money.md": "---\ntype: PATTERN\nseverity: critical\nscope: [billing/**, '*.money.ts']\n---\nDo not use `parseFloat` for amounts.\n",
  "services/.loupe/disabled.md": "---\nstatus: inactive\n---\nIgnore me.\n",
  "web/.loupe/config.json": "{ not json",
  "services/billing/charge.ts": "",
  "src/a.ts": "",
};
const read = async (p: string) => {
  const v = files[p];
  if (v === undefined) throw new Error("missing");
  return v;
};

describe("repository rules under .loupe/", () => {
  it("cascades strictness (leaf wins) and accumulates rules, a deeper id replacing a shallower one", async () => {
    const set = await loadRepoRules(Object.keys(files), read);
    expect(set.folders).toEqual(["", "services"]); // web/.loupe/config.json is invalid JSON
    const root = set.rulesFor("src/a.ts");
    expect(root.strictness).toBe(2);
    expect(root.ignored).toBe(false);
    expect(root.rules.map((r) => r.id)).toEqual(["no-console", ".loupe/style.md"]);
    expect(root.rules[1]).toMatchObject({ type: "CUSTOM_INSTRUCTION", body: "Prefer small modules and explicit return types.", severity: "medium", folder: "" });

    const billing = set.rulesFor("services/billing/charge.ts");
    expect(billing.strictness).toBe(4);
    expect(billing.strictnessFolder).toBe("services");
    expect(root.strictnessFolder).toBe("");
    // The strictness a file is reviewed at: the nearest folder's, over the review's own.
    expect(strictnessOf(set, "services/billing/charge.ts", 3)).toEqual({ strictness: 4, folder: "services" });
    expect(strictnessOf(set, "src/a.ts", 5)).toEqual({ strictness: 2, folder: "" });
    expect(strictnessOf(null, "src/a.ts", 5)).toEqual({ strictness: 5, folder: null });
    expect(billing.rules.map((r) => [r.id, r.severity])).toEqual([
      [".loupe/style.md", "medium"],
      ["no-console", "high"],
      ["services/.loupe/money.md", "critical"],
    ]);
    expect(billing.rules.find((r) => r.id === "services/.loupe/money.md")?.type).toBe("PATTERN");
    expect(set.rulesFor("services/other/x.ts").rules.map((r) => r.id)).not.toContain("services/.loupe/money.md");
    expect(set.rulesFor("services/a.money.ts").rules.map((r) => r.id)).toContain("services/.loupe/money.md");
    expect(set.rulesFor("services/x.ts").rules.map((r) => r.id)).not.toContain("services/.loupe/disabled.md");
  });

  it("applies glob scopes relative to the rule's folder", async () => {
    const set = await loadRepoRules(Object.keys(files), read);
    expect(set.rulesFor("src/deep/a.test.ts").rules.map((r) => r.id)).toContain("tests-only");
    expect(set.rulesFor("src/a.ts").rules.map((r) => r.id)).not.toContain("tests-only");
  });

  it("accumulates ignore lists gitignore-style, with negation and folder scoping", async () => {
    const set = await loadRepoRules(Object.keys(files), read);
    expect(set.rulesFor("src/api.generated.ts").ignored).toBe(true);
    expect(set.rulesFor("src/keep.generated.ts").ignored).toBe(false);
    expect(set.rulesFor("test/fixtures/data.json").ignored).toBe(true);
    expect(set.rulesFor("services/legacy/old.ts").ignored).toBe(true);
    expect(set.rulesFor("legacy/old.ts").ignored).toBe(false);
  });

  it("reports broken files instead of throwing", async () => {
    const set = await loadRepoRules(Object.keys(files), read);
    expect(set.errors.map((e) => e.path)).toEqual(["web/.loupe/config.json"]);
    const set2 = await loadRepoRules([".loupe/config.json"], async () => JSON.stringify({ strictness: 9 }));
    expect(set2.errors[0]!.message).toMatch(/strictness/);
  });

  it("reports a config.json whose scope nests thousands of levels deep instead of overflowing the stack", async () => {
    const condition = '{"field":"filepath","operator":"MATCHES","value":"**/*.ts"}';
    const deepScope = `${'{"AND":['.repeat(5_000)}${condition}${"]}".repeat(5_000)}`;
    const deepFiles: Record<string, string> = {
      ".loupe/config.json": `{"rules":[{"id":"deep","body":"Deep.","scope":${deepScope}}]}`,
      "services/.loupe/config.json": JSON.stringify({ rules: [{ id: "fine", body: "Fine." }] }),
    };
    const set = await loadRepoRules(Object.keys(deepFiles), async (p) => deepFiles[p]!);
    expect(set.errors).toEqual([{ path: ".loupe/config.json", message: expect.stringContaining("nested deeper than 32 levels") }]);
    expect(set.rulesFor("services/a.ts").rules.map((r) => r.id)).toEqual(["fine"]);
  });

  it("feeds PATTERN rules into pattern matching", async () => {
    const set = await loadRepoRules(Object.keys(files), read);
    const rules = set.rulesFor("services/billing/charge.ts").rules.map(repoRuleAsContext);
    const found = matchPatterns(added("services/billing/charge.ts", ["const a = parseFloat(x);", "console.log(a);"]), rules);
    expect(found.map((f) => [f.lineStart, f.severity, f.customContextId])).toEqual([
      [1, "critical", "repo:services/.loupe/money.md"],
      [2, "high", "repo:no-console"],
    ]);
  });
});
