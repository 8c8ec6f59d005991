/** The evaluation cases: JSON lines (shared/eval/README.md), loaded in dataset order and filtered. */
import { readFileSync } from "node:fs";
import { basename } from "node:path";

export type Case = {
  instance_id: string;
  repo: string;
  language: string;
  base_commit: string;
  problem_statement: string;
  gold_files: string[];
  patch: string;
  /** The file it came from (its base name). */
  dataset: string;
};

export type CaseFilter = { language?: string | undefined; repo?: string | undefined; only?: string | undefined; cases?: number | undefined };

export function loadCases(paths: readonly string[]): Case[] {
  const out: Case[] = [];
  const ids = new Set<string>();
  for (const path of paths) {
    const lines = readFileSync(path, "utf8").split("\n");
    lines.forEach((line, i) => {
      if (!line.trim()) return;
      const c = JSON.parse(line) as Omit<Case, "dataset">;
      for (const field of ["instance_id", "repo", "language", "base_commit", "problem_statement", "patch"] as const) {
        if (typeof c[field] !== "string") throw new Error(`${path}:${i + 1}: ${field} is missing`);
      }
      if (!Array.isArray(c.gold_files) || c.gold_files.length === 0) throw new Error(`${path}:${i + 1}: gold_files is missing`);
      if (ids.has(c.instance_id)) throw new Error(`${path}:${i + 1}: ${c.instance_id} appears twice`);
      ids.add(c.instance_id);
      out.push({ ...c, dataset: basename(path) });
    });
  }
  return out;
}

/** The cases that pass every filter, in dataset order; then the first `cases` of them. */
export function filterCases(all: readonly Case[], f: CaseFilter): Case[] {
  let out = all.filter(
    (c) =>
      (!f.language || c.language.toLowerCase() === f.language.trim().toLowerCase()) &&
      (!f.repo || c.repo.toLowerCase() === f.repo.trim().toLowerCase()) &&
      (!f.only || c.instance_id.includes(f.only)),
  );
  if (f.cases !== undefined) out = out.slice(0, f.cases);
  return out;
}

/** Languages in order of first appearance. */
export const languagesOf = (cases: readonly Case[]): string[] => [...new Set(cases.map((c) => c.language))];
