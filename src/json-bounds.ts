/**
 * Bounds of free-form JSON taken at a boundary (custom context `metadata` and `scopes`, GraphQL `JSON`
 * arguments, any request body). JSON.parse takes any depth, but what comes after recurses: the event
 * log's encoder (msgpackr), zod's recursive schemas, graphql-js's parser. A value nested a few thousand
 * levels deep overflowed the stack there (an internal error, nothing stored); the faces refuse it first,
 * naming the field and the limit. Measured without recursion, stopping at the first level past the limit.
 */

/** Deeper than any request of the API needs (a scope expression is at most 18 levels); custom context metadata's bound. */
export const MAX_INPUT_DEPTH = 32;

/**
 * Whether a JSON value nests more than `maxDepth` levels of objects and arrays (`{}` and `[]` are one
 * level, `{"a": [1]}` two, a string or number none).
 */
export function nestsDeeperThan(value: unknown, maxDepth: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (typeof current !== "object" || current === null) continue;
    if (depth + 1 > maxDepth) return true;
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** The first of an object's fields (a request body, a tool's parameters) whose value nests deeper than `maxDepth`. */
export function fieldNestingTooDeep(fields: unknown, maxDepth = MAX_INPUT_DEPTH): string | null {
  if (typeof fields !== "object" || fields === null || Array.isArray(fields)) return nestsDeeperThan(fields, maxDepth + 1) ? "(body)" : null;
  for (const [name, value] of Object.entries(fields)) if (nestsDeeperThan(value, maxDepth)) return name;
  return null;
}

export const tooDeepMessage = (maxDepth = MAX_INPUT_DEPTH) => `nested deeper than ${maxDepth} levels of objects and arrays`;
