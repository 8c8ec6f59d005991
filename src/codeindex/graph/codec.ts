/**
 * The canonical encoding of a file's graph: compact JSON made once, in the parse worker, that crosses to
 * the main thread as one string (a structured clone of the objects cost the main thread more than the
 * file's chunks) and is stored as it is. Equal graphs encode to equal strings.
 *
 *   {"p": package, "d": [[name, kind, label, parent, startLine, endLine, params, paramsText], ...],
 *    "r": [[name, code, code, ...], ...] (code = line * 2 + 1 when a call), "i": [[spec, kind, line, names?], ...]}
 */
import type { FileGraphContent, GraphDefinition, GraphDefinitionKind, GraphImport, GraphImportKind, GraphParam, GraphReference } from "../port.ts";

type EncodedDefinition = [string, GraphDefinitionKind, string, string | null, number, number, [string, 0 | 1][] | null, string | null];
type EncodedImport = [string, GraphImportKind, number] | [string, GraphImportKind, number, string[]];
type Encoded = { p: string | null; d: EncodedDefinition[]; r: [string, ...number[]][]; i: EncodedImport[] };

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function encodeGraph(graph: FileGraphContent): string {
  const byName = new Map<string, Set<number>>();
  for (const ref of graph.references) {
    let codes = byName.get(ref.name);
    if (!codes) byName.set(ref.name, (codes = new Set()));
    codes.add(ref.line * 2 + (ref.call ? 1 : 0));
  }
  const encoded: Encoded = {
    p: graph.package ?? null,
    d: graph.definitions.map((d) => [
      d.name,
      d.kind,
      d.label,
      d.parent ?? null,
      d.startLine,
      d.endLine,
      d.params ? d.params.map((p): [string, 0 | 1] => [p.name, p.hasDefault ? 1 : 0]) : null,
      d.paramsText ?? null,
    ]),
    r: [...byName.keys()].sort(byText).map((name): [string, ...number[]] => [name, ...[...byName.get(name)!].sort((a, b) => a - b)]),
    i: graph.imports.map((i): EncodedImport => (i.names ? [i.spec, i.kind, i.line, [...i.names]] : [i.spec, i.kind, i.line])),
  };
  return JSON.stringify(encoded);
}

const definitionOf = (d: EncodedDefinition): GraphDefinition => ({
  name: d[0],
  kind: d[1],
  label: d[2],
  parent: d[3],
  startLine: d[4],
  endLine: d[5],
  params: d[6] ? d[6].map(([name, hasDefault]): GraphParam => ({ name, hasDefault: hasDefault === 1 })) : null,
  paramsText: d[7],
});

const importOf = (i: EncodedImport): GraphImport => (i.length === 4 ? { spec: i[0], kind: i[1], line: i[2], names: i[3] } : { spec: i[0], kind: i[1], line: i[2] });

export function decodeGraph(text: string): FileGraphContent {
  const e = JSON.parse(text) as Encoded;
  const references: GraphReference[] = [];
  for (const [name, ...codes] of e.r) for (const code of codes) references.push({ name, line: code >> 1, call: (code & 1) === 1 });
  references.sort((a, b) => a.line - b.line || byText(a.name, b.name) || Number(a.call) - Number(b.call));
  return { package: e.p, definitions: e.d.map(definitionOf), references, imports: e.i.map(importOf) };
}

/** Only what branch resolution and the name index read, without building the references. */
export function decodeGraphOutline(text: string): { package: string | null; definitions: GraphDefinition[]; imports: GraphImport[]; referenceNames: string[] } {
  const e = JSON.parse(text) as Encoded;
  return { package: e.p, definitions: e.d.map(definitionOf), imports: e.i.map(importOf), referenceNames: e.r.map((r) => r[0]) };
}

/** The lines (code = line * 2 + 1 when a call) where `name` is used, from an encoded graph. */
export function referencesNamed(text: string, name: string): number[] {
  const e = JSON.parse(text) as Encoded;
  for (const [n, ...codes] of e.r) if (n === name) return codes;
  return [];
}
