import { describe, expect, it } from "vitest";
import { MAX_SCOPE_DEPTH, ScopeSchema, scopeNestingProblem } from "../../src/review/scope.ts";
import { nestsDeeperThan } from "../../src/json-bounds.ts";

const condition = { field: "filepath", operator: "MATCHES", value: "**/*.ts" };
/** `groups` AND groups nested around `inner`. */
const nest = (groups: number, inner: unknown, key: "AND" | "OR" = "AND") => {
  let node = inner;
  for (let i = 0; i < groups; i++) node = { [key]: [node] };
  return node;
};

describe("scope nesting checked before the recursive schema", () => {
  it("never refuses a scope the schema accepts, and refuses every one nested past the limit", () => {
    for (let groups = 0; groups <= MAX_SCOPE_DEPTH + 3; groups++) {
      for (const inner of [condition, { AND: [] }, { OR: [] }, {}]) {
        for (const key of ["AND", "OR"] as const) {
          const scope = nest(groups, inner, key);
          const accepted = ScopeSchema.safeParse(scope).success;
          if (accepted) expect(scopeNestingProblem(scope), JSON.stringify(scope)).toBeNull();
          if (scopeNestingProblem(scope) !== null) expect(accepted).toBe(false);
        }
      }
    }
    expect(ScopeSchema.safeParse(nest(MAX_SCOPE_DEPTH, condition)).success).toBe(true);
    expect(scopeNestingProblem(nest(5_000, condition))).toBe(`scope nesting deeper than ${MAX_SCOPE_DEPTH}`);
  });

  it("measures depth without recursion, stopping past the limit", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(nestsDeeperThan(deep, 32)).toBe(true);
    expect(nestsDeeperThan({ a: [{}] }, 3)).toBe(false);
    expect(nestsDeeperThan({ a: [{}] }, 2)).toBe(true);
    expect(nestsDeeperThan("text", 0)).toBe(false);
  });
});
