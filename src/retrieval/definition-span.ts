/**
 * The lines of a named definition inside a chunk: a method inside a class chunk, a small function merged
 * into a block. A query that names a function should get that function's lines, not its class's.
 *
 * Found from the chunk's text by the shapes definitions take across languages (`def name(`, `function
 * name(`, `name(...) {` for methods, `func (r T) name(`, `fn name(`, `name = (...) =>`, and in C and C++ a
 * header over several lines, `SPEC type name(a,` ... `) {`); the end is the
 * matching closing brace, or for indentation languages the last line indented deeper than the definition.
 * Strings and comments are not parsed: an unbalanced brace inside one can only widen the span to the chunk.
 */

const INDENTED_LANGUAGES = new Set(["python"]);

/** Languages whose blocks close with the keyword `end` (`def name ... end`, `function name ... end`). */
const END_LANGUAGES = new Set(["ruby", "elixir", "crystal", "lua", "julia"]);

/** Languages whose every definition opens with a keyword (`def`, `function`): a line opening with a name there is a call. */
const KEYWORD_LANGUAGES = new Set([...INDENTED_LANGUAGES, ...END_LANGUAGES]);

const JS_LANGUAGES = new Set(["javascript", "typescript", "tsx"]);

/**
 * A JavaScript/TypeScript method named by a keyword (`throw (...args) {`, `delete (key) {`, `new () {`
 * of an object or a class): a keyword that heads no block, then a parameter list and the body's brace,
 * which no statement of the language is.
 */
const isKeywordMethod = (line: string, language: string): boolean =>
  JS_LANGUAGES.has(language) && /^\s*(?:(?:static|async|get|set)\s+)*(?:throw|new|delete|return|await|typeof|void|case|default|in|of|this|super)\s*\([^;{}]*\)\s*\{\s*$/.test(line);

const escape = (name: string) => name.replace(/[$]/g, "\\$");

/** Patterns of a definition of `name` at the start of a line (after indentation and modifiers), compiled once per name. */
function definitionPatterns(name: string): RegExp[] {
  let patterns = patternCache.get(name);
  if (!patterns) {
    if (patternCache.size >= PATTERN_CACHE_LIMIT) patternCache.clear();
    patternCache.set(name, (patterns = compiledPatterns(name)));
  }
  return patterns;
}
/** The compiled patterns of recent names (a query's names come back in its every file's references). */
const patternCache = new Map<string, RegExp[]>();
const PATTERN_CACHE_LIMIT = 2_000;

/**
 * Words that may lead a definition's keyword or name, in every language the shapes read (`pub(crate) const
 * fn`, `override suspend fun`, `@IBAction func`, `class func`). A name's patterns add Lua's `local`.
 */
const MODIFIER_WORDS =
  "export|default|public|private|protected|internal|static|final|abstract|override|virtual|inline|async|unsafe|pub(?:\\([^)]*\\))?|const|extern|synchronized|open|suspend|operator|infix|tailrec|external|actual|mutating|fileprivate|convenience|required|class(?=\\s+func\\b)|@[\\w.]+(?:\\([^)]*\\))?";

/** How many of a name's patterns (the first) need a keyword (`def`, `function`, `fn`...). */
const KEYWORD_PATTERNS = 2;

function compiledPatterns(name: string): RegExp[] {
  const n = escape(name);
  const modifiers = `(?:(?:${MODIFIER_WORDS}|local)\\s+)*`;
  return [
    new RegExp(`^[ \\t]*${modifiers}(?:def|function\\*?|fn|fun|func|sub|proc)\\s+(?:\\([^)]*\\)\\s*)?(?:<[^>]*>\\s*)?(?:[A-Za-z_][\\w<>?,]*\\.)*${n}\\s*[(<\\[]`),
    // Ruby and Elixir: a method without parameters, a class method, a private function (`def version`,
    // `def self.parse(`, `defp encode(`, `def name, do:`).
    new RegExp(`^[ \\t]*${modifiers}(?:def|defp|defmacrop?)\\s+(?:self\\.)?${n}(?:\\s*[(;]|\\s*$|\\s+do\\b|\\s*,\\s*do:|\\s*=\\s*[^\\s=>])`),
    // Methods and C-family functions: `name(...)` opening a body, optionally after a return type.
    new RegExp(`^[ \\t]*${modifiers}(?:get\\s+|set\\s+)?(?:[\\w:<>,*&\\[\\]?\\s]+?\\s+[*&]*)?${n}\\s*(?:<[^()]*>)?\\s*\\([^;]*$`),
    // Functions bound to a name: `name = function`, `name: (a) =>`, `const name = async (`.
    new RegExp(`^[ \\t]*${modifiers}(?:(?:var|let|const)\\s+)?(?:[\\w$]+\\.)*${n}\\s*[:=]\\s*(?:async\\s*)?(?:function\\b|\\([^)]*\\)\\s*=>|[\\w$]+\\s*=>)`),
  ];
}

const indentOf = (line: string) => line.length - line.trimStart().length;

/**
 * The line (0-based, within `lines`) where the body of a brace language's definition ends. Parentheses
 * are counted so that a parameter list over several lines (`fun parse(`, `    text: String,`, `): Node {`)
 * is not taken for a declaration ending in `,`, nor are Rust's `where` bounds.
 */
function braceEnd(lines: readonly string[], from: number): number | null {
  let depth = 0;
  let parens = 0;
  let params = false;
  let bounds = false;
  let opened = false;
  for (let i = from; i < lines.length; i++) {
    const line = lines[i]!.replace(/\/\/.*$/, "");
    for (const ch of line) {
      if (ch === "(") {
        parens++;
        params = true;
      } else if (ch === ")") parens = Math.max(0, parens - 1);
      else if (!opened && parens > 0) continue; // a brace of the parameters' types or defaults (`pairs: { key: K }[]`, `config = {}`)
      else if (ch === "{") {
        depth++;
        opened = true;
      } else if (ch === "}") {
        depth--;
        if (opened && depth === 0) return i;
      }
    }
    if (opened || parens > 0) continue;
    // A declaration without a body and without a `;` (an interface's or an abstract member in Kotlin, Swift,
    // Go or TypeScript): its parameters closed, the next code line back at its indentation or before it.
    if (params && !/[=,:>({[]\s*$|\bwhere\b/.test(line) && nextCodeLineEnds(lines, i, indentOf(lines[from]!))) return i;
    // Rust's bounds (`where`, then `S: Into<Dispatch>,` a line each) come before the body.
    if (/(?:^|\s)where\b/.test(line)) bounds = true;
    // A declaration without a body (`int f(void);`, `type Output = Stats;`) or an expression-bodied arrow on one line.
    if ((/[;,]\s*$/.test(line) && i > from && !bounds) || /;\s*$/.test(line)) return i;
    if (i === from && /=>\s*[^{\s]/.test(line) && /[;,)]\s*$/.test(line)) return i;
    // An expression body after the parameters (`fun size(): Int = items.size`, `def twice(x: Int) = x * 2`):
    // its lines are those indented below the definition's.
    if (/\)\s*(?::[^={]*)?=\s*[^\s={>]/.test(line) && !/\{\s*$/.test(line)) return expressionEnd(lines, from);
  }
  return null;
}

/**
 * Whether the code line after line `at` starts at `indent` or before it and goes on with nothing of the
 * line before (`{`, `where`, `->`, `:`, `throws`, `.`, `)`); a header's continuation is indented deeper.
 */
function nextCodeLineEnds(lines: readonly string[], at: number, indent: number): boolean {
  for (let i = at + 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === "" || /^\s*(?:\/\/|\/\*|\*)/.test(line)) continue;
    return indentOf(line) <= indent && !/^\s*(?:[{:.)=]|->|where\b|throws\b|rethrows\b)/.test(line);
  }
  return true;
}

/** Where a later code line stands to the body being read: inside it, its closing line, or past it. */
type BodyLine = "in" | "closes" | "out";

/** The last line of the body below line `from` (0-based), reading its later code lines (blank ones skipped) with `place`. */
function bodyEnd(lines: readonly string[], from: number, place: (line: string, indent: number, base: number) => BodyLine): number {
  const base = indentOf(lines[from]!);
  let last = from;
  for (let i = from + 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === "") continue;
    const where = place(line, indentOf(line), base);
    if (where === "out") break;
    last = i;
    if (where === "closes") break;
  }
  return last;
}

/** The last line of an expression body: the lines indented deeper than its definition, and a bracket closing them at its indentation. */
const expressionEnd = (lines: readonly string[], from: number): number =>
  bodyEnd(lines, from, (line, indent, base) => (indent > base || (indent === base && /^\s*[)\]]/.test(line)) ? "in" : "out"));

/**
 * The line where an `end`-closed definition ends (Ruby's `def ... end`, Elixir's `def ... do ... end`):
 * the `end` at the definition's own indentation (`rescue`, `ensure`, `else` there belong to it), or its
 * last line indented deeper when none follows (`def name = value`, `def name, do: value`, a cut chunk).
 */
function keywordEnd(lines: readonly string[], from: number): number {
  if (/(?:;|\bdo\b|\bthen\b)\s*end\s*$/.test(lines[from]!)) return from;
  return bodyEnd(lines, from, (line, indent, base) => {
    if (indent !== base) return indent > base ? "in" : "out";
    if (/^\s*end\b/.test(line)) return "closes";
    return /^\s*(?:rescue|ensure|else|catch|after)\b/.test(line) ? "in" : "out";
  });
}

/** The last line of the definition starting at line `from` (0-based), by the language's way of closing blocks. */
function definitionEnd(lines: readonly string[], from: number, language: string): number | null {
  if (INDENTED_LANGUAGES.has(language)) return indentEnd(lines, from);
  if (END_LANGUAGES.has(language)) return keywordEnd(lines, from);
  return braceEnd(lines, from);
}

/** The last line of an indentation language's definition starting at `from` (a bracket closing its lines at its indentation included). */
const indentEnd = (lines: readonly string[], from: number): number =>
  bodyEnd(lines, from, (line, indent, base) => (indent <= base && !/^[ \t]*[)\]}]/.test(line) ? "out" : "in"));

/**
 * The 1-based line range of `name`'s definition inside a chunk (`text` starting at `startLine`), or null
 * when the chunk does not define it (or is that definition already). A name defined more than once in
 * the chunk (C++ and Java overloads, a method of two classes) gives the definition whose lines hold the
 * most of `words` (a query's words, lower case), the first of them on a tie.
 */
export function definitionSpan(text: string, startLine: number, name: string, language: string, words: readonly string[] = []): { startLine: number; endLine: number } | null {
  if (!/^[A-Za-z_$][\w$]*$/.test(name)) return null;
  const lines = text.split("\n");
  // Where a keyword opens every definition (`def`), a line starting with the name is a call.
  const patterns = KEYWORD_LANGUAGES.has(language) ? definitionPatterns(name).slice(0, KEYWORD_PATTERNS) : definitionPatterns(name);
  let best: { first: number; last: number; matched: number } | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.includes(name) || !patterns.some((p) => p.test(line))) continue;
    if (/^\s*(?:return|if|else|while|for|switch|case|new|throw|await)\b/.test(line) && !isKeywordMethod(line, language)) continue; // calls, not definitions
    // Decorators and annotations just above belong to the definition.
    let first = i;
    while (first > 0 && /^\s*(?:@|#\[)/.test(lines[first - 1]!)) first--;
    const last = definitionEnd(lines, i, language);
    if (last === null) continue;
    if (first === 0 && last >= lines.length - 1) return null; // the chunk is the definition
    const matched = words.length === 0 ? 0 : wordsIn(lines.slice(first, last + 1).join("\n").toLowerCase(), words);
    if (!best || matched > best.matched) best = { first, last, matched };
    if (words.length === 0) break;
    i = last;
  }
  return best && { startLine: startLine + best.first, endLine: startLine + best.last };
}

/** How many of `words` (lower case) `text` (lower case) holds. */
const wordsIn = (text: string, words: readonly string[]): number => words.reduce((n, w) => n + (text.includes(w) ? 1 : 0), 0);

/** Shapes of a definition's first line across languages, capturing the defined name. */
const DEFINITION_LINES: RegExp[] = [
  new RegExp(
    `^[ \\t]*(?:(?:${MODIFIER_WORDS})\\s+)*(?:def|defp|defmacrop?|function\\*?|fn|fun|func|class|struct|enum|trait|interface|impl|mod|type)\\s+(?:\\([^)]*\\)\\s*)?(?:<[^>]*>\\s*)?(?:[A-Za-z_][\\w<>?,]*\\.)*([A-Za-z_$][\\w$]*)`,
  ),
  // Functions bound to a name: `obj.name = function`, `name: (a) =>`, `const name = async (`.
  /^[ \t]*(?:(?:export|const|let|var|static)\s+)*(?:[\w$]+\.)*([A-Za-z_$][\w$]*)\s*[:=]\s*(?:async\s*)?(?:function\b|\([^)]*\)\s*=>|[\w$]+\s*=>)/,
  // Methods and C-family functions: `name(...) {`, `Type name(...)` opening a body.
  // A generic one names its type parameters before its parameters (`T Deserialize<T>(string json) {`); a
  // body may close on the line (`constexpr format_specs() : width(0) {}`, `int size() const { return n; }`).
  /^[ \t]*(?:(?:public|private|protected|internal|static|final|abstract|override|virtual|inline|async|get|set|synchronized)\s+)*(?:<[^()]*>\s+)?(?:[\w:<>,*&[\]?]+\s+[*&]*)?([A-Za-z_$][\w$]*)\s*(?:<[^()]*>)?\s*\((?:[^;{}]|\{[^{}]*\})*\)[^;{}]*\{(?:[^{}]*\})?\s*$/,
  // A named function expression handed to a call: `defineGetter(req, 'ip', function ip() {`.
  /\bfunction\*?\s+([A-Za-z_$][\w$]*)\s*\([^)]*\)\s*\{\s*$/,
  // A property a `define...` call names: `defineGetter(req, 'fresh', function () {`,
  // `Object.defineProperty(exports, 'version', {`.
  /\b(?:[\w$]+\.)*_*define\w*\s*\(\s*[\w$.]+\s*,\s*['"]([A-Za-z_$][\w$]*)['"]\s*,.*\{\s*$/,
];

/**
 * The same header with its body's brace on the next line (C#'s and many C, C++ and Java codebases' style):
 * `public virtual bool Read()`, then `{`.
 */
const HEADER_BEFORE_BRACE =
  /^[ \t]*(?:(?:public|private|protected|internal|static|final|abstract|override|virtual|inline|async|sealed|extern|unsafe|partial|new|synchronized)\s+)*(?:<[^()]*>\s+)?(?:[\w:<>,*&[\]?]+\s+[*&]*)?([A-Za-z_$][\w$]*)\s*(?:<[^()]*>)?\s*\([^;{}=]*(?:=[^;{}]*)?\)[^;{}=]*$/;

/** A line of bounds or parameters before a brace (Rust's `    F: FnMut(&Dispatch) -> T,` under `where`): no header. */
const BOUND_LINE = /^\s*[\w']+\s*:[^:]|,\s*$/;

/**
 * A method whose parameters go on over the next lines (TypeScript's, Java's and C#'s formatters' style:
 * `build<TData, TError>(` then a parameter a line, then `): Mutation<TData> {`): the header's line opens
 * the parameter list, and within OPEN_HEADER_LINES lines the list closes and a `{` ends a line, before
 * any line ends with `;`.
 */
const OPEN_HEADER =
  /^[ \t]*(?:(?:public|private|protected|internal|fileprivate|open|static|final|abstract|override|virtual|async|sealed|readonly|synchronized|convenience|required|@[\w.]+)\s+)*(?:<[^()]*>\s+)?(?:[\w:<>,*&[\]?]+\s+[*&]*)?([A-Za-z_$][\w$]*)\s*(?:<[^()]*>)?\s*\((?:[^()]*,)?\s*$/;
const OPEN_HEADER_LINES = 12;

function openHeaderName(lines: readonly string[], i: number): string | undefined {
  const name = OPEN_HEADER.exec(lines[i]!)?.[1];
  if (name === undefined || NOT_NAMES.has(name)) return undefined;
  let parens = 0;
  for (let k = i; k < Math.min(lines.length, i + OPEN_HEADER_LINES); k++) {
    const line = lines[k]!.replace(/\/\/.*$/, "");
    for (const ch of line) parens += ch === "(" ? 1 : ch === ")" ? -1 : 0;
    if (/;\s*$/.test(line)) return undefined;
    if (parens <= 0) return /\{\s*$/.test(line) || BRACE_LINE.test(lines[k + 1] ?? "") ? name : undefined;
  }
  return undefined;
}

/** A line holding only a block's opening brace. */
const BRACE_LINE = /^\s*\{\s*$/;

/**
 * A C or C++ function whose header spans lines (`FMT_FUNC void format_error_code(buffer& out,` then its
 * other parameters, then `{`): a return type (and any specifier or macro) before `name(`, no `=` and no
 * `;` before the body's `{` within C_HEADER_LINES lines; an all-capitals name is a macro, not a function.
 */
const C_HEADER = /^[ \t]*(?:[\w:<>,*&[\]]+\s+)+[*&]*(~?[A-Za-z_]\w*)\s*\(/;
/** C and C++ statements a header shape could take for one (the control-flow ones are left out earlier: STATEMENT). */
const C_STATEMENT = /^\s*(?:new|delete|throw|goto|using|typedef|co_return|co_yield|sizeof)\b/;
const C_LANGUAGES = new Set(["c", "cpp"]);
const C_HEADER_LINES = 8;
/** An all-capitals name in C or C++ is a macro's use (`TEST(suite, name) {`, `FMT_PRAGMA_GCC(...)`), by convention. */
const MACRO = /^[A-Z][A-Z0-9_]*$/;

/**
 * A C or C++ line's defined name: the shape found on the line unless it is a macro's use or a use of a
 * type (`struct entry* e = ...`: a definition's name is followed by its body or bases), else the name of
 * a header spanning lines (`static struct foo *make_foo(int a,`).
 */
function cDefinitionName(shaped: string | undefined, lines: readonly string[], i: number): string | undefined {
  const line = lines[i]!;
  if (shaped && !MACRO.test(shaped) && !new RegExp(`\\b(?:struct|enum|union|class)\\s+${shaped}\\s*[*&A-Za-z_]`).test(line)) return shaped;
  return cHeaderName(lines, i);
}

function cHeaderName(lines: readonly string[], i: number): string | undefined {
  const line = lines[i]!;
  const m = C_HEADER.exec(line);
  if (!m || MACRO.test(m[1]!) || C_STATEMENT.test(line) || line.slice(0, m.index + m[0].length).includes("=")) return undefined;
  const rest = lines.slice(i, i + C_HEADER_LINES).join("\n").slice(m.index + m[0].length);
  const brace = rest.indexOf("{");
  const semi = rest.indexOf(";");
  return brace >= 0 && (semi < 0 || brace < semi) ? m[1] : undefined;
}

/** A line opening with a statement keyword (after any closing braces). */
const STATEMENT = /^[\s}]*(?:if|else|while|for|switch|return|case|catch|do|try)\b/;

const NOT_NAMES = new Set(["if", "for", "foreach", "while", "switch", "catch", "return", "function", "else", "do", "try", "with", "using", "lock", "fixed", "checked", "unchecked", "new", "await", "throw", "case", "sizeof", "match", "loop", "elif", "except", "super", "this", "self"]);

/**
 * The definitions a chunk holds below its first line (methods of a class chunk, functions of a block),
 * each with its 1-based lines; those whose end cannot be found are left out.
 */
export function definitionsIn(text: string, startLine: number, language: string): { name: string; startLine: number; endLine: number }[] {
  const out: { name: string; startLine: number; endLine: number }[] = [];
  const seen = new Set<string>();
  const lines = text.split("\n");
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^\s*(?:\/\/|#(?!\[)|\*|\/\*)/.test(line)) continue;
    // A statement (`if FMT_CONSTEXPR20 (x) {`, `} else if (y) {`) is not a definition, whatever follows.
    if (STATEMENT.test(line)) continue;
    let name: string | undefined;
    let keyword = false;
    const shapes = KEYWORD_LANGUAGES.has(language) ? DEFINITION_LINES.slice(0, 1) : DEFINITION_LINES;
    for (let k = 0; k < shapes.length && !name; k++) {
      name = shapes[k]!.exec(line)?.[1];
      keyword = k === 0 && name !== undefined;
      // `describe("x", function () {` and `app.get("/", (req) => {` are calls taking a function, not definitions.
      if (name && k === 2 && /['"`]|=>|\bfunction\b/.test(line)) name = undefined;
    }
    if (!name && !KEYWORD_LANGUAGES.has(language) && BRACE_LINE.test(lines[i + 1] ?? "") && !BOUND_LINE.test(line)) name = HEADER_BEFORE_BRACE.exec(line)?.[1];
    if (!name && !KEYWORD_LANGUAGES.has(language) && !C_LANGUAGES.has(language)) name = openHeaderName(lines, i);
    if (C_LANGUAGES.has(language)) name = cDefinitionName(name, lines, i);
    // After a definition's keyword any name is the definition's (Rust's `fn new`); elsewhere a statement's word is none.
    if (!name || (NOT_NAMES.has(name) && !keyword && !isKeywordMethod(line, language)) || seen.has(name)) continue;
    const last = definitionEnd(lines, i, language);
    if (last === null) continue;
    let first = i;
    while (first > 1 && /^\s*(?:@|#\[)/.test(lines[first - 1]!)) first--;
    seen.add(name);
    out.push({ name, startLine: startLine + first, endLine: startLine + last });
  }
  return out;
}
