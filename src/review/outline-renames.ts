/**
 * Renames in a change's outline (./change-outline.ts): a definition removed and another of the same
 * kind and parent added in its place is one definition renamed when
 *   - its text is the same but for its own name, or
 *   - the names differ only in underscores and case (`safecall` -> `_safecall`, `LazyFile` ->
 *     `_LazyFile`: a visibility change) and at least half of its lines are the same, or
 *   - its signature is the same but for the name and at least four fifths of its lines are the same;
 *   - both are a file's default export (`export default function xhrAdapter` -> `export default
 *     supported && function (config)`) and at least half of its lines are the same.
 * The members of a renamed container go with it: an unchanged member is not listed, a changed one is
 * listed as changed under the new name. So a renamed class is one change, not one per member.
 */

/** One definition of a version as the pairing reads it (./change-outline.ts `OutlineDefinition`). */
type Definition = {
  name: string;
  kind: string;
  parent: string | null;
  signature: string | null;
  startLine: number;
  textHash: string;
  bodyHash: string;
  bodyLines: readonly string[];
};

/**
 * The fields of a change (./change-outline.ts `DefinitionChange`, which imports this module) that the
 * pairing reads and writes; the others pass through untouched.
 */
type Change = {
  change: "added" | "changed" | "removed" | "renamed";
  name: string;
  kind: string;
  parent: string | null;
  line: number;
  signatureBefore: string | null;
  signatureChanged: boolean;
  renamedFrom?: string;
};

export const normalSignature = (s: string | null) => (s ?? "").replace(/\s+/g, " ").trim();

/** A name as a whole word (`$` is a word character in JavaScript). */
export const wordPattern = (name: string) => new RegExp(`(?<![\\w$])${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w$])`, "g");

/** Share of lines two texts have in common (of the larger). */
function overlap(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const set = new Set(a);
  let same = 0;
  for (const line of b) if (set.has(line)) same++;
  return same / Math.max(a.length, b.length);
}

const stem = (name: string) => name.replace(/^_+|_+$/g, "").toLowerCase();
const unnamedSignature = (d: Definition) => normalSignature(d.signature).replace(wordPattern(d.name), "\u0000");
/** Too little text to tell a rename by: a one-line constant, an empty function. */
const tiny = (d: Definition) => d.bodyLines.length < 3;

const DEFAULT_EXPORT = /^export\s+default\b/;

/** How sure a removed and an added definition are one renamed (0: not). */
function renameScore(b: Definition, a: Definition): number {
  const share = overlap(b.bodyLines, a.bodyLines);
  if (stem(b.name) === stem(a.name) && (share >= 0.5 || b.bodyHash === a.bodyHash)) return 2 + share;
  // The default export, named or not: importers do not use its name.
  if (DEFAULT_EXPORT.test(b.signature ?? "") && DEFAULT_EXPORT.test(a.signature ?? "") && share >= 0.5) return 1 + share;
  if (tiny(b) || tiny(a)) return 0;
  if (b.bodyHash === a.bodyHash) return 2;
  if (unnamedSignature(b) === unnamedSignature(a) && share >= 0.8) return share;
  return 0;
}

const find = (defs: readonly Definition[], c: Change) => defs.find((d) => d.startLine === c.line && d.name === c.name && d.kind === c.kind && d.parent === c.parent);

/** The changes with removed + added pairs that are one definition renamed told as renames, their unchanged members left out. */
export function withRenames<C extends Change>(changes: readonly C[], before: readonly Definition[], after: readonly Definition[]): C[] {
  const removed = changes.filter((c) => c.change === "removed");
  const added = changes.filter((c) => c.change === "added");
  if (removed.length === 0 || added.length === 0) return [...changes];
  const dropped = new Set<C>();
  const replaced = new Map<C, C>();
  /** Renamed containers: old name -> new name. */
  const parents = new Map<string, string>();
  const parentOf = (c: C) => (c.parent !== null && parents.has(c.parent) ? parents.get(c.parent)! : c.parent);
  // In line order: a container is paired before its members, which then pair under its new name.
  for (const r of [...removed].sort((x, y) => x.line - y.line)) {
    const b = find(before, r);
    if (!b) continue;
    const newParent = parentOf(r);
    const open = added.filter((a) => !dropped.has(a) && !replaced.has(a) && a.kind === r.kind && a.parent === newParent);
    // A member of a renamed container, under its own name.
    if (newParent !== r.parent) {
      const same = open.find((a) => a.name === r.name);
      const a = same ? find(after, same) : undefined;
      if (same && a) {
        dropped.add(r);
        // The container's new name in the member (`def __enter__(self) -> LazyFile` -> `-> _LazyFile`) is no change of the member.
        const renamed = (text: string) => text.replace(wordPattern(r.parent!), newParent!);
        const lines = b.bodyLines.map(renamed);
        if (a.textHash === b.textHash || (lines.length === a.bodyLines.length && lines.every((l, i) => l === a.bodyLines[i]))) dropped.add(same);
        else {
          const signatureChanged = r.kind !== "variable" && renamed(normalSignature(b.signature)) !== normalSignature(a.signature);
          replaced.set(same, { ...same, change: "changed", signatureBefore: b.signature, signatureChanged });
        }
        continue;
      }
    }
    let best: { add: C; score: number } | null = null;
    for (const candidate of open) {
      if (candidate.name === r.name) continue;
      const a = find(after, candidate);
      const score = a ? renameScore(b, a) : 0;
      if (score > 0 && (!best || score > best.score)) best = { add: candidate, score };
    }
    if (!best) continue;
    const a = find(after, best.add)!;
    dropped.add(r);
    const signatureChanged = r.kind !== "variable" && unnamedSignature(b) !== unnamedSignature(a);
    replaced.set(best.add, { ...best.add, change: "renamed", renamedFrom: r.name, signatureBefore: b.signature, signatureChanged });
    parents.set(r.name, best.add.name);
  }
  const out = changes.filter((c) => !dropped.has(c)).map((c) => replaced.get(c) ?? c);
  const order = (c: C) => (c.change === "removed" ? 1 : 0);
  return out.sort((x, y) => order(x) - order(y) || x.line - y.line);
}
