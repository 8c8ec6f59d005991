/**
 * The "broken imports" finding: a pull request deletes a file, or moves it, and files elsewhere in the
 * repository still import it from where it was: they will fail to import (Python `import x` /
 * `from x import y`, JavaScript/TypeScript import, export-from and require, a Go package, a Rust `mod`
 * or `use`, a Java import, a C/C++ `#include`).
 *
 * Candidates: the files the target branch's code graph says import the removed file (`importersOf`:
 * imports resolved to that exact file), and the files the pull request adds or changes. Each candidate
 * is read at the pull request's head (an import the pull request updates is seen updated), its imports
 * parsed as the indexer parses them (./file-graph.ts) and resolved by the indexer's own rules
 * (src/codeindex/graph/resolve.ts) twice: against the files of the diff's base and against those of
 * the head. An import is stale when at the base it resolved to the removed file and at the head it
 * resolves to nothing (a Python `from pkg import mod` of a removed submodule now falling back to the
 * package counts unless the package's `__init__` names `mod`). So a file moved to where the import
 * still finds it (`utils.py` -> `utils/__init__.py`, `x.ts` -> `x/index.ts`), a Go file whose package
 * keeps other files, or a removed Python `__init__.py` whose folder keeps modules (a namespace package
 * then) is not named. Files the pull request deletes are not candidates.
 * One finding per removed file: on the moved file's first added line, else on the file as a whole.
 */
import type { DiffFile } from "../diff.ts";
import { findFileChange } from "../addressed.ts";
import { WHOLE_FILE_LINE, type Finding } from "../findings.ts";
import type { GraphImport } from "../../codeindex/port.ts";
import { basename, dirname } from "../../codeindex/graph/paths.ts";
import { expandUseTree, resolveBranchGraph, type ResolverFile } from "../../codeindex/graph/resolve.ts";
import { detectLanguage } from "../../indexing/chunking/languages.ts";
import { hasGraph } from "../../indexing/graph/extract.ts";
import { isTestPath } from "../analysers/context.ts";
import { callSitesUpdated } from "./broken-callers.ts";
import { fileGraphOf } from "./file-graph.ts";
import type { ParseFile } from "./calls.ts";
import { regexEscaped } from "./path-text.ts";

export const BROKEN_IMPORTS_RULE = "graph/broken-imports";

export type BrokenImportsInput = {
  files: readonly DiffFile[];
  /** The indexed branch's files that import `path` (its code graph's resolved imports). */
  importersOf(path: string): Promise<string[]>;
  readHead(path: string): Promise<string | null>;
  /** Reads these files at the head together, for the `readHead` calls that follow (optional). */
  prefetchHead?(paths: string[]): Promise<void>;
  /** Every file at the diff's base, and at the head. */
  basePaths(): Promise<readonly string[]>;
  headPaths(): Promise<readonly string[]>;
  /** Importers not looked at (`.loupe/` ignores). */
  skipImporter?(path: string): boolean;
  limits?: { removed?: number; importersPerFile?: number; candidates?: number };
  /** The review run's parses (./calls.ts `createParseCache`), shared with the broken callers: a file of their languages is parsed there. */
  parse?: ParseFile;
};

export type StaleImport = { path: string; line: number; text: string; test: boolean };

export type BrokenImport = {
  file: DiffFile;
  removedPath: string;
  movedTo: string | null;
  /** The folder when the imports resolved to several removed files of it (a Go package, a Java `pkg.*`): named once, on its first file. */
  folder: string | null;
  imports: StaleImport[];
  line: number;
};

const SHOWN = 5;
const MAX_LISTED = 100;

/** A file another file may import: one in a language with a code graph, or a JSON file (JavaScript imports them). */
export function isImportable(path: string): boolean {
  const language = detectLanguage(path);
  return (language !== null && hasGraph(language.id)) || /\.json$/i.test(path);
}

/** The files the change deletes or moves elsewhere that another file could have imported. */
export function removedFilesOf(files: readonly DiffFile[]): DiffFile[] {
  return files.filter(
    (f) => !f.binary && f.oldPath !== null && (f.status === "deleted" || (f.status === "renamed" && f.newPath !== null && f.newPath !== f.oldPath)) && isImportable(f.oldPath),
  );
}

/** One import per imported thing: Python `from p import a, b` per name, a Rust use tree per path. */
function splitImports(language: string, imports: readonly GraphImport[]): GraphImport[] {
  return imports.flatMap((imp) => {
    if (language === "python" && imp.names && imp.names.length > 1) return imp.names.map((n) => ({ ...imp, names: [n] }));
    if (language === "rust" && imp.kind !== "module" && imp.spec.includes("{")) return expandUseTree(imp.spec).map((spec) => ({ ...imp, spec }));
    return [imp];
  });
}

const isPythonInit = (path: string) => /(^|\/)__init__\.pyi?$/.test(path);

/** How a stale import reads in the finding: its line when that shows the spec, else the spec. */
function importText(imp: GraphImport, line: string | undefined): string {
  const text = (line ?? "").trim();
  const tail = imp.spec.split(/[./:]+/).filter(Boolean).pop() ?? imp.spec;
  if (text.length > 0 && text.length <= 160 && !text.includes("`") && text.includes(tail)) return `\`${text}\``;
  return imp.spec.includes("`") ? "an import of the file" : `imports \`${imp.spec}\``;
}

/** The removed and moved files that files still import, with those imports. */
export async function findBrokenImports(input: BrokenImportsInput): Promise<BrokenImport[]> {
  const removed = removedFilesOf(input.files).slice(0, input.limits?.removed ?? 50);
  if (removed.length === 0) return [];
  const perFile = input.limits?.importersPerFile ?? 300;
  const maxCandidates = input.limits?.candidates ?? 1000;
  const removedPaths = new Set(removed.map((f) => f.oldPath!));
  const deleted = new Set(input.files.filter((f) => f.status === "deleted" && f.oldPath).map((f) => f.oldPath!));
  const movedTo = new Map(input.files.filter((f) => f.status === "renamed" && f.oldPath && f.newPath).map((f) => [f.oldPath!, f.newPath!]));

  // Candidates at their head paths: the indexed importers (an importer the change moves, at its new place), then the files the change writes.
  const candidates = new Set<string>();
  for (const r of removed) {
    for (const p of (await input.importersOf(r.oldPath!).catch(() => [])).slice(0, perFile)) if (!deleted.has(p)) candidates.add(movedTo.get(p) ?? p);
  }
  for (const f of input.files) if (f.newPath && f.status !== "deleted" && !f.binary && isImportable(f.newPath)) candidates.add(f.newPath);
  const wanted = [...candidates].filter((p) => !removedPaths.has(p) && !(input.skipImporter?.(p) ?? false)).sort().slice(0, maxCandidates);
  if (wanted.length === 0) return [];

  await input.prefetchHead?.(wanted).catch(() => undefined);
  const parsed: { file: ResolverFile; lines: string[] }[] = [];
  for (const path of wanted) {
    const text = await input.readHead(path);
    // The run's parse of the file when the broken callers read it too (the same graph), else its own.
    const graph = text === null ? null : ((await input.parse?.(path, text, new Set())) ?? (await fileGraphOf(path, text)));
    if (!graph || graph.graph.imports.length === 0) continue;
    parsed.push({ file: { path, language: graph.language, package: graph.graph.package, imports: splitImports(graph.language, graph.graph.imports) }, lines: graph.lines });
  }
  if (parsed.length === 0) return [];
  const [basePaths, headPaths] = await Promise.all([input.basePaths(), input.headPaths()]);
  const files = parsed.map((p) => p.file);
  const atBase = resolveBranchGraph(basePaths, files).targets;
  const atHead = resolveBranchGraph(headPaths, files).targets;
  const headSet = new Set(headPaths);
  const headText = new Map<string, Promise<string | null>>();
  const readOnce = (path: string) => {
    if (!headText.has(path)) headText.set(path, input.readHead(path).catch(() => null));
    return headText.get(path)!;
  };

  const found = new Map<string, StaleImport[]>();
  const folders = new Map<string, string>();
  for (const { file, lines } of parsed) {
    const before = atBase.get(file.path) ?? [];
    const after = atHead.get(file.path) ?? [];
    for (const [i, imp] of file.imports.entries()) {
      const gone = (before[i] ?? []).filter((t) => removedPaths.has(t));
      const target = gone[0];
      if (!target) continue;
      const now = after[i] ?? [];
      if (now.length > 0) {
        // A removed submodule (`from pkg import mod`) now resolves to its package: stale unless the package names it.
        const name = imp.names?.[0];
        const fallback = file.language === "python" && name !== undefined && now.length === 1 && isPythonInit(now[0]!) && basename(dirname(now[0]!)) !== name;
        if (!fallback) continue;
        const pkg = await readOnce(now[0]!);
        if (pkg === null || new RegExp(`\\b${regexEscaped(name)}\\b`).test(pkg)) continue;
      }
      // A package's `__init__.py` removed from a folder that keeps modules: a namespace package still imports.
      if (isPythonInit(target) && headPaths.some((p) => dirname(p) === dirname(target) && /\.pyi?$/.test(p))) continue;
      if (gone.length > 1) folders.set(target, dirname(target));
      const list = found.get(target) ?? [];
      if (!list.some((s) => s.path === file.path && s.line === imp.line)) list.push({ path: file.path, line: imp.line, text: importText(imp, lines[imp.line - 1]), test: isTestPath(file.path) });
      found.set(target, list);
    }
  }

  const out: BrokenImport[] = [];
  for (const r of removed) {
    const imports = found.get(r.oldPath!);
    if (!imports || imports.length === 0) continue;
    const moved = r.status === "renamed" && r.newPath && headSet.has(r.newPath) ? r.newPath : null;
    const firstAdded = moved ? (r.hunks.flatMap((h) => h.lines).find((l) => l.kind === "add" && l.newLine !== null)?.newLine ?? null) : null;
    out.push({
      file: r,
      removedPath: r.oldPath!,
      movedTo: moved,
      folder: folders.get(r.oldPath!) ?? null,
      imports: imports.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line)),
      line: firstAdded ?? WHOLE_FILE_LINE,
    });
  }
  return out;
}

const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);

/** The finding of one removed or moved file: its stale imports (five shown, the rest folded), tests said so. */
export function brokenImportFinding(broken: BrokenImport): Finding {
  const { imports, removedPath, movedTo } = broken;
  const files = new Set(imports.map((s) => s.path)).size;
  const tests = new Set(imports.filter((s) => s.test).map((s) => s.path)).size;
  const testNote = tests === 0 ? "" : tests === files ? (files === 1 ? " (a test)" : " (all tests)") : ` (${tests} of them ${plural(tests, "a test", "tests")})`;
  const what = movedTo ? `moves \`${removedPath}\` to \`${movedTo}\`` : `deletes \`${removedPath}\`${broken.folder !== null ? ` and the rest of its package (\`${broken.folder}/\`)` : ""}`;
  const item = (s: StaleImport) => `- \`${s.path}:${s.line}\`: ${s.text}${s.test ? " (a test)" : ""}`;
  const lines = imports.slice(0, SHOWN).map(item);
  if (imports.length > SHOWN) {
    lines.push(`- and ${imports.length - SHOWN} more`, "", "<details><summary>The other imports</summary>", "", ...imports.slice(SHOWN, MAX_LISTED).map(item));
    if (imports.length > MAX_LISTED) lines.push(`- …and ${imports.length - MAX_LISTED} more`);
    lines.push("", "</details>");
  }
  const message =
    `**Broken imports**: this ${what}, but ${files} ${plural(files, "file still imports", "files still import")} it${movedTo ? ` from \`${removedPath}\`` : ""}${testNote}; ` +
    `${plural(files, "it", "they")} will fail to import:\n${lines.join("\n")}\n\n` +
    (movedTo
      ? `Import it from \`${movedTo}\` in ${plural(files, "this file", "these files")} (or keep a module at \`${removedPath}\` that re-exports it).`
      : `Update or remove ${plural(imports.length, "this import", "these imports")}, or keep the file.`);
  return { ruleId: BROKEN_IMPORTS_RULE, severity: "high", path: broken.file.path, lineStart: broken.line, lineEnd: broken.line, message };
}

/**
 * Addressed detection of a comment on a file as a whole (broken imports, the broken callers of a
 * deleted file or of a removed definition nothing took the place of) on `path` (the deleted file, the
 * moved file's new place, the changed file): true when the later commits (`files`: the diff from the
 * comment's commit to the new head) add, delete or move a file at that path, or rewrite or delete
 * every import or call site the comment lists.
 */
export function removalFixed(path: string, body: string, files: readonly DiffFile[]): boolean {
  const change = findFileChange(files, path);
  if (change && change.status !== "modified") return true;
  return callSitesUpdated(body, files);
}
