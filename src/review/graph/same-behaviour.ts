/**
 * Whether a changed function keeps its behaviour, as far as its code shows it without running it: a
 * change the "untested change" note should not list. Shown, line by line (comments, docstrings and
 * blank lines aside, ./similarity.ts `codeLines`; each line's indentation relative to the body's):
 *   - the same header (type annotations aside) and the same body but for locals renamed one to one:
 *     a name bound in the body (`x = `, `let/const/var x`, `for x in/of`, `as x`) that becomes a name
 *     bound at the same places, and no two names made one. Parameters, attributes, keyword argument
 *     names, globals, literals and operators must stay as they were;
 *   - an extracted helper: the body calls a function of its file that the old body did not call (one
 *     the same change adds, or one that was there: `h(a)`, `self.h(a)`, `this.h(a)`; as a statement,
 *     `v = h(a)` or `return h(a)`), and putting the helper's body at head in place of the call (its
 *     parameters replaced by the arguments, its closing `return E` giving `v` the expression E in the
 *     lines after) gives the old body, locals renamed aside;
 *   - a helper whose body is only `return E`, called inside an expression: E in place of the call
 *     (./inline-expressions.ts); a check moved into a helper that answers whether to go on, called as
 *     `if (!h(a)) { ... }` (./inline-guards.ts);
 *   - an inlined helper, the same read backwards: the old body called a function of its file that the
 *     new one does not call, and putting that function's old body in place of the old call gives the
 *     new body;
 *   - a helper moved and renamed: the old body calls a function the change removes (from any of its
 *     files) where the new one calls a function it adds with the same text but for its name.
 *   - only the wording of warning, deprecation and log calls, or a Python import moved into the body
 *     (./diagnostics-only.ts);
 *   - in Python, a loop that only re-yields each item (`for x in E:` / `yield x`) written `yield from E`
 *     or back: the rewrite linters make on their own (ruff's UP028, pyupgrade), read as one form.
 * Anything else (a statement more or less, another order, a literal, a one-line body) is not shown.
 */
import { languageOf, type Language } from "../analysers/context.ts";
import { braceBodyForm, headerForm, isDeclarationOnly, pythonBodyForm, withoutNewLiteralWraps } from "./behaviour-form.ts";
import { CLOSERS, OPENERS, closingIndex, commaParts } from "./bracket-tokens.ts";
import { sameButDiagnostics } from "./diagnostics-only.ts";
import { withExpressionsInlined, type ParsedHelper } from "./inline-expressions.ts";
import { withGuardsInlined } from "./inline-guards.ts";
import { codeLines, codeWithoutAnnotations, type CodeLine } from "./similarity.ts";

/** A function the same change adds to the file, by its name and text. */
export type AddedHelper = { name: string; text: string };

type Split = { header: string; headerTokens: string[]; body: CodeLine[] };

const IDENT = /^[A-Za-z_$][\w$]*$/;
const RECEIVERS = new Set(["self", "this", "cls"]);

/** The header's text (annotations stripped later) and the body's lines with indentation relative to the body. */
function split(text: string, path: string): Split | null {
  const lines = codeLines(text, path);
  const python = languageOf(path) === "python";
  let depth = 0;
  let headerEnd = -1;
  for (let i = 0; i < lines.length && headerEnd < 0; i++) {
    const tokens = lines[i]!.tokens;
    for (let j = 0; j < tokens.length; j++) {
      const t = tokens[j]!;
      if (python) {
        if (OPENERS.has(t)) depth++;
        else if (CLOSERS.has(t)) depth--;
        // The header's closing colon ends its line (a one-line body is not read).
        else if (t === ":" && depth === 0 && j === tokens.length - 1 && lines.slice(0, i + 1).some((l) => l.tokens.includes("def"))) headerEnd = i;
      } else if (t === "{" && depth === 0) {
        if (j !== tokens.length - 1) return null;
        headerEnd = i;
        break;
      } else if (t === "(" || t === "[") depth++;
      else if (t === ")" || t === "]") depth--;
    }
  }
  if (headerEnd < 0) return null;
  let body = lines.slice(headerEnd + 1);
  if (!python) {
    const last = body[body.length - 1];
    if (!last || last.tokens.join(" ") !== "}") return null;
    body = body.slice(0, -1);
  }
  if (body.length === 0) return null;
  const base = Math.min(...body.map((l) => l.indent));
  const header = lines
    .slice(0, headerEnd + 1)
    .map((l) => l.tokens.join(" "))
    .join("\n");
  const headerTokens = lines.slice(0, headerEnd + 1).flatMap((l) => l.tokens);
  return { header, headerTokens, body: body.map((l) => ({ indent: l.indent - base, tokens: l.tokens })) };
}

/** Names the body binds: assignment targets at bracket depth 0, `let/const/var x`, `for x, y in/of`, `as x`, `except E as x`. */
function boundNames(body: readonly CodeLine[]): Set<string> {
  const out = new Set<string>();
  for (const { tokens } of body) {
    let depth = 0;
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i]!;
      if (t === "(" || t === "[") depth++;
      else if (t === ")" || t === "]") depth--;
      if (!IDENT.test(t) || tokens[i - 1] === ".") continue;
      const next = tokens[i + 1];
      const assigned = depth === 0 && next === "=" && tokens[i + 2] !== "=" && tokens[i + 2] !== ">";
      const augmented = depth === 0 && next !== undefined && /^[-+*/%&|^]$/.test(next) && tokens[i + 2] === "=" && tokens[i + 3] !== "=";
      const declared = ["let", "const", "var", "as"].includes(tokens[i - 1] ?? "");
      if (assigned || augmented || declared) out.add(t);
    }
    // `for a, b in` / `for (const [a, b] of`: every name up to `in` or `of`.
    const f = tokens.indexOf("for");
    if (f >= 0) {
      const end = tokens.findIndex((x, k) => k > f && (x === "in" || x === "of"));
      for (let k = f + 1; k < end; k++) if (IDENT.test(tokens[k]!) && !["let", "const", "var"].includes(tokens[k]!)) out.add(tokens[k]!);
    }
  }
  return out;
}

/**
 * The two bodies are equal but for locals renamed one to one (bound in each body at the same places);
 * `params`: names bound outside the lines (parameters) that may be renamed too.
 */
function equalButLocals(a: readonly CodeLine[], b: readonly CodeLine[], params: readonly [ReadonlySet<string>, ReadonlySet<string>] = [new Set(), new Set()]): boolean {
  if (a.length !== b.length) return false;
  const boundA = new Set([...boundNames(a), ...params[0]]);
  const boundB = new Set([...boundNames(b), ...params[1]]);
  const forward = new Map<string, string>();
  const backward = new Map<string, string>();
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.indent !== y.indent || x.tokens.length !== y.tokens.length) return false;
    for (let j = 0; j < x.tokens.length; j++) {
      const s = x.tokens[j]!;
      const t = y.tokens[j]!;
      if (s === t && (x.tokens[j - 1] === "." || (!boundA.has(s) && !boundB.has(t)))) continue;
      // A renamed name: a local on both sides, never an attribute, one to one across the body.
      if (!IDENT.test(s) || !IDENT.test(t) || x.tokens[j - 1] === "." || !boundA.has(s) || !boundB.has(t)) return false;
      if ((forward.get(s) ?? t) !== t || (backward.get(t) ?? s) !== s) return false;
      forward.set(s, t);
      backward.set(t, s);
    }
  }
  return true;
}

/** Splits tokens at commas of bracket depth 0. */
function commaSplit(tokens: readonly string[]): string[][] {
  return commaParts(tokens).filter((p) => p.length > 0);
}

/** A parsed helper: its parameter names (without self/this/cls) and body. */
function helperOf(h: AddedHelper, path: string): { params: string[]; body: CodeLine[] } | null {
  const s = split(h.text, path);
  if (!s) return null;
  const tokens = s.header.split(/\s+/);
  const open = tokens.indexOf("(");
  if (open < 0) return null;
  const close = closingIndex(tokens, open);
  if (close < 0) return null;
  const params: string[] = [];
  const typedFirst = TYPE_BEFORE_NAME.has(languageOf(path) ?? "config");
  for (const p of commaSplit(tokens.slice(open + 1, close))) {
    // Java, C#, C and C++: the name after its type and modifiers (`final String source`, `const char *s`;
    // a generic type's comma would split it, so none is read); elsewhere a plain name (an annotation after `:` allowed). Defaults, rest and destructuring are not read.
    if (typedFirst && p.every((t) => IDENT.test(t) || ["*", "&", ".", "[", "]", ":"].includes(t)) && IDENT.test(p[p.length - 1]!) && p.length > 1) {
      params.push(p[p.length - 1]!);
      continue;
    }
    if (!IDENT.test(p[0]!) || (p.length > 1 && p[1] !== ":")) return null;
    params.push(p[0]!);
  }
  return { params: params.filter((p, i) => !(i === 0 && RECEIVERS.has(p))), body: s.body };
}

/** Languages whose parameters give their type before their name. */
const TYPE_BEFORE_NAME = new Set(["java", "csharp", "c", "cpp"]);

/** Replaces whole names (not attributes) in a line by token runs. */
function substitute(line: CodeLine, names: ReadonlyMap<string, string[]>): CodeLine {
  const tokens: string[] = [];
  line.tokens.forEach((t, i) => {
    const by = names.get(t);
    if (by && line.tokens[i - 1] !== ".") tokens.push(...by);
    else tokens.push(t);
  });
  return { indent: line.indent, tokens };
}

type Call = { form: "statement" | "assign" | "return"; target: string | null; helper: string; args: string[][] };

/** A line that is only a call of one of `names` (`h(a)`, `self.h(a)`, `v = h(a)`, `const v = h(a)`, `return h(a)`). */
function callOf(line: CodeLine, names: ReadonlySet<string>): Call | null {
  let t = line.tokens.slice();
  if (t[t.length - 1] === ";") t = t.slice(0, -1);
  let form: Call["form"] = "statement";
  let target: string | null = null;
  if (t[0] === "return") {
    form = "return";
    t = t.slice(1);
  } else {
    const d = ["let", "const", "var"].includes(t[0]!) ? 1 : 0;
    if (IDENT.test(t[d] ?? "") && t[d + 1] === "=" && t[d + 2] !== "=") {
      form = "assign";
      target = t[d]!;
      t = t.slice(d + 2);
    }
  }
  if (t.length >= 2 && RECEIVERS.has(t[0]!) && t[1] === ".") t = t.slice(2);
  const name = t[0];
  if (!name || !names.has(name) || t[1] !== "(" || t[t.length - 1] !== ")") return null;
  // The parentheses must close at the end.
  const close = closingIndex(t, 1);
  if (close >= 0 && close !== t.length - 1) return null;
  return { form, target, helper: name, args: commaSplit(t.slice(2, -1)) };
}

/** The body with each call of an added helper replaced by the helper's body; null when one cannot be. */
function inlined(body: readonly CodeLine[], helpers: ReadonlyMap<string, { params: string[]; body: CodeLine[] }>): CodeLine[] | null {
  const names = new Set(helpers.keys());
  const out: CodeLine[] = [];
  let aliases = new Map<string, string[]>();
  let changed = false;
  for (let i = 0; i < body.length; i++) {
    const line = aliases.size > 0 ? substitute(body[i]!, aliases) : body[i]!;
    const call = callOf(body[i]!, names);
    if (!call) {
      out.push(line);
      continue;
    }
    const helper = helpers.get(call.helper)!;
    if (call.args.length !== helper.params.length || call.args.some((a) => a.some((x) => x === "=" || x === "*" || x === "..."))) return null;
    const params = new Map(helper.params.map((p, k) => [p, call.args[k]!]));
    let lines = helper.body.map((l) => ({ ...substitute(l, params), indent: l.indent + body[i]!.indent }));
    if (call.form !== "return") {
      const last = lines[lines.length - 1];
      const returns = last && last.tokens[0] === "return" && last.indent === body[i]!.indent;
      if (call.form === "assign") {
        // `v = h()`: the helper's closing `return E` gives v the expression E, v never bound again.
        if (!returns || last.tokens.length < 2) return null;
        const expression = last.tokens.slice(1).filter((x, k, all) => !(x === ";" && k === all.length - 1));
        if (boundNames(body.slice(i + 1)).has(call.target!) || expression.some((x) => x === "(")) return null;
        aliases = new Map([...aliases, [call.target!, expression]]);
      }
      if (returns) lines = lines.slice(0, -1);
      // Any other `return` in the helper would leave the caller's body early in the helper only.
      if (lines.some((l) => l.tokens[0] === "return")) return null;
    }
    out.push(...lines);
    changed = true;
  }
  return changed ? out : null;
}

/**
 * The body with each Python loop that only re-yields its items (`for x in E:` and, one level in, `yield x`
 * alone, no `else:`) written `yield from E`.
 */
export function withYieldFrom(body: readonly CodeLine[]): CodeLine[] {
  const out: CodeLine[] = [];
  for (let i = 0; i < body.length; i++) {
    const line = body[i]!;
    const t = line.tokens;
    const next = body[i + 1];
    const after = body[i + 2];
    const loop = t[0] === "for" && IDENT.test(t[1] ?? "") && t[2] === "in" && t.length > 4 && t[t.length - 1] === ":";
    const reYields = loop && next !== undefined && next.indent > line.indent && next.tokens.length === 2 && next.tokens[0] === "yield" && next.tokens[1] === t[1];
    // The loop's block is the `yield` alone, and no `else:` follows it.
    const alone = after === undefined || (after.indent <= line.indent && !(after.indent === line.indent && after.tokens[0] === "else"));
    if (reYields && alone) {
      out.push({ indent: line.indent, tokens: ["yield", "from", ...t.slice(3, -1)] });
      i++;
    } else out.push(line);
  }
  return out;
}

/**
 * True when the change from `before` to `after` (one function's text at each version) is shown to keep
 * its behaviour: locals renamed, a helper the change adds (`helpers`, the same file) called in place
 * of the same statements, or only diagnostics reworded. Comments, whitespace and annotations alone are the caller's check.
 */
export function sameBehaviour(before: string, after: string, path: string, helpers: readonly AddedHelper[], context: BehaviourContext = {}): boolean {
  if (context.renamed && context.renamed.size > 0) before = withCallsRenamed(before, context.renamed);
  if (sameButDiagnostics(before, after, path)) return true;
  const language = languageOf(path);
  // Declarations never run (overload stubs, unimplemented or body-less ones): none behaves (./behaviour-form.ts).
  if (isDeclarationOnly(before, path, language) && isDeclarationOnly(after, path, language)) return true;
  const a = split(before, path);
  const b = split(after, path);
  if (!a || !b) return false;
  const x = formOf(a, path, language);
  const formB = formOf(b, path, language);
  const y = { ...formB, body: withoutNewLiteralWraps(x.body, formB.body) };
  if (x.header.length !== y.header.length) return false;
  // Parameters may be renamed with the body where callers cannot name them (no keyword arguments).
  const params = RENAMABLE_PARAMETERS.has(language ?? "config") ? ([x.params, y.params] as const) : undefined;
  const headersMatch = (p: typeof params) => equalButLocals([{ indent: 0, tokens: x.header }], [{ indent: 0, tokens: y.header }], p ?? [new Set(), new Set()]);
  if (!headersMatch(params)) return false;
  // The header and the body renamed together: the header's renames must hold in the body.
  const whole = (body: CodeLine[], form: Form) => [{ indent: -1, tokens: form.header }, ...body];
  if (equalButLocals(whole(x.body, x), whole(y.body, y), params)) return true;
  if (language === "python" && equalButLocals(whole(withYieldFrom(x.body), x), whole(withYieldFrom(y.body), y), params)) return true;
  if (codeWithoutAnnotations(a.header, path) !== codeWithoutAnnotations(b.header, path)) return false;
  // Helpers the new body calls and the old one did not, put in place of their calls in the new body; and
  // helpers the old body called and the new one does not, in the old body.
  const extracted = parsedHelpers([...helpers, ...(context.after ?? []).filter((h) => !namesWord(before, h.name))], path, after);
  if (extracted.size > 0 && inliningSteps(b.body, extracted, language).some((body) => equalButLocals(a.body, body))) return true;
  const dropped = parsedHelpers((context.before ?? []).filter((h) => !namesWord(after, h.name)), path, before);
  return dropped.size > 0 && inliningSteps(a.body, dropped, language).some((old) => equalButLocals(old, b.body));
}

/**
 * The body after each step that puts helpers in place changes it: calls as statements, then guard calls
 * (./inline-guards.ts), then calls inside expressions (./inline-expressions.ts), each on the last result.
 */
function inliningSteps(body: CodeLine[], helpers: ReadonlyMap<string, ParsedHelper>, language: Language | null): CodeLine[][] {
  const steps = [(x: CodeLine[]) => inlined(x, helpers), (x: CodeLine[]) => withGuardsInlined(x, helpers, language === "python"), (x: CodeLine[]) => withExpressionsInlined(x, helpers, language)];
  const out: CodeLine[][] = [];
  let current = body;
  for (const step of steps) {
    const next = step(current);
    if (next === null) continue;
    current = next;
    out.push(current);
  }
  return out;
}

/** What else a changed function's file and change show, for sameBehaviour. */
export type BehaviourContext = {
  /** The other functions of the file at head (by name and text): helpers a new body may call in place of old statements. */
  after?: readonly AddedHelper[];
  /** The other functions of the file at the base: helpers an old body may have called in place of the new statements. */
  before?: readonly AddedHelper[];
  /** Functions the change removes, by the name of a function it adds with the same text but for the name. */
  renamed?: ReadonlyMap<string, string>;
};

/** `code` with each call of a renamed function (a whole name, not an attribute) called by its new name. */
function withCallsRenamed(code: string, renamed: ReadonlyMap<string, string>): string {
  return code.replace(/(?<![\w$.])[A-Za-z_$][\w$]*(?=\s*\()/g, (name) => renamed.get(name) ?? name);
}

/**
 * The helpers (one definition per name) that `body` calls, parsed; a name defined twice (overloads,
 * methods of two classes) is left out, since which one a call reaches cannot be told.
 */
function parsedHelpers(helpers: readonly AddedHelper[], path: string, body: string): Map<string, ParsedHelper> {
  const count = new Map<string, number>();
  for (const h of helpers) count.set(h.name, (count.get(h.name) ?? 0) + 1);
  const out = new Map<string, ParsedHelper>();
  for (const h of helpers) {
    if (count.get(h.name) !== 1 || !callsName(body, h.name)) continue;
    const p = helperOf(h, path);
    if (p) out.set(h.name, p);
  }
  return out;
}

const escapedName = (name: string) => name.replace(/[$]/g, "\\$&");
const namesWord = (code: string, name: string) => new RegExp(`(?<![\\w$])${escapedName(name)}(?![\\w$])`).test(code);
const callsName = (code: string, name: string) => new RegExp(`(?<![\\w$])${escapedName(name)}\\s*\\(`).test(code);

/** Languages where a call cannot name a parameter, so renaming one is the function's own affair. */
const RENAMABLE_PARAMETERS = new Set(["c", "cpp", "java", "go", "rust", "javascript", "typescript"]);

/** A split function in its behaviour form (./behaviour-form.ts): header tokens, parameter names, body lines. */
type Form = { header: string[]; params: Set<string>; body: CodeLine[] };

function formOf(s: Split, path: string, language: Language | null): Form {
  const header = headerForm(codeWithoutAnnotations(s.header, path).split(" "), language);
  const params = parameterNames(header);
  if (language === "python") return { header, params, body: pythonBodyForm(s.body) };
  const tokens = braceBodyForm(
    s.body,
    language,
    returnsNothing(s.headerTokens, language),
  );
  // One pseudo-line per statement and brace: line breaks are no code in these languages.
  const body: CodeLine[] = [];
  let line: string[] = [];
  for (const t of tokens) {
    line.push(t);
    if (t === ";" || t === "{" || t === "}") {
      body.push({ indent: 0, tokens: line });
      line = [];
    }
  }
  if (line.length > 0) body.push({ indent: 0, tokens: line });
  return { header, params, body };
}

/** The names of a header's first parameter list (a name followed by `,`, `)`, `=` or `:`). */
function parameterNames(header: readonly string[]): Set<string> {
  const out = new Set<string>();
  const open = header.indexOf("(");
  if (open < 0) return out;
  let depth = 0;
  for (let i = open; i < header.length; i++) {
    const t = header[i]!;
    if (OPENERS.has(t)) depth++;
    else if (CLOSERS.has(t) && --depth === 0) break;
    if (depth === 1 && IDENT.test(t) && header[i - 1] !== "." && [",", ")", "=", ":"].includes(header[i + 1] ?? "") && header[i + 2] !== ":") out.add(t);
  }
  out.delete("self");
  out.delete("this");
  return out;
}

/** A C-family, Java or C# function declared `void`, or a TypeScript one declared `: void`. */
function returnsNothing(header: readonly string[], language: Language | null): boolean {
  const open = header.indexOf("(");
  if (open < 0) return false;
  if (language === "typescript") {
    const close = header.lastIndexOf(")");
    return header[close + 1] === ":" && header[close + 2] === "void" && header[close + 3] === "{";
  }
  return (language === "c" || language === "cpp" || language === "java" || language === "csharp") && header.slice(0, open).includes("void");
}
