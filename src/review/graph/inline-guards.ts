/**
 * A check extracted into a helper that answers whether to go on, for ./same-behaviour.ts (commons-lang
 * e8bafeb): the caller's
 *
 *     if (!checkLength(source, pos)) {          if not check_length(source, pos):
 *         return null;                              return None
 *     }
 *
 * calls a helper whose body is statements S, then one `if (C) { T; return false; }` and a final
 * `return true;` (Python: `if C:` ... `return False`, then `return True`), with no other `return`. Put in
 * place, the call reads S, then `if (C) { T; <the caller's block> }`: the statements the caller had before
 * the check was extracted. The same without the negation for a helper that returns true in its `if` and
 * false at its end. Arguments must be plain names, dotted names or literals (S and C may use each of them
 * more than once).
 */
import { CLOSERS, OPENERS, closingIndex } from "./bracket-tokens.ts";
import type { CodeLine } from "./similarity.ts";
import type { ParsedHelper } from "./inline-expressions.ts";

const IDENT = /^[A-Za-z_$][\w$]*$/;
const RECEIVERS = new Set(["self", "this"]);

type Guard = { ifLine: CodeLine; before: CodeLine[]; inside: CodeLine[]; stop: "true" | "false" };

const joined = (l: CodeLine | undefined) => (l ? l.tokens.join(" ") : "");
const isReturn = (l: CodeLine, value: string) => /^return (true|false|True|False)( ;)?$/.test(joined(l)) && joined(l).split(" ")[1]!.toLowerCase() === value;

/** The helper's shape (see above), or null. */
function guardOf(helper: ParsedHelper, python: boolean): Guard | null {
  const body = helper.body;
  const last = body[body.length - 1];
  if (!last || last.indent !== 0) return null;
  const end = isReturn(last, "true") ? "true" : isReturn(last, "false") ? "false" : null;
  if (!end) return null;
  const stop = end === "true" ? "false" : "true";
  const blockEnd = python ? body.length - 1 : body.length - 2;
  if (!python && joined(body[blockEnd]) !== "}") return null;
  const stopLine = body[blockEnd - 1];
  if (!stopLine || !isReturn(stopLine, stop)) return null;
  // The `if` at the body's level that opens the block.
  let at = blockEnd - 2;
  while (at >= 0 && body[at]!.indent > 0) at--;
  const ifLine = body[at];
  if (!ifLine || ifLine.tokens[0] !== "if" || ifLine.tokens[ifLine.tokens.length - 1] !== (python ? ":" : "{")) return null;
  const before = body.slice(0, at);
  const inside = body.slice(at + 1, blockEnd - 1);
  if ([...before, ...inside].some((l) => l.tokens.includes("return") || (l.indent === 0 && l.tokens[0] === "}" && l.tokens.length > 1))) return null;
  return { ifLine, before, inside, stop };
}

/** `if (!h(args)) {` / `if (h(args)) {` / `if not h(args):` as a call: the helper, its arguments and whether negated. */
function guardCall(line: CodeLine, names: ReadonlySet<string>, python: boolean): { name: string; args: string[][]; negated: boolean } | null {
  let t = line.tokens;
  if (t[0] !== "if" || t[t.length - 1] !== (python ? ":" : "{")) return null;
  t = t.slice(1, -1);
  if (!python) {
    if (t[0] !== "(" || t[t.length - 1] !== ")") return null;
    t = t.slice(1, -1);
  }
  const negated = python ? t[0] === "not" : t[0] === "!";
  if (negated) t = t.slice(1);
  if (RECEIVERS.has(t[0] ?? "") && t[1] === ".") t = t.slice(2);
  const name = t[0];
  if (!name || !names.has(name) || t[1] !== "(" || t[t.length - 1] !== ")") return null;
  const close = closingIndex(t, 1);
  if (close >= 0 && close !== t.length - 1) return null;
  const args: string[][] = [[]];
  let depth = 0;
  for (const x of t.slice(2, -1)) {
    if (OPENERS.has(x)) depth++;
    else if (CLOSERS.has(x)) depth--;
    if (x === "," && depth === 0) args.push([]);
    else args[args.length - 1]!.push(x);
  }
  return { name, args: args.length === 1 && args[0]!.length === 0 ? [] : args, negated };
}

const simple = (arg: readonly string[]) => arg.length % 2 === 1 && arg.every((t, i) => (i % 2 === 0 ? IDENT.test(t) || /^(["'`\d])/.test(t) : t === "."));

/** `body` with each guard call of a helper of that shape put in place; null when none is. */
export function withGuardsInlined(body: readonly CodeLine[], helpers: ReadonlyMap<string, ParsedHelper>, python: boolean): CodeLine[] | null {
  const guards = new Map<string, { helper: ParsedHelper; guard: Guard }>();
  for (const [name, helper] of helpers) {
    const guard = guardOf(helper, python);
    if (guard) guards.set(name, { helper, guard });
  }
  if (guards.size === 0) return null;
  const names = new Set(guards.keys());
  const out: CodeLine[] = [];
  let changed = false;
  for (let i = 0; i < body.length; i++) {
    const line = body[i]!;
    const call = guardCall(line, names, python);
    const found = call ? guards.get(call.name)! : null;
    // Negated when the helper answers "go on" with true (it stops with false), and the reverse.
    if (!call || !found || call.negated !== (found.guard.stop === "false") || call.args.length !== found.helper.params.length || !call.args.every(simple)) {
      out.push(line);
      continue;
    }
    // The caller's block: the lines indented under the `if` (and, in brace languages, its closing `}`).
    let j = i + 1;
    while (j < body.length && body[j]!.indent > line.indent) j++;
    if (!python && (j >= body.length || joined(body[j]) !== "}" || body[j]!.indent !== line.indent)) return null;
    const params = new Map(found.helper.params.map((p, k) => [p, call.args[k]!]));
    const put = (l: CodeLine): CodeLine => ({ indent: l.indent + line.indent, tokens: l.tokens.flatMap((t, k) => (l.tokens[k - 1] !== "." && params.get(t)) || [t]) });
    out.push(...found.guard.before.map(put), put(found.guard.ifLine), ...found.guard.inside.map(put), ...body.slice(i + 1, j));
    if (!python) out.push(body[j]!);
    i = python ? j - 1 : j;
    changed = true;
  }
  return changed ? out : null;
}
