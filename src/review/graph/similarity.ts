/**
 * How alike two pieces of code are, insensitive to renamed identifiers, comments, whitespace and
 * literal values: each is cut into tokens (comments and docstrings dropped, strings -> "S", numbers ->
 * "N", keywords kept, every other identifier "$"), and the two sets of token shingles (runs of
 * SHINGLE tokens) are compared by Jaccard similarity: two functions with the same shape but other
 * names match, while code that merely uses the same words does not.
 *
 * (Renaming by order of first appearance was tried first: one name that is a keyword in another
 * language, such as Python's `default` parameter, shifted every later name and hid a plain copy.)
 *
 * Also: the names the code calls or reads as members or paths (`x.foo`, `A::FOO`, `bar(`), compared as
 * sets, so two functions of the same shape that call different APIs are told apart.
 */
import { languageOf, type Language } from "../analysers/context.ts";
import { withoutTrailingCommas } from "./trailing-commas.ts";

/**
 * A string literal: an escape pair, a character other than the quote, a backslash or a line break, or a lone
 * backslash just before the closing quote. (With `.` also taking a backslash, each `\\` could be read two
 * ways, and a line of 30 of them with no closing quote backtracked for minutes.)
 */
export const STRING_LITERAL = /(["'`])(?:\\.|(?!\1)[^\\\n\r\u2028\u2029]|\\(?=\1))*\1/g;

export const SHINGLE = 4;

/**
 * Words kept as themselves: control flow and operators that no language here lets a program use as a
 * name. Words that are keywords in one language and names in another (`default`, `type`, `match`,
 * `self`...) count as names, so a Python parameter called `default` reads like any other.
 */
const KEYWORDS = new Set(
  (
    "and as assert async await break case catch class continue def del do elif else except extends finally fn for from func function " +
    "if import in instanceof is lambda new not null None nil or raise return switch throw true false True False try typeof undefined while with yield"
  ).split(" "),
);

/**
 * Of those, keywords of one language only that programs in the others commonly use as names: a
 * JavaScript `fn` or a Python `func` is a name, and a copy renaming it (`fn` -> `callback`) reads alike.
 */
const OWN_KEYWORDS: Readonly<Record<string, Language>> = { fn: "rust", func: "go" };

const isKeyword = (name: string, language: Language | null): boolean =>
  KEYWORDS.has(name) && (language === null || OWN_KEYWORDS[name] === undefined || OWN_KEYWORDS[name] === language);

const RECEIVERS = new Set(["self", "this", "cls", "Self"]);

const HASH_COMMENTS = new Set<Language>(["python", "ruby", "shell"]);

export type CodeTokens = {
  /** Normalised tokens (renamed identifiers, "S" strings, "N" numbers, keywords and punctuation). */
  tokens: string[];
  /** Names called (`foo(`) or read as members (`.foo`), as written. */
  apiNames: Set<string>;
  /** Of those, the names read as members of another object than self/this/cls (`self.inner.foo`, `x.foo`; not `x.foo = ...`). */
  foreignMembers: Set<string>;
  /** Lines holding code (not blank, not only a comment). */
  codeLines: number;
};

const TOKEN =
  /("""[\s\S]*?"""|'''[\s\S]*?'''|`(?:\\[\s\S]|[^`\\])*`|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')|(\d[\w.]*)|([A-Za-z_$][\w$]*)|(\S)/g;

/** Comments removed (by the file's language), strings left in place for the tokenizer. */
function stripComments(code: string, language: Language | null): string {
  const hash = language !== null && HASH_COMMENTS.has(language);
  // Strings first, so a `#` or `//` inside one is not taken for a comment.
  const pattern = hash
    ? /("""[\s\S]*?"""|'''[\s\S]*?'''|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')|#[^\n]*/g
    : /(`(?:\\[\s\S]|[^`\\])*`|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')|\/\/[^\n]*|\/\*[\s\S]*?\*\//g;
  return code.replace(pattern, (m, str: string | undefined) => (str !== undefined ? str : m.startsWith("/*") ? m.replace(/[^\n]/g, " ") : ""));
}

/** Python docstrings: a string literal standing alone as a statement. */
function stripDocstrings(code: string): string {
  return code.replace(/^(\s*)(?:[rbuRBU]{0,2})("""[\s\S]*?"""|'''[\s\S]*?''')\s*$/gm, "$1");
}

/**
 * The code's tokens as written, without comments (and Python docstrings), joined by spaces: equal when
 * only comments, whitespace or line breaks changed (`f(\n  a\n)` reads as `f(a)`).
 */
export function codeOnly(code: string, path: string): string {
  const language = languageOf(path);
  let text = stripComments(code, language);
  if (language === "python") text = stripDocstrings(text);
  return [...text.matchAll(TOKEN)].map((m) => m[0]).join(" ");
}

const ANNOTATED = new Set<Language>(["python", "typescript", "rust"]);
const OPEN = new Set(["(", "[", "{", "<"]);
const CLOSE = new Set([")", "]", "}", ">"]);

/**
 * codeOnly without the type annotations of the definitions' headers, in the languages that write them
 * after a colon (Python, TypeScript, Rust): `def f(a: int = 1) -> str:` reads `def f(a = 1):`, and so
 * do the functions defined inside it (Python `def`, Rust `fn`: a decorator's inner function). A change
 * to annotations alone changes nothing a test could observe. In every language, a trailing comma that
 * means nothing is dropped (./trailing-commas.ts). Other languages: codeOnly so normalised.
 */
export function codeWithoutAnnotations(code: string, path: string): string {
  return tokensWithoutAnnotations(code, path).join(" ");
}

/** codeWithoutAnnotations as a list of tokens (a string literal one token). */
export function tokensWithoutAnnotations(code: string, path: string): string[] {
  const language = languageOf(path);
  let tokens = codeTokenList(code, path);
  if (language !== null && ANNOTATED.has(language)) {
    const intro = language === "python" ? "def" : language === "rust" ? "fn" : null;
    // A header is the keyword and a name (Rust's `fn(u8) -> u8` is a type, not a definition).
    const headerAt = (from: number) => {
      for (let k = tokens.indexOf(intro!, from); k >= 0; k = tokens.indexOf(intro!, k + 1)) if (/^[A-Za-z_]\w*$/.test(tokens[k + 1] ?? "")) return k;
      return -1;
    };
    if (intro === null) tokens = stripHeader(tokens, 0, language).tokens;
    else {
      for (let at = headerAt(0); at >= 0; ) {
        const stripped = stripHeader(tokens, at, language);
        tokens = stripped.tokens;
        at = headerAt(stripped.next);
      }
    }
  }
  return withoutTrailingCommas(tokens);
}

/** The tokens of codeOnly, a string literal one token. */
function codeTokenList(code: string, path: string): string[] {
  const language = languageOf(path);
  let text = stripComments(code, language);
  if (language === "python") text = stripDocstrings(text);
  return [...text.matchAll(TOKEN)].map((m) => m[0]);
}

/** `tokens` with the annotations of the header starting at `start` (its keyword) removed; `next`: the index after that header. */
function stripHeader(tokens: readonly string[], start: number, language: Language): { tokens: string[]; next: number } {
  let i = start;
  while (i < tokens.length && tokens[i] !== "(") i++;
  if (i >= tokens.length) return { tokens: [...tokens], next: tokens.length };
  const out = tokens.slice(0, i + 1);
  let depth = 1;
  let skipping = false;
  for (i += 1; i < tokens.length && depth > 0; i++) {
    const t = tokens[i]!;
    // `<` and `>` count as brackets only inside an annotation (generics), never as operators in defaults.
    if (OPEN.has(t) && (t !== "<" || skipping)) depth++;
    else if (CLOSE.has(t) && (t !== ">" || skipping) && !(t === ">" && tokens[i - 1] === "=")) depth--;
    if (depth === 0) {
      out.push(t);
      break;
    }
    if (depth === 1 && t === ":" && !skipping) skipping = true;
    else if (depth === 1 && (t === "," || t === "=") && skipping) skipping = false;
    if (!skipping) out.push(t);
  }
  // The return annotation: `-> T` (Python, Rust) or `: T` (TypeScript), up to the body.
  let j = i + 1;
  const end = language === "python" ? ":" : "{";
  if ((tokens[j] === "-" && tokens[j + 1] === ">") || (language === "typescript" && tokens[j] === ":")) {
    let d = 0;
    while (j < tokens.length && !(d === 0 && (tokens[j] === end || (language === "typescript" && tokens[j] === "=" && tokens[j + 1] === ">")))) {
      if (tokens[j] === "(" || tokens[j] === "[" || (language !== "python" && tokens[j] === "<")) d++;
      else if (tokens[j] === ")" || tokens[j] === "]" || (language !== "python" && tokens[j] === ">" && tokens[j - 1] !== "-")) d--;
      j++;
    }
  }
  return { tokens: [...out, ...tokens.slice(j)], next: out.length };
}

/** One line of code without comments (and Python docstrings): its indentation width and its tokens as written. */
export type CodeLine = { indent: number; tokens: string[] };

/** The code's non-blank lines, comments and docstrings dropped, each with its indentation (a tab counts 4) and tokens. */
export function codeLines(code: string, path: string): CodeLine[] {
  const language = languageOf(path);
  let text = stripComments(code, language);
  if (language === "python") text = stripDocstrings(text);
  const out: CodeLine[] = [];
  for (const line of text.split("\n")) {
    const tokens = [...line.matchAll(TOKEN)].map((m) => m[0]);
    if (tokens.length === 0) continue;
    const lead = /^[ \t]*/.exec(line)![0];
    out.push({ indent: lead.replace(/\t/g, "    ").length, tokens });
  }
  return out;
}

export function codeTokens(code: string, path: string): CodeTokens {
  const language = languageOf(path);
  let text = stripComments(code, language);
  if (language === "python") text = stripDocstrings(text);
  const codeLines = text.split("\n").filter((l) => l.trim() !== "").length;
  const tokens: string[] = [];
  const apiNames = new Set<string>();
  const foreignMembers = new Set<string>();
  const written: string[] = [];
  let previous = "";
  for (const m of text.matchAll(TOKEN)) {
    if (m[1] !== undefined) tokens.push("S");
    else if (m[2] !== undefined) tokens.push("N");
    else if (m[3] !== undefined) {
      const name = m[3];
      if (isKeyword(name, language)) tokens.push(name);
      else {
        tokens.push("$");
        const after = text.slice((m.index ?? 0) + name.length).match(/^\s*\(/);
        // Members (`x.foo`), paths (`Rotation::DAILY`) and calls (`foo(`).
        // (`self`, `this`... are receivers, not APIs: Rust's `..self` is no member read.)
        if ((previous === "." || (previous === ":" && tokens[tokens.length - 3] === ":") || after) && !RECEIVERS.has(name)) apiNames.add(name);
        // A member assigned (`res.send = function send(...)`, a JavaScript method's own header) is written, not read.
        const assigned = /^\s*=(?![=>])/.test(text.slice((m.index ?? 0) + name.length));
        if (previous === "." && !assigned && !RECEIVERS.has(written[written.length - 2] ?? "")) foreignMembers.add(name);
      }
    } else tokens.push(m[4]!);
    written.push(m[0]);
    previous = tokens[tokens.length - 1]!;
  }
  return { tokens, apiNames, foreignMembers, codeLines };
}

function shingles(tokens: readonly string[]): Set<string> {
  const out = new Set<string>();
  if (tokens.length < SHINGLE) {
    if (tokens.length > 0) out.add(tokens.join(" "));
    return out;
  }
  for (let i = 0; i + SHINGLE <= tokens.length; i++) out.add(tokens.slice(i, i + SHINGLE).join(" "));
  return out;
}

export function jaccard<T>(a: ReadonlySet<T>, b: ReadonlySet<T>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let both = 0;
  for (const x of a) if (b.has(x)) both++;
  return both / (a.size + b.size - both);
}

export type Similarity = { structure: number; api: number };

/**
 * Structure: Jaccard similarity of the normalised token shingles; api: of the called and member
 * names, each without the functions' own names (a duplicate is named differently by definition: its
 * recursive calls, bare or on self/this, differ by name only). An own name read as a member of
 * another object stays: `self.inner.with_target()` in `with_target` and `self.inner.with_ansi()` in
 * `with_ansi` are two setters of one family delegating to two APIs, not a copy.
 */
export function similarity(a: CodeTokens, b: CodeTokens, ownNames: readonly string[] = []): Similarity {
  const strip = (t: CodeTokens) => new Set([...t.apiNames].filter((n) => !ownNames.includes(n) || t.foreignMembers.has(n)));
  return { structure: jaccard(shingles(a.tokens), shingles(b.tokens)), api: jaccard(strip(a), strip(b)) };
}
