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

/**
 * A file's graph with its references already grouped as the encoding keeps them: per name, its codes
 * (line * 2 + 1 when a call) ascending and distinct. The parse worker makes this shape directly
 * (src/indexing/graph/extract.ts), without a reference object per use.
 */
export type GroupedGraph = Omit<FileGraphContent, "references"> & { referenceCodes: ReadonlyMap<string, readonly number[]> };

/** Ascending and distinct, in place. */
export function sortedCodes(codes: number[]): number[] {
  codes.sort((a, b) => a - b);
  let kept = 0;
  for (let i = 0; i < codes.length; i++) if (i === 0 || codes[i] !== codes[kept - 1]) codes[kept++] = codes[i]!;
  codes.length = kept;
  return codes;
}

export function encodeGraph(graph: FileGraphContent): string {
  const byName = new Map<string, number[]>();
  for (const ref of graph.references) {
    let codes = byName.get(ref.name);
    if (!codes) byName.set(ref.name, (codes = []));
    codes.push(ref.line * 2 + (ref.call ? 1 : 0));
  }
  for (const codes of byName.values()) sortedCodes(codes);
  return encodeGroupedGraph({ package: graph.package, definitions: graph.definitions, referenceCodes: byName, imports: graph.imports });
}

/** The same encoding as encodeGraph, of a graph whose references are grouped by name. */
export function encodeGroupedGraph(graph: GroupedGraph): string {
  const names = [...graph.referenceCodes.keys()].sort(byText);
  const r = new Array<[string, ...number[]]>(names.length);
  for (let n = 0; n < names.length; n++) {
    const name = names[n]!;
    const codes = graph.referenceCodes.get(name)!;
    const entry: [string, ...number[]] = [name];
    for (let i = 0; i < codes.length; i++) entry.push(codes[i]!);
    r[n] = entry;
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
    r,
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
