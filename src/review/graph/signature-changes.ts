/**
 * The definitions a change breaks for their callers (./broken-callers.ts): functions and methods whose
 * parameters changed so that a call that fitted may no longer fit (./signature.ts `canBreakCalls`),
 * and public ones (Go: exported; Rust: `pub` or a trait's) renamed (another definition of the same kind, parent and parameters takes its
 * place in the file) or removed. Read from the base and head versions' code graphs (./calls.ts).
 */
import type { GraphDefinition } from "../../codeindex/port.ts";
import { canBreakCalls, shapeOf, type Shape } from "./signature.ts";

export type SignatureChange = {
  change: "signature" | "renamed" | "removed";
  /** The changed file (head path) and its path at the base. */
  path: string;
  oldPath: string;
  language: string;
  /** The name callers use (the base version's). */
  name: string;
  /** The new name of a renamed definition. */
  newName: string | null;
  /** A constant, variable or type: removed only (./removed-values.ts). */
  kind: "function" | "method" | "constant" | "variable" | "type";
  parent: string | null;
  before: GraphDefinition;
  /** The head version's definition; null when removed. */
  after: GraphDefinition | null;
};

const callable = (d: GraphDefinition) => (d.kind === "function" || d.kind === "method") && d.params !== null;
const keyOf = (d: GraphDefinition) => `${d.parent ?? ""}\0${d.kind}\0${d.name}`;
const normal = (s: string | null) => (s ?? "").replace(/\s+/g, "");

/** Definitions keyed by parent, kind and name (the n-th of equal keys with the n-th). */
function keyed(defs: readonly GraphDefinition[]): Map<string, GraphDefinition> {
  const seen = new Map<string, number>();
  const out = new Map<string, GraphDefinition>();
  for (const d of defs.filter(callable)) {
    const k = keyOf(d);
    const n = (seen.get(k) ?? 0) + 1;
    seen.set(k, n);
    out.set(n === 1 ? k : `${k}\0${n}`, d);
  }
  return out;
}

/**
 * A name other files may call: not private by convention (Python `_x`, JS `#x`; dunders are the
 * language's), exported in Go (capitalised). Rust's `pub` is read from the file (`publicLines`).
 */
export function isPublicName(name: string, language: string): boolean {
  if (name.startsWith("#")) return false;
  if (language === "python" && name.startsWith("_")) return name === "__init__";
  if (language === "go") return /^\p{Lu}/u.test(name);
  return true;
}

/** Both shapes of a definition change: as a plain call and as a call on an object (a Python method's `self` dropped). */
export function shapesOf(change: SignatureChange, bound: boolean): { before: Shape; after: Shape | null } {
  return {
    before: shapeOf(change.before.params ?? [], change.language, bound),
    after: change.after ? shapeOf(change.after.params ?? [], change.language, bound) : null,
  };
}

/** What a change does to a file's callable definitions that can break their callers. */
export function signatureChanges(
  file: { path: string; oldPath: string; language: string; /** Rust: the base version's public definitions by start line. */ publicLines?: ReadonlySet<number> },
  before: readonly GraphDefinition[],
  after: readonly GraphDefinition[],
): SignatureChange[] {
  const old = keyed(before);
  const now = keyed(after);
  const out: SignatureChange[] = [];
  const base = { path: file.path, oldPath: file.oldPath, language: file.language };
  for (const [k, b] of old) {
    const a = now.get(k);
    if (!a || normal(a.paramsText) === normal(b.paramsText)) continue;
    const bound = b.kind === "method";
    if (!canBreakCalls(shapeOf(b.params!, file.language, bound), shapeOf(a.params!, file.language, bound))) continue;
    out.push({ ...base, change: "signature", name: b.name, newName: null, kind: b.kind as SignatureChange["kind"], parent: b.parent, before: b, after: a });
  }
  const removed = [...old].filter(([k]) => !now.has(k)).map(([, d]) => d);
  const added = [...now].filter(([k]) => !old.has(k)).map(([, d]) => d);
  const headNames = new Set(after.map((d) => d.name));
  for (const b of removed) {
    if (!isPublicName(b.name, file.language) || headNames.has(b.name)) continue;
    if (file.publicLines && !file.publicLines.has(b.startLine)) continue;
    // Renamed: the one added definition of the same kind and parent with the same parameters.
    const partners = added.filter((a) => a.kind === b.kind && a.parent === b.parent && normal(a.paramsText) === normal(b.paramsText));
    const renamedTo = partners.length === 1 && removed.filter((r) => r.kind === b.kind && r.parent === b.parent && normal(r.paramsText) === normal(b.paramsText)).length === 1 ? partners[0]! : null;
    out.push({
      ...base,
      change: renamedTo ? "renamed" : "removed",
      name: b.name,
      newName: renamedTo?.name ?? null,
      kind: b.kind as SignatureChange["kind"],
      parent: b.parent,
      before: b,
      after: renamedTo,
    });
  }
  return out;
}
