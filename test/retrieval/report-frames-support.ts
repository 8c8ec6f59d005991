/** Reading a query analysis in the report-frame tests. */
import { expect } from "vitest";
import type { QueryAnalysis, QueryTermKind } from "../../src/retrieval/query-analysis.ts";
import { pathMatches } from "../../src/retrieval/path-mentions.ts";

export function weight(a: QueryAnalysis, text: string, kind?: QueryTermKind): number {
  const t = a.terms.find((x) => x.text === text && (kind === undefined || x.kind === kind));
  if (!t) throw new Error(`no term ${kind ?? ""} ${text} in ${a.terms.map((x) => `${x.kind}:${x.text}`).join(", ")}`);
  return t.weight;
}
export const has = (a: QueryAnalysis, text: string) => a.terms.some((t) => t.text === text);
export const rows = (a: QueryAnalysis) => a.frames.map((f) => [f.path, f.line, f.symbol, f.origin]);
/** The first repository file that the query's first path matches, as the ranking matches them. */
export const firstMatch = (a: QueryAnalysis, repoFiles: string[]) => repoFiles.find((file) => pathMatches(file, a.paths[0] ?? ""));

export function wellFormed(a: QueryAnalysis): void {
  const texts = a.terms.map((t) => t.text);
  expect(new Set(texts).size).toBe(texts.length);
  const weights = a.terms.map((t) => t.weight);
  expect([...weights].sort((x, y) => y - x)).toEqual(weights);
  expect(a.paths).toEqual(a.terms.filter((t) => t.kind === "path").map((t) => t.text));
}
