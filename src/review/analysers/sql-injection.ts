/**
 * SQL built from strings passed straight to an execute/query call: f-strings, `%` / `.format()`,
 * concatenation, template literals with `${}`, `fmt.Sprintf`, `String.format`. Tagged templates
 * (sql`...`) and parameterised calls are not reported.
 */
import type { Finding } from "../findings.ts";
import { forEachAddedLine, lineFinding, type Analyser } from "./context.ts";

const CALL = /\.(execute|executemany|executescript|raw|query|exec|executeQuery|executeUpdate|prepareStatement|createQuery|Query|QueryRow|QueryContext|Exec|ExecContext)\s*\((.*)$/;
const SQL_WORD = /\b(select|insert\s+into|update|delete\s+from|where|drop\s+table|values)\b/i;
const BUILT = [
  /^\s*f["']/, // python f-string
  /^\s*(["'])(?:(?!\1).)*\1\s*(\+|%)/, // "..." + x  /  "..." % x
  /^\s*(["'])(?:(?!\1).)*\1\s*\.format\s*\(/, // "...".format(x)
  /^\s*`[^`]*\$\{/, // `... ${x}`
  /^\s*(fmt\.Sprintf|String\.format|string\.Format)\s*\(/,
  /^\s*\w+\s*\+\s*["']/, // prefix + "..."
];

export const sqlInjectionAnalyser: Analyser = (file, ctx) => {
  if (ctx.skip || ctx.language === null || ctx.language === "markdown" || ctx.language === "config" || ctx.language === "sql") return [];
  const out: Finding[] = [];
  forEachAddedLine(file, (line, text) => {
    const m = CALL.exec(text);
    if (!m) return;
    const args = m[2]!;
    if (!SQL_WORD.test(args)) return;
    if (!BUILT.some((re) => re.test(args))) return;
    out.push(
      lineFinding(
        ctx,
        "sql-injection",
        "high",
        line,
        `SQL is built by string interpolation and passed to \`${m[1]}()\`: values spliced into the query allow SQL injection. Use placeholders and pass the values as parameters.`,
      ),
    );
  });
  return out;
};
