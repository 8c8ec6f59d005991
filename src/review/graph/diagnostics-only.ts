/**
 * Changes a test would not look at, for the "untested change" note: the wording of a warning,
 * deprecation or log call (its string literals, wrapped or joined anyhow) and Python's `stacklevel=`
 * (where a warning points), the message of an exception a `raise`/`throw` statement builds (its first
 * argument, when that holds a string literal: `raise TypeError(f"Unknown color {fg!r}")` reworded,
 * formatted otherwise or wrapped in a translation call), and, in Python, an import moved into the
 * function (`import pprint` in the body of the one function that uses it). The calls themselves, their
 * other arguments, a warning's category and an exception's class stay: a call added or removed, a value
 * logged in place of another, another exception raised or another argument given to it is a change. A
 * test that matches a message is updated with it (and then covers the change); one that does not is
 * left as it was, rightly. Compared with annotations and meaningless trailing commas aside
 * (codeWithoutAnnotations), so any of these changes may come together.
 *
 * Diagnostic calls: `warn(`/`deprecate(` under any receiver (`warnings.warn`, `console.warn`, depd's
 * `deprecate`), a level (`debug`, `info`, `warning`, `error`...) called on a logger (`logger.`, `log.`,
 * `logging.`, `console.`), the `debug(` module of JavaScript, and Rust's logging macros (`warn!(`).
 * Exceptions built where they are thrown: `raise Name(`, `throw new Name(`, `throw Name(` (a dotted name
 * allowed: `raise errors.InvalidURL(`).
 */
import { languageOf } from "../analysers/context.ts";
import { codeLines, tokensWithoutAnnotations } from "./similarity.ts";
import { CLOSERS, OPENERS, closingIndex } from "./bracket-tokens.ts";

const ANY_RECEIVER = new Set(["warn", "deprecate"]);
const LEVELS = new Set(["debug", "info", "warn", "warning", "error", "exception", "critical", "fatal", "trace", "log"]);
const LOGGER = /^_*(logger|log|logging|console|warnings)$/i;
const STRING = /^(["'`]|""")/;
const NAME = /^[A-Za-z_$][\w$]*$/;

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
    const close = closingIndex(tokens, open);
    const j = close < 0 ? tokens.length : close;
    if (macro) out.push("!");
    out.push(...argumentsOf(tokens.slice(open, j + 1)));
    i = j;
  }
  return withoutThrownMessages(out);
}

/**
 * The tokens with the first argument of each exception built by a `raise`/`throw` statement one "M" when
 * it holds a string literal (the message, however it is built); the class and the other arguments kept.
 */
export function withoutThrownMessages(tokens: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    out.push(tokens[i]!);
    if (tokens[i] !== "raise" && tokens[i] !== "throw") continue;
    // The exception's class: a name, dotted or not, after an optional `new`.
    let k = i + 1;
    if (tokens[k] === "new") k++;
    if (!NAME.test(tokens[k] ?? "")) continue;
    while (tokens[k + 1] === "." && NAME.test(tokens[k + 2] ?? "")) k += 2;
    if (tokens[k + 1] !== "(") continue;
    // The first argument: up to a comma at its own depth or the call's closing parenthesis.
    let depth = 0;
    let end = -1;
    for (let j = k + 2; j < tokens.length; j++) {
      const t = tokens[j]!;
      if (OPENERS.has(t)) depth++;
      else if (CLOSERS.has(t) && depth-- === 0) {
        end = j;
        break;
      } else if (t === "," && depth === 0) {
        end = j;
        break;
      }
    }
    const first = end < 0 ? [] : tokens.slice(k + 2, end);
    if (!first.some((t) => STRING.test(t))) continue;
    out.push(...tokens.slice(i + 1, k + 2), "M");
    i = end - 1;
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
