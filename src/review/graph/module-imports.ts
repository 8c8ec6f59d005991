/**
 * Whether a file imports a module, read from the file's own import statements (./broken-callers.ts),
 * beside the branch's resolved imports: Python `import a.b`, `from a import b`, `from .b import f`
 * (relative to the importing file), JavaScript/TypeScript relative specs (`./utils`, `../lib/utils`,
 * a folder's `index`). Absolute Python specs match the module's dotted path from its end (at least two
 * parts, or the whole path), so `import json` never matches a repository's `pkg/json.py`.
 */
import type { GraphImport } from "../../codeindex/port.ts";

export type ModuleImport = {
  /** The file imports the module (or names from it). */
  imports: boolean;
  /** Names the module itself is bound to in the file (`utils` for `from pkg import utils`, `pkg.utils` for `import pkg.utils`). */
  bindings: Set<string>;
};

const withoutExtension = (path: string) => path.replace(/\.[^./]+$/, "");

/** The module's path segments: `src/pkg/utils.py` -> [src, pkg, utils]; a package's `__init__` (JS `index`) is its folder. */
function moduleSegments(path: string): string[] {
  const parts = withoutExtension(path).split("/");
  if (parts.length > 1 && (parts[parts.length - 1] === "__init__" || parts[parts.length - 1] === "index")) parts.pop();
  return parts;
}

const endsWith = (whole: readonly string[], tail: readonly string[]) =>
  tail.length > 0 && tail.length <= whole.length && tail.every((t, i) => whole[whole.length - tail.length + i] === t);

/** Python: an import spec names the module when it is its whole path or a tail of two parts or more. */
const pythonNames = (module: readonly string[], spec: readonly string[]) => (spec.length >= 2 || spec.length === module.length) && endsWith(module, spec);

function normalise(parts: string[]): string[] {
  const out: string[] = [];
  for (const p of parts) {
    if (p === "" || p === ".") continue;
    if (p === "..") out.pop();
    else out.push(p);
  }
  return out;
}

export function moduleImportOf(callerPath: string, imports: readonly GraphImport[], definingPath: string, language: string): ModuleImport {
  const module = moduleSegments(definingPath);
  const callerDir = callerPath.split("/").slice(0, -1);
  const out: ModuleImport = { imports: false, bindings: new Set() };
  for (const imp of imports) {
    if (language === "python") {
      const dots = /^\.*/.exec(imp.spec)![0].length;
      const rest = imp.spec.slice(dots).split(".").filter(Boolean);
      const base = dots > 0 ? normalise([...callerDir.slice(0, Math.max(0, callerDir.length - (dots - 1))), ...rest]) : rest;
      const matches = (parts: string[]) => (dots > 0 ? sameModule(module, parts) : pythonNames(module, parts));
      if (!imp.names) {
        if (matches(base)) {
          out.imports = true;
          out.bindings.add(base.join("."));
        }
        continue;
      }
      if (matches(base)) out.imports = true; // from module import f
      for (const name of imp.names) {
        if (matches([...base, name])) {
          out.imports = true;
          out.bindings.add(name);
        }
      }
    } else if (imp.spec.startsWith(".")) {
      const target = normalise([...callerDir, ...withoutExtension(imp.spec).split("/")]);
      if (target.join("/") === module.join("/") || target.join("/") === withoutExtension(definingPath)) out.imports = true;
    }
  }
  return out;
}

/** A relative import resolves to a path from the repository root: it must be the module's path itself. */
function sameModule(module: readonly string[], parts: readonly string[]): boolean {
  return parts.length === module.length && parts.every((p, i) => module[i] === p);
}
