/**
 * Import resolution on a branch: the raw import specs of each file's graph (kept per blob) against
 * the branch's file list. Pure and deterministic: the same file set and specs give the same edges, so
 * a rebuilt index answers exactly as before. Rules per language, none naming a repository:
 *
 * - Python: absolute modules from the root, else by path suffix (a source root such as `src/` or
 *   `Lib/`), the nearest match; relative imports from the file's package; a package is its
 *   `__init__.py`; `from p import m` points to the submodule `p/m` when it exists, else to `p`.
 * - JS/TS: relative specs, with extensions (`.ts`, `.tsx`, `.d.ts`, `.js`, ...), `index` files, and a
 *   `.js` spec naming its `.ts` source; bare package names are not resolved.
 * - Go: `vendor/<path>`, else the longest proper suffix of the import path that is a directory of the
 *   branch (two segments at least for a path whose first segment has no dot, as the standard
 *   library's), its non-test `.go` files.
 * - Rust: `mod foo;` -> foo.rs or foo/mod.rs beside a mod.rs/lib.rs/main.rs, else in the file's own
 *   module directory; `use crate::a::b` from the crate's `src/` (the nearest Cargo.toml's, else the
 *   nearest lib.rs/main.rs), `self::`/`super::` from the file's module, a workspace crate by its
 *   directory name, or a module beside the file; the longest module path that exists.
 * - Java: package + class from the files' package declarations, else the path `a/b/C.java` under any
 *   source root; `a.b.*` -> the package's files; static imports drop trailing members.
 * - C/C++: includes relative to the including file, else by path suffix (nearest).
 */
import type { GraphImport } from "../port.ts";
import { basename, createPathIndex, dirname, joinPath, nearest, normalisePath, type PathIndex } from "./paths.ts";

export type ResolverFile = { path: string; language: string; package: string | null; imports: readonly GraphImport[] };

export type BranchGraph = {
  /** Per file: the targets of each of its imports, in import order. */
  targets: Map<string, string[][]>;
  /** Per file: every file it imports, sorted (itself excluded). */
  importsOf: Map<string, string[]>;
  /** Per file: every file importing it, sorted. */
  importersOf: Map<string, string[]>;
};

type Context = { index: PathIndex; javaTypes: Map<string, string>; javaPackages: Map<string, string[]>; crates: Map<string, string> };

const sortedUnique = (paths: Iterable<string>): string[] => [...new Set(paths)].sort();

// ---- Python ------------------------------------------------------------------------------------

function pythonModuleAt(ctx: Context, dir: string, modulePath: string): string | null {
  const base = joinPath(dir, modulePath);
  for (const candidate of [`${base}.py`, `${base}/__init__.py`, `${base}.pyi`, `${base}/__init__.pyi`]) {
    if (ctx.index.has(candidate)) return candidate;
  }
  return null;
}

function pythonAbsolute(ctx: Context, modulePath: string, importer: string): string | null {
  const atRoot = pythonModuleAt(ctx, "", modulePath);
  if (atRoot) return atRoot;
  for (const suffix of [`${modulePath}.py`, `${modulePath}/__init__.py`, `${modulePath}.pyi`, `${modulePath}/__init__.pyi`]) {
    const found = nearest(ctx.index.withSuffix(suffix), importer);
    if (found) return found;
  }
  return null;
}

function resolvePython(ctx: Context, imp: GraphImport, importer: string): string[] {
  const dots = /^\.*/.exec(imp.spec)![0].length;
  const modulePath = imp.spec.slice(dots).split(".").filter(Boolean).join("/");
  let find: (path: string) => string | null;
  if (dots > 0) {
    let dir: string | null = dirname(importer);
    for (let i = 1; i < dots && dir !== null; i++) dir = dir === "" ? null : dirname(dir);
    if (dir === null) return [];
    const packageDir = dir;
    const init = [joinPath(packageDir, "__init__.py"), joinPath(packageDir, "__init__.pyi")].find((p) => ctx.index.has(p)) ?? null;
    find = (path) => (path === "" ? init : pythonModuleAt(ctx, packageDir, path));
  } else find = (path) => (path === "" ? null : pythonAbsolute(ctx, path, importer));
  const out: string[] = [];
  let needModule = !imp.names || imp.names.length === 0;
  for (const name of imp.names ?? []) {
    const sub = name === "*" ? null : find(joinPath(modulePath, name.split(".").join("/")));
    if (sub) out.push(sub);
    else needModule = true;
  }
  if (needModule) {
    const module = find(modulePath);
    if (module) out.push(module);
  }
  return out;
}

// ---- JavaScript / TypeScript ----------------------------------------------------------------------

const SCRIPT_EXTENSIONS = [".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts", ".json"];
const JS_TO_TS: Record<string, string[]> = { ".js": [".ts", ".tsx", ".d.ts"], ".jsx": [".tsx"], ".mjs": [".mts", ".d.mts"], ".cjs": [".cts", ".d.cts"] };

function resolveScript(ctx: Context, imp: GraphImport, importer: string): string[] {
  if (!imp.spec.startsWith(".")) return [];
  const target = normalisePath(dirname(importer), imp.spec.replace(/[?#].*$/, ""));
  if (target === null) return [];
  if (ctx.index.has(target)) return [target];
  const ext = /\.[cm]?jsx?$/.exec(target)?.[0];
  if (ext) {
    const stem = target.slice(0, -ext.length);
    for (const replacement of JS_TO_TS[ext] ?? []) if (ctx.index.has(stem + replacement)) return [stem + replacement];
  }
  for (const e of SCRIPT_EXTENSIONS) if (ctx.index.has(target + e)) return [target + e];
  for (const e of SCRIPT_EXTENSIONS) if (ctx.index.has(`${target}/index${e}`)) return [`${target}/index${e}`];
  return [];
}

// ---- Go -------------------------------------------------------------------------------------------

const goFilesIn = (ctx: Context, dir: string): string[] => ctx.index.filesIn(dir).filter((p) => p.endsWith(".go") && !p.endsWith("_test.go"));

function resolveGo(ctx: Context, imp: GraphImport): string[] {
  const spec = imp.spec.replace(/\/+$/, "");
  const vendored = goFilesIn(ctx, `vendor/${spec}`);
  if (vendored.length > 0) return vendored;
  const segments = spec.split("/");
  const minSegments = segments[0]!.includes(".") ? 1 : 2;
  for (let i = 1; i < segments.length && segments.length - i >= minSegments; i++) {
    const files = goFilesIn(ctx, segments.slice(i).join("/"));
    if (files.length > 0) return files;
  }
  return [];
}

// ---- Rust -----------------------------------------------------------------------------------------

const RUST_ROOT_FILES = new Set(["mod.rs", "lib.rs", "main.rs"]);

/** The directory holding a Rust file's child modules. */
function rustModuleDir(path: string): string {
  const base = basename(path);
  return RUST_ROOT_FILES.has(base) ? dirname(path) : joinPath(dirname(path), base.replace(/\.rs$/, ""));
}

function rustCrateRoot(ctx: Context, importer: string): string | null {
  for (let dir = dirname(importer); ; dir = dirname(dir)) {
    if (ctx.index.has(joinPath(dir, "Cargo.toml"))) return joinPath(dir, "src");
    if (dir === "") break;
  }
  for (let dir = dirname(importer); ; dir = dirname(dir)) {
    if (ctx.index.has(joinPath(dir, "lib.rs")) || ctx.index.has(joinPath(dir, "main.rs"))) return dir;
    if (dir === "") return null;
  }
}

/** The file of the module at `dir/segments...`, the longest prefix of segments that exists; null for none. */
function rustModuleFile(ctx: Context, dir: string, segments: readonly string[], rootFile: string | null): string | null {
  for (let n = segments.length; n >= 1; n--) {
    const path = joinPath(dir, segments.slice(0, n).join("/"));
    for (const candidate of [`${path}.rs`, `${path}/mod.rs`]) if (ctx.index.has(candidate)) return candidate;
  }
  return rootFile;
}

/** `a::{b, c::{d, e}}` -> ["a::b", "a::c::d", "a::c::e"] (`self` inside braces is the prefix itself). */
export function expandUseTree(text: string): string[] {
  const clean = text.replace(/\s+as\s+[A-Za-z_]\w*/g, "").replace(/\s+/g, "");
  const open = clean.indexOf("{");
  if (open === -1) return [clean.replace(/::\*$/, "")];
  const prefix = clean.slice(0, open).replace(/::$/, "");
  const inner = clean.slice(open + 1, clean.lastIndexOf("}"));
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    const ch = inner[i];
    if (ch === "{") depth++;
    else if (ch === "}") depth--;
    else if (ch === "," && depth === 0) {
      parts.push(inner.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(inner.slice(start));
  return parts
    .filter((p) => p !== "")
    .flatMap((p) => expandUseTree(p).map((item) => (item === "self" ? prefix : prefix === "" ? item : `${prefix}::${item}`)));
}

function resolveRust(ctx: Context, imp: GraphImport, importer: string): string[] {
  if (imp.kind === "module") {
    const dir = rustModuleDir(importer);
    for (const candidate of [`${joinPath(dir, imp.spec)}.rs`, `${joinPath(dir, imp.spec)}/mod.rs`]) if (ctx.index.has(candidate)) return [candidate];
    return [];
  }
  const out: string[] = [];
  for (const path of expandUseTree(imp.spec)) {
    const segments = path.split("::").filter((s) => s !== "" && s !== "*");
    const head = segments[0];
    if (!head) continue;
    let found: string | null = null;
    if (head === "crate") {
      const root = rustCrateRoot(ctx, importer);
      if (root !== null) found = rustModuleFile(ctx, root, segments.slice(1), null);
    } else if (head === "self" || head === "super") {
      let dir = rustModuleDir(importer);
      let rest = head === "self" ? segments.slice(1) : segments;
      let parentFile: string | null = null;
      while (rest[0] === "super") {
        dir = dirname(dir);
        parentFile = rustModuleFileOfDir(ctx, dir);
        rest = rest.slice(1);
      }
      found = rustModuleFile(ctx, dir, rest, parentFile);
    } else {
      found = rustModuleFile(ctx, rustModuleDir(importer), segments, null);
      const crate = ctx.crates.get(head);
      if (!found && crate !== undefined) found = rustModuleFile(ctx, crate, segments.slice(1), rustModuleFileOfDir(ctx, crate));
    }
    if (found && found !== importer) out.push(found);
  }
  return out;
}

/** The file of the module whose child modules live in `dir` (`dir.rs`, `dir/mod.rs`, or a crate root). */
function rustModuleFileOfDir(ctx: Context, dir: string): string | null {
  const candidates = [...(dir === "" ? [] : [`${dir}.rs`]), joinPath(dir, "mod.rs"), joinPath(dir, "lib.rs"), joinPath(dir, "main.rs")];
  return candidates.find((p) => ctx.index.has(p)) ?? null;
}

// ---- Java -----------------------------------------------------------------------------------------

function resolveJava(ctx: Context, imp: GraphImport, importer: string): string[] {
  const spec = imp.spec.replace(/^static\s+/, "");
  const segments = spec.split(".");
  if (segments[segments.length - 1] === "*") {
    const pkg = segments.slice(0, -1).join(".");
    const declared = ctx.javaPackages.get(pkg);
    if (declared) return declared;
    const byDir = nearestDirFiles(ctx, segments.slice(0, -1).join("/"), importer, ".java");
    if (byDir.length > 0) return byDir;
  }
  const end = segments[segments.length - 1] === "*" ? segments.length - 1 : segments.length;
  for (let n = end; n >= 2; n--) {
    const fqn = segments.slice(0, n).join(".");
    const declared = ctx.javaTypes.get(fqn);
    if (declared) return [declared];
    const found = nearest(ctx.index.withSuffix(`${segments.slice(0, n).join("/")}.java`), importer);
    if (found) return [found];
  }
  return [];
}

/** The `.ext` files of the directory nearest the importer whose path ends with `dirSuffix`. */
function nearestDirFiles(ctx: Context, dirSuffix: string, importer: string, ext: string): string[] {
  const dirs = ctx.index.dirsWithSuffix(dirSuffix).filter((d) => ctx.index.filesIn(d).some((p) => p.endsWith(ext)));
  const best = nearest(dirs.map((d) => `${d}/_`), importer);
  return best === null ? [] : ctx.index.filesIn(dirname(best)).filter((p) => p.endsWith(ext));
}

// ---- C / C++ --------------------------------------------------------------------------------------

function resolveInclude(ctx: Context, imp: GraphImport, importer: string): string[] {
  if (imp.kind === "include") {
    const relative = normalisePath(dirname(importer), imp.spec);
    if (relative !== null && ctx.index.has(relative)) return [relative];
  }
  const spec = normalisePath("", imp.spec);
  if (!spec) return [];
  const found = nearest(ctx.index.withSuffix(spec), importer);
  return found ? [found] : [];
}

// ---- the branch -----------------------------------------------------------------------------------

const RESOLVERS: Record<string, (ctx: Context, imp: GraphImport, importer: string) => string[]> = {
  python: resolvePython,
  javascript: resolveScript,
  typescript: resolveScript,
  tsx: resolveScript,
  go: (ctx, imp) => resolveGo(ctx, imp),
  rust: resolveRust,
  java: resolveJava,
  c: resolveInclude,
  cpp: resolveInclude,
};

/** Resolves every import of `files` against the branch's file list `paths` (which may hold files without graphs). */
export function resolveBranchGraph(paths: readonly string[], files: readonly ResolverFile[]): BranchGraph {
  const index = createPathIndex(paths);
  const javaTypes = new Map<string, string>();
  const javaPackages = new Map<string, string[]>();
  for (const file of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    if (file.language !== "java" || file.package === null || !index.has(file.path)) continue;
    const fqn = `${file.package}.${basename(file.path).replace(/\.java$/, "")}`;
    if (!javaTypes.has(fqn)) javaTypes.set(fqn, file.path);
    const inPackage = javaPackages.get(file.package) ?? [];
    inPackage.push(file.path);
    javaPackages.set(file.package, inPackage);
  }
  const crates = new Map<string, string>();
  for (const path of [...paths].sort()) {
    if (basename(path) !== "Cargo.toml") continue;
    const dir = dirname(path);
    const name = basename(dir).replace(/-/g, "_");
    if (name !== "" && !crates.has(name) && index.hasDir(joinPath(dir, "src"))) crates.set(name, joinPath(dir, "src"));
  }
  const ctx: Context = { index, javaTypes, javaPackages, crates };
  const targets = new Map<string, string[][]>();
  const importsOf = new Map<string, string[]>();
  const importers = new Map<string, Set<string>>();
  for (const file of files) {
    const resolve = RESOLVERS[file.language];
    const perImport = file.imports.map((imp) => (resolve ? sortedUnique(resolve(ctx, imp, file.path)) : []));
    targets.set(file.path, perImport);
    const all = sortedUnique(perImport.flat()).filter((p) => p !== file.path);
    importsOf.set(file.path, all);
    for (const target of all) {
      let set = importers.get(target);
      if (!set) importers.set(target, (set = new Set()));
      set.add(file.path);
    }
  }
  const importersOf = new Map<string, string[]>();
  for (const [target, set] of importers) importersOf.set(target, sortedUnique(set));
  return { targets, importsOf, importersOf };
}
