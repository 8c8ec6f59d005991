/**
 * Query analysis: turns a search query — a short question or a whole bug report with code blocks
 * and stack traces — into weighted features for the ranker. Pure and synchronous; no model.
 *
 * What is extracted, roughly from strongest to weakest signal:
 *  - file paths from stack frames and located diagnostics (Python tracebacks and pytest, Node/Deno/
 *    browser stacks, Go panics and test output, Rust panics and backtraces, Java/Kotlin exceptions,
 *    gdb/lldb/sanitizer/valgrind stacks, compiler errors of every language: ./query/frames/) and the
 *    function names in those frames; frames in library code (site-packages, node_modules, Go's module
 *    cache, Cargo's registry, test runners) and the runtime (Python stdlib, node:internal, GOROOT,
 *    Rust's std, the JDK, libc and system headers) weigh less than project frames, and the innermost
 *    project frame of each stack a little more;
 *  - file paths in the text (`src/foo/bar.py`, `foo.py:123`, GitHub blob links);
 *  - identifiers in code spans, code blocks, and CamelCase / snake_case / call-shaped words in prose;
 *  - dotted names (`pvlib.irradiance.get_total_irradiance`), their parts, and candidate module
 *    paths (`pvlib/irradiance.py`);
 *  - exception class names and error messages (plus identifiers quoted in those messages);
 *  - plain words, lowercased, without stop-words (and without bug-template noise in long reports).
 *
 * Paths are normalised (forward slashes, no line numbers, no leading "./"); library paths are cut
 * to the package (".../site-packages/requests/adapters.py" -> "requests/adapters.py", Go modules and
 * crates without their versions); Java frames become package paths ("com/foo/Bar.java"); absolute
 * project paths are kept whole. Match them against indexed paths by path-segment suffix in either
 * direction. Identifiers are not split into sub-words here; the ranker's tokenizer does that.
 */
import { QUERY_WEIGHTS, isScripting, type FrameOrigin, type QueryAnalysis, type QueryTerm, type QueryTermKind, type ReportLanguage, type StackFrame } from "./query/types.ts";
import { BUILTIN_ERRORS, CODE_KEYWORDS, IDENT, JS_FRAME_RECEIVERS, LIMITS, isProduct } from "./query/lexicon.ts";
import { type Ctx, createTermBag } from "./query/terms.ts";
import { PY_FRAME, frameAt, isStackNoise, stackHeader } from "./query/frames/index.ts";
import { type Line, splitLines } from "./query/markdown.ts";
import { USAGE_SHAPE_WORDS, capitalisedNames, isUsageQuestion, usageNames } from "./query/usages.ts";
import { addQuotedNames, extractErrors, extractFromCodeLine, extractFromProseLine } from "./query/extract.ts";
import { languageOfPath } from "./query/paths.ts";
import { reportsTestWork } from "./query/test-work.ts";
import { commitScopes } from "./query/commit-scope.ts";

export type { FrameOrigin, QueryAnalysis, QueryTerm, QueryTermKind, ReportLanguage, StackFrame } from "./query/types.ts";

type FrameLine = { frame: StackFrame; stack: number; order: "outer-first" | "inner-first"; diagnostic: boolean };

/**
 * `ownsPath`: whether a path names a file of the searched repositories. A frame through an installed
 * library (`site-packages/astroid/...`, `node_modules/dayjs/plugin/utc.js`) whose file is one of theirs
 * is the project's own code (the report of a user of the repository's package): it weighs as a project
 * frame.
 */
export function analyzeQuery(text: string, options: { ownsPath?: (path: string) => boolean } = {}): QueryAnalysis {
  const { lines, fenceLangs } = splitLines(text);

  // 1. Stack frames and located diagnostics, and the source lines Python prints under its frames.
  const frameLines: FrameLine[] = [];
  const messages: string[] = [];
  const texts = lines.map((l) => l.text);
  let stack = 0;
  let previousWasFrame = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const header = stackHeader(line.text);
    if (header !== null) {
      stack++;
      if (header === "skip") line.zone = "skip";
      previousWasFrame = false;
      continue;
    }
    if (isStackNoise(line.text)) {
      line.zone = "skip";
      continue;
    }
    const parsed = frameAt(texts, i);
    if (parsed && parsed.frame.origin === "library" && parsed.frame.path !== null && options.ownsPath?.(parsed.frame.path)) parsed.frame = { ...parsed.frame, origin: "project" };
    if (parsed) {
      if ((!previousWasFrame && parsed.order === "inner-first") || parsed.startsStack === true) stack++;
      frameLines.push({ frame: parsed.frame, stack, order: parsed.order, diagnostic: parsed.diagnostic === true });
      for (let k = 0; k < parsed.lines; k++) lines[i + k]!.zone = "frame";
      if (parsed.message !== undefined) {
        // The message stays where it was printed (prose or code) and is read like the rest of it; the
        // space stands for the location before it, so `file.py:12: FutureWarning: ...` is still an error header.
        line.text = ` ${parsed.message}`;
        line.zone = line.fenceLang !== null || /^(?: {4}|\t)\S/.test(texts[i] ?? "") ? "code" : "prose";
        messages.push(parsed.message);
      }
      previousWasFrame = true;
      i += parsed.lines - 1;
      if (parsed.frame.language === "python" && PY_FRAME.test(line.text)) {
        const next = lines[i + 1];
        if (next && /^\s{3,}\S/.test(next.text) && !PY_FRAME.test(next.text)) {
          next.zone = "code";
          i++;
          // caret lines (^^^^ / ~~~^^^) under the source line
          const caret = lines[i + 1];
          if (caret && /^\s*[~^]+\s*$/.test(caret.text)) {
            caret.zone = "skip";
            i++;
          }
        }
      }
      continue;
    }
    if (line.text.trim() !== "") previousWasFrame = false;
  }
  const frames = frameLines.map((f) => f.frame);

  const language = detectLanguage(text, lines, fenceLangs, frames);
  const proseWords = lines
    .filter((l) => l.zone === "prose")
    .reduce((n, l) => n + (l.text.match(/\S+/g)?.length ?? 0), 0);
  const codeLines = lines.filter((l) => l.zone === "code").length;
  const long = proseWords > 50 || frames.length > 0 || codeLines >= 3 || text.length > 600;

  const ctx: Ctx = { bag: createTermBag(), errors: new Map(), locations: [], language, long };

  const traced = addFrames(ctx, frameLines);
  // Names quoted in the messages printed after a location (compiler errors, test failures).
  for (const message of messages) addQuotedNames(ctx, message);

  // 2. Errors, on every line that is not a frame. An error line is not also read as code or prose.
  for (const line of lines) {
    if ((line.zone === "prose" || line.zone === "code") && extractErrors(ctx, line.text)) line.zone = "skip";
  }

  // 3. Code: fenced / indented blocks and traceback source lines.
  for (const line of lines) {
    if (line.zone === "code") extractFromCodeLine(ctx, line.text, 1);
  }

  // 4. Prose: inline code spans, then tokens.
  let title = true;
  for (const line of lines) {
    if (line.zone !== "prose") continue;
    if (line.text.trim() === "") continue;
    const isTitle = long && title;
    title = false;
    extractFromProseLine(ctx, line.text, isTitle);
  }

  // A usage question asks about a code name: a word capitalised inside its sentence is one (`Next`).
  if (!long && isUsageQuestion(text)) for (const name of capitalisedNames(text)) ctx.bag.add(name, "identifier", QUERY_WEIGHTS.identifierInProse);

  // 5. Assemble.
  let terms = ctx.bag.list();
  if (long) {
    let words = 0;
    terms = terms.filter((t) => t.kind !== "word" || ++words <= LIMITS.wordsInReport);
  }
  // The trace's frames and the errors printed are kept however many other terms come before them: a long
  // log brings hundreds of names of its own (loggers, keys), and a library frame (1.2) or an error's message
  // weighs less than each of them.
  for (const [type, message] of ctx.errors) {
    traced.add(type);
    if (message) traced.add(message);
  }
  terms = withinCap(terms, LIMITS.terms, traced, LIMITS.tracedTerms);
  const paths = terms.filter((t) => t.kind === "path").map((t) => t.text);
  const symbols = withinCap(
    terms.filter(
      (t) =>
        IDENT.test(t.text) &&
        (t.kind === "identifier" || t.kind === "symbolFromTrace" || (t.kind === "error" && !BUILTIN_ERRORS.has(t.text))),
    ),
    LIMITS.symbols,
    traced,
    LIMITS.tracedTerms,
  ).map((t) => t.text);
  const usages = long ? [] : usageNames(text, symbols);
  if (usages.length > 0) terms = terms.filter((t) => t.kind !== "word" || !USAGE_SHAPE_WORDS.has(t.text));

  return {
    terms,
    paths,
    symbols,
    errors: [...ctx.errors].map(([type, message]) => ({ type, message })),
    frames,
    locations: ctx.locations,
    language,
    isLongReport: long,
    usages,
    testWork: !long && reportsTestWork(text),
    scopes: commitScopes(lines.find((l) => l.zone === "prose" && l.text.trim() !== "")?.text ?? ""),
  };
}

const FENCE_LANGUAGES: [RegExp, ReportLanguage][] = [
  [/^(?:py|python|python3|pycon|ipython|pytb)$/, "python"],
  [/^(?:js|javascript|ts|typescript|jsx|tsx|mjs|node)$/, "javascript"],
  [/^(?:go|golang)$/, "go"],
  [/^(?:rs|rust)$/, "rust"],
  [/^(?:java)$/, "java"],
  [/^(?:kt|kotlin|kts)$/, "kotlin"],
  [/^(?:c|h)$/, "c"],
  [/^(?:cpp|c\+\+|cc|cxx|hpp)$/, "cpp"],
  [/^(?:rb|ruby)$/, "ruby"],
  [/^(?:cs|csharp|c#)$/, "csharp"],
  [/^php$/, "php"],
];
/** Runs of name and path characters, and a code extension right after one (`name` + `.py`). */
const NAME_RUN = /[\w/-]+/g;
const CODE_EXTENSION = /\.(pyx?|go|rs|java|kts?|[ch]|cc|cpp|cxx|hpp|hh|[mc]?[jt]sx?|rb|cs|php)\b/y;

/**
 * File names in the text with their extensions (`src/app.py`, `main.go`): a run of name characters
 * followed by a code extension, read in one pass (a pattern `[name chars]+\.ext` tried at every word
 * start was quadratic on a long `a/a/a/...` or `a-a-a-...` word).
 */
function* mentionedFiles(text: string): Generator<string> {
  let after = 0;
  for (const run of text.matchAll(NAME_RUN)) {
    if (run.index < after) continue;
    const end = run.index + run[0].length;
    if (text.charCodeAt(end) !== 46) continue; // "."
    CODE_EXTENSION.lastIndex = end;
    const ext = CODE_EXTENSION.exec(text);
    const stem = run[0].replace(/^[/-]+/, "");
    if (!ext || stem === "") continue;
    after = end + ext[0].length;
    yield stem + ext[0];
  }
}

function detectLanguage(text: string, lines: Line[], fenceLangs: string[], frames: StackFrame[]): ReportLanguage | null {
  const score = new Map<ReportLanguage, number>();
  const add = (language: ReportLanguage, n: number) => score.set(language, (score.get(language) ?? 0) + n);
  for (const f of frames) add(f.language, 2);
  for (const lang of fenceLangs) {
    const hit = FENCE_LANGUAGES.find(([re]) => re.test(lang));
    if (hit) add(hit[1], 3);
  }
  for (const name of mentionedFiles(text)) {
    const language = languageOfPath(name);
    if (language && !(language === "javascript" && isProduct(name))) add(language, 1);
  }
  for (const l of lines) {
    if (l.zone !== "code") continue;
    if (/^\s*(?:def |class \w+[:(]|from [\w.]+ import |import [\w.]+\s*$|>>> )/.test(l.text)) add("python", 1);
    if (/^\s*(?:const |let |function |export |import .* from ['"])|=>|require\(/.test(l.text)) add("javascript", 1);
  }
  // Ties go to the order of this list (Python, then JavaScript, as before other languages were read).
  let best: ReportLanguage | null = null;
  for (const language of ["python", "javascript", "go", "rust", "java", "kotlin", "c", "cpp", "ruby", "csharp", "php"] as const) {
    const n = score.get(language) ?? 0;
    if (n > 0 && (best === null || n > (score.get(best) ?? 0))) best = language;
  }
  return best;
}

/** The first `cap` terms, and after them up to `extra` more of those in `kept` (in their order). */
function withinCap(terms: QueryTerm[], cap: number, kept: ReadonlySet<string>, extra: number): QueryTerm[] {
  let more = 0;
  return terms.filter((t, i) => i < cap || (kept.has(t.text) && ++more <= extra));
}

/** Adds the frames' paths and functions to the terms; returns the texts it added. */
function addFrames(ctx: Ctx, frameLines: FrameLine[]): Set<string> {
  // The runtime's frames (the JDK's reflection, an event loop) say little and are not kept past the cap.
  const added = new Set<string>();
  const add = (text: string, kind: QueryTermKind, weight: number, origin: FrameOrigin) => {
    ctx.bag.add(text, kind, weight);
    if (origin !== "runtime") added.add(text);
  };
  // Project frames of each stack from the innermost out (last printed in Python, first printed in
  // the other languages). The innermost weighs a little more; in the deep stacks of compiled programs
  // (Go, Rust, JVM, native), each frame further out a little less: dispatchers, event loops and
  // `main` are in every stack. Python and JavaScript stacks keep their flat weights.
  const depth = new Map<FrameLine, number>();
  const innermost = new Map<number, FrameLine>();
  const byStack = new Map<number, FrameLine[]>();
  for (const f of frameLines) byStack.set(f.stack, [...(byStack.get(f.stack) ?? []), f]);
  for (const group of byStack.values()) {
    const project = group.filter((f) => f.frame.origin === "project" && f.frame.path !== null && !f.diagnostic);
    const ordered = group[0]?.order === "inner-first" ? project : [...project].reverse();
    if (ordered[0] !== undefined) innermost.set(ordered[0].stack, ordered[0]);
    // Depth counts files, not calls: the frames of one file are one place.
    const files: string[] = [];
    for (const f of ordered) {
      if (!files.includes(f.frame.path!)) files.push(f.frame.path!);
      depth.set(f, files.indexOf(f.frame.path!));
    }
  }
  const W = QUERY_WEIGHTS;
  for (const f of frameLines) {
    const { frame } = f;
    const k = depth.get(f);
    const bonus = f === innermost.get(f.stack) ? W.innermostFrameBonus : 0;
    const decay = k !== undefined && !isScripting(frame.language) ? W.outerFrameDecay ** k : 1;
    const [pathW, symW] =
      frame.origin === "project"
        ? f.diagnostic
          ? [W.pathInText, W.projectFrameSymbol]
          : [Math.max(W.libraryFramePath, (W.projectFramePath + bonus) * decay), Math.max(W.libraryFrameSymbol, (W.projectFrameSymbol + bonus) * decay)]
        : frame.origin === "library"
          ? [W.libraryFramePath, W.libraryFrameSymbol]
          : [W.runtimeFramePath, W.runtimeFrameSymbol];
    if (frame.path !== null) add(frame.path, "path", pathW, frame.origin);
    if (frame.symbol !== null && !(frame.origin === "runtime" && frame.path === null)) {
      const parts = frame.symbol.split(".").filter((p) => IDENT.test(p));
      const name = parts[parts.length - 1];
      // `main` is every compiled program's entry point: its frame says nothing about where the fault is.
      const entry = name !== undefined && /^main$/i.test(name) && !isScripting(frame.language);
      if (name !== undefined && !CODE_KEYWORDS.has(name) && !entry) add(name, "symbolFromTrace", symW, frame.origin);
      const owner = parts[parts.length - 2];
      if (owner !== undefined && !JS_FRAME_RECEIVERS.has(owner) && !CODE_KEYWORDS.has(owner)) {
        add(owner, "symbolFromTrace", symW * 0.6, frame.origin);
      }
    }
  }
  return added;
}
