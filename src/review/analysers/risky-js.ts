/** JavaScript/TypeScript: dynamic code evaluation, raw HTML sinks, loose equality. */
import type { Finding } from "../findings.ts";
import { forEachAddedLine, inlineCode, lineFinding, splitCode, type Analyser } from "./context.ts";

const EVAL = /(?<![\w$.])eval\s*\(/;
const NEW_FUNCTION = /\bnew\s+Function\s*\(/;
const HTML_SINK = /\.(innerHTML|outerHTML)\s*\+?=(?!=)/;
const INSERT_HTML = /\.insertAdjacentHTML\s*\(|\bdangerouslySetInnerHTML\b|\bdocument\.write(ln)?\s*\(/;
const LOOSE_EQ = /(?<![=!<>])([=!])=(?!=)/g;
const NULLISH = /^\s*(null|undefined)\b/;
const NULLISH_BEFORE = /\b(null|undefined)\s*$/;

/** `el.innerHTML = "<b>static</b>"` (a plain literal without interpolation) is harmless. */
function staticHtmlAssignment(raw: string, sinkEnd: number): boolean {
  const rhs = raw.slice(sinkEnd).trim().replace(/;$/, "").trim();
  return /^(["'])[^"'\\]*\1$/.test(rhs) || /^`[^`$\\]*`$/.test(rhs);
}

export const riskyJsAnalyser: Analyser = (file, ctx) => {
  if (ctx.skip || (ctx.language !== "javascript" && ctx.language !== "typescript")) return [];
  const out: Finding[] = [];
  forEachAddedLine(file, (line, text) => {
    const { code } = splitCode(text, ctx.language);
    if (EVAL.test(code)) {
      out.push(lineFinding(ctx, "js/eval", "high", line, "`eval()` runs arbitrary code: if any part of the input can be influenced by a user this is code injection. Parse the data (e.g. `JSON.parse`) or use a lookup table instead."));
      return;
    }
    if (NEW_FUNCTION.test(code)) {
      out.push(lineFinding(ctx, "js/new-function", "high", line, "`new Function(...)` compiles a string into code, like `eval`: avoid it for anything derived from input."));
      return;
    }
    const sink = HTML_SINK.exec(code);
    if (sink && !staticHtmlAssignment(text, sink.index + sink[0].length)) {
      out.push(lineFinding(ctx, "js/html-injection", "medium", line, `Assigning to \`${sink[1]}\` with dynamic content can introduce XSS. Use \`textContent\` for text, or sanitise the HTML.`));
      return;
    }
    if (INSERT_HTML.test(code)) {
      out.push(lineFinding(ctx, "js/html-injection", "medium", line, `Raw HTML sink in ${inlineCode(text, 60)}: make sure the content is sanitised, or build DOM nodes / use text content.`));
      return;
    }
    const loose: { index: number; op: string }[] = [];
    LOOSE_EQ.lastIndex = 0;
    for (let m = LOOSE_EQ.exec(code); m; m = LOOSE_EQ.exec(code)) {
      const after = code.slice(m.index + 2);
      const before = code.slice(0, m.index);
      if (NULLISH.test(after) || NULLISH_BEFORE.test(before)) continue; // `x == null` is idiomatic
      loose.push({ index: m.index, op: m[0] });
    }
    if (loose.length > 0) {
      const first = loose[0]!;
      const strict = first.op === "==" ? "===" : "!==";
      const suggestion = loose.length === 1 ? text.slice(0, first.index) + strict + text.slice(first.index + 2) : undefined;
      out.push(lineFinding(ctx, "js/loose-equality", "low", line, `\`${first.op}\` coerces types before comparing; use \`${strict}\` unless coercion is intended.`, suggestion));
    }
  });
  return out;
};
