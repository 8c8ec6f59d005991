/**
 * Scope rules of custom context (interface.md 2.6):
 *   1. `{}` is universal.
 *   2. `{"AND": [node, ...]}`: every node matches (an empty AND matches).
 *   3. `{"OR": [node, ...]}`: at least one node matches (an empty OR matches nothing).
 *   4. A condition `{field, operator, value}`.
 * Nodes may be conditions or nested AND/OR groups (depth at most MAX_SCOPE_DEPTH). An object with
 * both AND and OR needs both to hold. A bare condition at the top level is accepted too.
 *
 * Fields (names compared case-insensitively): `repository` (alias `repo`), the `owner/repo` name,
 * compared case-insensitively; `filepath` (aliases `filePath`, `path`, `file`), the repository-relative
 * path, compared case-sensitively. An unknown field, or a field the target lacks, never matches
 * (a NOT_ operator on it does not match either).
 *
 * Operators: `MATCHES` (glob, see glob.ts), `NOT_MATCHES`, `EQUALS` (exact string), `NOT_EQUALS`.
 */
import { z } from "zod";
import { globMatch, MAX_GLOB_LENGTH, validateGlob } from "./glob.ts";
import { nestsDeeperThan } from "../json-bounds.ts";

export const SCOPE_OPERATORS = ["MATCHES", "NOT_MATCHES", "EQUALS", "NOT_EQUALS"] as const;
export type ScopeOperator = (typeof SCOPE_OPERATORS)[number];
export const MAX_SCOPE_DEPTH = 8;
export const MAX_SCOPE_CONDITIONS = 200;

export type ScopeCondition = { field: string; operator: ScopeOperator; value: string };
export type ScopeGroup = { AND?: ScopeNode[]; OR?: ScopeNode[] };
export type ScopeNode = ScopeCondition | ScopeGroup;
/** The stored `scopes` object. */
export type Scope = ScopeNode;

export type ScopeTarget = { repository?: string | null; filepath?: string | null };

export const ScopeConditionSchema = z
  .object({
    field: z.string().min(1).max(100),
    operator: z.enum(SCOPE_OPERATORS),
    value: z.string().max(MAX_GLOB_LENGTH),
  })
  .superRefine((c, ctx) => {
    if (c.operator === "MATCHES" || c.operator === "NOT_MATCHES") {
      const err = validateGlob(c.value);
      if (err) ctx.addIssue({ code: "custom", path: ["value"], message: err });
    }
  });

const ScopeNodeSchema: z.ZodType<ScopeNode> = z.lazy(() => z.union([ScopeConditionSchema, ScopeGroupSchema]));

const CONDITION_KEYS: ReadonlySet<string> = new Set(["field", "operator", "value"]);

/**
 * What is wrong with a node meant as a condition (it has `field`, `operator` or `value`): the union of
 * condition and group otherwise reports the group's complaint ("unrecognized keys field, operator"),
 * which never says that `value` is missing or the operator unknown.
 */
function conditionProblem(input: unknown): string {
  const parsed = ScopeConditionSchema.safeParse(input);
  if (parsed.success) return "a condition has only field, operator and value (a group only AND and OR)";
  const problems = parsed.error.issues.map((i) => {
    const path = i.path.join(".");
    const missing = i.path.length > 0 && typeof input === "object" && input !== null && !(String(i.path[0]) in input);
    return `${path ? `${path}: ` : ""}${missing ? "required" : i.code === "invalid_value" ? `must be one of ${SCOPE_OPERATORS.join(", ")}` : i.message}`;
  });
  return `a condition needs field, operator and value: ${problems.join("; ")}`;
}

const ScopeGroupSchema: z.ZodType<ScopeGroup> = z.strictObject(
  {
    AND: z.array(ScopeNodeSchema).max(MAX_SCOPE_CONDITIONS).optional(),
    OR: z.array(ScopeNodeSchema).max(MAX_SCOPE_CONDITIONS).optional(),
  },
  { error: (issue) => (issue.code === "unrecognized_keys" && issue.keys.some((k) => CONDITION_KEYS.has(k)) ? conditionProblem(issue.input) : undefined) },
);

function measure(node: ScopeNode, depth: number, acc: { maxDepth: number; conditions: number }): void {
  acc.maxDepth = Math.max(acc.maxDepth, depth);
  if ("field" in node) {
    acc.conditions++;
    return;
  }
  for (const child of [...(node.AND ?? []), ...(node.OR ?? [])]) measure(child, depth + 1, acc);
}

/**
 * The JSON depth of a scope whose groups nest MAX_SCOPE_DEPTH deep: each group is an object and an
 * array, and the innermost node (a condition, or an empty group) up to two levels more.
 */
const MAX_SCOPE_JSON_DEPTH = 2 * MAX_SCOPE_DEPTH + 2;

/**
 * Checked before ScopeSchema, which recurses per level: input nested deeper than any valid scope (a
 * few thousand levels would overflow the stack) is refused with the message ScopeSchema gives.
 */
export const scopeNestingProblem = (input: unknown): string | null =>
  nestsDeeperThan(input, MAX_SCOPE_JSON_DEPTH) ? `scope nesting deeper than ${MAX_SCOPE_DEPTH}` : null;

/** Validates a `scopes` object: shape, operator names, glob validity, depth and size bounds. */
export const ScopeSchema: z.ZodType<Scope> = ScopeNodeSchema.superRefine((scope, ctx) => {
  const acc = { maxDepth: 0, conditions: 0 };
  measure(scope, 0, acc);
  if (acc.maxDepth > MAX_SCOPE_DEPTH) ctx.addIssue({ code: "custom", message: `scope nesting deeper than ${MAX_SCOPE_DEPTH}` });
  if (acc.conditions > MAX_SCOPE_CONDITIONS) ctx.addIssue({ code: "custom", message: `more than ${MAX_SCOPE_CONDITIONS} conditions` });
});

/** Parses unknown input into a Scope; throws a ZodError when invalid. null/undefined give `{}`. */
export function parseScope(input: unknown): Scope {
  if (input === null || input === undefined) return {};
  return ScopeSchema.parse(input);
}

type FieldName = "repository" | "filepath";

export function canonicalField(field: string): FieldName | null {
  const f = field.toLowerCase();
  if (f === "repository" || f === "repo") return "repository";
  if (f === "filepath" || f === "path" || f === "file") return "filepath";
  return null;
}

function conditionApplies(c: ScopeCondition, target: ScopeTarget): boolean {
  const field = canonicalField(c.field);
  if (!field) return false;
  const actual = target[field];
  if (typeof actual !== "string") return false;
  const nocase = field === "repository";
  try {
    switch (c.operator) {
      case "MATCHES":
        return globMatch(c.value, actual, { nocase });
      case "NOT_MATCHES":
        return !globMatch(c.value, actual, { nocase });
      case "EQUALS":
        return nocase ? actual.toLowerCase() === c.value.toLowerCase() : actual === c.value;
      case "NOT_EQUALS":
        return nocase ? actual.toLowerCase() !== c.value.toLowerCase() : actual !== c.value;
      default:
        return false;
    }
  } catch {
    return false; // an invalid glob that slipped past validation matches nothing
  }
}

function nodeApplies(node: ScopeNode, target: ScopeTarget, depth: number): boolean {
  if (depth > MAX_SCOPE_DEPTH) return false;
  if ("field" in node) return conditionApplies(node as ScopeCondition, target);
  if (node.AND && !node.AND.every((n) => nodeApplies(n, target, depth + 1))) return false;
  if (node.OR && !node.OR.some((n) => nodeApplies(n, target, depth + 1))) return false;
  return true;
}

/** True when the scope covers the target. A null/undefined scope is universal, like `{}`. */
export function scopeApplies(scope: Scope | null | undefined, target: ScopeTarget): boolean {
  if (scope === null || scope === undefined) return true;
  return nodeApplies(scope, target, 0);
}
