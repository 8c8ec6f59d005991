/**
 * C and C++ files open and close their namespaces, export blocks and class bodies with macros written
 * alone on a line (`NLOHMANN_JSON_NAMESPACE_BEGIN`, `FMT_BEGIN_EXPORT`, `QT_BEGIN_NAMESPACE`,
 * `Q_OBJECT`), and give attributes and pragmas the same way (`JSON_HEDLEY_NON_NULL(1)`,
 * `FMT_PRAGMA_CLANG(diagnostic push)`). The grammar does not expand macros: it reads such a name as the return type of what
 * follows, so `MACRO namespace detail { ... }` becomes one function named `namespace detail` and a whole
 * header is cut into line windows. The parse therefore reads these lines as blank; the chunks keep the
 * file's own text, and every row keeps its number and every byte its offset.
 *
 * A lone capitalised name that continues an expression or a list is code, not such a macro: the last
 * constant of an enum (`  UV_HANDLE_TYPE_MAX` before `}`), an operand on its own line. It stays when the
 * line before ends in a separator or an operator, or the line after starts with one.
 *
 * Export and inline macros written in a declaration's own line (`class SPDLOG_API logger {`,
 * `SPDLOG_INLINE void pool::post(...)`, `UV_EXTERN int uv_listen(...)`, `FMT_CONSTEXPR auto parse(...)`)
 * are read the same way: the grammar takes `SPDLOG_API` for the class name and the class for a
 * function, and `SPDLOG_INLINE` for a return type, so a class's methods are not its members and an
 * out-of-line method's owner is `SPDLOG_INLINEpool`. Such a name is blank only where the declaration
 * stays whole without it: after `class`/`struct`/`union` when a class name follows; among a
 * declaration's leading specifiers when a type and a declarator follow (`FOO_T x;` keeps its type) or an
 * out-of-line constructor or destructor (`MACRO pool::pool(`); between a return type and the name of
 * what it declares (`void SPDLOG_INLINE pool::post(`).
 *
 * A conditional inside a list (`static int mib[][2] = {` then `# ifdef HW_NCPUONLINE`, an entry, `# endif`;
 * a parameter list whose parameters depend on the platform) is no statement the grammar can place: it
 * read the rest of libuv's `src/unix/core.c` as one error, and the file was cut into line windows. Such a
 * conditional's directive lines read as blank, so the list holds every branch's entries. A constructor's
 * member initializer list is such a list from its colon on (`Limiter(int n)` / `    :` / `#if
 * !defined(NDEBUG)`: leveldb's `util/env_windows.cc`, whose class and the rest of its namespace were read
 * as the return type of the function after them).
 *
 * `blankForGrammar` reads a file these three ways in that order, over one split of its lines.
 */

/** A pass over a file's lines: `applies` tells a file it may change; `run` blanks in place and says whether it did. */
type LinePass = { applies: RegExp; run(lines: string[]): boolean };

/** `text` as spaces, a carriage return kept: the same length, so offsets and rows stay. */
const spaces = (text: string): string => text.replace(/[^\r]/g, " ");

/** A line with no code: blank, or a comment's (`//`, a block comment's opening or `*` line). */
const isBlank = (line: string) => /^\s*(?:$|\/\/|\/\*|\*)/.test(line);

/** A preprocessor directive's line (`#include`, `# ifdef X`). */
const isDirective = (line: string) => /^\s*#/.test(line);

/** A line continued on the next one with `\`. */
const endsContinued = (line: string) => /\\\s*$/.test(line);

/** A macro-shaped name: capitalised, with an underscore. */
const MACRO_NAME = "[A-Z][A-Z0-9]*_[A-Z0-9_]*";

/** `content` read by `passes` in order, over one split of its lines; `content` itself when none changes it. */
function blankLines(content: string, passes: readonly LinePass[]): string {
  const active = passes.filter((p) => p.applies.test(content));
  if (active.length === 0) return content;
  const lines = content.split("\n");
  let changed = false;
  for (const pass of active) changed = pass.run(lines) || changed;
  return changed ? lines.join("\n") : content;
}

/** A capitalised name with an underscore alone on a line, or such a macro's call closed on that line (`FMT_PRAGMA_CLANG(x)`). */
const LONE_MACRO = new RegExp(`^[ \\t]*${MACRO_NAME}[ \\t]*(?:\\([^()]*(?:\\([^()]*\\)[^()]*)*\\)[ \\t]*)?$`);
/** The line before a lone name that continues: a list, an operator, a call's open parenthesis, a macro's line continuation. */
const CONTINUED_BY_NEXT = /[,([{=|&+\-*/%<>?:!\\]\s*$/;
/** The line after a lone name that it belongs to: the end of a list or a statement, an operator. */
const CONTINUES_PREVIOUS = /^\s*[,;)\]}|&+\-*/%<>?:=.]/;

/** Whether code goes on from `line` to the next line: not a directive (`#include <x>`) unless continued with `\`. */
const continuesOnNextLine = (line: string): boolean => {
  if (endsContinued(line)) return true;
  if (isDirective(line)) return false;
  return CONTINUED_BY_NEXT.test(withoutEndComment(line));
};

/** A line without the line or block comment that ends it (`x = a ? // why`). */
const withoutEndComment = (line: string): string => line.replace(/\/\/.*$|\/\*.*?\*\/\s*$/, "");

/** Lone macro lines turned to spaces. */
const LONE_MACRO_LINES: LinePass = {
  applies: new RegExp(`^[ \\t]*${MACRO_NAME}[ \\t]*(?:\\(|$)`, "m"),
  run(lines) {
    let changed = false;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!.endsWith("\r") ? lines[i]!.slice(0, -1) : lines[i]!;
      if (!LONE_MACRO.test(line)) continue;
      let before = i - 1;
      while (before >= 0 && isBlank(lines[before]!)) before--;
      let after = i + 1;
      while (after < lines.length && isBlank(lines[after]!)) after++;
      // A lone name whose next line opens a block is that block's keyword (`JSON_TRY` then `{`, a `try`
      // the library can turn off), whatever the line before it: after a block's own `{` it is no
      // initializer's entry.
      const opensBlock = after < lines.length && /^\s*\{/.test(lines[after]!);
      if (!opensBlock && before >= 0 && continuesOnNextLine(lines[before]!)) continue;
      if (after < lines.length && CONTINUES_PREVIOUS.test(lines[after]!)) continue;
      lines[i] = spaces(lines[i]!);
      changed = true;
    }
    return changed;
  },
};

/**
 * A class body's access specifier written as a macro (`JSON_PRIVATE_UNLESS_TESTED:`, expanding to
 * `private` or `public`; Qt's `signals:`, `Q_SIGNALS:`, `public slots:`, `private Q_SLOTS:`) alone on its
 * line. The grammar reads the name and its colon as a bit-field whose width is the rest of the member
 * after it, and its braces then close the class early: nlohmann/json's serializer was read as 80-line
 * windows up to the end of its namespace. The name (and `slots`) reads as blank: the members after it
 * stay under the access before it, which chunking does not read. In C the same line is an upper-case goto
 * label, which chunking does not read either. A ternary's branch ending a line (`? FOO_BAR:`, the line
 * before continuing) is code and kept.
 */
const ACCESS_HEAD = `^([ \\t]*(?:(?:public|protected|private)[ \\t]+)?)(${MACRO_NAME}|signals|slots)([ \\t]*:)(?!:)`;
const ACCESS_MACRO = new RegExp(`${ACCESS_HEAD}[ \\t]*(?:\\/\\/.*|\\/\\*.*)?$`);

/** A line ending with an operator, a comma or an open parenthesis: the expression goes on to the next line. */
const OPERATOR_ENDED = /[,(=|&+\-*/%<>?!\\]\s*$/;

/** Access-specifier macros turned to spaces (their colon too, unless an access keyword keeps it). */
const ACCESS_MACROS: LinePass = {
  applies: new RegExp(ACCESS_HEAD, "m"),
  run(lines) {
    let changed = false;
    for (let i = 0; i < lines.length; i++) {
      const cr = lines[i]!.endsWith("\r");
      const line = cr ? lines[i]!.slice(0, -1) : lines[i]!;
      const m = ACCESS_MACRO.exec(line);
      if (!m) continue;
      let before = i - 1;
      while (before >= 0 && isBlank(lines[before]!)) before--;
      // After a class's `{` or another access specifier's colon it is one; after an operator, an expression's.
      if (before >= 0 && OPERATOR_ENDED.test(withoutEndComment(lines[before]!))) continue;
      // `public slots:` keeps `public:`; a lone macro and its colon read as blank.
      const access = m[1]!.trim() !== "";
      const rest = line.slice(m[1]!.length + m[2]!.length + m[3]!.length);
      lines[i] = m[1]! + spaces(m[2]!) + (access ? m[3]! : spaces(m[3]!)) + rest + (cr ? "\r" : "");
      changed = true;
    }
    return changed;
  },
};

/** `class MACRO Name` followed by the class's base list, body or `final`. */
const CLASS_MACRO = new RegExp(`\\b(?:class|struct|union)[ \\t]+(${MACRO_NAME})[ \\t]+(?=[A-Za-z_]\\w*[ \\t]*(?:final\\b|[:{]|\\r?$))`, "g");
/** A declaration's leading specifiers, macro-shaped names among them, then a type and a declarator. */
const SPECIFIERS = new RegExp(
  `^([ \\t]*(?:(?:template[ \\t]*<[^;{}]*>|static|inline|extern|constexpr|virtual|explicit|friend|${MACRO_NAME})[ \\t]+)+)` +
    `(?=[A-Za-z_~][\\w:]*(?:<[^;(){}]*>)?[ \\t*&]+[~A-Za-z_])`,
);
/** In the specifiers: a template's parameter list (kept whole: `template <bool IS_SIGNED>` names a parameter) or a macro-shaped name. */
const MACRO_IN_SPECIFIERS = new RegExp(`template[ \\t]*<[^;{}]*>|\\b${MACRO_NAME}\\b`, "g");
/** Leading specifiers before an out-of-line constructor or destructor (`MACRO pool::pool(`, `MACRO pool::~pool(`). */
const STRUCTOR_SPECIFIERS = new RegExp(`^([ \\t]*(?:(?:inline|constexpr|explicit|${MACRO_NAME})[ \\t]+)+)(?=(?:[A-Za-z_]\\w*::)*([A-Za-z_]\\w*)::~?\\2[ \\t]*\\()`);
/** A macro-shaped name between a declaration's return type (not a specifier: `static FOO_T f (` keeps its type) and its name (`void SPDLOG_INLINE pool::post(`). */
const BEFORE_DECLARATOR = new RegExp(`^([ \\t]*(?!(?:static|inline|extern|constexpr|virtual|explicit|friend|typedef|const|volatile|struct|union|enum|class|return|case|else)\\b)[A-Za-z_][\\w:<>]*[ \\t*&]+)(${MACRO_NAME})(?=[ \\t]+[A-Za-z_][\\w:]*[ \\t]*\\()`);

/** Export and inline macros of declarations' lines turned to spaces. */
const DECLARATION_MACROS: LinePass = {
  applies: new RegExp(`${MACRO_NAME}[ \\t]+[A-Za-z_~]`),
  run(lines) {
    let changed = false;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      // Directives and their continued lines are the preprocessor's; comment lines are no code.
      if (isDirective(line) || isBlank(line) || (i > 0 && endsContinued(lines[i - 1]!))) continue;
      let out = line.replace(CLASS_MACRO, (match, name: string) => match.replace(name, spaces(name)));
      out = out.replace(BEFORE_DECLARATOR, (_match, type: string, name: string) => type + spaces(name));
      const specifiers = SPECIFIERS.exec(out) ?? STRUCTOR_SPECIFIERS.exec(out);
      if (specifiers) {
        const blanked = specifiers[1]!.replace(MACRO_IN_SPECIFIERS, (m) => (m.startsWith("template") ? m : spaces(m)));
        out = blanked + out.slice(specifiers[1]!.length);
      }
      if (out !== line) {
        lines[i] = out;
        changed = true;
      }
    }
    return changed;
  },
};

/** A conditional directive: its keyword (`if`, `ifdef`, `ifndef`, `elif`, `elifdef`, `elifndef`, `else`, `endif`). */
const CONDITIONAL = /^\s*#\s*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)\b/;
/**
 * The end of a code line that leaves a list open: an entry's comma, an initializer's opening brace, or
 * the colon that opens a constructor's member initializer list (alone on its line or after the
 * parameters' `)`: not a label's or an access specifier's).
 */
const INSIDE_LIST = /(?:,|=\s*\{|(?:^|\))\s*:)\s*$/;

/** The directive lines of conditionals that sit inside a list turned to spaces. */
const LIST_CONDITIONALS: LinePass = {
  applies: /^\s*#\s*if/m,
  run(lines) {
    let changed = false;
    let lastCode = "";
    let continued = false;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      const wasContinued = continued;
      continued = endsContinued(line);
      if (wasContinued || isDirective(line)) {
        const opening = !wasContinued && /^\s*#\s*if/.test(line);
        if (opening && INSIDE_LIST.test(lastCode)) {
          // Blank this conditional's own directive lines, nested conditionals' too (their entries stay).
          let depth = 0;
          for (let j = i; j < lines.length; j++) {
            const m = CONDITIONAL.exec(lines[j]!);
            if (!m) continue;
            if (m[1]!.startsWith("if")) depth++;
            lines[j] = spaces(lines[j]!);
            if (m[1] === "endif" && --depth === 0) break;
          }
          changed = true;
        }
        continue;
      }
      const code = line.replace(/\/\/.*$|\/\*.*?\*\//g, "").trimEnd();
      if (code.trim() !== "" && !/^\s*(?:\*|\/\*)/.test(code)) lastCode = code;
    }
    return changed;
  },
};

/** `content` with export and inline macros in a declaration's line turned to spaces (same length). */
export const blankDeclarationMacros = (content: string): string => blankLines(content, [DECLARATION_MACROS]);

/** `content` as the grammar reads it: lone macro lines, access-specifier macros, declarations' export macros and conditionals inside lists as spaces (same length). */
export const blankForGrammar = (content: string): string => blankLines(content, [LONE_MACRO_LINES, ACCESS_MACROS, DECLARATION_MACROS, LIST_CONDITIONALS]);
