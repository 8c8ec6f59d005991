/**
 * What a change does to a repository's definitions: for each changed file, the functions, methods,
 * classes and the like it adds, changes and removes, from the tree-sitter parse of the file's base and
 * head versions (the chunker's syntax walk, src/indexing/chunking/definitions.ts). A definition is
 * matched across versions by its parent, kind and name (of equal keys, such as overloads, those with the
 * same text first, then those with the same signature, then the most alike); it is
 * changed when its text (whitespace normalised) differs, and `signatureChanged` says whether its
 * header did. Containers (classes, interfaces, impls) are listed as changed only when their header
 * changed: their members are listed on their own.
 *
 * Used by the review summary; meant to be reused by findings that look at callers (a changed
 * signature and its call sites).
 */
import { createHash } from "node:crypto";
import type { Node } from "web-tree-sitter";
import { endRowOf, unitsOf, type Unit } from "../indexing/chunking/definitions.ts";
import { unwrapDefinition } from "../indexing/chunking/syntax-rules.ts";
import { childrenOf, namedChildrenOf } from "../indexing/chunking/syntax-nodes.ts";
import { readParsed } from "./parse-bounds.ts";
import { normalSignature, withRenames, wordPattern } from "./outline-renames.ts";
import { privateCallersChecked } from "./in-file-callers.ts";
import type { ParseFile } from "./graph/calls.ts";

export type OutlineDefinition = {
  name: string;
  kind: string;
  /** The enclosing class, impl or namespace; null at the top level. */
  parent: string | null;
  signature: string | null;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  /** Hash of the definition's text with whitespace normalised. */
  textHash: string;
  /** The same with the definition's own name left out (a rename keeps it). */
  bodyHash: string;
  /** Its distinct lines (whitespace normalised, its own name left out), to tell a rename that also edits a little. */
  bodyLines: string[];
  /** Holds member definitions (a class, an interface, an impl block). */
  container: boolean;
};

export type DefinitionChange = {
  /** "renamed" only from `outlineChange` (./outline-renames.ts): `compareDefinitions` tells added, changed and removed. */
  change: "added" | "changed" | "removed" | "renamed";
  path: string;
  name: string;
  kind: string;
  parent: string | null;
  /** Head-version line for added and changed definitions, base-version line for removed ones. */
  line: number;
  /** A changed definition's line in the base version (overloads are paired by text, then signature, then order). */
  baseLine?: number;
  signatureBefore: string | null;
  signatureAfter: string | null;
  /** A variable's or constant's new value is not a new signature: false for them. */
  signatureChanged: boolean;
  /** A renamed definition's name at the base. */
  renamedFrom?: string;
  /** A private definition whose calls in its own file, read at the head, all fit it (./in-file-callers.ts); only from `outlineChange`. */
  callersCheckedInFile?: boolean;
};

export type FileVersions = { path: string; oldPath: string | null; before: string | null; after: string | null };

export type FileOutline = {
  path: string;
  /** False when the language has no grammar or a version could not be parsed: nothing is known about its definitions. */
  parsed: boolean;
  changes: DefinitionChange[];
};


const hashOf = (text: string) => createHash("sha256").update(text.replace(/\s+/g, " ").trim()).digest("hex").slice(0, 24);

/** Recent parses by path and content: a review asks for the same versions for its findings and its summary. */
const recent = new Map<string, Promise<OutlineDefinition[] | null>>();
const RECENT = 128;

/** The definitions of one version of a file, members flattened; null when it cannot be parsed. The result is shared: do not change it. */
export function definitionsOf(path: string, content: string): Promise<OutlineDefinition[] | null> {
  const key = `${path}\0${createHash("sha256").update(content).digest("hex")}`;
  let found = recent.get(key);
  if (found) {
    recent.delete(key);
  } else {
    found = parseDefinitions(path, content);
    if (recent.size >= RECENT) recent.delete(recent.keys().next().value!);
  }
  recent.set(key, found);
  return found;
}

/** Statement blocks of a top-level conditional whose definitions are the module's (Python `if`/`try`, JavaScript's too). */
const CONDITIONAL_STATEMENTS = new Set(["if_statement", "try_statement"]);
const CONDITIONAL_CLAUSES = new Set(["elif_clause", "else_clause", "except_clause", "except_group_clause", "finally_clause", "catch_clause", "if_statement", "try_statement"]);
const STATEMENT_BLOCKS = new Set(["block", "statement_block"]);
/** Grouped declarations whose specs each declare names of their own (Go `const (...)`, `var (...)`, `type (...)`; JS `const a = 1, b = 2`). */
const SPEC_TYPES = new Set(["const_spec", "var_spec", "type_spec", "type_alias", "variable_declarator"]);
/** Expressions an `export default` may wrap a named function in (`export default supported && function adapter() {}`). */
const EXPRESSION_WRAPPERS = new Set(["binary_expression", "ternary_expression", "parenthesized_expression", "conditional_expression"]);

/** The statements inside a conditional's blocks, its `elif`/`else`/`except`/`finally` clauses included (nested ones too). */
function conditionalStatements(node: Node): Node[] {
  const out: Node[] = [];
  for (const child of namedChildrenOf(node)) {
    if (STATEMENT_BLOCKS.has(child.type)) out.push(...namedChildrenOf(child));
    else if (CONDITIONAL_CLAUSES.has(child.type)) out.push(...(child.type === "if_statement" || child.type === "try_statement" ? [child] : conditionalStatements(child)));
  }
  return out;
}

/** The function expression an `export default` expression holds (not inside another function), or null. */
function namedFunctionIn(node: Node, depth = 0): Node | null {
  if (depth > 6) return null;
  if (node.type === "function_expression" || node.type === "function") return node;
  if (!EXPRESSION_WRAPPERS.has(node.type)) return null;
  for (const child of namedChildrenOf(node)) {
    const found = namedFunctionIn(child, depth + 1);
    if (found) return found;
  }
  return null;
}


async function parseDefinitions(path: string, content: string): Promise<OutlineDefinition[] | null> {
  return readParsed(path, content, (tree, ctx) => {
    const { lines } = ctx;
    const out: OutlineDefinition[] = [];
    const textOf = (start: number, end: number) => lines.slice(start, end + 1).join("\n");
    const add = (d: Omit<OutlineDefinition, "textHash" | "bodyHash" | "bodyLines">, text: string) => {
      // The text with the definition's own name taken out: a rename keeps it.
      const unnamed = text.replace(wordPattern(d.name), "\u0000");
      const bodyLines = [...new Set(unnamed.split("\n").map((l) => l.replace(/\s+/g, " ").trim()).filter((l) => l !== ""))];
      out.push({ ...d, textHash: hashOf(text), bodyHash: hashOf(unnamed), bodyLines });
    };
    /**
     * One definition per declared name: a block is not named by its first constant. A variable's text is
     * its own declarator or spec (`b = 2` of `const a = 1, b = 2`), `export` kept.
     */
    const addSpecs = (specs: readonly { node: Node; names: string[] }[], parent: string | null, exported: boolean) => {
      for (const spec of specs) {
        const start = spec.node.startPosition.row;
        const end = endRowOf(spec.node);
        const kind = spec.node.type === "variable_declarator" || spec.node.type === "var_spec" || spec.node.type === "const_spec" ? "variable" : typeKindOf(spec.node);
        const text = `${exported ? "export " : ""}${spec.node.text}`;
        for (const name of spec.names) add({ name, kind, parent, signature: firstLineOf(text), startLine: start + 1, endLine: end + 1, container: false }, text);
      }
    };
    const walk = (units: readonly Unit[]) => {
      for (const u of units) {
        if (!u.def) continue;
        const specs = u.def.kind === "variable" || u.def.node.type === "type_declaration" ? specsOf(u.def.node) : [];
        if (specs.length > 0 && (u.def.kind === "variable" || specs.length > 1)) {
          addSpecs(specs, u.def.parent, /^\s*export\b/.test(lines[u.start] ?? ""));
          continue;
        }
        const recovered = recoveredHeader(u.def.node, u.def.kind, ctx.content, ctx.rowOffsets);
        const start = recovered?.row ?? u.start;
        add(
          { name: u.def.name, kind: u.def.kind, parent: u.def.parent, signature: recovered?.signature ?? u.def.signature, startLine: start + 1, endLine: u.end + 1, container: u.def.members.length > 0 },
          textOf(start, u.end),
        );
        walk(u.def.members);
      }
    };
    const top = childrenOf(tree.rootNode);
    walk(unitsOf(ctx, top, null));
    let extra = false;
    // Definitions inside top-level conditionals (`if sys.version_info...: def f()`, `try: import x except: x = None`).
    const conditionals = (nodes: readonly Node[], depth: number) => {
      for (const node of nodes) {
        if (!CONDITIONAL_STATEMENTS.has(node.type) || depth > 4) continue;
        const inner = conditionalStatements(node);
        const before = out.length;
        walk(unitsOf(ctx, inner, null));
        extra ||= out.length > before;
        conditionals(inner, depth + 1);
      }
    };
    conditionals(top, 0);
    for (const node of top) {
      // Go `var (...)`: the chunker names none of its specs.
      if ((node.type === "var_declaration" || node.type === "const_declaration") && namedChildrenOf(node).some((c) => c.type.endsWith("_spec_list"))) {
        addSpecs(specsOf(node), null, false);
        extra = true;
        continue;
      }
      // `export default supported && function adapter(config) {...}`: the function is the file's definition.
      if (node.type !== "export_statement" || unwrapDefinition(node, node.type)) continue;
      const value = node.childForFieldName("value");
      const fn = value ? namedFunctionIn(value) : null;
      const body = fn?.childForFieldName("body");
      if (!fn || !body) continue;
      const start = node.startPosition.row;
      const end = endRowOf(node);
      const signature = ctx.content.slice(node.startIndex, body.startIndex).replace(/\s+/g, " ").trim();
      // Anonymous, it is the file's `default` (as the chunker names an anonymous default export).
      add({ name: fn.childForFieldName("name")?.text ?? "default", kind: "function", parent: null, signature, startLine: start + 1, endLine: end + 1, container: false }, textOf(start, end));
      extra = true;
    }
    // Stable: members stay after their container.
    return extra ? out.sort((a, b) => a.startLine - b.startLine) : out;
  });
}

/** Rows a function's header may take before its name (a template line, a return type, attributes). */
const HEADER_ROWS = 8;

/**
 * A function the grammar's error recovery gave the code before it as its return type: a class whose body
 * swallowed the rest of its namespace (a brace left open under a preprocessor conditional), read as the
 * type of the function that follows. Its own header is the row that names it; the code above is not its
 * text. Null when the node parsed cleanly or its name is within its first rows.
 */
function recoveredHeader(node: Node, kind: string, content: string, rowOffsets: readonly number[]): { row: number; signature: string | null } | null {
  if ((kind !== "function" && kind !== "method") || !node.hasError) return null;
  const named = node.childForFieldName("declarator") ?? node.childForFieldName("name");
  if (!named || named.startPosition.row - node.startPosition.row <= HEADER_ROWS) return null;
  const row = named.startPosition.row;
  const body = node.childForFieldName("body");
  const from = rowOffsets[row] ?? named.startIndex;
  const signature = content.slice(from, body && body.startIndex > from ? body.startIndex : named.endIndex).replace(/\s+/g, " ").trim();
  return { row, signature: signature === "" ? null : signature.slice(0, 200) };
}

const firstLineOf = (text: string) => (text.split("\n")[0] ?? "").replace(/\s+/g, " ").trim() || null;

/** The names each spec of a grouped declaration declares; empty when it is not one. */
function specsOf(node: Node): { node: Node; names: string[] }[] {
  // Go wraps a `var (...)` block's specs in a list of their own.
  const specs = namedChildrenOf(node)
    .flatMap((c) => (c.type.endsWith("_spec_list") ? namedChildrenOf(c) : [c]))
    .filter((c) => SPEC_TYPES.has(c.type));
  return specs.flatMap((spec) => {
    const names = spec.type === "variable_declarator" ? [spec.childForFieldName("name")] : spec.childrenForFieldName("name");
    const plain = names.filter((n): n is Node => n !== null && /identifier$/.test(n.type)).map((n) => n.text);
    return plain.length > 0 ? [{ node: spec, names: plain }] : [];
  });
}

/** A Go type spec's kind: a struct is a class, an interface an interface, the rest types. */
function typeKindOf(spec: Node): string {
  const type = spec.childForFieldName("type")?.type;
  return type === "struct_type" ? "class" : type === "interface_type" ? "interface" : "type";
}

const keyOf = (d: OutlineDefinition) => `${d.parent ?? ""}\0${d.kind}\0${d.name}`;

/** Definitions grouped by parent, kind and name, in line order. */
function grouped(defs: readonly OutlineDefinition[]): Map<string, OutlineDefinition[]> {
  const out = new Map<string, OutlineDefinition[]>();
  for (const d of defs) {
    const k = keyOf(d);
    const list = out.get(k);
    if (list) list.push(d);
    else out.set(k, [d]);
  }
  return out;
}

/** The share of two definitions' lines they have in common. */
function alike(x: OutlineDefinition, y: OutlineDefinition): number {
  const lines = new Set(x.bodyLines);
  const common = y.bodyLines.filter((l) => lines.has(l)).length;
  return common / Math.max(1, lines.size + y.bodyLines.length - common);
}

/**
 * The definitions of one parent, kind and name (overloads, a getter and its setter) paired across the
 * versions: first those whose text is the same (an overload inserted before them, or moved, is not
 * them changed), then those with the same signature, then the most alike (the share of lines they have in common),
 * then the rest in order. Unpaired ones are added or removed.
 */
function pairOverloads(before: readonly OutlineDefinition[], after: readonly OutlineDefinition[]): { pairs: [OutlineDefinition, OutlineDefinition][]; added: OutlineDefinition[]; removed: OutlineDefinition[] } {
  const pairs: [OutlineDefinition, OutlineDefinition][] = [];
  const left = new Set(before);
  const right = new Set(after);
  const pass = (same: (b: OutlineDefinition, a: OutlineDefinition) => boolean) => {
    for (const a of [...right]) {
      const b = [...left].find((x) => same(x, a));
      if (!b) continue;
      pairs.push([b, a]);
      left.delete(b);
      right.delete(a);
    }
  };
  if (before.length > 1 || after.length > 1) {
    pass((b, a) => b.textHash === a.textHash);
    pass((b, a) => normalSignature(b.signature) === normalSignature(a.signature));
    // Then the most alike (a stub with a stub, not with the implementation), ties in order.
    while (left.size > 0 && right.size > 0) {
      let best: [OutlineDefinition, OutlineDefinition, number] | null = null;
      for (const a of right) for (const b of left) {
        const score = alike(b, a);
        if (!best || score > best[2]) best = [b, a, score];
      }
      const [b, a] = best!;
      pairs.push([b, a]);
      left.delete(b);
      right.delete(a);
    }
  }
  pass(() => true);
  return { pairs, added: [...right], removed: [...left] };
}

/** Added, changed and removed definitions between two versions' definitions, in line order. */
export function compareDefinitions(path: string, before: readonly OutlineDefinition[], after: readonly OutlineDefinition[]): DefinitionChange[] {
  const old = grouped(before);
  const now = grouped(after);
  const changes: DefinitionChange[] = [];
  const removed: DefinitionChange[] = [];
  const change = (kind: DefinitionChange["change"], d: OutlineDefinition, b: OutlineDefinition | null, a: OutlineDefinition | null): DefinitionChange => ({
    change: kind,
    path,
    name: d.name,
    kind: d.kind,
    parent: d.parent,
    line: d.startLine,
    ...(kind === "changed" && b ? { baseLine: b.startLine } : {}),
    signatureBefore: b?.signature ?? null,
    signatureAfter: a?.signature ?? null,
    signatureChanged: b !== null && a !== null && d.kind !== "variable" && normalSignature(b.signature) !== normalSignature(a.signature),
  });
  for (const [k, list] of now) {
    const { pairs, added, removed: gone } = pairOverloads(old.get(k) ?? [], list);
    for (const a of added) changes.push(change("added", a, null, a));
    for (const [b, a] of pairs) {
      if (a.container ? normalSignature(a.signature) !== normalSignature(b.signature) : a.textHash !== b.textHash) changes.push(change("changed", a, b, a));
    }
    for (const b of gone) removed.push(change("removed", b, b, null));
  }
  for (const [k, list] of old) if (!now.has(k)) for (const b of list) removed.push(change("removed", b, b, null));
  return [...changes.sort((x, y) => x.line - y.line), ...removed.sort((x, y) => x.line - y.line)];
}

/**
 * The definitions each changed file adds, changes and removes (base version `before`, head version
 * `after`); `parse`: the review run's parses of the files' calls (./graph/calls.ts), when it has them.
 */
export async function outlineChange(files: readonly FileVersions[], parse?: ParseFile): Promise<FileOutline[]> {
  const out: FileOutline[] = [];
  for (const f of files) {
    const before = f.before === null ? [] : await definitionsOf(f.oldPath ?? f.path, f.before);
    const after = f.after === null ? [] : await definitionsOf(f.path, f.after);
    if (before === null || after === null) out.push({ path: f.path, parsed: false, changes: [] });
    else {
      const changes = withRenames(compareDefinitions(f.path, before, after), before, after);
      for (const c of await privateCallersChecked(f.path, f.before, f.after, changes, parse)) c.callersCheckedInFile = true;
      out.push({ path: f.path, parsed: true, changes });
    }
  }
  return out;
}
