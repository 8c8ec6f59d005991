/** Extracting terms from a report's lines: error classes and messages, dotted names, identifiers, paths, URLs, words (../query-analysis.ts). */
import { QUERY_WEIGHTS, isScripting, type SourceLocation } from "./types.ts";
import { BUILTIN_ERRORS, CODE_KEYWORDS, COMPILED_KEYWORDS, DOMAIN_SUFFIXES, DOTTED, ERRNO_CODES, IDENT, LIBRARY_ALIASES, LIMITS, NON_DOTTED, PLAIN_WORD, PYTHON_BUILTIN_TYPES, REPORT_NOISE, STOP_WORDS, isCodeShaped, isErrorClassName, isProduct, qualifiedParts } from "./lexicon.ts";
import type { Ctx } from "./terms.ts";
import { toPath } from "./paths.ts";
import { CONVENTIONAL_HEAD } from "./commit-scope.ts";

// ----- errors

const ERROR_HEADER = /(?:^|[\s:(])((?:[A-Za-z_][\w$]*\.)*([A-Z][\w$]*))(?:\s*\[([A-Z][A-Z0-9_]+)\])?:\s+(\S.*)$/;
const ERROR_MENTION = /(?<![\w.$])((?:[A-Za-z_][\w$]*\.)*)([A-Z][A-Za-z0-9_]*(?:Error|Exception|Warning|Interrupt)|StopIteration|StopAsyncIteration|SystemExit|GeneratorExit)(?![\w$])/g;
const RAISE = /\b(?:raise|throw\s+new|throw|new)\s+((?:[A-Za-z_][\w$]*\.)*([A-Z][\w$]*))\(\s*[frbu]?(["'`])(.{3,200}?)\3/g;
const ERRNO = /\b(E[A-Z]{2,}[A-Z_]*)\b/g;

/** Adds exception classes, messages and errno codes; true when the line is an error header ("X: message"). */
export function extractErrors(ctx: Ctx, line: string): boolean {
  if (line.length > 4 * LIMITS.tokenChars) line = line.slice(0, 4 * LIMITS.tokenChars);
  let isHeader = false;
  const header = ERROR_HEADER.exec(line);
  if (header) {
    const [, qualified = "", name = "", code, message = ""] = header;
    const atLineStart = /^\s*(?:E\s+|Uncaught\s+(?:\(in promise\)\s+)?|\S+:\d+:\s+)?$/.test(line.slice(0, header.index + 1));
    // "pyarrow.lib.ArrowInvalid: ..." at the start of a line is an exception even without an Error suffix.
    const qualifiedAtStart = atLineStart && /^[a-z_][\w]*(?:\.[\w]+)*\.[A-Z]/.test(qualified);
    if ((isErrorClassName(name) && (name !== "Error" || atLineStart)) || qualifiedAtStart) {
      addErrorClass(ctx, qualified, name, message.trim());
      if (code !== undefined) ctx.bag.add(code, "error", QUERY_WEIGHTS.errnoCode);
      isHeader = atLineStart;
    }
  }
  for (const m of line.matchAll(ERROR_MENTION)) {
    const qualifier = m[1] ?? "";
    addErrorClass(ctx, qualifier + (m[2] ?? ""), m[2] ?? "", null);
  }
  for (const m of line.matchAll(RAISE)) {
    const name = m[2] ?? "";
    if (isErrorClassName(name)) addErrorClass(ctx, m[1] ?? name, name, m[4] ?? null);
  }
  for (const m of line.matchAll(ERRNO)) {
    if (ERRNO_CODES.has(m[1] ?? "")) ctx.bag.add(m[1] ?? "", "error", QUERY_WEIGHTS.errnoCode);
  }
  return isHeader;
}

function addErrorClass(ctx: Ctx, qualified: string, name: string, message: string | null): void {
  const W = QUERY_WEIGHTS;
  const weight = name === "Error" ? W.genericErrorClass : BUILTIN_ERRORS.has(name) ? W.builtinErrorClass : W.customErrorClass;
  ctx.bag.add(name, "error", weight);
  if (qualified !== name && DOTTED.test(qualified) && !/^(?:builtins|exceptions)\./.test(qualified)) {
    addDotted(ctx, qualified, W.dottedInText, false);
  }
  const msg = message === null ? "" : message.trim().slice(0, LIMITS.messageChars);
  if (!ctx.errors.has(name) || (ctx.errors.get(name) === null && msg !== "")) ctx.errors.set(name, msg === "" ? null : msg);
  if (msg === "") return;
  if (msg.length >= 4) ctx.bag.add(msg, "error", W.errorMessage);
  addQuotedNames(ctx, msg);
  addWords(ctx, msg.replace(/(['"`])[^'"`\s]*\1/g, " "), W.wordInErrorMessage);
}

/**
 * The names and paths quoted in an error or compiler message ('NoneType' object has no attribute
 * 'get_clearsky'; 'Vertex' was not declared in this scope).
 */
export function addQuotedNames(ctx: Ctx, message: string): void {
  const W = QUERY_WEIGHTS;
  const msg = message.slice(0, LIMITS.messageChars);
  const compiled = ctx.language !== null && !isScripting(ctx.language);
  for (const q of msg.matchAll(/(['"`‘“])([^'"`’”\s]{2,120})['"`’”]/g)) {
    let inner = q[2] ?? "";
    // C++ and Rust qualified names ('fmt::print', `Vec<T>::push()`): the name itself.
    if (inner.includes("::")) inner = qualifiedParts(inner.replace(/\(\)$/, ""))?.pop() ?? "";
    const path = toPath(inner, false);
    if (path) addPath(ctx, path, W.pathInText);
    else if (DOTTED.test(inner)) addDotted(ctx, inner, W.dottedInText, false);
    else if (IDENT.test(inner) && !PYTHON_BUILTIN_TYPES.has(inner) && !CODE_KEYWORDS.has(inner) && !(compiled && COMPILED_KEYWORDS.has(inner))) {
      ctx.bag.add(inner, "identifier", W.identifierQuotedInError);
    }
  }
}

// ----- dotted names

/**
 * A member written after a dot in prose or a code span (`ctx.throw`, `c.Next()`, `this.assert`) is a
 * name whatever else the word is: languages let keywords and English words name members. In a code
 * block the keyword check stays (`promise.then`, `app.get` of a reproduction are the library's calls).
 */
const isMemberName = (name: string, inCode: boolean, alias: boolean): boolean =>
  name.length > 1 && (!CODE_KEYWORDS.has(name) || (!inCode && !alias)) && !/^\d/.test(name);

function addDotted(ctx: Ctx, name: string, weight: number, inCode: boolean, qualified = false): void {
  let parts = name.split(".");
  if (parts.length > 1 && /^(?:self|this|cls|super)$/.test(parts[0] ?? "")) {
    parts = parts.slice(1);
    if (parts.length === 1 && !inCode && CODE_KEYWORDS.has(parts[0]!) && isMemberName(parts[0]!, inCode, false)) {
      ctx.bag.add(parts[0]!, "identifier", weight * 0.8);
      return;
    }
  }
  if (parts.length === 1) {
    addIdentifier(ctx, parts[0] ?? "", weight * 0.8, inCode);
    return;
  }
  const joined = parts.join(".");
  if (NON_DOTTED.has(joined.toLowerCase())) return;
  const alias = LIBRARY_ALIASES.has(parts[0] ?? "");
  const w = alias ? weight * 0.4 : weight;
  ctx.bag.add(joined, "dotted", w);
  const last = parts[parts.length - 1] ?? "";
  if (isMemberName(last, inCode, alias)) ctx.bag.add(last, "identifier", w * 0.75);
  for (const p of parts.slice(alias ? 1 : 0, -1)) {
    if (p.length > 1 && !CODE_KEYWORDS.has(p) && !LIBRARY_ALIASES.has(p)) ctx.bag.add(p, "identifier", w * 0.5);
  }
  // JS property chains (camelCase) are not modules; snake_case chains are Python even in mixed reports.
  // In code, receivers are mostly variables (site.get_clearsky); imports name the modules there. A `::`
  // name is no Python or JavaScript module.
  if (alias || inCode || qualified) return;
  if (ctx.language === "java" || ctx.language === "kotlin") return addJvmClassPath(ctx, parts, ctx.language === "kotlin" ? "kt" : "java");
  if (ctx.language !== null && ctx.language !== "python" && ctx.language !== "javascript") return;
  if (ctx.language === "javascript" && !parts.some((p) => p.includes("_"))) return;
  // Candidate Python modules: the leading lower-case parts before a class or the final attribute.
  const firstClass = parts.findIndex((p) => /^[A-Z]/.test(p));
  const moduleParts = (firstClass === -1 ? parts.slice(0, -1) : parts.slice(0, firstClass)).filter(Boolean);
  if (moduleParts.length === 0 || !moduleParts.every((p) => /^[a-z_][a-z0-9_]*$/.test(p))) return;
  const path = `${moduleParts.join("/")}.py`;
  ctx.bag.add(path, "path", moduleParts.length >= 2 ? QUERY_WEIGHTS.modulePath : QUERY_WEIGHTS.shortModulePath);
}

/** `com.acme.billing.ConfigLoader.load` in a Java or Kotlin report: the class's file, `com/acme/billing/ConfigLoader.java`. */
function addJvmClassPath(ctx: Ctx, parts: string[], extension: string): void {
  const firstClass = parts.findIndex((p) => /^[A-Z]/.test(p));
  if (firstClass < 1) return;
  const packageParts = parts.slice(0, firstClass);
  if (!packageParts.every((p) => /^[a-z_][a-z0-9_]*$/.test(p))) return;
  const path = `${packageParts.join("/")}/${parts[firstClass]}.${extension}`;
  ctx.bag.add(path, "path", packageParts.length >= 2 ? QUERY_WEIGHTS.modulePath : QUERY_WEIGHTS.shortModulePath);
}

function addModule(ctx: Ctx, module: string): void {
  const parts = module.split(".").filter(Boolean);
  if (parts.length === 0 || LIBRARY_ALIASES.has(parts[0] ?? "")) return;
  if (parts.length > 1) ctx.bag.add(parts.join("."), "dotted", QUERY_WEIGHTS.dottedInCode);
  for (const p of parts) if (p.length > 1 && !CODE_KEYWORDS.has(p)) ctx.bag.add(p, "identifier", QUERY_WEIGHTS.plainNameInCode);
  if (parts.length >= 2) {
    ctx.bag.add(`${parts.join("/")}.py`, "path", QUERY_WEIGHTS.modulePath);
    ctx.bag.add(`${parts.join("/")}/__init__.py`, "path", QUERY_WEIGHTS.shortModulePath);
  }
}

function addIdentifier(ctx: Ctx, name: string, weight: number, inCode: boolean): void {
  if (name.length < 2 || CODE_KEYWORDS.has(name) || /^\d/.test(name) || isProduct(name)) return;
  if (isErrorClassName(name)) return; // the error pass weighs exception classes
  if (!inCode && STOP_WORDS.has(name.toLowerCase())) return;
  ctx.bag.add(name, "identifier", weight);
}

// ----- code

export function extractFromCodeLine(ctx: Ctx, raw: string, factor: number): void {
  const W = QUERY_WEIGHTS;
  let line = raw.replace(/^\s*(?:>>>|\.\.\.|\$|>|In \[\d+\]:|Out\[\d+\]:)\s?/, "");
  if (line.length > 4 * LIMITS.tokenChars) line = line.slice(0, 4 * LIMITS.tokenChars);
  if (line.trim() === "") return;

  // Imports name modules and symbols exactly.
  const pyFrom = /^\s*from\s+([\w.]+)\s+import\s+\(?([\w\s,*]+)\)?/.exec(line);
  if (pyFrom && ctx.language !== "javascript") {
    const module = (pyFrom[1] ?? "").replace(/^\.+/, "");
    addModule(ctx, module);
    for (const n of (pyFrom[2] ?? "").split(",")) {
      const name = n.trim().split(/\s+as\s+/)[0]?.trim() ?? "";
      if (IDENT.test(name)) {
        addIdentifier(ctx, name, W.importedName * factor, true);
        if (module !== "" && !LIBRARY_ALIASES.has(module.split(".")[0] ?? "")) {
          ctx.bag.add(`${module}.${name}`, "dotted", W.dottedInCode * factor);
        }
      }
    }
    return;
  }
  const pyImport = /^\s*import\s+([\w.]+(?:\s+as\s+\w+)?(?:\s*,\s*[\w.]+(?:\s+as\s+\w+)?)*)\s*$/.exec(line);
  if (pyImport) {
    for (const item of (pyImport[1] ?? "").split(",")) addModule(ctx, item.trim().split(/\s+/)[0] ?? "");
    return;
  }
  for (const m of line.matchAll(/(?:\bfrom\s+|\brequire\(\s*|\bimport\(\s*)(["'])([^"']+)\1/g)) {
    const spec = m[2] ?? "";
    if (spec.startsWith(".") || spec.startsWith("/")) {
      const p = spec.replace(/^(?:\.\.?\/)+/, "");
      if (p !== "") ctx.bag.add(p, "path", W.pathInCode * factor * 0.75);
    }
  }

  // Paths written in code or output (config files, "open('data/x.csv')").
  for (const token of line.split(/[\s"'`(),=;[\]{}<>]+/)) {
    if (token.length < 4 || !/[./\\]/.test(token)) continue;
    const path = toPath(token.replace(/[.:]+$/, ""), false);
    if (path && path.path.includes("/")) addPath(ctx, path, W.pathInCode * factor);
  }

  // String literals: single-name contents (column names, keys) are kept weakly, the rest dropped. A backslash
  // is read with the character after it (or alone before the closing quote): read either way, as `.` allowed,
  // an unclosed literal of 20 `\\` backtracked for minutes.
  const code = line.replace(/(["'`])((?:\\.|(?!\1)[^\\\n\r\u2028\u2029]|\\(?=\1))*)\1/g, (_m, _q: string, inner: string) => {
    if (IDENT.test(inner) && inner.length > 2 && !CODE_KEYWORDS.has(inner)) {
      ctx.bag.add(inner, "identifier", W.stringLiteralName * factor);
    }
    return " ";
  });
  const withoutComment = code.replace(/(?:^|\s)(?:#|\/\/).*$/, "");
  for (const m of withoutComment.matchAll(/[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*/g)) {
    const tok = m[0];
    const before = withoutComment[m.index - 1];
    if (before !== undefined && /[\d.]/.test(before)) continue; // 1e5, 3.json
    if (tok.includes(".")) {
      if (toPath(tok, false)) continue; // already taken as a path
      addDotted(ctx, tok, W.dottedInCode * factor, true);
    } else if (isCodeShaped(tok)) {
      addIdentifier(ctx, tok, W.identifierInCode * factor, true);
    } else if (/^[A-Z][a-z0-9]+[A-Za-z0-9]*$/.test(tok) && tok.length > 2) {
      addIdentifier(ctx, tok, W.classLikeInCode * factor, true);
    } else if (tok.length > 2 && !STOP_WORDS.has(tok.toLowerCase())) {
      addIdentifier(ctx, tok, W.plainNameInCode * factor, true);
    }
  }
}

// ----- prose

/**
 * The line with each inline code span (`` `x` ``, ``` ``a`b`` ```) replaced by a space, each span's inner text
 * given to `onSpan`: a run of backticks, text without any, and a run of the same length closes it (the
 * opening run's last backticks when it is longer). Read as runs, once: the pattern
 * `` (`+)([^`]+?)\1(?!`) `` tried every backtick of a long run, 20,000 of them took over a second.
 */
export function withoutCodeSpans(raw: string, onSpan: (inner: string) => void): string {
  const runs = raw.match(/`+|[^`]+/g) ?? [];
  let out = "";
  for (let k = 0; k < runs.length; k++) {
    const open = runs[k]!;
    const inner = runs[k + 1];
    const close = runs[k + 2];
    if (open[0] === "`" && inner !== undefined && close !== undefined && close.length <= open.length) {
      out += open.slice(0, open.length - close.length) + " ";
      onSpan(inner);
      k += 2;
    } else out += open;
  }
  return out;
}

/** A lower-case word that is no stop-word (its own punctuation aside): the sentence goes on after a mark. */
const continuesSentence = (next: string | undefined): boolean => {
  const word = /^([a-z]+)[,;:.?]*$/.exec(next ?? "")?.[1];
  return word !== undefined && !STOP_WORDS.has(word);
};

/** `name!` then a bracket's arguments or nothing: Rust's macro call form. */
const MACRO_CALL = /^([A-Za-z_][\w]*)!([([{].*)?$/;

/**
 * A file and a line written as words: "`jsonrep.py` at line 227", "fmt/format.h - line 4055", "file
 * jv_print.c, line 221" (BSD and macOS assertion messages), "line 12 of src/x.c". The path must read as a
 * file of a known language (./paths.ts, toPath); `x.c:12` and `#L12` links are read with the path itself.
 */
const PATH_THEN_LINE = /([\w./\\@~+-]+\.[A-Za-z0-9+]{1,6})[`'"’”)\]]*\s*(?:[,:\u2013-]\s*)?(?:(?:at|on|in)\s+)?line\s+(\d{1,7})\b/gi;
const LINE_THEN_PATH = /\bline\s+(\d{1,7})\s+(?:of|in)\s+(?:the\s+)?(?:file\s+)?[`'"‘“(]?([\w./\\@~+-]+\.[A-Za-z0-9+]{1,6})\b/gi;

function addWrittenLocations(ctx: Ctx, line: string): void {
  if (!/\bline\s+\d/i.test(line)) return;
  const add = (rawPath: string, lineNumber: string) => {
    const path = toPath(rawPath.replace(/[.:]+$/, ""), false);
    if (path && path.line === null) addLocation(ctx, { path: path.path, line: Number(lineNumber) });
  };
  for (const m of line.matchAll(PATH_THEN_LINE)) add(m[1]!, m[2]!);
  for (const m of line.matchAll(LINE_THEN_PATH)) add(m[2]!, m[1]!);
}

export function extractFromProseLine(ctx: Ctx, raw: string, isTitle: boolean): void {
  const W = QUERY_WEIGHTS;
  addWrittenLocations(ctx, raw);
  // Inline code spans first.
  const line = withoutCodeSpans(raw, (inner) => extractFromSpan(ctx, inner.trim()));
  const wordWeight = !ctx.long ? W.wordInShortQuery : isTitle ? W.wordInTitle : W.wordInReport;
  const words: string[] = [];
  // A closing bracket glued to a name ends a token: "[Bug]customParseFormat", "(core)Parser".
  const tokens = line.split(/\s+|(?<=[\])])(?=[A-Za-z_$])/);
  // A commit or pull request title's Conventional Commits head (`fix(router):`, `feat!:`) is no call of
  // `fix`: its type is a word, its scope (a module, a file, `res.send`) is read like any other token.
  const first = tokens.findIndex((t) => t !== "" && !/^[-*+]$/.test(t));
  const head = first >= 0 ? CONVENTIONAL_HEAD.exec(tokens[first]!) : null;
  if (head) tokens.splice(first, 1, head[1]!, head[2] ?? "");
  for (let k = 0; k < tokens.length; k++) {
    const rawToken = tokens[k]!;
    if (rawToken === "" || rawToken.length > LIMITS.tokenChars) continue;
    // A short question's macro call form (`json!(...)`, `vec![]`, "the json! macro": the sentence going
    // on after the mark with a word that is no stop-word) names the macro, whatever the word means in
    // English. A report's macros are the library API it uses (tracing's `event!`, `info!`): read as before.
    const macro = ctx.long ? null : MACRO_CALL.exec(rawToken);
    if (macro && (macro[2] !== undefined || continuesSentence(tokens[k + 1]))) {
      addIdentifier(ctx, macro[1]!, W.identifierInProse, true);
      continue;
    }
    // A plain word (most of a report's prose), with at most trailing punctuation: every check below
    // would keep it as a word, so it is kept without them.
    const plain = PLAIN_WORD.exec(rawToken);
    if (plain) {
      words.push(plain[1]!);
      continue;
    }
    // Markdown links: [text](url)
    const link = /^\[([^\]]*)\]\((\S+)\)$/.exec(rawToken);
    if (link) {
      words.push(link[1] ?? "");
      addUrl(ctx, link[2] ?? "");
      continue;
    }
    const stripped = rawToken.replace(/^[([{<"'“‘*]+/, "").replace(/[)\]}>"'”’*,;!?]+$/, "").replace(/[.:]+$/, "");
    // A code name's possessive or plural written with an apostrophe is the name ("parse_config's result",
    // "BulkDataURI's", "Foo::bar's"); an English word keeps its form (`schema's` reads as before).
    const owner = /^(.+?)['’]s$/.exec(stripped)?.[1];
    const token = owner !== undefined && (isCodeShaped(owner) || qualifiedParts(owner) !== null || DOTTED.test(owner)) ? owner : stripped;
    if (token === "") continue;
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(token)) {
      addUrl(ctx, token);
      continue;
    }
    if (/^[@#]\w/.test(token)) continue; // @mentions, #123
    const path = /[/\\.]/.test(token) ? toPath(token, false) : null;
    if (path) {
      addPath(ctx, path, W.pathInText);
      continue;
    }
    if (isProduct(token) || isProduct(token.replace(/\.$/, ""))) {
      words.push(token);
      continue;
    }
    const qualified = qualifiedParts(token.replace(/\(.*\)?$/, ""));
    if (qualified) {
      addDotted(ctx, qualified.join("."), W.dottedInText, false, true);
      continue;
    }
    const call = /^([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\(.*\)?$/.exec(token);
    const name = call ? (call[1] ?? "") : token;
    if (DOTTED.test(name) && !NON_DOTTED.has(name.toLowerCase())) {
      const parts = name.split(".");
      const last = parts[parts.length - 1] ?? "";
      const domain = DOMAIN_SUFFIXES.has(last.toLowerCase()) && parts.every((p) => /^[a-z0-9-]+$/i.test(p) && !isCodeShaped(p));
      // "It failed.Then I..." in a report is two sentences; a call (`c.Next()`), a one-letter receiver
      // (`c.Next`), a name that ends its clause (`c.Next?`) and any such token of a short question are code.
      const first = parts[0] ?? "";
      const sentence =
        ctx.long && call === null && parts.length === 2 && first.length > 1 && /^[A-Z][a-z]+$/.test(last) && !isCodeShaped(first) && !/[?!,;:.]$/.test(rawToken);
      if (!domain && !sentence) {
        addDotted(ctx, name, W.dottedInText, false);
        continue;
      }
    }
    if (IDENT.test(name) && (isCodeShaped(name) || call !== null)) {
      addIdentifier(ctx, name, W.identifierInProse, false);
      continue;
    }
    words.push(token);
  }
  addWords(ctx, words.join(" "), wordWeight);
}

function extractFromSpan(ctx: Ctx, inner: string): void {
  const W = QUERY_WEIGHTS;
  if (inner === "") return;
  const path = toPath(inner, true);
  if (path) {
    addPath(ctx, path, W.pathInText);
    return;
  }
  // A call (`x()`), and in a short question a macro's call (`json!`, `vec![1]`), names its function or macro.
  const call = inner.replace(/\(.*\)$/, "");
  const name = ctx.long ? call : call.replace(/^([A-Za-z_]\w*)!(?:[([{].*)?$/, "$1");
  if (DOTTED.test(name)) return addDotted(ctx, name, W.dottedInText, false);
  if (IDENT.test(name)) {
    if (name.length >= 2 && !CODE_KEYWORDS.has(name) && !isErrorClassName(name)) {
      ctx.bag.add(name, "identifier", W.identifierInSpan);
    }
    return;
  }
  if (/^--?[A-Za-z][\w-]*$/.test(inner)) {
    ctx.bag.add(inner, "identifier", W.identifierInProse);
    return;
  }
  extractErrors(ctx, inner);
  extractFromCodeLine(ctx, inner, 1.2);
}

function addUrl(ctx: Ctx, url: string): void {
  // https://github.com/org/repo/blob/<ref>/src/x.py#L10 (GitHub, GitLab "/-/blob/"), a range #L10-L20
  // (GitLab #L10-20): its first and last lines.
  const m = /\/(?:-\/)?(?:blob|tree|raw)\/[^/]+\/([^?#\s]+)(?:\?[^#\s]*)?(?:#L(\d+)(?:-L?(\d+))?)?/.exec(url);
  if (!m) return;
  const path = toPath(decodeURIComponentSafe(m[1] ?? ""), true);
  if (!path) return;
  addPath(ctx, { path: path.path, line: m[2] ? Number(m[2]) : null }, QUERY_WEIGHTS.pathInText);
  if (m[2] && m[3] && Number(m[3]) > Number(m[2])) addLocation(ctx, { path: path.path, line: Number(m[3]) });
}

/** A path the text mentions, as a term, and the line it points at when it gives one (`x.c:12`, `#L12`). */
function addPath(ctx: Ctx, mention: { path: string; line: number | null }, weight: number): void {
  ctx.bag.add(mention.path, "path", weight);
  if (mention.line !== null) addLocation(ctx, { path: mention.path, line: mention.line });
}

function addLocation(ctx: Ctx, location: SourceLocation): void {
  if (location.line < 1 || ctx.locations.length >= LIMITS.locations) return;
  if (!ctx.locations.some((l) => l.path === location.path && l.line === location.line)) ctx.locations.push(location);
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * Phrases that lead in an illustration ("for example when...", "for instance, ..."): their words are
 * not what the writer asks about, and "example" would read as asking for example code (queryWants).
 */
const DISCOURSE_PHRASES = /\bfor example\b|\bfor instance(?=\s*[,:;])/g;

function addWords(ctx: Ctx, text: string, weight: number): void {
  const normalized = text.toLowerCase().replace(/(\w)['’](\w)/g, "$1$2").replace(DISCOURSE_PHRASES, " ");
  for (const w of normalized.split(/[^a-z0-9]+/)) {
    if (w.length < 2 || STOP_WORDS.has(w)) continue;
    if (ctx.long && REPORT_NOISE.has(w)) continue;
    if (/^\d+$/.test(w)) {
      if (w.length >= 3 && w.length <= 5) ctx.bag.add(w, "word", QUERY_WEIGHTS.number);
      continue;
    }
    if (/\d/.test(w) && /^[0-9a-f]{7,}$/.test(w)) continue; // commit hashes, ids
    if (/^\d/.test(w)) continue; // 3d, 2nd, 10px
    ctx.bag.add(w, "word", weight);
  }
}
