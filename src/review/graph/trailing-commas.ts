/**
 * Trailing commas that mean nothing: `f(a, b,)` is `f(a, b)`, `[a,]` is `[a]`, `{a: 1,}` is `{a: 1}`,
 * `def f(a, **kw,)` is `def f(a, **kw)` (a formatter adds them when it wraps a line). A comma before `)`
 * is kept when it makes a one-element tuple (`(a,)` after `=`, `return`, `in`... in Python and Rust):
 * it is dropped only when the parentheses hold another comma or follow a name (a call or a definition).
 */

/** Words after which `(` opens an expression, not a call's arguments. */
const NOT_CALLEE = new Set(
  ("and as assert await break case del elif else except for from if import in is lambda let match move mut not or print raise ref " +
    "return typeof void delete throw while with yield").split(" "),
);
const OPENER: Record<string, string> = { ")": "(", "]": "[", "}": "{" };

/** The tokens (string literals one token each) without the commas that mean nothing. */
export function withoutTrailingCommas(tokens: readonly string[]): string[] {
  // The index of each closer's opener and whether the group holds a comma of its own before the last one.
  const drop = new Set<number>();
  const stack: { at: number; commas: number }[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t === "(" || t === "[" || t === "{") stack.push({ at: i, commas: 0 });
    else if (t === ",") {
      if (stack.length > 0) stack[stack.length - 1]!.commas++;
    } else if (t in OPENER) {
      const group = stack.pop();
      if (!group || tokens[group.at] !== OPENER[t] || tokens[i - 1] !== ",") continue;
      const before = tokens[group.at - 1] ?? "";
      const callee = /^[A-Za-z_$][\w$]*$/.test(before) ? !NOT_CALLEE.has(before) : before === ")" || before === "]";
      if (t !== ")" || group.commas > 1 || callee) drop.add(i - 1);
    }
  }
  return tokens.filter((_, i) => !drop.has(i));
}
