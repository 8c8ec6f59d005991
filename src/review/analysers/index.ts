/** The deterministic analysers, and a runner that keeps only findings on added lines. */
import type { DiffFile } from "../diff.ts";
import { compareFindings, isValidFindingLocation, type Finding } from "../findings.ts";
import { conflictMarkersAnalyser } from "./conflict-markers.ts";
import { analyserContext, type Analyser, type AnalyserContext } from "./context.ts";
import { debugLeftoversAnalyser } from "./debug-leftovers.ts";
import { riskyJsAnalyser } from "./risky-js.ts";
import { javaAnalyser, rustUnwrapAnalyser } from "./risky-other.ts";
import { riskyPythonAnalyser } from "./risky-python.ts";
import { secretsAnalyser } from "./secrets.ts";
import { sqlInjectionAnalyser } from "./sql-injection.ts";
import { todoAnalyser } from "./todo.ts";

export type { Analyser, AnalyserContext } from "./context.ts";
export { analyserContext } from "./context.ts";

export const ANALYSERS: Readonly<Record<string, Analyser>> = Object.freeze({
  secrets: secretsAnalyser,
  conflictMarkers: conflictMarkersAnalyser,
  debugLeftovers: debugLeftoversAnalyser,
  riskyJs: riskyJsAnalyser,
  riskyPython: riskyPythonAnalyser,
  sqlInjection: sqlInjectionAnalyser,
  rustUnwrap: rustUnwrapAnalyser,
  java: javaAnalyser,
  todo: todoAnalyser,
});

/** Runs every analyser (or the given ones) on one file; deleted and binary files yield nothing. */
export function runAnalysers(file: DiffFile, analysers: readonly Analyser[] = Object.values(ANALYSERS), ctx: AnalyserContext = analyserContext(file)): Finding[] {
  if (file.status === "deleted" || file.binary) return [];
  const out: Finding[] = [];
  for (const analyse of analysers) {
    for (const f of analyse(file, ctx)) if (isValidFindingLocation(f, file)) out.push(f);
  }
  return out.sort(compareFindings);
}
