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
 */

/** A capitalised name with an underscore alone on a line, or such a macro's call closed on that line (`FMT_PRAGMA_CLANG(x)`). */
const LONE_MACRO = /^[ \t]*[A-Z][A-Z0-9]*_[A-Z0-9_]*[ \t]*(?:\([^()]*(?:\([^()]*\)[^()]*)*\)[ \t]*)?$/;
/** The line before a lone name that continues: a list, an operator, a call's open parenthesis, a macro's line continuation. */
const CONTINUED_BY_NEXT = /[,([{=|&+\-*/%<>?:!\\]\s*$/;
/** The line after a lone name that it belongs to: the end of a list or a statement, an operator. */
const CONTINUES_PREVIOUS = /^\s*[,;)\]}|&+\-*/%<>?:=.]/;

/** A line with no code: blank, or a comment's (`//`, a block comment's opening or `*` line). */
const isBlank = (line: string) => /^\s*(?:$|\/\/|\/\*|\*)/.test(line);

/** Whether code goes on from `line` to the next line: not a directive (`#include <x>`) unless continued with `\`. */
const continuesOnNextLine = (line: string): boolean => {
  if (/\\\s*$/.test(line)) return true;
  if (/^\s*#/.test(line)) return false;
  return CONTINUED_BY_NEXT.test(line.replace(/\/\/.*$|\/\*.*?\*\/\s*$/, ""));
};

/** `content` with its lone macro lines turned to spaces (the same length, so offsets and rows stay). */
export function blankLoneMacroLines(content: string): string {
  if (!/^[ \t]*[A-Z][A-Z0-9]*_[A-Z0-9_]*[ \t]*(?:\(|$)/m.test(content)) return content;
  const lines = content.split("\n");
  let changed = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.endsWith("\r") ? lines[i]!.slice(0, -1) : lines[i]!;
    if (!LONE_MACRO.test(line)) continue;
    let before = i - 1;
    while (before >= 0 && isBlank(lines[before]!)) before--;
    let after = i + 1;
    while (after < lines.length && isBlank(lines[after]!)) after++;
    if (before >= 0 && continuesOnNextLine(lines[before]!)) continue;
    if (after < lines.length && CONTINUES_PREVIOUS.test(lines[after]!)) continue;
    lines[i] = " ".repeat(line.length) + (line.length < lines[i]!.length ? "\r" : "");
    changed = true;
  }
  return changed ? lines.join("\n") : content;
}
