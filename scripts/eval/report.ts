/** The evaluation's report: per-case results into tables (overall, per language), the text table, the digest. */
import { createHash } from "node:crypto";
import { KS, rates } from "./metrics.ts";

export type CaseResult = {
  instance_id: string;
  dataset: string;
  language: string;
  repo: string;
  gold_files: string[];
  /** Gold files absent from base_commit's tree (new files of the fix), and those the mirror lacks the blob of. */
  goldNotInTree: string[];
  /** Old-file lines the fix changed, per gold file (how many). */
  goldLines: Record<string, number>;
  /** The patch's hunks checked against the old files: placed at an offset (the patch was made on a nearby commit), matching nowhere. */
  hunks: { hunks: number; moved: number; unmatched: number };
  loupe: { fileRank: number | null; spanRank: number | null; references: number; searchMs: number; error?: string };
  bm25: { fileRank: number | null; spanRank: number | null; files: number };
  /** The first 10 references returned: [filepath, linestart, lineend, distance]. */
  top: DigestReference[];
  /** sha256 (first 16 hex digits) of this case's full reference list, as in the digest. */
  digest: string;
};

export type DigestReference = [string, number | null, number | null, number | null];

export type TableRow = { name: string; cases: number } & Record<string, number | string>;

const round6 = (d: number | null): number | null => (d === null ? null : Math.round(d * 1e6) / 1e6 + 0); // + 0: no -0

/** A reference as the digest and the results file hold it (distance rounded to 6 decimals). */
export const digestReference = (r: { filepath: string; linestart: number | null; lineend: number | null; distance: number | null }): DigestReference => [r.filepath, r.linestart, r.lineend, round6(r.distance)];

/** One case's line of the digest: its id and its full ordered reference list. */
export const digestLine = (instanceId: string, refs: readonly DigestReference[]): string => `${instanceId}\t${JSON.stringify(refs)}\n`;

/** sha256 over every case's digest line, in the order given (dataset order). */
export function digestOf(cases: readonly { instanceId: string; refs: readonly DigestReference[] }[]): string {
  const hash = createHash("sha256");
  for (const c of cases) hash.update(digestLine(c.instanceId, c.refs));
  return hash.digest("hex");
}

export const caseDigest = (instanceId: string, refs: readonly DigestReference[]): string => createHash("sha256").update(digestLine(instanceId, refs)).digest("hex").slice(0, 16);

function row(name: string, results: readonly CaseResult[]): TableRow {
  return {
    name,
    cases: results.length,
    ...prefixed("loupe", rates(results.map((r) => r.loupe.fileRank), "Acc")),
    ...prefixed("loupe", rates(results.map((r) => r.loupe.spanRank), "span")),
    ...prefixed("bm25", rates(results.map((r) => r.bm25.fileRank), "Acc")),
    ...prefixed("bm25", rates(results.map((r) => r.bm25.spanRank), "span")),
  };
}

const prefixed = (p: string, o: Record<string, number>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [`${p} ${k}`, v]));

/** Overall first, then each language in order of first appearance. */
export function tables(results: readonly CaseResult[]): TableRow[] {
  const languages = [...new Set(results.map((r) => r.language))];
  return [row("overall", results), ...languages.map((l) => row(l, results.filter((r) => r.language === l)))];
}

export const COLUMNS = ["loupe", "bm25"].flatMap((s) => ["Acc", "span"].flatMap((m) => KS.map((k) => `${s} ${m}@${k}`)));

/** The text table: one row per line, Loupe's columns then BM25's. */
export function formatTable(rows: readonly TableRow[]): string {
  const nameWidth = Math.max(10, ...rows.map((r) => r.name.length));
  const cell = (v: string) => v.padStart(5);
  const group = (title: string) => title.padEnd(4 * 6 - 1);
  const header1 = `${"".padEnd(nameWidth)} ${"".padStart(4)} | ${group("Loupe Acc@1/3/5/10")} | ${group("Loupe span@1/3/5/10")} | ${group("BM25 Acc@1/3/5/10")} | ${group("BM25 span@1/3/5/10")}`;
  const header2 = `${"".padEnd(nameWidth)} ${"n".padStart(4)} | ${[0, 1, 2, 3].map(() => KS.map((k) => cell(`@${k}`)).join(" ")).join(" | ")}`;
  const lines = rows.map((r) => {
    const groups = [0, 1, 2, 3].map((g) => COLUMNS.slice(g * 4, g * 4 + 4).map((c) => cell(Number(r[c]).toFixed(1))).join(" "));
    return `${r.name.padEnd(nameWidth)} ${String(r.cases).padStart(4)} | ${groups.join(" | ")}`;
  });
  return [header1, header2, "-".repeat(header2.length), ...lines].join("\n");
}
