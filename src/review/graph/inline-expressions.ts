/**
 * Calls of one-expression helpers put in place, for ./same-behaviour.ts: a helper whose body is only
 * `return E` (`private boolean isEndMax() { return end == Character.MAX_VALUE; }`) called inside an
 * expression (`return negated && isStartMin() && isEndMax();`) reads as E with its parameters replaced by
 * the call's arguments, so the body that called it compares with the one that had E written out (the
 * "extract method" refactoring of an expression, commons-lang e66ad3d, and its inverse).
 *
 * What is put in place, and how, keeps the meaning:
 *   - a call on the receiver (`this.h()`, `self.h()`) or on none; or on another object by a plain name
 *     (`range.h()`): then the helper's own `this`/`self` becomes that name and, in the languages where a
 *     member is named without `this` (Java, C#, C++, Kotlin), so do its members (lower-case names the
 *     helper neither binds nor reaches through a dot: `start` -> `range.start`);
 *   - an argument is evaluated as often as before: a plain name, a dotted name or a literal, or one whose
 *     parameter E uses exactly once; keyword, spread and rest arguments are not read;
 *   - E goes in bare only where no operator around the call binds more tightly than E's own (E a name or
 *     a call, or a comparison or sum between `(`, `,`, `&&`, `||`, `return`, `?`, `:`, `;` and the like),
 *     otherwise in parentheses (which then compare only with parentheses written out).
 */
import type { Language } from "../analysers/context.ts";
import { CLOSERS, OPENERS, closingIndex, commaParts } from "./bracket-tokens.ts";
import type { CodeLine } from "./similarity.ts";

export type ParsedHelper = { params: string[]; body: CodeLine[] };

const IDENT = /^[A-Za-z_$][\w$]*$/;
const RECEIVERS = new Set(["self", "this", "cls"]);
/** Languages where a method names its class's members without `this`. */
const IMPLICIT_THIS = new Set<Language>(["java", "csharp", "cpp", "kotlin"]);
const KEYWORDS = new Set(["true", "false", "null", "None", "True", "False", "nil", "undefined", "new", "return", "this", "self", "super", "and", "or", "not", "in", "is", "instanceof", "typeof", "sizeof"]);
/** Operator characters (the tokenizer splits `==`, `&&`, `<=` into single characters). */
const OPERATOR = /^[-+*/%=!<>&|^~?:,]$/;
/** Operators of a comparison or arithmetic, which bind more tightly than `&&`, `||`, `?:` and `,`. */
const TIGHT = /^[-+*/%=!<>]$/;
const WORD_OPERATORS = new Set(["and", "or", "not", "if", "else", "lambda", "is", "in", "instanceof"]);
/** Tokens around a call where E of comparisons and sums may go bare. */
const LOOSE_BEFORE = new Set(["(", "[", ",", "&", "|", "?", ":", ";", "{", "return", "and", "or", "if", "while", "elif", "yield"]);
const LOOSE_AFTER = new Set([")", "]", ",", "&", "|", "?", ":", ";", "}", "and", "or", "if", "else"]);

/** Splits tokens at commas of bracket depth 0. */
function commaSplit(tokens: readonly string[]): string[][] {
  const out = commaParts(tokens);
  return out.length === 1 && out[0]!.length === 0 ? [] : out;
}

/** Operator tokens of `tokens` at bracket depth 0. */
function topOperators(tokens: readonly string[]): string[] {
  const out: string[] = [];
  let depth = 0;
  for (const t of tokens) {
    if (OPENERS.has(t)) depth++;
    else if (CLOSERS.has(t)) depth--;
    else if (depth === 0 && (OPERATOR.test(t) || WORD_OPERATORS.has(t))) out.push(t);
  }
  return out;
}

/** A plain name, a dotted name or a literal: evaluating it twice or not at all changes nothing. */
const simple = (arg: readonly string[]) => arg.length > 0 && arg.every((t, i) => (i % 2 === 0 ? IDENT.test(t) || /^(["'`\d])/.test(t) : t === ".")) && arg.length % 2 === 1;

/** The helper's expression when its body is only `return E`. */
function expressionOf(helper: ParsedHelper): string[] | null {
  if (helper.body.length !== 1) return null;
  const t = helper.body[0]!.tokens;
  if (t[0] !== "return") return null;
  const e = t.slice(1, t[t.length - 1] === ";" ? -1 : undefined);
  return e.length > 0 ? e : null;
}

/** E for one call: parameters replaced, `this`/`self` (and implicit members) bound to the receiver; null when not kept. */
function expanded(expression: readonly string[], helper: ParsedHelper, args: readonly string[][], receiver: string | null, language: Language | null): string[] | null {
  if (args.length !== helper.params.length || args.some((a) => a.length === 0 || a.some((x) => x === "=" || x === "*" || x === "...") )) return null;
  const uses = (p: string) => expression.filter((t, i) => t === p && expression[i - 1] !== ".").length;
  if (args.some((a, k) => !simple(a) && uses(helper.params[k]!) !== 1)) return null;
  const params = new Map(helper.params.map((p, k) => [p, args[k]!]));
  const out: string[] = [];
  expression.forEach((t, i) => {
    const dotted = expression[i - 1] === ".";
    const arg = dotted ? undefined : params.get(t);
    if (arg) out.push(...(arg.length > 1 && topOperators(arg).length > 0 ? ["(", ...arg, ")"] : arg));
    else if (receiver && !dotted && RECEIVERS.has(t)) out.push(receiver);
    else if (receiver && !dotted && language && IMPLICIT_THIS.has(language) && IDENT.test(t) && /^[a-z_]/.test(t) && !KEYWORDS.has(t)) out.push(receiver, ".", t);
    else out.push(t);
  });
  return out;
}

/** The line with each call of a one-expression helper replaced by its expression; the same line when none is. */
function inlineLine(tokens: readonly string[], helpers: ReadonlyMap<string, { helper: ParsedHelper; expression: string[] }>, language: Language | null): string[] | null {
  const out: string[] = [];
  let changed = false;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    // `h(`, `this.h(` / `self.h(`, or `name.h(` where name is a plain name (not itself reached through a dot).
    const onReceiver = IDENT.test(t) && tokens[i + 1] === "." && helpers.has(tokens[i + 2] ?? "") && tokens[i + 3] === "(" && tokens[i - 1] !== ".";
    const bare = helpers.has(t) && tokens[i + 1] === "(" && tokens[i - 1] !== ".";
    if (!onReceiver && !bare) {
      out.push(t);
      continue;
    }
    const name = onReceiver ? tokens[i + 2]! : t;
    const open = onReceiver ? i + 3 : i + 1;
    const close = closingIndex(tokens, open);
    if (close < 0) return null;
    const { helper, expression } = helpers.get(name)!;
    const receiver = onReceiver && !RECEIVERS.has(t) ? t : null;
    const e = expanded(expression, helper, commaSplit(tokens.slice(open + 1, close)), receiver, language);
    if (!e) return null;
    const ops = topOperators(e);
    const before = out[out.length - 1];
    const after = tokens[close + 1];
    // `=` before the call is an assignment only when no comparison character precedes it (`==`, `<=`, `!=`).
    const assignment = before === "=" && !/^[=!<>]$/.test(out[out.length - 2] ?? "");
    const looseBefore = before === undefined || LOOSE_BEFORE.has(before) || assignment;
    const looseAfter = after === undefined || LOOSE_AFTER.has(after);
    const bareOk = ops.length === 0 || (ops.every((o) => TIGHT.test(o)) && looseBefore && looseAfter);
    out.push(...(bareOk ? e : ["(", ...e, ")"]));
    changed = true;
    i = close;
  }
  return changed ? out : tokens.slice();
}

/**
 * `body` with the calls of the one-expression helpers among `helpers` put in place (see above); null when
 * none is called or a call cannot be put in place.
 */
export function withExpressionsInlined(body: readonly CodeLine[], helpers: ReadonlyMap<string, ParsedHelper>, language: Language | null): CodeLine[] | null {
  const usable = new Map<string, { helper: ParsedHelper; expression: string[] }>();
  for (const [name, helper] of helpers) {
    const expression = expressionOf(helper);
    if (expression) usable.set(name, { helper, expression });
  }
  if (usable.size === 0) return null;
  const out: CodeLine[] = [];
  let changed = false;
  for (const line of body) {
    const tokens = inlineLine(line.tokens, usable, language);
    if (!tokens) return null;
    if (tokens.length !== line.tokens.length || tokens.some((t, i) => t !== line.tokens[i])) changed = true;
    out.push({ indent: line.indent, tokens });
  }
  return changed ? out : null;
}
