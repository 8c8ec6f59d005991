/**
 * A Conventional Commits title's scope: `fix(router): ...`, `feat(vue-query)!: ...`. The specification
 * makes it "a noun describing a section of the codebase", and projects that follow it name the section
 * as their tree does: a package (`packages/vue-query/`), a folder (`src/blocking/`), a file's stem
 * (`lib/utils.js`). The ranking reads it as a hint of where the change lies (./ranking.ts), nothing more:
 * the scope's words still count as words of the title.
 */

/** The head of a title: the type (the specification's and the common `deps`, `tests`), the scope, `!`, `:`. */
export const CONVENTIONAL_HEAD = /^(feat|fix|docs|style|refactor|perf|test|tests|build|ci|chore|revert|deps)(?:\(([^()\s]+)\))?!?:$/i;

/** A name's key for comparison: lower case, without `-`, `_`, `.` and backticks (`vue-query`, `vueQuery`). */
const keyOf = (name: string): string => name.toLowerCase().replace(/[-_.`]/g, "");

/**
 * The sections a title's scope names, as keys: none without a head, nor for a one-letter scope (`ts` and
 * `v4` name sections). A scope listing several (`runtime-core/scheduler`, `a,b`) names each.
 */
export function commitScopes(title: string): string[] {
  const first = title.trim().split(/\s+/, 1)[0] ?? "";
  const scope = CONVENTIONAL_HEAD.exec(first)?.[2];
  if (!scope) return [];
  return [...new Set(scope.split(/[/,]/).map(keyOf).filter((k) => k.length >= 2))];
}

/** Whether a path lies in a section the scopes name: one of its folders, or the file's own stem. */
export function inScope(path: string, scopes: readonly string[]): boolean {
  const parts = path.split("/");
  const stem = parts.pop()!.replace(/\..*$/, "");
  return parts.some((p) => scopes.includes(keyOf(p))) || scopes.includes(keyOf(stem));
}
