/**
 * The "broken callers" finding: a pull request changes how a function or method is called (a
 * parameter added without a default, removed, renamed or moved; a public definition renamed or
 * removed) and call sites elsewhere in the repository still call it the old way.
 *
 * Candidates come from the target branch's code graph (`findReferences`: the files calling the name)
 * and from the files the pull request changes; each candidate file is read at the pull request's head
 * (so a call site the pull request updates is seen updated) and its calls of the name are parsed. A
 * call is named only when it is evidently a call of this definition: it fitted the old parameters
 * (./signature.ts), and it is in the defining file, or its file imports the defining file, or the name
 * is defined nowhere else in the repository (and, for a method, is not a common method name or is
 * called on `self`/`this`). One finding per changed definition, on its changed lines; a removed
 * definition's on the definition taking its place, else on the file as a whole. Removed exported
 * constants, variables and types still used elsewhere come from ./removed-values.ts, named alike.
 */
import type { DiffFile } from "../diff.ts";
import { findFileChange, mapLineThroughDiff } from "../addressed.ts";
import { WHOLE_FILE_LINE, type Finding } from "../findings.ts";
import type { GraphParam } from "../../codeindex/port.ts";
import { moduleImportOf } from "./module-imports.ts";
import { callLanguageOf, createParseCache, type CallSite, type ParseFile, type ParsedFile } from "./calls.ts";
import { boundCall, evident, packageNamespacesOf, type Evidence } from "./call-evidence.ts";
import { signatureChanges, shapesOf, type SignatureChange } from "./signature-changes.ts";
import { misfit, staleReason } from "./signature.ts";
import { headFilesOf, stillDefinedCheck } from "./still-defined.ts";
import { workspacePackages } from "./workspace-package.ts";
import { findRemovedValueUses, topLevelValuesOf } from "./removed-values.ts";
import { dirOf } from "./path-text.ts";

export const BROKEN_CALLERS_RULE = "graph/broken-callers";

/** The target branch's code graph, as the finding reads it (the code index port, narrowed to one branch). */
export type BranchGraph = {
  /** Files (and lines) where `name` is called on the branch. */
  callersOf(name: string): Promise<{ path: string; line: number }[]>;
  /** Where definitions named `name` are on the branch. */
  definitionsOf(name: string): Promise<{ path: string; kind: string; parent: string | null; params: GraphParam[] | null }[]>;
  /** Files (and lines) where `name` is mentioned on the branch, called or not (for removed constants, variables and types). */
  usersOf?(name: string): Promise<{ path: string; line: number }[]>;
  /** The branch's files that `path` imports. */
  importsOf(path: string): Promise<string[]>;
  /** The branch's files that import `path`. */
  importersOf?(path: string): Promise<string[]>;
};

export type BrokenCallersInput = {
  files: readonly DiffFile[];
  /** A file at the pull request's base (the diff's base) and at its head; null when absent. */
  readBase(path: string): Promise<string | null>;
  readHead(path: string): Promise<string | null>;
  graph: BranchGraph;
  limits?: { definitions?: number; filesPerDefinition?: number };
  /** The review run's parses (./calls.ts `createParseCache`; a cache of its own when absent). */
  parse?: ParseFile;
};

export type StaleSite = { path: string; line: number; reason: string; lineText: string };

export type BrokenCaller = { change: SignatureChange; sites: StaleSite[]; line: number; endLine: number };

const SHOWN_SITES = 5;
/** Files read to find a Rust trait method's implementations. */
const MAX_TRAIT_FILES = 50;
const MAX_LISTED = 100;

const isDeletedGo = (file: DiffFile) => file.status === "deleted" && !file.binary && file.oldPath !== null && callLanguageOf(file.oldPath) === "go";

/** A deleted line that goes with a definition without being code: blank, a comment, a decorator. */
const SURROUNDING = /^\s*($|#|\/\/|\/\*|\*|@)/;

/**
 * The added line where a definition takes the place of a removed one: the run of changed lines (no
 * unchanged line between) that deletes the removed definition's first line, and nothing else but its
 * own lines, blank lines, comments and decorators, adds a definition (`headStarts`: the head's
 * definitions' first lines). Null when none does: the definition deleted outright, or within a
 * rewrite of more than it, has no line of its own at the head.
 */
function replacingLine(file: DiffFile, removed: { startLine: number; endLine: number }, headStarts: ReadonlySet<number>): number | null {
  for (const hunk of file.hunks) {
    let run: DiffFile["hunks"][number]["lines"] = [];
    for (const line of [...hunk.lines, null]) {
      if (line !== null && line.kind !== "context") {
        run.push(line);
        continue;
      }
      const deleted = run.filter((l) => l.kind === "del" && l.oldLine !== null);
      const inside = (l: (typeof run)[number]) => l.oldLine! >= removed.startLine && l.oldLine! <= removed.endLine;
      if (deleted.some((l) => l.oldLine === removed.startLine)) {
        if (!deleted.every((l) => inside(l) || SURROUNDING.test(l.text))) return null;
        return run.find((l) => l.kind === "add" && l.newLine !== null && headStarts.has(l.newLine))?.newLine ?? null;
      }
      run = [];
    }
  }
  return null;
}

/**
 * The head lines a finding on `change` may sit on: the added lines of its definition; a removed one's,
 * the definition taking its place, else the file as a whole (as for a deleted file).
 */
function anchorOf(change: SignatureChange, file: DiffFile, headStarts: ReadonlySet<number>): { line: number; endLine: number } | null {
  const whole = { line: WHOLE_FILE_LINE, endLine: WHOLE_FILE_LINE };
  if (file.status === "deleted") return whole;
  if (change.after) {
    const added = file.hunks.flatMap((h) => h.lines).filter((l) => l.kind === "add" && l.newLine !== null).map((l) => l.newLine!);
    const inside = added.filter((n) => n >= change.after!.startLine && n <= change.after!.endLine);
    if (inside.length === 0) return null;
    return { line: inside[0]!, endLine: inside[0]! };
  }
  const line = replacingLine(file, change.before, headStarts);
  return line === null ? whole : { line, endLine: line };
}

/** Python calls Python, Go Go, Rust Rust; JavaScript and TypeScript call each other. */
const familyOf = (language: string) => (language === "python" || language === "go" || language === "rust" ? language : "script");
const sameFamily = (language: string | null, of: string) => language !== null && familyOf(language) === familyOf(of);

/** The name call sites use for a change: a constructor is called by its class's name. */
function calledName(change: SignatureChange): { name: string; constructor: boolean } {
  if (change.kind === "method" && change.parent && ((change.language === "python" && change.name === "__init__") || change.name === "constructor")) {
    return { name: change.parent, constructor: true };
  }
  return { name: change.name, constructor: false };
}

/** The definitions (`path\0parent`) of a Rust trait method's name that are methods of the trait's impls (a bounded number of files read). */
async function traitImplementations(
  change: SignatureChange,
  definitions: readonly { path: string; kind: string; parent: string | null }[],
  readHead: (path: string) => Promise<string | null>,
  parse: ParseFile,
): Promise<Set<string>> {
  const out = new Set<string>();
  const paths = [...new Set(definitions.filter((d) => d.kind === "method" && d.path !== change.path).map((d) => d.path))].slice(0, MAX_TRAIT_FILES);
  for (const path of paths) {
    const text = await readHead(path);
    const parsed = text === null ? null : await parse(path, text, new Set());
    for (const d of parsed?.graph.definitions ?? []) {
      if (d.name === change.name && d.kind === "method" && parsed!.traitImplLines?.get(d.startLine) === change.parent) out.add(`${path}\0${d.parent}`);
    }
  }
  return out;
}

/** Per changed definition, the call sites the change leaves stale. */
export async function findBrokenCallers(input: BrokenCallersInput): Promise<BrokenCaller[]> {
  const maxDefinitions = input.limits?.definitions ?? 30;
  const maxFiles = input.limits?.filesPerDefinition ?? 300;
  const changes: { change: SignatureChange; file: DiffFile; headStarts: ReadonlySet<number>; definerPackage: string | null; readArguments: boolean; traitMethod: boolean; exported: boolean }[] = [];
  // Each version of a file parsed once for the whole run, whichever check reads it (./calls.ts).
  const parse = input.parse ?? createParseCache();
  // The files the change writes, at the head: where a definition went, and the other definitions of a name there.
  const head = headFilesOf({ ...input, parse });
  const stillDefined = stillDefinedCheck({ files: input.files, readHead: input.readHead, definitionsOf: (name) => input.graph.definitionsOf(name) }, head);
  for (const file of input.files) {
    // A deleted Go file: its exported definitions are removed (a package's files call each other without an import).
    const deleted = isDeletedGo(file);
    if (!deleted && (file.binary || file.status === "added" || file.status === "deleted" || !file.newPath)) continue;
    const language = callLanguageOf(file.path);
    if (!language || !file.oldPath) continue;
    const [before, after] = await Promise.all([input.readBase(file.oldPath), deleted ? null : input.readHead(file.newPath!)]);
    if (before === null || (after === null && !deleted)) continue;
    const [b, a] = await Promise.all([parse(file.oldPath, before, new Set()), after === null ? null : parse(file.newPath!, after, new Set())]);
    if (!b || (!a && !deleted)) continue;
    const publicLines = b.publicLines ? { publicLines: b.publicLines } : {};
    const headStarts = new Set((a?.graph.definitions ?? []).map((d) => d.startLine));
    for (const change of signatureChanges({ path: file.path, oldPath: file.oldPath, language, ...publicLines }, b.graph.definitions, a?.graph.definitions ?? [])) {
      // Moved to another file the change writes, inherited from a base class, or re-exported: not removed (./still-defined.ts).
      if (await stillDefined(change, a)) continue;
      // A JS function that reads `arguments` takes any arguments: its parameter list says little.
      if (familyOf(language) === "script" && change.after && /\barguments\b/.test((a?.lines ?? []).slice(change.after.startLine - 1, change.after.endLine).join("\n"))) continue;
      // A Rust method of a trait's impl has the trait's signature: its callers call the trait.
      if (b.traitImplLines?.has(change.before.startLine)) continue;
      // Before the change it read `arguments`: any call fitted.
      const readArguments = familyOf(language) === "script" && /\barguments\b/.test(b.lines.slice(change.before.startLine - 1, change.before.endLine).join("\n"));
      const exported = /^\s*(export\b|(module\.)?exports\.)/.test(b.lines[change.before.startLine - 1] ?? "");
      changes.push({ change, file, headStarts, definerPackage: b.graph.package, readArguments, traitMethod: b.traitLines?.has(change.before.startLine) ?? false, exported });
    }
  }
  const deletedPaths = new Set(input.files.filter((f) => f.status === "deleted" && f.oldPath).map((f) => f.oldPath!));
  const parsed = new Map<string, Promise<ParsedFile | null>>();
  const changedPaths = new Set(input.files.filter((f) => f.newPath && f.status !== "deleted").map((f) => f.newPath!));
  // Lines the pull request adds: a call on them is written (or updated) for the new parameters.
  const addedLines = new Map(input.files.map((f) => [f.path, new Set(f.hunks.flatMap((h) => h.lines).filter((l) => l.kind === "add").map((l) => l.newLine))]));
  const touched = (path: string, call: CallSite) => {
    const added = addedLines.get(path);
    if (!added) return false;
    for (let l = call.line; l <= call.endLine; l++) if (added.has(l)) return true;
    return false;
  };
  const out: BrokenCaller[] = [];
  const packageOf = workspacePackages(input.readHead);
  for (const { change, file, headStarts, definerPackage, readArguments, traitMethod, exported } of changes.slice(0, maxDefinitions)) {
    const anchor = anchorOf(change, file, headStarts);
    if (!anchor) continue;
    const { name, constructor } = calledName(change);
    const callers = await input.graph.callersOf(name).catch(() => []);
    const candidates = [...new Set([...callers.map((c) => c.path), ...changedPaths])].filter((p) => sameFamily(callLanguageOf(p), change.language)).slice(0, maxFiles);
    // The branch's definitions of the name, those of the files the change writes as they are at the head.
    const definitions = [
      ...(await input.graph.definitionsOf(name).catch(() => [])).filter((d) => !head.paths.has(d.path)),
      ...(await head.definitionsOf(name, familyOf(change.language))).map(({ path, def }) => ({ path, kind: def.kind, parent: def.parent, params: def.params })),
    ];
    // A Rust trait's method: its implementations (`impl Trait for T`) are called through it, they are not other definitions.
    const implementations = traitMethod ? await traitImplementations(change, definitions, input.readHead, parse) : new Set<string>();
    const otherDefinitions = definitions.filter(
      (d) => d.path !== change.oldPath && d.path !== change.path && (constructor ? d.kind === "class" : true) && !implementations.has(`${d.path}\0${d.parent}`),
    );
    // A deleted file's definition that another file of its package defines too (a build-tagged variant) is still there.
    if (isDeletedGo(file) && otherDefinitions.some((d) => d.kind === change.kind && d.parent === change.parent && dirOf(d.path) === dirOf(change.path) && !deletedPaths.has(d.path))) continue;
    const elsewhere = otherDefinitions.length;
    // An exported function of one of the repository's own packages that defines the name nowhere else: the package's importers bind it by the package's name.
    const workspace = exported && familyOf(change.language) === "script" && change.kind === "function" && change.parent === null ? await packageOf(change.path) : null;
    const ownPackage = workspace && !otherDefinitions.some((d) => workspace.dir === "" || d.path.startsWith(`${workspace.dir}/`)) ? workspace.name : null;
    const others = otherDefinitions.map((d) => (d.kind === "function" || d.kind === "method" ? d.params : null));
    // A method's type defined nowhere else: a receiver evidently of that type is this method's.
    const parentUnique =
      change.kind === "method" && change.parent !== null && !constructor
        ? [
            ...(await input.graph.definitionsOf(change.parent).catch(() => [])).filter((d) => !head.paths.has(d.path)),
            ...(await head.definitionsOf(change.parent, familyOf(change.language))).map(({ path, def }) => ({ path, kind: def.kind })),
          ].every((d) => d.path === change.oldPath || d.path === change.path || d.kind === "function" || d.kind === "method")
        : false;
    const sites: StaleSite[] = [];
    for (const path of candidates) {
      const names = new Set([name]);
      const key = `${path}\0${name}`;
      if (!parsed.has(key)) parsed.set(key, input.readHead(path).then((text) => (text === null ? null : parse(path, text, names))));
      const caller = await parsed.get(key)!;
      if (!caller || caller.calls.length === 0) continue;
      const own = moduleImportOf(path, caller.graph.imports, change.oldPath, change.language);
      const importsDefiner = path !== change.path && (own.imports || (await input.graph.importsOf(path).catch(() => [])).some((p) => p === change.oldPath || p === change.path));
      const bindings = ownPackage ? new Set([...own.bindings, ...packageNamespacesOf(ownPackage, caller.lines)]) : own.bindings;
      const evidence: Evidence = { change, constructor, elsewhere, others, importsDefiner, bindings, definerPackage, parentUnique, ownPackage, callerPath: path, caller };
      for (const call of caller.calls) {
        if (touched(path, call) || !evident(call, evidence)) continue;
        const shapes = shapesOf(change, boundCall(change, call, constructor));
        if (readArguments) shapes.before = { ...shapes.before, varArgs: true, readsArguments: true };
        let reason: string | null | undefined;
        if (change.change === "signature") reason = staleReason(shapes.before, shapes.after!, call);
        else {
          const fitted = misfit(shapes.before, call, shapes.before.language === "script" ? new Set(shapes.before.positional.map((p) => p.name)) : new Set()) === null;
          reason = fitted ? (change.change === "renamed" ? `calls \`${name}\`, now \`${change.newName}\`` : `calls \`${name}\`, which the change removes`) : undefined;
        }
        if (typeof reason === "string") sites.push({ path, line: call.line, reason, lineText: call.lineText });
      }
    }
    if (sites.length > 0) out.push({ change, sites: sites.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : x.line - y.line)), ...anchor });
  }
  // Removed exported constants, variables and types still used elsewhere (./removed-values.ts).
  const usersOf = async (name: string) => {
    const [users, callers] = await Promise.all([input.graph.usersOf?.(name).catch(() => []) ?? [], input.graph.callersOf(name).catch(() => [])]);
    return [...new Set([...users, ...callers].map((u) => u.path))];
  };
  const importersOf = async (path: string) => (await input.graph.importersOf?.(path).catch(() => [])) ?? [];
  for (const { change, file, sites } of await findRemovedValueUses({ ...input, usersOf, importersOf, parse })) {
    const text = file.newPath && file.status !== "deleted" ? await input.readHead(file.newPath) : null;
    const parsedHead = text === null ? null : await parse(file.newPath!, text, new Set());
    const headStarts = new Set([...(parsedHead?.graph.definitions ?? []).map((d) => d.startLine), ...(parsedHead ? topLevelValuesOf(change.language, parsedHead.lines).map((v) => v.line) : [])]);
    const anchor = anchorOf(change, file, headStarts);
    if (anchor) out.push({ change, sites, ...anchor });
  }
  return out;
}

const label = (c: SignatureChange) => (c.parent ? `${c.parent}.${c.name}` : c.name);

/** The rewritten call line of a renamed definition (the mechanical fix), or null. */
function renamedLine(site: StaleSite, change: SignatureChange): string | null {
  if (change.change !== "renamed" || !change.newName) return null;
  const pattern = new RegExp(`(^|[^\\w$])${change.name.replace(/[$]/g, "\\$")}(\\s*\\()`);
  return pattern.test(site.lineText) ? site.lineText.replace(pattern, `$1${change.newName}$2`) : null;
}

/** The finding of one broken definition: its stale call sites (up to five, then a count), with the rewritten lines of a rename. */
export function brokenCallerFinding(broken: BrokenCaller): Finding {
  const { change, sites } = broken;
  const n = sites.length;
  const value = change.kind !== "function" && change.kind !== "method";
  const what =
    change.change === "renamed"
      ? `renames \`${label(change)}\` to \`${change.newName}\``
      : change.change === "removed"
        ? `removes \`${label(change)}\``
        : `changes the parameters of \`${label(change)}\` from \`${change.before.paramsText ?? "()"}\` to \`${change.after?.paramsText ?? "()"}\``;
  const item = (s: StaleSite) => {
    const fix = renamedLine(s, change);
    return `- \`${s.path}:${s.line}\`: ${s.reason}${fix ? `; fix: \`${fix.trim()}\`` : ""}`;
  };
  const lines = sites.slice(0, SHOWN_SITES).map(item);
  // The rest folded away (hosts render <details> collapsed), up to a bound.
  if (n > SHOWN_SITES) lines.push(`- and ${n - SHOWN_SITES} more`, "", "<details><summary>The other call sites</summary>", "", ...sites.slice(SHOWN_SITES, MAX_LISTED).map(item), ...(n > MAX_LISTED ? [`- …and ${n - MAX_LISTED} more`] : []), "", "</details>");
  const message =
    `**Broken callers**: this ${what}, but ${value ? (n === 1 ? "1 line still uses" : `${n} lines still use`) + " it" : `${n === 1 ? "1 call site still calls" : `${n} call sites still call`} it the old way`}:\n` +
    `${lines.join("\n")}\n\n` +
    (change.change === "renamed"
      ? `Rename the calls too (or keep \`${change.name}\` as an alias).`
      : change.change === "removed"
        ? value
          ? "Update these uses, or keep the definition."
          : "Update these callers, or keep the definition."
        : "Update these callers in this pull request, or give the new parameters defaults.");
  // On the file as a whole, beside the findings of its other removed definitions: the definition tells them apart.
  const subject = broken.line === WHOLE_FILE_LINE ? { subject: `${change.change} ${label(change)}` } : {};
  return { ruleId: BROKEN_CALLERS_RULE, severity: "high", path: change.path, lineStart: broken.line, lineEnd: broken.endLine, message, ...subject };
}

/**
 * The finding of a deleted file whose definitions are still called (Go: its package's other files, and
 * the files importing the package): one, on the file as a whole, with every stale call site.
 */
export function deletedFileCallersFinding(path: string, broken: readonly BrokenCaller[]): Finding {
  const sites = broken.flatMap((b) => b.sites.map((s) => ({ ...s, change: b.change }))).sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : x.line - y.line));
  const names = broken.map((b) => `\`${label(b.change)}\``);
  const n = sites.length;
  const item = (s: (typeof sites)[number]) => `- \`${s.path}:${s.line}\`: ${s.reason}`;
  const lines = sites.slice(0, SHOWN_SITES).map(item);
  if (n > SHOWN_SITES) lines.push(`- and ${n - SHOWN_SITES} more`, "", "<details><summary>The other call sites</summary>", "", ...sites.slice(SHOWN_SITES, MAX_LISTED).map(item), ...(n > MAX_LISTED ? [`- …and ${n - MAX_LISTED} more`] : []), "", "</details>");
  const removed = names.length > 5 ? `${names.slice(0, 5).join(", ")} and ${names.length - 5} more` : names.join(", ");
  const message =
    `**Broken callers**: this deletes \`${path}\` and with it ${removed}, but ${n === 1 ? "1 call site still calls" : `${n} call sites still call`} ${names.length === 1 ? "it" : "them"}:\n` +
    `${lines.join("\n")}\n\nUpdate these callers, or keep the ${names.length === 1 ? "definition" : "definitions"}.`;
  return { ruleId: BROKEN_CALLERS_RULE, severity: "high", path, lineStart: WHOLE_FILE_LINE, lineEnd: WHOLE_FILE_LINE, message };
}

/**
 * Addressed detection of a broken-callers comment: true when every call site it lists (`path:line`,
 * the folded ones included) was rewritten or deleted by the later commits (`files`: the diff from the
 * comment's commit to the new head).
 */
export function callSitesUpdated(body: string, files: readonly DiffFile[]): boolean {
  const sites = [...body.matchAll(/^- `([^`]+):(\d+)`:/gm)].map((m) => ({ path: m[1]!, line: Number(m[2]) }));
  if (sites.length === 0 || /^- …and \d+ more$/m.test(body)) return false;
  return sites.every((s) => mapLineThroughDiff(s.line, findFileChange(files, s.path)) === null);
}
