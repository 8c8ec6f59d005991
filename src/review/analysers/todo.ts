/** TODO/FIXME comments added by the change (info): worth a ticket reference. */
import type { Finding } from "../findings.ts";
import { forEachAddedLine, lineFinding, splitCode, type Analyser } from "./context.ts";

const TODO = /\b(TODO|FIXME)\b/;

export const todoAnalyser: Analyser = (file, ctx) => {
  if (ctx.skip || ctx.language === null || ctx.language === "markdown") return [];
  const out: Finding[] = [];
  forEachAddedLine(file, (line, text) => {
    const { comment } = splitCode(text, ctx.language);
    if (comment < 0) return;
    const m = TODO.exec(text.slice(comment));
    if (!m) return;
    const note = text.slice(comment + m.index).trim();
    const short = note.length > 100 ? `${note.slice(0, 99)}…` : note;
    out.push(lineFinding(ctx, "todo-comment", "info", line, `New ${m[1]} added: "${short.replace(/`/g, "'")}". Consider linking it to a tracked issue.`));
  });
  return out;
};
