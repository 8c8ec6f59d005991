/**
 * The form of a function's code that decides what it does, for ./same-behaviour.ts: what a compiler or
 * an interpreter drops before running it, and spellings of one control flow, read as one.
 *
 *   - Declarations that are never run: a Python `@overload` stub, a function whose body only marks it
 *     unimplemented (`...`, `pass`, `return None`, `raise NotImplementedError`, docstring aside), a
 *     declaration without a body (a TypeScript overload signature, an abstract or interface method).
 *     A change between two of them changes no behaviour (`isDeclarationOnly`).
 *   - Modifiers of the header: visibility (`public`, `private`, `pub`...), `static`, `final`, `inline`,
 *     `constexpr`, `const fn`, `virtual`, `override`, `explicit`, and in C and C++ a macro-shaped
 *     specifier before the name (`FMT_CONSTEXPR`, `SPDLOG_INLINE`). Who may call a function, or when,
 *     is not what it does (`synchronized`, `async`, `noexcept` do change it and stay).
 *   - Types a checker reads: a Python local's annotation (`data: bytes = b""`, a bare `func: T`),
 *     `typing.cast(T, x)` (which returns x), a TypeScript local's annotation and `x as T`, C++
 *     `static_assert` statements.
 *   - A message wrapped for localisation: an old string literal as the only argument of a new
 *     translating call (`"Continue?"` -> `_("Continue?")`, `withoutNewLiteralWraps`).
 *   - The object a Java `synchronized (x)` or C# `lock (x)` block locks (not the block, nor the
 *     `synchronized` modifier of a method).
 *   - In brace languages, line breaks, braces around one statement (`if (c) x;` is `if (c) { x; }`; in
 *     JavaScript without semicolons too), parentheses around one arrow parameter or around all of an
 *     assigned or returned value,
 *     and an `if`/`else` written as an early exit: `if (c) { X } else { Y }` is `if (c) { X } Y` when X
 *     ends in `return` or `throw`, and when the `if` ends a function that returns nothing (`void`), where
 *     `return f(a);` is `f(a); return;` and a final `return;` is nothing.
 */
import type { Language } from "../analysers/context.ts";
import { codeLines, type CodeLine } from "./similarity.ts";
import { CLOSERS, OPENERS, closingIndex } from "./bracket-tokens.ts";

const NAME = /^[A-Za-z_$][\w$]*$/;
const STRING = /^(?:[rRbBuUfF]{0,2})?(["'`]|""")/;
const MACRO = /^[A-Z][A-Z0-9]*_[A-Z0-9_]*$/;

/** Header words that say who may call a function or when it is compiled, not what it does. */
const MODIFIERS = new Set(
  "public private protected internal static final inline constexpr consteval virtual override explicit sealed open export default".split(" "),
);

/** Python decorators that make a definition a declaration for type checkers only. */
const OVERLOAD = /^@\s*(?:(?:t|typing|typing_extensions)\s*\.\s*)?overload\s*$/;

/** Bodies that only mark a function unimplemented (tokens joined by spaces). */
const PYTHON_STUBS = new Set([". . .", "pass", "return", "return None", "raise NotImplementedError", "raise NotImplementedError ( )"]);

/**
 * Whether a function's text declares it without code to run: a Python `@overload` stub or a body that is
 * only `...`, `pass`, `return None` or `raise NotImplementedError` (docstring aside); in other languages a
 * header with no body or an empty one.
 */
export function isDeclarationOnly(text: string, path: string, language: Language | null): boolean {
  const lines = codeLines(text, path);
  if (language === "python") {
    if (lines.some((l) => OVERLOAD.test(l.tokens.join(" ")))) return true;
    const tokens = lines.filter((l) => l.tokens[0] !== "@").flatMap((l) => l.tokens);
    const colon = headerColon(tokens);
    if (colon < 0) return false;
    return PYTHON_STUBS.has(tokens.slice(colon + 1).join(" ").replace(/ ;$/, ""));
  }
  const tokens = lines.flatMap((l) => l.tokens);
  const open = tokens.indexOf("(");
  if (open < 0) return false;
  const brace = tokens.indexOf("{", open);
  if (brace < 0) return tokens[tokens.length - 1] === ";";
  return tokens.length === brace + 2 && tokens[brace + 1] === "}";
}

/** The index of a Python header's closing colon (after its parameters), or -1. */
function headerColon(tokens: readonly string[]): number {
  let depth = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (OPENERS.has(t)) depth++;
    else if (CLOSERS.has(t)) depth--;
    else if (t === ":" && depth === 0 && tokens.includes("def")) return i;
  }
  return -1;
}

/** A header's tokens without its modifiers (and in C and C++ macro-shaped specifiers before the parameters). */
export function headerForm(tokens: readonly string[], language: Language | null): string[] {
  const open = tokens.indexOf("(");
  const cFamily = language === "c" || language === "cpp";
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const beforeParameters = open < 0 || i < open;
    if (beforeParameters && MODIFIERS.has(t) && tokens[i - 1] !== ".") continue;
    // Rust: `pub(crate)`, `const fn`.
    if (language === "rust" && t === "(" && tokens[i - 1] === "pub" && beforeParameters) {
      const close = tokens.indexOf(")", i);
      if (close > i) i = close;
      continue;
    }
    if (language === "rust" && (t === "pub" || (t === "const" && tokens[i + 1] === "fn"))) continue;
    if (cFamily && beforeParameters && MACRO.test(t) && tokens[i + 1] !== "(" && tokens[i + 1] !== "::" && tokens[i - 1] !== ":") continue;
    out.push(t);
  }
  return out;
}

/** The end (exclusive) of the bracketed group opening at `at`. */
function groupEnd(tokens: readonly string[], at: number): number {
  const close = closingIndex(tokens, at);
  return close < 0 ? tokens.length : close + 1;
}

/** `cast(T, x)` (`t.cast`, `typing.cast`): x. */
function withoutCasts(tokens: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const receiver = (tokens[i] === "t" || tokens[i] === "typing") && tokens[i + 1] === "." && tokens[i + 2] === "cast" && tokens[i - 1] !== ".";
    const bare = tokens[i] === "cast" && tokens[i - 1] !== ".";
    const at = receiver ? i + 3 : bare ? i + 1 : -1;
    if (at < 0 || tokens[at] !== "(") {
      out.push(tokens[i]!);
      continue;
    }
    const end = groupEnd(tokens, at);
    let depth = 0;
    let comma = -1;
    for (let k = at + 1; k < end - 1 && comma < 0; k++) {
      if (OPENERS.has(tokens[k]!)) depth++;
      else if (CLOSERS.has(tokens[k]!)) depth--;
      else if (tokens[k] === "," && depth === 0) comma = k;
    }
    if (comma < 0) {
      out.push(tokens[i]!);
      continue;
    }
    out.push(...withoutCasts(tokens.slice(comma + 1, end - 1)).filter((x, k, all) => !(x === "," && k === all.length - 1)));
    i = end - 1;
  }
  return out;
}

/** Python body lines without local annotations (`x: T = v` is `x = v`; a bare `x: T` is nothing) and casts. */
export function pythonBodyForm(body: readonly CodeLine[]): CodeLine[] {
  const out: CodeLine[] = [];
  let depth = 0;
  for (const line of body) {
    let tokens = line.tokens;
    const atStatement = depth === 0;
    for (const t of tokens) {
      if (OPENERS.has(t)) depth++;
      else if (CLOSERS.has(t)) depth = Math.max(0, depth - 1);
    }
    if (atStatement) {
      // The target: a name or an attribute (`self.x`).
      let k = 0;
      while (NAME.test(tokens[k] ?? "") && tokens[k + 1] === ".") k += 2;
      const annotated = NAME.test(tokens[k] ?? "") && tokens[k + 1] === ":" && tokens.length > k + 2 && !KEYWORD_LINES.has(tokens[0]!);
      if (annotated) {
        const eq = tokens.findIndex((t, i) => i > k + 1 && t === "=" && tokens[i + 1] !== "=" && !"=!<>".includes(tokens[i - 1]!));
        if (eq < 0) continue; // `func: t.Callable[[], str]`: declares nothing that runs.
        tokens = [...tokens.slice(0, k + 1), ...tokens.slice(eq)];
      }
    }
    out.push({ indent: line.indent, tokens: withoutCasts(tokens) });
  }
  return out;
}

/** Lines that start with a keyword and a colon may follow (`else:`, `lambda x: y`). */
const KEYWORD_LINES = new Set("else elif if try except finally while for with lambda case match def class return yield".split(" "));

/** Words that start a statement a brace-less `if` may govern but whose end is not its first `;`. */
const COMPOUND = new Set(["if", "for", "while", "do", "switch", "try"]);

/**
 * A brace language's body tokens in one form: TypeScript annotations of locals and `as T` dropped, C++
 * `static_assert` statements dropped, every `if`/`else`/`for`/`while` body braced, and an `if`/`else`
 * written as an early exit (see above). `voidFunction`: the function returns nothing.
 */
export function braceBodyForm(lines: readonly CodeLine[], language: Language | null, voidFunction: boolean): string[] {
  let t = language === "javascript" || language === "typescript" ? withStatementEnds(lines) : lines.flatMap((l) => l.tokens);
  if (language === "typescript") t = withoutTypeScriptTypes(t);
  if (language === "c" || language === "cpp") t = withoutStaticAsserts(t);
  if (language === "java" || language === "csharp") t = withoutMonitors(t, language === "java" ? "synchronized" : "lock");
  t = withoutRedundantParentheses(t);
  t = braced(t);
  if (voidFunction) t = voidReturns(t);
  t = earlyExits(t, voidFunction);
  if (voidFunction && t.length >= 2 && t[t.length - 2] === "return" && t[t.length - 1] === ";") t = t.slice(0, -2);
  return t;
}

/** Tokens that leave a JavaScript line's statement open at its end, or continue the previous line's at a line's start. */
const OPEN_AT_END = new Set([";", "{", "(", "[", ",", ".", "=", "+", "-", "*", "/", "%", "&", "|", "^", "!", "?", ":", "<", ">", "~"]);
const CONTINUES_AT_START = new Set([".", ")", "]", "}", ",", "?", ":", "+", "-", "*", "/", "%", "&", "|", "^", "=", "<", ">"]);

/**
 * JavaScript and TypeScript tokens with the `;` that automatic semicolon insertion reads written out:
 * at a line's end that leaves nothing open before a line that continues nothing, and before a `}` (so
 * `if (c) x` and `if (c) { x }` are one form in code written without semicolons).
 */
function withStatementEnds(lines: readonly CodeLine[]): string[] {
  const out: string[] = [];
  lines.forEach((line, i) => {
    for (const t of line.tokens) {
      if (t === "}" && out.length > 0 && !["{", "}", ";"].includes(out[out.length - 1]!)) out.push(";");
      out.push(t);
    }
    const last = line.tokens[line.tokens.length - 1]!;
    const next = lines[i + 1]?.tokens[0];
    if (!OPEN_AT_END.has(last) && last !== "}" && (next === undefined || !CONTINUES_AT_START.has(next))) out.push(";");
  });
  return out;
}

/** `(x) => ...` is `x => ...`; parentheses around all of an assigned or returned value are none. */
function withoutRedundantParentheses(tokens: readonly string[]): string[] {
  const drop = new Set<number>();
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i] !== "(") continue;
    const before = tokens[i - 1] ?? "";
    if (NAME.test(tokens[i + 1] ?? "") && tokens[i + 2] === ")" && tokens[i + 3] === "=" && tokens[i + 4] === ">" && !NAME.test(before) && before !== ")") {
      drop.add(i).add(i + 2);
      continue;
    }
    if (before !== "=" && before !== "return") continue;
    if (before === "=" && ["=", "!", "<", ">"].includes(tokens[i - 2] ?? "")) continue;
    const end = groupEnd(tokens, i);
    if (tokens[end] === ";" || end === tokens.length) drop.add(i).add(end - 1);
  }
  return tokens.filter((_, i) => !drop.has(i));
}

/**
 * Java's `synchronized (x) {` and C#'s `lock (x) {` blocks with the object they lock left out: which
 * object guards a block decides which threads wait for each other, not what the block computes.
 */
function withoutMonitors(tokens: readonly string[], keyword: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const end = tokens[i] === keyword && tokens[i + 1] === "(" && tokens[i - 1] !== "." ? groupEnd(tokens, i + 1) : -1;
    if (end < 0 || tokens[end] !== "{") {
      out.push(tokens[i]!);
      continue;
    }
    out.push(keyword, "(", ")");
    i = end - 1;
  }
  return out;
}

/** `x as T` and `let x: T =` without their types. */
function withoutTypeScriptTypes(tokens: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t === "as" && out.length > 0 && tokens[i - 1] !== "." && (NAME.test(tokens[i - 1]!) || CLOSERS.has(tokens[i - 1]!) || STRING.test(tokens[i - 1]!))) {
      // The type: names, dots, generics, arrays, unions, up to what ends the expression.
      let depth = 0;
      let k = i + 1;
      for (; k < tokens.length; k++) {
        const x = tokens[k]!;
        if (x === "<" || OPENERS.has(x)) depth++;
        else if (x === ">" || CLOSERS.has(x)) {
          if (depth === 0) break;
          depth--;
        } else if (depth === 0 && !NAME.test(x) && x !== "." && x !== "|" && x !== "&" && !STRING.test(x)) break;
        else if (depth === 0 && NAME.test(x) && k > i + 1 && NAME.test(tokens[k - 1]!)) break;
      }
      i = k - 1;
      continue;
    }
    if ((t === "let" || t === "const" || t === "var") && NAME.test(tokens[i + 1] ?? "") && tokens[i + 2] === ":") {
      out.push(t, tokens[i + 1]!);
      let depth = 0;
      let k = i + 3;
      for (; k < tokens.length; k++) {
        const x = tokens[k]!;
        if (x === "<" || OPENERS.has(x)) depth++;
        else if (x === ">" || CLOSERS.has(x)) depth--;
        else if (depth === 0 && (x === "=" || x === ";")) break;
      }
      i = k - 1;
      continue;
    }
    out.push(t);
  }
  return out;
}

/** C and C++ `static_assert(...);`: checked when compiled, nothing at run time. */
function withoutStaticAsserts(tokens: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i] === "static_assert" && tokens[i + 1] === "(" && (i === 0 || [";", "{", "}"].includes(tokens[i - 1]!))) {
      const end = groupEnd(tokens, i + 1);
      if (tokens[end] === ";") {
        i = end;
        continue;
      }
    }
    out.push(tokens[i]!);
  }
  return out;
}

/** The end (exclusive) of the statement starting at `at`: a block, or up to its `;` at depth 0; -1 when unknown. */
function statementEnd(tokens: readonly string[], at: number): number {
  if (tokens[at] === "{") return groupEnd(tokens, at);
  if (COMPOUND.has(tokens[at] ?? "")) return -1;
  let depth = 0;
  for (let i = at; i < tokens.length; i++) {
    const x = tokens[i]!;
    if (OPENERS.has(x)) depth++;
    else if (CLOSERS.has(x)) {
      if (depth === 0) return -1;
      depth--;
    } else if (x === ";" && depth === 0) return i + 1;
  }
  return -1;
}

/** Every `if (...)`, `else`, `for (...)` and `while (...)` governing one statement without braces gets them. */
function braced(tokens: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    out.push(t);
    let body = -1;
    if ((t === "if" || t === "for" || t === "while") && tokens[i - 1] !== ".") {
      // `if constexpr (`, `if FMT_CONSTEXPR20 (`.
      let open = i + 1;
      if (tokens[open] !== "(" && NAME.test(tokens[open] ?? "") && tokens[open + 1] === "(") open++;
      if (tokens[open] !== "(") continue;
      const close = groupEnd(tokens, open);
      out.push(...tokens.slice(i + 1, close));
      i = close - 1;
      body = close;
    } else if (t === "else" && tokens[i + 1] !== "if") body = i + 1;
    if (body < 0 || tokens[body] === "{" || tokens[body] === ";") continue;
    const end = statementEnd(tokens, body);
    if (end < 0) continue;
    out.push("{", ...braced(tokens.slice(body, end)), "}");
    i = end - 1;
  }
  return out;
}

/** In a function returning nothing, `return f(a);` is `f(a); return;`. */
function voidReturns(tokens: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i] === "return" && tokens[i + 1] !== ";") {
      const end = statementEnd(tokens, i + 1);
      if (end > 0) {
        out.push(...tokens.slice(i + 1, end), "return", ";");
        i = end - 1;
        continue;
      }
    }
    out.push(tokens[i]!);
  }
  return out;
}

/** Whether a block (`{ ... }`) ends by leaving the function: its last statement is a `return` or a `throw`. */
function exits(block: readonly string[]): boolean {
  const inner = block.slice(1, -1);
  for (let k = inner.length - 2; k >= 0; k--) {
    if (inner[k] === ";" || inner[k] === "{" || inner[k] === "}") {
      return inner[k + 1] === "return" || inner[k + 1] === "throw";
    }
  }
  return inner[0] === "return" || inner[0] === "throw";
}

/** `if (c) { X } else { Y }` as `if (c) { X } Y` when X exits, or when it ends a void function (X then gets `return;`). */
function earlyExits(tokens: readonly string[], voidFunction: boolean): string[] {
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i] !== "if" || tokens[i - 1] === "else" || tokens[i - 1] === ".") continue;
    let open = i + 1;
    if (tokens[open] !== "(" && NAME.test(tokens[open] ?? "") && tokens[open + 1] === "(") open++;
    if (tokens[open] !== "(") continue;
    const close = groupEnd(tokens, open);
    if (tokens[close] !== "{") continue;
    const thenEnd = groupEnd(tokens, close);
    if (tokens[thenEnd] !== "else" || tokens[thenEnd + 1] !== "{") continue;
    const elseEnd = groupEnd(tokens, thenEnd + 1);
    const then = tokens.slice(close, thenEnd);
    const atEnd = elseEnd === tokens.length;
    if (!exits(then) && !(voidFunction && atEnd)) continue;
    const thenForm = exits(then) ? then : [...then.slice(0, -1), "return", ";", "}"];
    const rest = [...tokens.slice(0, close), ...thenForm, ...tokens.slice(thenEnd + 2, elseEnd - 1), ...tokens.slice(elseEnd)];
    return earlyExits(rest, voidFunction);
  }
  return [...tokens];
}

/**
 * The names gettext and the common i18n libraries give their translating call (`_`, `gettext`, `N_`,
 * `gettext_lazy`, `tr`, `i18n`, `t`, `$t`, `__`): any other call of a literal (`Decimal("1.5")`,
 * `re.compile("x")`) makes a new value.
 */
const LOCALISERS = /^(?:_{1,2}|N_|_t|t|tr|i18n|\$t|translate|u?gettext(?:_lazy|_noop)?)$/;

/**
 * The head's body with each new one-argument localisation call whose argument is a string literal of the
 * base body (`_("Do you want to continue?")`) read as the literal: the text is the same where no
 * catalogue translates it. A call the base already made with that literal stays.
 */
export function withoutNewLiteralWraps(base: readonly CodeLine[], head: readonly CodeLine[]): CodeLine[] {
  const baseTokens = base.flatMap((l) => l.tokens);
  const literals = new Set(baseTokens.filter((t) => STRING.test(t)));
  const wrapped = new Set<string>();
  for (let i = 0; i + 3 < baseTokens.length; i++) if (baseTokens[i + 1] === "(" && baseTokens[i + 3] === ")") wrapped.add(`${baseTokens[i]} ${baseTokens[i + 2]}`);
  return head.map((line) => {
    const t = line.tokens;
    const out: string[] = [];
    for (let i = 0; i < t.length; i++) {
      const call = LOCALISERS.test(t[i]!) && t[i - 1] !== "." && t[i + 1] === "(" && STRING.test(t[i + 2] ?? "") && t[i + 3] === ")";
      if (call && literals.has(t[i + 2]!) && !wrapped.has(`${t[i]} ${t[i + 2]}`)) {
        out.push(t[i + 2]!);
        i += 3;
      } else out.push(t[i]!);
    }
    return { indent: line.indent, tokens: out };
  });
}
