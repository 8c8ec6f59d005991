/**
 * What a change does to a repository's definitions: for each changed file, the functions, methods,
 * classes and the like it adds, changes and removes, from the tree-sitter parse of the file's base and
 * head versions (the chunker's syntax walk, src/indexing/chunking/definitions.ts). A definition is
 * matched across versions by its parent, kind and name (the n-th of equal keys with the n-th); it is
 * changed when its text (whitespace normalised) differs, and `signatureChanged` says whether its
 * header did. Containers (classes, interfaces, impls) are listed as changed only when their header
 * changed: their members are listed on their own.
 *
 * Used by the review summary; meant to be reused by findings that look at callers (a changed
 * signature and its call sites).
 */
import { createHash } from "node:crypto";
import { unitsOf, type Unit } from "../indexing/chunking/definitions.ts";
import { childrenOf } from "../indexing/chunking/syntax-rules.ts";
import { readParsed } from "./parse-bounds.ts";

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
  /** Holds member definitions (a class, an interface, an impl block). */
  container: boolean;
};

export type DefinitionChange = {
  change: "added" | "changed" | "removed";
  path: string;
  name: string;
  kind: string;
  parent: string | null;
  /** Head-version line for added and changed definitions, base-version line for removed ones. */
  line: number;
  signatureBefore: string | null;
  signatureAfter: string | null;
  signatureChanged: boolean;
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

async function parseDefinitions(path: string, content: string): Promise<OutlineDefinition[] | null> {
  return readParsed(path, content, (tree, ctx) => {
    const { lines } = ctx;
    const out: OutlineDefinition[] = [];
    const walk = (units: readonly Unit[]) => {
      for (const u of units) {
        if (!u.def) continue;
        out.push({
          name: u.def.name,
          kind: u.def.kind,
          parent: u.def.parent,
          signature: u.def.signature,
          startLine: u.start + 1,
          endLine: u.end + 1,
          textHash: hashOf(lines.slice(u.start, u.end + 1).join("\n")),
          container: u.def.members.length > 0,
        });
        walk(u.def.members);
      }
    };
    walk(unitsOf(ctx, childrenOf(tree.rootNode), null));
    return out;
  });
}

const keyOf = (d: OutlineDefinition) => `${d.parent ?? ""}\0${d.kind}\0${d.name}`;

/** Definitions keyed by parent, kind and name; repeated keys (overloads) get their order appended. */
function keyed(defs: readonly OutlineDefinition[]): Map<string, OutlineDefinition> {
  const seen = new Map<string, number>();
  const out = new Map<string, OutlineDefinition>();
  for (const d of defs) {
    const k = keyOf(d);
    const n = (seen.get(k) ?? 0) + 1;
    seen.set(k, n);
    out.set(n === 1 ? k : `${k}\0${n}`, d);
  }
  return out;
}

const normalSignature = (s: string | null) => (s ?? "").replace(/\s+/g, " ").trim();

/** Added, changed and removed definitions between two versions' definitions, in line order. */
export function compareDefinitions(path: string, before: readonly OutlineDefinition[], after: readonly OutlineDefinition[]): DefinitionChange[] {
  const old = keyed(before);
  const now = keyed(after);
  const changes: DefinitionChange[] = [];
  const change = (kind: DefinitionChange["change"], d: OutlineDefinition, b: OutlineDefinition | null, a: OutlineDefinition | null): DefinitionChange => ({
    change: kind,
    path,
    name: d.name,
    kind: d.kind,
    parent: d.parent,
    line: d.startLine,
    signatureBefore: b?.signature ?? null,
    signatureAfter: a?.signature ?? null,
    signatureChanged: b !== null && a !== null && normalSignature(b.signature) !== normalSignature(a.signature),
  });
  for (const [k, a] of now) {
    const b = old.get(k);
    if (!b) changes.push(change("added", a, null, a));
    else if (a.container ? normalSignature(a.signature) !== normalSignature(b.signature) : a.textHash !== b.textHash) changes.push(change("changed", a, b, a));
  }
  const removed = [...old].filter(([k]) => !now.has(k)).map(([, b]) => change("removed", b, b, null));
  return [...changes.sort((x, y) => x.line - y.line), ...removed.sort((x, y) => x.line - y.line)];
}

/** The definitions each changed file adds, changes and removes (base version `before`, head version `after`). */
export async function outlineChange(files: readonly FileVersions[]): Promise<FileOutline[]> {
  const out: FileOutline[] = [];
  for (const f of files) {
    const before = f.before === null ? [] : await definitionsOf(f.oldPath ?? f.path, f.before);
    const after = f.after === null ? [] : await definitionsOf(f.path, f.after);
    if (before === null || after === null) out.push({ path: f.path, parsed: false, changes: [] });
    else out.push({ path: f.path, parsed: true, changes: compareDefinitions(f.path, before, after) });
  }
  return out;
}
