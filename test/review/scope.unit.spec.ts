import { describe, expect, it } from "vitest";
import { parseScope, ScopeSchema, scopeApplies } from "../../src/review/scope.ts";

const target = { repository: "acme/api", filepath: "src/handlers/user.js" };

describe("scope rules (interface.md 2.6)", () => {
  it("rule 1: {} is universal (and so is a missing scope)", () => {
    expect(scopeApplies({}, target)).toBe(true);
    expect(scopeApplies({}, { repository: "x/y", filepath: "any/thing.go" })).toBe(true);
    expect(scopeApplies(null, target)).toBe(true);
  });

  it("rule 2: AND needs every condition", () => {
    const scope = parseScope({ AND: [
      { field: "repository", operator: "MATCHES", value: "acme/*" },
      { field: "filepath", operator: "MATCHES", value: "**/*.js" },
    ] });
    expect(scopeApplies(scope, target)).toBe(true);
    expect(scopeApplies(scope, { ...target, filepath: "src/a.ts" })).toBe(false);
    expect(scopeApplies(scope, { ...target, repository: "other/api" })).toBe(false);
  });

  it("rule 3: OR needs any condition", () => {
    const scope = parseScope({ OR: [
      { field: "filepath", operator: "MATCHES", value: "**/*.py" },
      { field: "filepath", operator: "MATCHES", value: "src/handlers/**" },
    ] });
    expect(scopeApplies(scope, target)).toBe(true);
    expect(scopeApplies(scope, { ...target, filepath: "lib/a.rb" })).toBe(false);
    expect(scopeApplies(parseScope({ OR: [] }), target)).toBe(false);
    expect(scopeApplies(parseScope({ AND: [] }), target)).toBe(true);
  });

  it("rule 4: MATCHES globs on repository (case-insensitive) and filepath, with field aliases", () => {
    const wire = parseScope({ AND: [{ operator: "MATCHES", field: "filepath", value: "**/*.js" }] }); // wire-facts example
    expect(scopeApplies(wire, target)).toBe(true);
    expect(scopeApplies(wire, { ...target, filepath: "README.md" })).toBe(false);
    expect(scopeApplies({ AND: [{ field: "repository", operator: "MATCHES", value: "ACME/api" }] }, target)).toBe(true);
    expect(scopeApplies({ AND: [{ field: "repository", operator: "MATCHES", value: "acme/web" }] }, target)).toBe(false);
    expect(scopeApplies({ AND: [{ field: "filePath", operator: "MATCHES", value: "src/**" }] }, target)).toBe(true);
    expect(scopeApplies({ AND: [{ field: "path", operator: "MATCHES", value: "lib/**" }] }, target)).toBe(false);
    expect(scopeApplies({ AND: [{ field: "filepath", operator: "MATCHES", value: "SRC/**" }] }, target)).toBe(false);
  });

  it("nested AND/OR and the extra operators", () => {
    const scope = parseScope({
      AND: [
        { field: "repository", operator: "EQUALS", value: "acme/api" },
        { OR: [
          { field: "filepath", operator: "MATCHES", value: "**/*.ts" },
          { AND: [
            { field: "filepath", operator: "MATCHES", value: "**/*.js" },
            { field: "filepath", operator: "NOT_MATCHES", value: "**/*.test.js" },
          ] },
        ] },
      ],
    });
    expect(scopeApplies(scope, target)).toBe(true);
    expect(scopeApplies(scope, { ...target, filepath: "src/user.test.js" })).toBe(false);
    expect(scopeApplies(scope, { ...target, filepath: "src/user.ts" })).toBe(true);
    expect(scopeApplies(scope, { ...target, repository: "acme/web" })).toBe(false);
  });

  it("unknown fields and missing target values never match", () => {
    expect(scopeApplies({ AND: [{ field: "language", operator: "EQUALS", value: "js" }] }, target)).toBe(false);
    expect(scopeApplies({ AND: [{ field: "filepath", operator: "NOT_MATCHES", value: "x" }] }, { repository: "a/b" })).toBe(false);
  });

  it("validation: bad operators, unknown keys, invalid globs and excessive depth are rejected", () => {
    expect(ScopeSchema.safeParse({ AND: [{ field: "filepath", operator: "LIKE", value: "x" }] }).success).toBe(false);
    expect(ScopeSchema.safeParse({ and: [] }).success).toBe(false);
    expect(ScopeSchema.safeParse({ AND: [{ field: "filepath", operator: "MATCHES", value: "{a,b}".repeat(10) }] }).success).toBe(false);
    let deep: unknown = { field: "filepath", operator: "MATCHES", value: "*" };
    for (let i = 0; i < 12; i++) deep = { AND: [deep] };
    expect(ScopeSchema.safeParse(deep).success).toBe(false);
    let ok: unknown = { field: "filepath", operator: "MATCHES", value: "*" };
    for (let i = 0; i < 4; i++) ok = { OR: [ok] };
    expect(ScopeSchema.safeParse(ok).success).toBe(true);
  });
});
