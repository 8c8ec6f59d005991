/**
 * C and C++ as a parser can read them. Tree-sitter parses a file without its preprocessor, so two
 * ordinary things break it: conditionals around part of a construct (`#ifdef` between a function's
 * header and its body, or inside an initializer) and macros that stand for specifiers or wrap a region
 * (`FMT_CONSTEXPR int f()`, `) FMT_NOEXCEPT {`, a `BEGIN_NAMESPACE` line). A header (`.h`) may also be
 * C++. When the file's own parse has errors, `readings` gives the other readings to try: the text
 * with one branch of each conditional kept and such macros blanked (what ctags does), and for a `.h`
 * the C++ grammar. The chunker keeps the reading with the fewest lines in error.
 *
 * A reading has the same length and lines as the file (only characters turn into spaces), so every
 * position of its tree is a position of the file, and chunks are cut from the file's own text.
 */

/** An identifier in capitals with an underscore between parts (`FMT_API`, `Q_OBJECT`, `__BEGIN_DECLS`). */
const MACRO = "_*[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+_*";
/** A macro alone on its line: it opens or closes a region (`FMT_BEGIN_NAMESPACE`) or expands to members (`Q_OBJECT`). */
const ALONE = new RegExp(`^([ \\t]*)(${MACRO})([ \\t]*)$`);
/** A macro before a word on its line: a specifier of the declaration that follows (`FMT_CONSTEXPR auto f`). */
const BEFORE_WORD = new RegExp(`(?<![\\w.>\\-:])${MACRO}(?=[ \\t]+[A-Za-z_~])`, "g");
/** A macro after a parameter list or a qualifier, before what ends a declarator (`) FMT_NOEXCEPT {`). */
const AFTER_PARAMS = new RegExp(`(?<=(?:\\)|\\bconst|\\boverride|\\bfinal)[ \\t]+)${MACRO}(?=[ \\t]*(?:[{:;=]|->|$))`, "g");
const CONDITIONAL = /^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b(.*)$/;
const DIRECTIVE = /^[ \t]*#/;
const CONTINUED = /\\[ \t]*$/;
const IF_ZERO = /^\s*0\s*(?:\/[/*].*)?$/;

const spaces = (text: string): string => " ".repeat(text.length);

/** The parts of a line outside comments and string or character literals, and whether a block comment is still open after it. */
function codeParts(line: string, inComment: boolean): { parts: [number, number][]; inComment: boolean } {
  const parts: [number, number][] = [];
  let i = 0;
  let start = inComment ? -1 : 0;
  while (i < line.length) {
    if (inComment) {
      const end = line.indexOf("*/", i);
      if (end === -1) return { parts, inComment: true };
      i = end + 2;
      inComment = false;
      start = i;
      continue;
    }
    const ch = line[i];
    if (ch === "/" && line[i + 1] === "/") break;
    if ((ch === "/" && line[i + 1] === "*") || ch === '"' || ch === "'") {
      if (i > start) parts.push([start, i]);
      if (ch === "/") {
        inComment = true;
        i += 2;
        continue;
      }
      let j = i + 1;
      while (j < line.length && line[j] !== ch) j += line[j] === "\\" ? 2 : 1;
      i = j + 1;
      start = i;
      continue;
    }
    i++;
  }
  const end = Math.min(i, line.length);
  if (!inComment && end > start) parts.push([start, end]);
  return { parts, inComment };
}

/** The line with attribute-like macros in its code blanked. */
function withoutMacros(line: string, parts: readonly [number, number][]): string {
  const alone = ALONE.exec(line);
  if (alone) return parts.length === 1 ? alone[1]! + spaces(alone[2]!) + alone[3]! : line;
  const inCode = (at: number) => parts.some(([s, e]) => at >= s && at < e);
  let out = line;
  for (const pattern of [BEFORE_WORD, AFTER_PARAMS]) out = out.replace(pattern, (name: string, at: number) => (inCode(at) ? spaces(name) : name));
  return out;
}

/**
 * The file with its conditionals reduced to one branch (the first; the other one of `#if 0`), their
 * directives blanked, and attribute-like macros blanked; null when nothing changes. Other directives
 * (`#include`, `#define` and their continuation lines) are left as they are.
 */
export function preprocessedReading(content: string): string | null {
  const lines = content.split("\n");
  let changed = false;
  type Open = { kept: number; branch: number; outerOff: boolean };
  const open: Open[] = [];
  let off = false;
  let continued = false;
  let inComment = false;
  const blankLine = (i: number) => {
    if (lines[i]!.trim() === "") return;
    lines[i] = spaces(lines[i]!);
    changed = true;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const continuation: boolean = continued;
    continued = (continuation || DIRECTIVE.test(line)) && CONTINUED.test(line);
    const conditional = continuation ? null : CONDITIONAL.exec(line);
    if (conditional) {
      const keyword = conditional[1]!;
      if (keyword.startsWith("if")) {
        const frame: Open = { kept: keyword === "if" && IF_ZERO.test(conditional[2]!) ? 1 : 0, branch: 0, outerOff: off };
        open.push(frame);
        off = off || frame.kept !== 0;
      } else if (keyword === "endif") {
        off = open.pop()?.outerOff ?? off;
      } else {
        const frame: Open | undefined = open.at(-1);
        if (frame) off = frame.outerOff || ++frame.branch !== frame.kept;
      }
      blankLine(i);
      continue;
    }
    if (off) {
      blankLine(i);
      continue;
    }
    if (continuation || DIRECTIVE.test(line)) continue;
    const code = codeParts(line, inComment);
    inComment = code.inComment;
    const out = withoutMacros(line, code.parts);
    if (out !== line) {
      lines[i] = out;
      changed = true;
    }
  }
  return changed ? lines.join("\n") : null;
}

/** A way to read a file: the grammar's language id and the text given to the parser. */
export type Reading = { languageId: string; text: string };

/**
 * The readings to try after the file's own one (`languageId`, its text as it is) has errors, in order
 * of preference: the preprocessed text in the same language, then, for a `.h` read as C, C++ as it is
 * and preprocessed. Empty for other languages.
 */
export function readings(path: string, languageId: string, content: string): Reading[] {
  if (languageId !== "c" && languageId !== "cpp") return [];
  const preprocessed = preprocessedReading(content);
  const out: Reading[] = preprocessed ? [{ languageId, text: preprocessed }] : [];
  if (languageId === "c" && /\.h$/i.test(path)) {
    out.push({ languageId: "cpp", text: content });
    if (preprocessed) out.push({ languageId: "cpp", text: preprocessed });
  }
  return out;
}
