/**
 * Removed exported top-level constants, variables and types (./broken-callers.ts): a pull request
 * that removes one that other files still use. Declarations are read from each version's lines (the
 * code graph has no constants): Go capitalised `const`/`var`/`type` (in blocks too); JavaScript and
 * TypeScript `export const|let|var|type|interface|enum`; Python module-level assignments to names not
 * starting with `_`; Rust `pub const|static|struct|enum|type`. A name the head file still defines or
 * imports (a re-export), or that another Go file of the package defines at the head, is not removed.
 * Files read: those the code graph says mention the name (`pkg.X`, a type) or import the defining
 * file, and those the change writes; a Go package's bare uses in its other files are seen only there.
 * A use is named only when bound to the definition: Go `pkg.X` through the caller's import of the
 * package, or a bare `X` in the package itself; Python `from m import X` or `m.X`; JavaScript and
 * TypeScript `import { X } from "./m"` or a namespace `m.X`; Rust `module::X` or a `use` of it.
 */
import type { DiffFile } from "../diff.ts";
import type { GraphDefinition, GraphImport } from "../../codeindex/port.ts";
import { callLanguageOf, parseForCalls, type ParseFile, type ParsedFile } from "./calls.ts";
import { moduleImportOf } from "./module-imports.ts";
import { STRING_LITERAL } from "./similarity.ts";
import type { SignatureChange } from "./signature-changes.ts";
import { dirOf, regexEscaped } from "./path-text.ts";

export type ValueKind = "constant" | "variable" | "type";
export type TopLevelValue = { name: string; kind: ValueKind; line: number };
export type ValueUse = { path: string; line: number; reason: string; lineText: string };

const familyOf = (language: string) => (language === "python" || language === "go" || language === "rust" ? language : "script");
const GO_KINDS: Record<string, ValueKind> = { const: "constant", var: "variable", type: "type" };
const RUST_KINDS: Record<string, ValueKind> = { const: "constant", static: "variable", struct: "type", enum: "type", type: "type" };
const SCRIPT_KINDS: Record<string, ValueKind> = { const: "constant", let: "variable", var: "variable", type: "type", interface: "type", enum: "type" };

/** The exported top-level constants, variables and types declared in a file's lines. */
export function topLevelValuesOf(language: string, lines: readonly string[]): TopLevelValue[] {
  const out: TopLevelValue[] = [];
  const family = familyOf(language);
  let block: ValueKind | null = null;
  lines.forEach((text, i) => {
    const line = i + 1;
    let m: RegExpExecArray | null;
    if (family === "go") {
      if (block) {
        if (/^\)/.test(text)) block = null;
        else if ((m = /^\s+(\p{Lu}[\p{L}\p{N}_]*)\b/u.exec(text))) out.push({ name: m[1]!, kind: block, line });
      } else if ((m = /^(const|var|type)\s*\(\s*$/.exec(text))) block = GO_KINDS[m[1]!]!;
      else if ((m = /^(const|var|type)\s+(\p{Lu}[\p{L}\p{N}_]*)\b/u.exec(text))) out.push({ name: m[2]!, kind: GO_KINDS[m[1]!]!, line });
    } else if (family === "python") {
      if ((m = /^([A-Za-z][\w]*)\s*(?::[^=]*)?=(?!=)/.exec(text))) out.push({ name: m[1]!, kind: /^[A-Z][A-Z0-9_]*$/.test(m[1]!) ? "constant" : "variable", line });
    } else if (family === "rust") {
      if ((m = /^pub(?:\([^)]*\))?\s+(const|static|struct|enum|type)\s+(?:mut\s+)?([A-Za-z_]\w*)/.exec(text))) out.push({ name: m[2]!, kind: RUST_KINDS[m[1]!]!, line });
    } else if ((m = /^export\s+(?:declare\s+)?(?:const\s+(?=enum))?(const|let|var|type|interface|enum)\s+([A-Za-z_$][\w$]*)/.exec(text))) {
      out.push({ name: m[2]!, kind: SCRIPT_KINDS[m[1]!]!, line });
    }
  });
  return out;
}

/** The line without its string literals and its line comment (a name inside them is no use). */
const codeOf = (text: string, language: string) =>
  text.replace(STRING_LITERAL, '""').replace(familyOf(language) === "python" ? /#.*$/ : /\/\/.*$/, "");

/** The head file still provides the name: defines it, or imports it (a re-export). */
/** Whether `file` defines `name` at its top level: a value (`values`, read from its lines when not given) or a definition. */
function definesAtTopLevel(file: ParsedFile, language: string, name: string, values?: readonly TopLevelValue[]): boolean {
  return (values ?? topLevelValuesOf(language, file.lines)).some((v) => v.name === name) || file.graph.definitions.some((d) => d.name === name && d.parent === null);
}

function stillProvided(name: string, language: string, head: ParsedFile | null, headValues: readonly TopLevelValue[]): boolean {
  if (!head) return false;
  if (definesAtTopLevel(head, language, name, headValues)) return true;
  const n = new RegExp(`\\b${regexEscaped(name)}\\b`);
  return head.graph.imports.some((imp) => imp.names?.includes(name) || n.test(importText(head.lines, imp)));
}

/** The text of an import statement (up to a few lines before the line its spec is on). */
function importText(lines: readonly string[], imp: GraphImport): string {
  const end = imp.line - 1;
  const parts: string[] = [];
  for (let i = end; i >= Math.max(0, end - 20); i--) {
    parts.unshift(lines[i] ?? "");
    if (/^\s*(import|export|use|pub\s+use|from)\b/.test(lines[i] ?? "")) break;
  }
  return parts.join("\n");
}

/** The forms of a use of `name` bound to the definition in `path` that the caller's file may write. */
function boundForms(name: string, definer: { path: string; language: string; package: string | null }, callerPath: string, caller: ParsedFile): RegExp[] {
  const n = regexEscaped(name);
  const family = familyOf(definer.language);
  const qualified = (qs: Iterable<string>, sep: string) => [...qs].filter((q) => q !== "" && q !== "." && q !== "_").map((q) => new RegExp(`(?<![\\w$.])${regexEscaped(q)}${regexEscaped(sep)}${n}(?![\\w$])`));
  const bare = new RegExp(`(?<![\\w$.:])${n}(?![\\w$])`);
  if (family === "go") {
    const dir = dirOf(definer.path).replace(/^vendor\//, "");
    if (dirOf(callerPath) === dirOf(definer.path) && caller.graph.package === definer.package) return [bare];
    return qualified((caller.goImports ?? []).filter((imp) => dir !== "" && (imp.path === dir || imp.path.endsWith(`/${dir}`))).map((imp) => imp.name), ".");
  }
  if (family === "rust") {
    const module = definer.path.replace(/\.rs$/, "").split("/").pop() === "mod" ? (definer.path.split("/").slice(-2)[0] ?? "") : (definer.path.replace(/\.rs$/, "").split("/").pop() ?? "");
    const uses = caller.lines.some((l) => new RegExp(`^\\s*(pub\\s+)?use\\s.*\\b${regexEscaped(module)}::(\\{[^}]*)?\\b${n}\\b`).test(l));
    return [...qualified([module], "::"), ...(uses ? [bare] : [])];
  }
  const own = moduleImportOf(callerPath, caller.graph.imports, definer.path, definer.language);
  const forms = qualified(own.bindings, ".");
  const importsName = caller.graph.imports.some((imp) => {
    if (!moduleImportOf(callerPath, [imp], definer.path, definer.language).imports) return false;
    if (family === "python") return imp.names?.includes(name) ?? false;
    return new RegExp(`\\{[^}]*\\b${n}\\b[^}]*\\}`).test(importText(caller.lines, imp));
  });
  if (family === "script") {
    // `import * as m from "./defining"`: the namespace.
    for (const imp of caller.graph.imports) {
      if (!moduleImportOf(callerPath, [imp], definer.path, definer.language).imports) continue;
      const ns = /\*\s+as\s+([A-Za-z_$][\w$]*)/.exec(importText(caller.lines, imp));
      if (ns) forms.push(...qualified([ns[1]!], "."));
    }
  }
  return importsName ? [...forms, bare] : forms;
}

export type RemovedValuesInput = {
  files: readonly DiffFile[];
  readBase(path: string): Promise<string | null>;
  readHead(path: string): Promise<string | null>;
  /** Files on the branch that mention `name` (the code graph's references). */
  usersOf(name: string): Promise<string[]>;
  /** Files on the branch that import `path` (bare uses of an imported name are not references). */
  importersOf(path: string): Promise<string[]>;
  limits?: { definitions?: number; filesPerDefinition?: number };
  /** Parses a file's version (one review run's cache, ./calls.ts); parseForCalls when absent. */
  parse?: ParseFile;
};

export type RemovedValue = { change: SignatureChange; file: DiffFile; sites: ValueUse[] };

/** Per removed exported constant, variable or type, the uses bound to it that the change leaves. */
export async function findRemovedValueUses(input: RemovedValuesInput): Promise<RemovedValue[]> {
  const maxDefinitions = input.limits?.definitions ?? 30;
  const maxFiles = input.limits?.filesPerDefinition ?? 300;
  const removed: { value: TopLevelValue; file: DiffFile; language: string; package: string | null }[] = [];
  const written = input.files.filter((f) => f.newPath && f.status !== "deleted" && !f.binary).map((f) => f.newPath!);
  const parse = input.parse ?? parseForCalls;
  const headParsed = new Map<string, Promise<ParsedFile | null>>();
  const parseHead = (path: string) => {
    if (!headParsed.has(path)) headParsed.set(path, input.readHead(path).then((t) => (t === null ? null : parse(path, t, new Set()))));
    return headParsed.get(path)!;
  };
  for (const file of input.files) {
    if (file.binary || file.status === "added" || !file.oldPath) continue;
    const language = callLanguageOf(file.oldPath);
    // A deleted file: only Go's (a package's files use each other without an import; other deletions are broken imports).
    if (!language || (file.status === "deleted" && language !== "go")) continue;
    const before = await input.readBase(file.oldPath);
    const b = before === null ? null : await parse(file.oldPath, before, new Set());
    if (!b) continue;
    const a = file.status === "deleted" || !file.newPath ? null : await parseHead(file.newPath);
    const headValues = a ? topLevelValuesOf(language, a.lines) : [];
    for (const value of topLevelValuesOf(language, b.lines)) {
      if (stillProvided(value.name, language, a, headValues)) continue;
      // Go: another file of the package defines it at the head (moved within the package).
      if (language === "go") {
        let moved = false;
        for (const path of written.filter((p) => p !== file.newPath && dirOf(p) === dirOf(file.oldPath!) && p.endsWith(".go"))) {
          const h = await parseHead(path);
          if (h && definesAtTopLevel(h, "go", value.name)) moved = true;
        }
        if (moved) continue;
      }
      removed.push({ value, file, language, package: b.graph.package });
    }
  }
  const out: RemovedValue[] = [];
  for (const { value, file, language, package: pkg } of removed.slice(0, maxDefinitions)) {
    const [users, importers] = await Promise.all([input.usersOf(value.name).catch(() => []), input.importersOf(file.oldPath!).catch(() => [])]);
    const candidates = [...new Set([...users, ...importers, ...written])].filter((p) => p !== file.newPath && familyOf(callLanguageOf(p) ?? "") === familyOf(language)).slice(0, maxFiles);
    const sites: ValueUse[] = [];
    for (const path of candidates) {
      const caller = await parseHead(path);
      if (!caller) continue;
      // A file that defines the name itself uses its own.
      if (definesAtTopLevel(caller, language, value.name)) continue;
      const forms = boundForms(value.name, { path: file.oldPath!, language, package: pkg }, path, caller);
      if (forms.length === 0) continue;
      caller.lines.forEach((text, i) => {
        const code = codeOf(text, language);
        if (/^\s*(\*|\/\*)/.test(code)) return;
        if (forms.some((f) => f.test(code))) {
          sites.push({ path, line: i + 1, reason: `uses \`${value.name}\`, which the change removes`, lineText: text });
        }
      });
    }
    if (sites.length === 0) continue;
    const before: GraphDefinition = { name: value.name, kind: "type", label: value.kind, parent: null, startLine: value.line, endLine: value.line, params: null, paramsText: null };
    const change: SignatureChange = { change: "removed", path: file.path, oldPath: file.oldPath!, language, name: value.name, newName: null, kind: value.kind, parent: null, before, after: null };
    out.push({ change, file, sites });
  }
  return out;
}
