/** Accumulating weighted query terms, and the context the extractors share (../query-analysis.ts). */
import { QUERY_WEIGHTS, type QueryTerm, type QueryTermKind, type ReportLanguage, type SourceLocation } from "./types.ts";

// ---------------------------------------------------------------------------------------------
// Term accumulation.

type Acc = { text: string; kind: QueryTermKind; weight: number; count: number; order: number };

export function createTermBag() {
  const byText = new Map<string, Acc>();
  let order = 0;
  return {
    add(text: string, kind: QueryTermKind, weight: number): void {
      if (text === "" || weight <= 0) return;
      const existing = byText.get(text);
      if (existing === undefined) {
        byText.set(text, { text, kind, weight, count: 1, order: order++ });
        return;
      }
      existing.count++;
      if (weight > existing.weight) {
        existing.weight = weight;
        existing.kind = kind;
      }
    },
    list(): QueryTerm[] {
      const out = [...byText.values()].map((a) => {
        const factor = Math.min(QUERY_WEIGHTS.maxRepeatFactor, 1 + QUERY_WEIGHTS.repeatBoost * Math.log2(a.count));
        return { term: { text: a.text, weight: round(a.weight * factor), kind: a.kind }, order: a.order, count: a.count };
      });
      out.sort((x, y) => y.term.weight - x.term.weight || y.count - x.count || x.order - y.order);
      return out.map((x) => x.term);
    },
  };
}

type TermBag = ReturnType<typeof createTermBag>;

const round = (n: number) => Math.round(n * 100) / 100;

export type Ctx = {
  bag: TermBag;
  errors: Map<string, string | null>;
  /** Lines the text points at in a file (`src/x.c:221`, `#L10-L20`), in the order they are read. */
  locations: SourceLocation[];
  language: ReportLanguage | null;
  long: boolean;
};
