/** Merge conflict markers left in added lines. `=======` alone only counts next to a `<<<<<<<`. */
import type { Finding } from "../findings.ts";
import { forEachAddedLine, lineFinding, type Analyser } from "./context.ts";

const START = /^<{7}(?: |$)/;
const BASE = /^\|{7}(?: |$)/;
const END = /^>{7}(?: |$)/;
const MIDDLE = /^={7}$/;

export const conflictMarkersAnalyser: Analyser = (file, ctx) => {
  if (ctx.skip) return [];
  const lines: { line: number; text: string }[] = [];
  forEachAddedLine(file, (line, text) => lines.push({ line, text }));
  const hasStart = lines.some((l) => START.test(l.text) || END.test(l.text));
  const findings: Finding[] = [];
  for (const { line, text } of lines) {
    const t = text.trimEnd();
    if (START.test(t) || BASE.test(t) || END.test(t) || (hasStart && MIDDLE.test(t))) {
      findings.push(
        lineFinding(ctx, "conflict-marker", "critical", line, `Unresolved merge conflict marker \`${t.slice(0, 7)}\`: resolve the conflict and remove the markers.`),
      );
    }
  }
  return findings;
};
