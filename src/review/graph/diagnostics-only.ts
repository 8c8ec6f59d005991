/**
 * Changes a test would not look at, for the "untested change" note: the wording of a warning,
 * deprecation or log call (its string literals, wrapped or joined anyhow) and Python's `stacklevel=`
 * (where a warning points), and, in Python, an import moved into the function (`import pprint` in the
 * body of the one function that uses it). The calls themselves, their other arguments and a warning's
 * category stay: a call added or removed, or a value logged in place of another, is a change. An
 * exception's message is not among them (tests match it). Compared with annotations and meaningless
 * trailing commas aside (codeWithoutAnnotations), so any of these changes may come together.
 *
 * Diagnostic calls: `warn(`/`deprecate(` under any receiver (`warnings.warn`, `console.warn`, depd's
 * `deprecate`), a level (`debug`, `info`, `warning`, `error`...) called on a logger (`logger.`, `log.`,
 * `logging.`, `console.`), the `debug(` module of JavaScript, and Rust's logging macros (`warn!(`).
 */
import { languageOf } from "../analysers/context.ts";
import { codeLines, tokensWithoutAnnotations } from "./similarity.ts";

const ANY_RECEIVER = new Set(["warn", "deprecate"]);
const LEVELS = new Set(["debug", "info", "warn", "warning", "error", "exception", "critical", "fatal", "trace", "log"]);
const LOGGER = /^_*(logger|log|logging|console|warnings)$/i;
const OPEN = new Set(["(", "[", "{"]);
const CLOSE = new Set([")", "]", "}"]);
const STRING = /^(["'`]|""")/;

/** True when `before` and `after` (one function's text at each version) differ only as above. */
export function sameButDiagnostics(before: string, after: string, path: string): boolean {
  const a = normalised(before, path);
  const b = normalised(after, path);
  return a.length === b.length && a.every((t, i) => t === b[i]);
}

function normalised(code: string, path: string): string[] {
  const python = languageOf(path) === "python";
  const kept: string[] = [];
  let inImport = false;
  for (const [n, { tokens: line }] of codeLines(code, path).entries()) {
    if (python && n > 0) {
      if (inImport) {
        if (line.includes(")")) inImport = false;
        continue;
      }
      if (line[0] === "import" || (line[0] === "from" && line.includes("import"))) {
        inImport = line[line.length - 1] === "(";
        continue;
      }
    }
    kept.push(line.join(" "));
  }
  // Annotations and trailing commas aside too (./similarity.ts), so these changes may come together.
  const tokens = tokensWithoutAnnotations(kept.join("\n"), path);
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    out.push(tokens[i]!);
    const macro = tokens[i + 1] === "!" && tokens[i + 2] === "(" && LEVELS.has(tokens[i]!);
    if (!macro && (tokens[i + 1] !== "(" || !diagnostic(tokens, i))) continue;
    const open = macro ? i + 2 : i + 1;
    let depth = 0;
    let j = open;
    for (; j < tokens.length; j++) {
      if (OPEN.has(tokens[j]!)) depth++;
      else if (CLOSE.has(tokens[j]!) && --depth === 0) break;
    }
    if (macro) out.push("!");
    out.push(...argumentsOf(tokens.slice(open, j + 1)));
    i = j;
  }
  return out;
}

/** Whether the name at `i`, called, is a diagnostic call (see above). */
function diagnostic(tokens: readonly string[], i: number): boolean {
  const name = tokens[i]!;
  if (ANY_RECEIVER.has(name)) return true;
  const receiver = tokens[i - 1] === "." ? tokens[i - 2] ?? "" : null;
  if (receiver === null) return name === "debug";
  return LEVELS.has(name) && LOGGER.test(receiver);
}

/** A call's parenthesised arguments with each run of string literals one "S" and `stacklevel=N` left out. */
function argumentsOf(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let k = 0; k < args.length; k++) {
    const t = args[k]!;
    if (t === "stacklevel" && args[k + 1] === "=") {
      k += 2;
      if (args[k + 1] === ",") k++;
      else if (out[out.length - 1] === ",") out.pop();
      continue;
    }
    if (STRING.test(t)) {
      // "a" "b" and "a" + "b" are one message.
      if (out[out.length - 1] === "S") continue;
      if (out[out.length - 1] === "+" && out[out.length - 2] === "S") {
        out.pop();
        continue;
      }
      out.push("S");
    } else out.push(t);
  }
  return out;
}
