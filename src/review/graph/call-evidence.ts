/**
 * Whether a call is evidently a call of a changed definition (the precision rule of the broken-callers
 * finding, ./broken-callers.ts), from what the caller's file says (its imports, its own definitions,
 * how the call is written) and what the branch's code graph says (the other definitions of the name,
 * whether the caller imports the defining file). Each language's evidence:
 *
 * - Python, JavaScript/TypeScript: a bare call in the defining file or a file importing it, a call on
 *   the module's binding (`utils.f()`), `self.m()`/`this.m()`, or a name defined nowhere else.
 * - Go: a bare call in the defining package (same directory and package name) or through a dot-import;
 *   `pkg.F()` where `pkg` is the name the caller's import of the defining package's path binds; a
 *   method `x.M()` never on a package qualifier.
 * - Rust: a bare call in the defining file or of a name the caller's `use` brings from the defining
 *   module; `module::f()` / `crate::a::module::f()` naming the defining module; `Type::f()` /
 *   `Self::f()` for a method of `Type`; `self.m()` in the defining file.
 * Methods called on an object (`x.m()`), in every language: the call is this definition's only when
 * the name is not a common method name of the languages' own types, and the call fits none of the
 * name's other definitions in the repository. In JavaScript and TypeScript, a call on a capitalised
 * name the caller's file neither declares nor imports (`Response.redirect(url, 301)`, `Promise.all`)
 * is on one of the runtime's globals, never on the repository's code.
 */
import type { GraphParam } from "../../codeindex/port.ts";
import { expandUseTree } from "../../codeindex/graph/resolve.ts";
import type { CallSite } from "./call-site.ts";
import type { ParsedFile } from "./calls.ts";
import type { SignatureChange } from "./signature-changes.ts";
import { misfit, shapeOf } from "./signature.ts";
import { COMMON_METHOD_NAMES, GLOBAL_NAMES, isCommonMethodName } from "./names.ts";
import { packageNameOf } from "./workspace-package.ts";
import { dirOf, regexEscaped } from "./path-text.ts";

export type Evidence = {
  change: SignatureChange;
  constructor: boolean;
  /** Definitions of the called name on the branch outside the changed file. */
  elsewhere: number;
  /** Their parameters (functions and methods). */
  others: (GraphParam[] | null)[];
  importsDefiner: boolean;
  /** Names the defining module is bound to in the caller (`utils`, `pkg.utils`). */
  bindings: Set<string>;
  /** Go: the defining file's package name. */
  definerPackage: string | null;
  /** A method's type (its parent) is defined nowhere else on the branch. */
  parentUnique: boolean;
  /**
   * JavaScript/TypeScript: the name of the repository's own package (./workspace-package.ts) that
   * encloses the defining file, when the changed function is exported and that package defines the
   * name nowhere else: an import of the name from the package (`from "@acme/core/url"`) is of it.
   */
  ownPackage?: string | null;
  callerPath: string;
  caller: ParsedFile;
};

const lastSegment = (path: string, separator: string) => path.split(separator).pop() ?? "";

/**
 * Whether the caller's file evidently gives the receiver of `x.m()` the method's type `T`: JS
 * `x = new T(`, Python `x = T(`, Go `x := &T{`, `x T` / `x *T` (a parameter or a `var`), Rust
 * `let x = T::`, `x: T` / `x: &T` / `x: &mut T`; `q.T` / `q::T` qualified alike. Only for a receiver
 * that is a plain name (or `self.x` / `this.x`), and a type defined nowhere else in the repository.
 */
export function receiverIsOfType(call: CallSite, e: Evidence): boolean {
  const type = e.change.parent;
  const receiver = call.receiver;
  if (!type || !e.parentUnique || !receiver || !/^((self|this)\.)?[A-Za-z_$][\w$]*$/.test(receiver)) return false;
  if (["self", "this", "cls"].includes(receiver)) return false;
  const r = regexEscaped(receiver);
  // The type unqualified (Go: in the defining package only), or qualified by the defining module's name in the caller.
  const language = e.change.language;
  const samePackage = language !== "go" || (dirOf(e.callerPath) === dirOf(e.change.path) && e.caller.graph.package === e.definerPackage);
  const qualifiers = language === "go" ? [...goQualifiers(e)] : language === "rust" ? [rustModuleName(e.change.path)] : [...e.bindings];
  const forms = [...(samePackage ? [regexEscaped(type)] : []), ...qualifiers.filter((q) => q !== ".").map((q) => `${regexEscaped(q)}${language === "rust" ? "::" : "\\."}${regexEscaped(type)}`)];
  if (forms.length === 0) return false;
  const t = `(?:${forms.join("|")})`;
  const patterns: Record<string, string[]> = {
    python: [`\\b${r}\\s*=\\s*${t}\\s*\\(`],
    script: [`\\b${r}\\s*=\\s*new\\s+${t}\\b`],
    go: [`\\b${r}\\s*:?=\\s*&?${t}\\s*\\{`, `\\b${r}\\s+\\*?${t}\\b`, `\\b${r}\\s*:?=\\s*new\\(${t}\\)`],
    rust: [`\\blet\\s+(?:mut\\s+)?${r}\\s*=\\s*${t}(?:::|\\s*\\{)`, `\\b${r}\\s*:\\s*(?:&\\s*(?:'\\w+\\s+)?(?:mut\\s+)?)?${t}\\b`],
  };
  const list = patterns[language === "python" || language === "go" || language === "rust" ? language : "script"]!;
  const text = e.caller.lines.join("\n");
  return list.some((p) => new RegExp(p).test(text));
}

/** Whether a member call `x.m()` is a call of the changed method `m`, judged from the name alone and the other definitions. */
function methodByName(call: CallSite, e: Evidence, bound: boolean): boolean {
  const { change } = e;
  const sameFile = e.callerPath === change.path;
  if (receiverIsOfType(call, e)) return true;
  if (isCommonMethodName(call.name, change.language) && !e.importsDefiner && !sameFile) return false;
  // Other definitions of the name: the call is this one's only when it fits none of them.
  const lenient = (params: GraphParam[]) => (change.language === "python" || change.language === "go" || change.language === "rust" ? new Set<string>() : new Set(params.map((p) => p.name)));
  return e.others.every((params) => params !== null && misfit(shapeOf(params, change.language, bound), call, lenient(params)) !== null);
}

/** The package names the caller binds to the defining Go package (its directory), "." for a dot-import. */
function goQualifiers(e: Evidence): Set<string> {
  const dir = dirOf(e.change.path).replace(/^vendor\//, "");
  const out = new Set<string>();
  for (const imp of e.caller.goImports ?? []) {
    if (dir !== "" && (imp.path === dir || imp.path.endsWith(`/${dir}`))) out.add(imp.name);
  }
  // Resolved by the branch's graph (a package at the module's root): its package name.
  if (out.size === 0 && e.importsDefiner && e.definerPackage) out.add(e.definerPackage);
  return out;
}

function goEvident(call: CallSite, e: Evidence): boolean {
  const { change } = e;
  const qualifiers = goQualifiers(e);
  const samePackage = dirOf(e.callerPath) === dirOf(change.path) && e.caller.graph.package === e.definerPackage;
  if (change.parent === null) {
    if (call.form === "bare") return samePackage || qualifiers.has(".");
    return call.form === "member" && call.receiver !== null && qualifiers.has(call.receiver);
  }
  if (call.form !== "member" || call.receiver === null) return false;
  // `pkg.F()` is a package's function, not a method.
  if ((e.caller.goImports ?? []).some((i) => i.name === call.receiver)) return false;
  // The defining package's own files need no import to call its methods.
  return methodByName(call, samePackage ? { ...e, importsDefiner: true } : e, true);
}

/** The module name a Rust file is reached by (`a/b.rs` and `a/b/mod.rs` -> b; a crate root -> the crate's name). */
function rustModuleName(path: string): string {
  const parts = path.replace(/\.rs$/, "").split("/");
  const file = parts.pop() ?? "";
  if (file === "mod") return parts.pop() ?? "";
  if (file === "lib" || file === "main") {
    const src = parts.lastIndexOf("src");
    return (src > 0 ? parts[src - 1]! : (parts.pop() ?? "")).replace(/-/g, "_");
  }
  return file;
}

function rustEvident(call: CallSite, e: Evidence): boolean {
  const { change } = e;
  const sameFile = e.callerPath === change.path;
  const module = rustModuleName(change.path);
  const receiver = call.receiver ?? "";
  const definesOwn = !sameFile && e.caller.graph.definitions.some((d) => d.name === call.name && d.kind === "function" && d.parent === null);
  if (change.parent === null) {
    if (call.form === "bare") {
      if (sameFile) return true;
      if (definesOwn) return false;
      const uses = e.caller.graph.imports.filter((i) => i.kind === "import").flatMap((i) => expandUseTree(i.spec));
      const brought = uses.some((u) => lastSegment(u, "::") === call.name && (e.importsDefiner || lastSegment(u.slice(0, -call.name.length - 2), "::") === module));
      const glob = e.importsDefiner && e.caller.graph.imports.some((i) => /::\*\s*;?$/.test(i.spec) || /\*\s*}/.test(i.spec));
      return brought || glob || (e.elsewhere === 0 && !GLOBAL_NAMES.has(call.name));
    }
    if (call.form !== "path") return false;
    if (sameFile && /^(self|super|crate)$/.test(receiver)) return true;
    if (lastSegment(receiver, "::") !== module) return false;
    return e.importsDefiner || /^(crate|self|super)::/.test(receiver) || receiver === module || e.elsewhere === 0;
  }
  // A method or associated function of `change.parent`.
  if (call.form === "path") {
    const type = lastSegment(receiver, "::");
    return (type === change.parent && !definesOwn) || (type === "Self" && sameFile);
  }
  if (call.form !== "member") return false;
  if (receiver === "self" && (sameFile || e.elsewhere === 0)) return true;
  return methodByName(call, e, true);
}

/** JavaScript/TypeScript: whether the caller's file declares or imports `name` (a class, function, variable, parameter or import binding). */
export function declaresName(name: string, lines: readonly string[]): boolean {
  const n = regexEscaped(name);
  const text = lines.join("\n");
  return [
    new RegExp(`\\b(?:class|function\\*?|const|let|var|enum|namespace|interface|type)\\s+${n}\\b`),
    new RegExp(`\\bimport\\s+(?:type\\s+)?${n}\\b|\\bimport\\s*\\*\\s*as\\s+${n}\\b|\\bimport\\s+[\\w$]+\\s*,\\s*\\*\\s*as\\s+${n}\\b`),
    new RegExp(`\\{[^{}]*\\b${n}\\b[^{}]*\\}\\s*(?:from\\b|=)`),
    new RegExp(`[(,]\\s*(?:\\.\\.\\.)?${n}\\s*(?:[,)=:?]|$)`, "m"),
  ].some((re) => re.test(text));
}

/** JavaScript/TypeScript: a member call on a capitalised name the file neither declares nor imports: a runtime global's (`Response.redirect`). */
function onUndeclaredGlobal(call: CallSite, e: Evidence): boolean {
  const receiver = call.receiver;
  if (receiver === null || !/^[A-Z][\w$]*$/.test(receiver) || receiver === e.change.parent) return false;
  if (e.callerPath === e.change.path) return false;
  return !declaresName(receiver, e.caller.lines);
}

/** Whether `call` is evidently a call of the changed definition. */
export function evident(call: CallSite, e: Evidence): boolean {
  const { change } = e;
  if (change.language === "go") return goEvident(call, e);
  if (change.language === "rust") return rustEvident(call, e);
  const sameFile = e.callerPath === change.path;
  const definesOwn = !sameFile && e.caller.graph.definitions.some((d) => d.name === call.name && (d.kind === "function" || d.kind === "class"));
  const python = change.language === "python";
  if (e.constructor) {
    if (python ? call.form !== "bare" : call.form !== "new") return false;
    return !definesOwn && (sameFile || e.importsDefiner || e.elsewhere === 0);
  }
  if (!python && call.form === "member" && onUndeclaredGlobal(call, e)) return false;
  if (change.kind === "function" && change.parent === null) {
    if (call.form === "bare" || (call.form === "new" && !python)) {
      if (sameFile) return true;
      if (definesOwn) return false;
      // Bound from a package: the repository's own package that defines it, or another's.
      const spec = python ? null : packageBindingOf(call.name, e.caller.lines);
      if (spec !== null) return e.ownPackage != null && packageNameOf(spec) === e.ownPackage;
      if (e.importsDefiner) return true;
      return e.elsewhere === 0 && !GLOBAL_NAMES.has(call.name);
    }
    if (call.form !== "member") return false;
    // `module.name(...)`: the module is the defining file.
    if (call.receiver !== null && e.bindings.has(call.receiver)) return true;
    const base = change.path.replace(/\.[^./]+$/, "").split("/");
    const moduleName = base[base.length - 1] === "__init__" || base[base.length - 1] === "index" ? base[base.length - 2] : base[base.length - 1];
    const receiverTail = (call.receiver ?? "").split(".").pop();
    if (e.importsDefiner && receiverTail === moduleName) return true;
    return e.elsewhere === 0 && !COMMON_METHOD_NAMES.has(call.name) && e.importsDefiner;
  }
  // A method: called on an object.
  if (call.form !== "member") return false;
  const own = call.receiver === "self" || call.receiver === "cls" || call.receiver === "this" || call.receiver === "super()";
  if (own && (sameFile || e.elsewhere === 0)) return true;
  return methodByName(call, e, true);
}

/**
 * The package spec a JavaScript caller binds `name` from, rather than from a file of the repository:
 * `var name = require('pkg')`, `import name from 'pkg'`, `import { name } from 'pkg'` (a spec that is
 * not relative); null when it binds none. Such a call is the package's, whatever the repository
 * defines, unless the package is the repository's own (`ownPackage`). (Python's absolute imports name
 * the project's own modules as often as packages, so they are not read this way.)
 */
export function packageBindingOf(name: string, lines: readonly string[]): string | null {
  const n = regexEscaped(name);
  const bindings = [
    new RegExp(`\\b(?:const|let|var)\\s+${n}\\s*=\\s*require\\(\\s*['"]([^'"]+)['"]`),
    new RegExp(`^\\s*import\\s+${n}\\s*(?:,|\\s+from)[^'"]*['"]([^'"]+)['"]`),
    new RegExp(`^\\s*import\\s*\\{[^}]*\\b(?:\\w+\\s+as\\s+)?${n}\\b[^}]*\\}\\s*from\\s*['"]([^'"]+)['"]`),
  ];
  for (const line of lines) {
    for (const re of bindings) {
      const spec = re.exec(line)?.[1];
      if (spec !== undefined && !spec.startsWith(".") && !spec.startsWith("/")) return spec;
    }
  }
  return null;
}

/** The names a JavaScript caller binds the whole of a package to (`import * as core from "pkg/core"`, `const pkg = require("pkg")`). */
export function packageNamespacesOf(packageName: string, lines: readonly string[]): string[] {
  const forms = [/^\s*import\s+\*\s+as\s+([\w$]+)\s+from\s*['"]([^'"]+)['"]/, /\b(?:const|let|var)\s+([\w$]+)\s*=\s*require\(\s*['"]([^'"]+)['"]\s*\)/];
  const out: string[] = [];
  for (const line of lines) {
    for (const re of forms) {
      const m = re.exec(line);
      if (m && packageNameOf(m[2]!) === packageName) out.push(m[1]!);
    }
  }
  return out;
}

/** Whether a call passes the receiver as an object (a Python method's `self`, a Rust method's `self` not among the arguments). */
export function boundCall(change: SignatureChange, call: CallSite, constructor: boolean): boolean {
  if (change.language === "rust") return call.form === "member";
  if (change.language !== "python") return false;
  return constructor || (change.kind === "method" && call.form === "member" && !(change.parent !== null && call.receiver === change.parent && !/^cls\b/.test(change.before.params?.[0]?.name ?? "")));
}
