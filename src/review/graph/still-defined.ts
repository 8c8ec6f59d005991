/**
 * Whether a definition the change removes from a file is still there for its callers at the head
 * (./broken-callers.ts): a removal the callers do not see is not one.
 *
 * - Moved: a method that a file the pull request writes defines at the head in a class of the same
 *   name (a class split or moved to another module: `Flask.run` now in `app.py`'s `Flask`); a Go
 *   function or method that a Go file of the same package (directory) defines at the head.
 * - Inherited: the class keeps the method through its bases at the head (Python `class A(B)`,
 *   JavaScript/TypeScript `extends`, a Go struct's embedded types), a base the pull request writes
 *   (read at the head) or one of the branch's graph, a few levels up.
 * - Re-exported: a top-level function that the file still imports by name (Python `from .x import f`,
 *   JS `export { f } from`, Rust `pub use`), so the old module still provides it.
 */
import type { DiffFile } from "../diff.ts";
import type { GraphDefinition } from "../../codeindex/port.ts";
import { callLanguageOf, parseForCalls, type ParseFile, type ParsedFile } from "./calls.ts";
import type { SignatureChange } from "./signature-changes.ts";
import { dirOf, regexEscaped } from "./path-text.ts";

/** What the check reads: the change's files, the head, and the branch's definitions of a name. */
export type StillDefinedInput = {
  files: readonly DiffFile[];
  readHead(path: string): Promise<string | null>;
  definitionsOf(name: string): Promise<{ path: string; kind: string; parent: string | null }[]>;
};

/** Files the pull request writes that are read at the head, and levels of bases followed. */
const MAX_WRITTEN = 300;
const MAX_DEPTH = 4;
const MAX_BASE_FILES = 20;

const familyOf = (language: string) => (language === "python" || language === "go" || language === "rust" ? language : "script");
const classLike = (d: GraphDefinition) => d.kind === "class" || d.kind === "interface" || d.kind === "type";

/** Splits at the commas outside brackets. */
function topLevel(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = "";
  for (const ch of text) {
    if ("([{<".includes(ch)) depth++;
    else if (")]}>".includes(ch)) depth--;
    if (ch === "," && depth === 0) {
      out.push(current);
      current = "";
    } else current += ch;
  }
  return [...out, current];
}

/** A base's own name: `sansio.App` -> App, `Generic[T]` -> Generic, `*pkg.Base` -> Base. */
const baseName = (text: string) => text.trim().replace(/^\*/, "").replace(/[[<(][\s\S]*$/, "").split(".").pop()!.trim();

/** The names of a class's bases as its head text writes them (Python, JavaScript/TypeScript, a Go struct's embedded types). */
export function basesOf(lines: readonly string[], d: GraphDefinition, language: string): string[] {
  const family = familyOf(language);
  if (family === "rust") return [];
  if (family === "go") {
    // Embedded fields: a line holding a type alone (`Base`, `*pkg.Base`, with a tag).
    return lines
      .slice(d.startLine, d.endLine - 1)
      .map((l) => /^\s*(\*?[A-Za-z_][\w.]*)\s*(`[^`]*`)?\s*(\/\/.*)?$/.exec(l)?.[1])
      .filter((t): t is string => t !== undefined)
      .map(baseName);
  }
  const header = lines.slice(d.startLine - 1, Math.min(d.endLine, d.startLine + 10)).join("\n");
  if (family === "python") {
    const m = new RegExp(`class\\s+${regexEscaped(d.name)}\\s*(?:\\[[^\\]]*\\])?\\s*\\(([^)]*(?:\\([^)]*\\)[^)]*)*)\\)`).exec(header);
    return m ? topLevel(m[1]!).filter((b) => !b.includes("=")).map(baseName).filter(Boolean) : [];
  }
  const m = new RegExp(`(?:class|interface)\\s+${regexEscaped(d.name)}\\b[^{]*?\\bextends\\s+([^{]*?)(?:\\bimplements\\b|\\{)`).exec(header);
  return m ? topLevel(m[1]!).map(baseName).filter(Boolean) : [];
}

/**
 * Whether a file's head still provides `name` by importing it: Python `from .x import name` (the
 * module's attribute), JavaScript/TypeScript `export { name } from`, Rust `pub use ...name`.
 */
function reExports(head: ParsedFile, name: string, family: string): boolean {
  const word = new RegExp(`(^|[^\\w$])${regexEscaped(name)}([^\\w$]|$)`);
  const statement = family === "script" ? /^\s*export\b/ : family === "rust" ? /^\s*pub(\([^)]*\))?\s+use\b/ : null;
  return head.graph.imports.some((imp) => {
    if (family === "python") return imp.names?.includes(name) ?? false;
    const line = head.lines[imp.line - 1] ?? "";
    return statement !== null && statement.test(line) && word.test(line);
  });
}

/** The files a pull request writes, read and parsed at the head once per review run (and other files read at the head). */
export function headFilesOf(input: Pick<StillDefinedInput, "files" | "readHead"> & { parse?: ParseFile }) {
  const parseFile = input.parse ?? parseForCalls;
  const parsed = new Map<string, Promise<ParsedFile | null>>();
  const parse = (path: string) => {
    if (!parsed.has(path)) parsed.set(path, input.readHead(path).then((text) => (text === null ? null : parseFile(path, text, new Set()))).catch(() => null));
    return parsed.get(path)!;
  };
  const paths = input.files
    .filter((f) => f.status !== "deleted" && f.newPath !== null && !f.binary && callLanguageOf(f.newPath) !== null)
    .map((f) => f.newPath!)
    .slice(0, MAX_WRITTEN);
  const written = async (family: string) =>
    (await Promise.all(paths.filter((p) => familyOf(callLanguageOf(p)!) === family).map(async (path) => ({ path, file: await parse(path) })))).flatMap((w) =>
      w.file ? [{ path: w.path, file: w.file }] : [],
    );
  return {
    parse,
    /** The paths of the files written (those with a language the finding reads). */
    paths: new Set(paths),
    /** The written files of a language family, parsed at the head. */
    written,
    /** The definitions of `name` in the written files of a language family at the head. */
    async definitionsOf(name: string, family: string): Promise<{ path: string; def: GraphDefinition }[]> {
      return (await written(family)).flatMap((w) => w.file.graph.definitions.filter((d) => d.name === name).map((def) => ({ path: w.path, def })));
    },
  };
}

export type HeadFiles = ReturnType<typeof headFilesOf>;

/** The check for one review run. */
export function stillDefinedCheck(input: StillDefinedInput, head: HeadFiles = headFilesOf(input)): (change: SignatureChange, headOfFile: ParsedFile | null) => Promise<boolean> {
  const { parse, written } = head;
  const writtenSet = head.paths;
  const deleted = new Set(input.files.filter((f) => f.status === "deleted" && f.oldPath).map((f) => f.oldPath!));

  /** Whether class `type` defines the method `name` at the head, itself or through its bases. */
  async function inherits(type: string, name: string, family: string, depth: number, seen: Set<string>, reads: { n: number }): Promise<boolean> {
    if (depth > MAX_DEPTH || seen.has(type)) return false;
    seen.add(type);
    // The classes named `type` at the head: in the files the pull request writes, else the branch's (read at the head).
    const classes: { file: ParsedFile; def: GraphDefinition }[] = [];
    for (const w of await written(family)) {
      if (w.file.graph.definitions.some((d) => d.parent === type && d.name === name && d.kind === "method")) return true;
      for (const d of w.file.graph.definitions) if (d.name === type && classLike(d)) classes.push({ file: w.file, def: d });
    }
    const methods = await input.definitionsOf(name).catch(() => []);
    if (methods.some((d) => d.parent === type && !writtenSet.has(d.path) && !deleted.has(d.path) && familyOf(callLanguageOf(d.path) ?? "") === family)) return true;
    const elsewhere = (await input.definitionsOf(type).catch(() => [])).filter(
      (d) => (d.kind === "class" || d.kind === "interface" || d.kind === "type") && !writtenSet.has(d.path) && !deleted.has(d.path) && familyOf(callLanguageOf(d.path) ?? "") === family,
    );
    for (const path of [...new Set(elsewhere.map((d) => d.path))]) {
      if (reads.n++ >= MAX_BASE_FILES) break;
      const file = await parse(path);
      for (const d of file?.graph.definitions ?? []) if (d.name === type && classLike(d)) classes.push({ file: file!, def: d });
    }
    for (const { file, def } of classes) {
      for (const base of basesOf(file.lines, def, file.language)) {
        if (await inherits(base, name, family, depth + 1, seen, reads)) return true;
      }
    }
    return false;
  }

  return async (change, headOfFile) => {
    if (change.change !== "removed") return false;
    const family = familyOf(change.language);
    const same = (d: GraphDefinition) => d.name === change.name && d.kind === change.kind && d.parent === change.parent;
    if (family === "go") {
      const files = await written(family);
      if (files.some((w) => w.path !== change.path && dirOf(w.path) === dirOf(change.path) && w.file.graph.definitions.some(same))) return true;
    }
    if (change.parent === null) return headOfFile !== null && reExports(headOfFile, change.name, family);
    if (change.kind !== "method") return false;
    // The same method of a class of that name in another file the pull request writes: moved.
    if ((await written(family)).some((w) => w.path !== change.path && w.file.graph.definitions.some(same))) return true;
    // The class at the head, wherever the pull request writes it, keeps the method through its bases.
    const seen = new Set<string>([change.parent]);
    const reads = { n: 0 };
    for (const w of await written(family)) {
      for (const d of w.file.graph.definitions) {
        if (d.name !== change.parent || !classLike(d)) continue;
        for (const base of basesOf(w.file.lines, d, w.file.language)) if (await inherits(base, change.name, family, 1, seen, reads)) return true;
      }
    }
    return false;
  };
}
