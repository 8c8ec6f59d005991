/**
 * The callers of a private definition, checked in its own file without an index: a definition other
 * files cannot call by the language's rules or conventions (Python `_name`, not a dunder; Rust without
 * `pub`; a JavaScript/TypeScript top-level function its file does not export) is called from its file
 * only, which the pull request changes. Its calls there, read at the head, are checked: after a new
 * signature every call fits it (./graph/signature.ts), after a removal or a rename none of the old
 * name is left. The summary then does not count it among the definitions whose callers were not checked.
 */
import { callLanguageOf, parseForCalls, type ParseFile } from "./graph/calls.ts";
import { misfit, shapeOf } from "./graph/signature.ts";

/** One outline change as this check reads it (./change-outline.ts `DefinitionChange`). */
type Change = {
  change: "added" | "changed" | "removed" | "renamed";
  name: string;
  kind: string;
  parent: string | null;
  signatureBefore: string | null;
  signatureChanged: boolean;
  renamedFrom?: string;
};

/** Whether other files cannot call the definition (by the language's rules, or its conventions for Python). */
export function isFilePrivate(change: Change, language: string, before: string | null): boolean {
  const name = change.renamedFrom ?? change.name;
  if (language === "python") return name.startsWith("_") && !/^__\w+__$/.test(name);
  if (language === "rust") return !/\bpub\b/.test(change.signatureBefore ?? "pub");
  if (language === "javascript" || language === "typescript" || language === "tsx") {
    if (change.parent !== null || /^\s*export\b/.test(change.signatureBefore ?? "export")) return false;
    // CommonJS exports, and `export { name }` lists.
    const word = name.replace(/[$]/g, "\\$");
    return before !== null && !/\bexports\b/.test(before) && !new RegExp(`\\bexport\\s*(default\\s+${word}\\b|\\{[^}]*\\b${word}\\b)`).test(before);
  }
  return false;
}

/**
 * The changes (signature changed, renamed or removed functions and methods) of one file whose calls in
 * the file at the head all fit: the private ones only. `parse`: the review run's parses (./graph/calls.ts).
 */
export async function privateCallersChecked<C extends Change>(path: string, before: string | null, after: string | null, changes: readonly C[], parse: ParseFile = parseForCalls): Promise<Set<C>> {
  const out = new Set<C>();
  const language = callLanguageOf(path);
  if (!language || after === null) return out;
  const wanted = changes.filter(
    (c) => (c.kind === "function" || c.kind === "method") && (c.change === "removed" || c.change === "renamed" || c.signatureChanged) && isFilePrivate(c, language, before),
  );
  if (wanted.length === 0) return out;
  const names = new Set(wanted.map((c) => c.renamedFrom ?? c.name));
  const parsed = await parse(path, after, names);
  if (!parsed) return out;
  for (const c of wanted) {
    const name = c.renamedFrom ?? c.name;
    const method = c.kind === "method";
    // A function is called by its name, a method on an object.
    const calls = parsed.calls.filter((call) => call.name === name && (method ? call.form === "member" : call.form === "bare"));
    if (c.change === "removed" || c.change === "renamed") {
      if (calls.length === 0) out.add(c);
      continue;
    }
    const def = parsed.graph.definitions.find((d) => d.name === c.name && d.parent === c.parent && d.kind === c.kind && d.params !== null);
    if (!def) continue;
    const shape = shapeOf(def.params!, language, method);
    // JavaScript calls may leave out any parameter (it is `undefined`).
    const lenient = shape.language === "script" ? new Set([...shape.positional, ...shape.keywordOnly].map((p) => p.name)) : new Set<string>();
    if (calls.every((call) => misfit(shape, call, lenient) === null)) out.add(c);
  }
  return out;
}
