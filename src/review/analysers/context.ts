/** Shared pieces for analysers: the context they receive, language detection and line helpers. */
import type { DiffFile } from "../diff.ts";
import type { Finding, Severity } from "../findings.ts";

export type Language =
  | "javascript"
  | "typescript"
  | "python"
  | "go"
  | "rust"
  | "php"
  | "ruby"
  | "java"
  | "kotlin"
  | "csharp"
  | "c"
  | "cpp"
  | "sql"
  | "shell"
  | "markdown"
  | "config";

export type AnalyserContext = {
  path: string;
  language: Language | null;
  /** Test code (by path): debug and unwrap rules stay quiet there. */
  isTest: boolean;
  /** Command-line scripts, examples and tools, where printing is the point. */
  isScript: boolean;
  /** Vendored, generated, minified or lock files: no analyser runs. */
  skip: boolean;
  /** New-side lines the diff shows (added and context), by new line number. */
  newLines: Map<number, { text: string; added: boolean }>;
  /** The file at the pull request's base ("" for an added file); null or absent when it was not read. */
  base?: string | null;
};

export type Analyser = (file: DiffFile, ctx: AnalyserContext) => Finding[];

const EXTENSIONS: Record<string, Language> = {
  js: "javascript",
  jsx: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  ts: "typescript",
  tsx: "typescript",
  mts: "typescript",
  cts: "typescript",
  py: "python",
  pyw: "python",
  go: "go",
  rs: "rust",
  php: "php",
  rb: "ruby",
  rake: "ruby",
  java: "java",
  kt: "kotlin",
  kts: "kotlin",
  cs: "csharp",
  c: "c",
  h: "c",
  cc: "cpp",
  cpp: "cpp",
  cxx: "cpp",
  hpp: "cpp",
  sql: "sql",
  sh: "shell",
  bash: "shell",
  zsh: "shell",
  md: "markdown",
  mdx: "markdown",
  markdown: "markdown",
  json: "config",
  yaml: "config",
  yml: "config",
  toml: "config",
  ini: "config",
  env: "config",
  properties: "config",
  cfg: "config",
  conf: "config",
  xml: "config",
};

export function languageOf(path: string): Language | null {
  const base = path.slice(path.lastIndexOf("/") + 1).toLowerCase();
  if (base === ".env" || base.startsWith(".env.")) return "config";
  if (base === "gemfile" || base === "rakefile") return "ruby";
  if (base === "dockerfile") return "shell";
  const dot = base.lastIndexOf(".");
  if (dot < 0) return null;
  return EXTENSIONS[base.slice(dot + 1)] ?? null;
}

export function isTestPath(path: string): boolean {
  const p = path.toLowerCase();
  return (
    /(^|\/)(tests?|__tests__|__mocks__|specs?|testdata|test-data|fixtures?|testing|test_?suites?)\//.test(p) ||
    /\.(test|spec|e2e|int|unit)\.[a-z]+$/.test(p) ||
    /_(test|spec)\.[a-z]+$/.test(p) ||
    /(^|\/)test_[^/]*\.py$/.test(p) ||
    /(^|\/)conftest\.py$/.test(p) ||
    /tests?\.(java|kt|cs)$/.test(p)
  );
}

export function isScriptPath(path: string): boolean {
  const p = path.toLowerCase();
  return (
    /(^|\/)(scripts?|bin|cli|cmd|examples?|tools?|benches|bench|demo)\//.test(p) ||
    /(^|\/)(cli|main|__main__|manage|setup|build)\.[a-z]+$/.test(p)
  );
}

export function isSkippedPath(path: string): boolean {
  const p = path.toLowerCase();
  return (
    /(^|\/)(node_modules|vendor|third_party|dist|build|out|\.yarn|\.git)\//.test(p) ||
    /\.min\.(js|css)$/.test(p) ||
    /(^|\/)(package-lock\.json|yarn\.lock|pnpm-lock\.yaml|cargo\.lock|poetry\.lock|go\.sum|composer\.lock|gemfile\.lock)$/.test(p) ||
    /\.(snap|map|lock)$/.test(p)
  );
}

export function analyserContext(file: DiffFile, base?: string | null): AnalyserContext {
  const newLines = new Map<number, { text: string; added: boolean }>();
  for (const h of file.hunks) {
    for (const l of h.lines) if (l.newLine !== null) newLines.set(l.newLine, { text: l.text, added: l.kind === "add" });
  }
  return {
    path: file.path,
    language: languageOf(file.path),
    isTest: isTestPath(file.path),
    isScript: isScriptPath(file.path),
    skip: isSkippedPath(file.path) || file.binary,
    newLines,
    base: file.status === "added" ? "" : (base ?? null),
  };
}

const C_LIKE: ReadonlySet<Language> = new Set(["javascript", "typescript", "go", "rust", "java", "kotlin", "csharp", "c", "cpp", "php"]);
const HASH: ReadonlySet<Language> = new Set(["python", "ruby", "shell", "config", "php"]);

/**
 * Splits a line into code and comment: string literal contents are replaced by spaces (same
 * length, so indexes still line up with the original text) and everything from a line comment on
 * is cut. `comment` is the index where a comment starts, or -1. Whole-line block comment
 * continuations (`* ...`, `/* ...`) count as comment from their first character.
 */
export function splitCode(text: string, language: Language | null): { code: string; comment: number } {
  const trimmed = text.trimStart();
  const indent = text.length - trimmed.length;
  if (language && C_LIKE.has(language) && (trimmed.startsWith("*") || trimmed.startsWith("/*"))) {
    return { code: text.slice(0, indent), comment: indent };
  }
  const quotes = language === "rust" ? '"' : language === "javascript" || language === "typescript" || language === "go" ? "\"'`" : "\"'";
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quotes.includes(ch)) {
      let j = i + 1;
      while (j < text.length && text[j] !== ch) j += text[j] === "\\" ? 2 : 1;
      const end = Math.min(j, text.length - 1);
      out += ch + " ".repeat(Math.max(0, end - i - 1)) + (j < text.length ? ch : "");
      i = end;
      continue;
    }
    const two = text.slice(i, i + 2);
    const isComment =
      (language !== null && C_LIKE.has(language) && (two === "//" || two === "/*")) ||
      (language !== null && HASH.has(language) && ch === "#" && !(language === "config" && i > 0 && text[i - 1] !== " ")) ||
      (language === "sql" && two === "--") ||
      (language === "markdown" && text.slice(i, i + 4) === "<!--");
    if (isComment) return { code: out, comment: i };
    out += ch;
  }
  return { code: out, comment: -1 };
}

/** True when the whole line is a comment (or blank). */
export function isCommentLine(text: string, language: Language | null): boolean {
  const { code } = splitCode(text, language);
  return code.trim() === "";
}

export function lineFinding(
  ctx: AnalyserContext,
  ruleId: string,
  severity: Severity,
  line: number,
  message: string,
  suggestion?: string,
): Finding {
  const f: Finding = { ruleId, severity, path: ctx.path, lineStart: line, lineEnd: line, message };
  if (suggestion !== undefined) f.suggestion = suggestion;
  return f;
}

/** The nearest non-blank new-side line before `line` that the diff shows, or null if unknown. */
export function previousCodeLine(ctx: AnalyserContext, line: number): string | null | undefined {
  for (let n = line - 1; n >= 1; n--) {
    const l = ctx.newLines.get(n);
    if (!l) return undefined;
    if (l.text.trim() !== "") return l.text;
  }
  return null; // start of file
}

/**
 * Whether deleting `line` as a whole statement is safe: the previous statement ends cleanly
 * (so the line is not the braceless body of an `if`, a continuation, or the only statement of a
 * Python block). Unknown context means not safe.
 */
export function safeToDeleteLine(ctx: AnalyserContext, line: number): boolean {
  const prev = previousCodeLine(ctx, line);
  if (prev === null) return true;
  if (prev === undefined) return false;
  const code = splitCode(prev, ctx.language).code.trimEnd();
  if (ctx.language === "python") return code !== "" && !code.endsWith(":") && !code.endsWith("\\") && !code.endsWith(",") && !/[([{]$/.test(code);
  if (ctx.language === "ruby") return !/\b(if|unless|do|then|else|begin)\s*$/.test(code) && !code.endsWith(",");
  return code === "" || /[;{}]$/.test(code);
}

export function parensBalanced(code: string): boolean {
  let depth = 0;
  for (const ch of code) {
    if (ch === "(") depth++;
    else if (ch === ")" && --depth < 0) return false;
  }
  return depth === 0;
}

/** Only the first `n` characters of very long (minified) lines are examined. */
export const MAX_ANALYSED_LINE = 2000;

export function forEachAddedLine(file: DiffFile, fn: (line: number, text: string) => void): void {
  for (const h of file.hunks) {
    for (const l of h.lines) {
      if (l.kind === "add" && l.newLine !== null) fn(l.newLine, l.text.length > MAX_ANALYSED_LINE ? l.text.slice(0, MAX_ANALYSED_LINE) : l.text);
    }
  }
}

export function inlineCode(text: string, max = 80): string {
  const t = text.trim();
  const short = t.length > max ? `${t.slice(0, max - 1)}…` : t;
  const ticks = short.includes("`") ? "``" : "`";
  return `${ticks}${short.includes("`") ? " " : ""}${short}${short.includes("`") ? " " : ""}${ticks}`;
}
