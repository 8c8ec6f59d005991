/**
 * Query analysis: turns a search query — a short question or a whole bug report with code blocks
 * and stack traces — into weighted features for the ranker. Pure and synchronous; no model.
 *
 * What is extracted, roughly from strongest to weakest signal:
 *  - file paths from stack frames (Python tracebacks, pytest, Node/Deno/browser stacks) and the
 *    function names in those frames; frames in library code (site-packages, node_modules) and the
 *    runtime (Python stdlib, node:internal) weigh less than project frames, and the innermost
 *    project frame of each stack a little more;
 *  - file paths in the text (`src/foo/bar.py`, `foo.py:123`, GitHub blob links);
 *  - identifiers in code spans, code blocks, and CamelCase / snake_case / call-shaped words in prose;
 *  - dotted names (`pvlib.irradiance.get_total_irradiance`), their parts, and candidate module
 *    paths (`pvlib/irradiance.py`);
 *  - exception class names and error messages (plus identifiers quoted in those messages);
 *  - plain words, lowercased, without stop-words (and without bug-template noise in long reports).
 *
 * Paths are normalised (forward slashes, no line numbers, no leading "./"); library paths are cut
 * to the package (".../site-packages/requests/adapters.py" -> "requests/adapters.py"); absolute
 * project paths are kept whole. Match them against indexed paths by path-segment suffix in either
 * direction. Identifiers are not split into sub-words here; the ranker's tokenizer does that.
 */

export type QueryTermKind = "identifier" | "dotted" | "path" | "error" | "word" | "symbolFromTrace";

export type QueryTerm = { text: string; weight: number; kind: QueryTermKind };

export type FrameOrigin = "project" | "library" | "runtime";

export type StackFrame = {
  /** Normalised path, null when the frame has none (`<anonymous>`, `<stdin>`). */
  path: string | null;
  line: number | null;
  /** Function name as printed (e.g. "Location.get_clearsky"), null for module-level code. */
  symbol: string | null;
  origin: FrameOrigin;
  language: "python" | "javascript";
};

export type QueryAnalysis = {
  /** Unique by text, highest weight first. */
  terms: QueryTerm[];
  /** File paths and candidate module paths, highest weight first. */
  paths: string[];
  /** Names likely defined in the code base (identifiers, frame functions, custom exception classes), highest weight first. */
  symbols: string[];
  /** Exception classes seen, with the message when one was printed. */
  errors: { type: string; message: string | null }[];
  frames: StackFrame[];
  /** The language the report seems to be about, when there are signals. */
  language: "python" | "javascript" | null;
  /** A bug report rather than a short question: long, or with a stack trace or a code block. */
  isLongReport: boolean;
};

// ---------------------------------------------------------------------------------------------
// Weights. One place, so the ranker's evaluation can tune them.

export const QUERY_WEIGHTS = {
  projectFramePath: 3.0,
  projectFrameSymbol: 2.5,
  innermostFrameBonus: 0.5,
  libraryFramePath: 1.2,
  libraryFrameSymbol: 1.0,
  runtimeFramePath: 0.4,
  runtimeFrameSymbol: 0.3,
  pathInText: 2.5,
  pathInCode: 2.0,
  modulePath: 1.4,
  shortModulePath: 1.0,
  dottedInText: 2.4,
  dottedInCode: 1.6,
  identifierInSpan: 2.2,
  identifierInProse: 1.8,
  identifierQuotedInError: 2.0,
  identifierInCode: 1.5,
  importedName: 1.6,
  classLikeInCode: 1.4,
  plainNameInCode: 0.7,
  stringLiteralName: 0.8,
  customErrorClass: 2.2,
  builtinErrorClass: 1.5,
  genericErrorClass: 0.5,
  errorMessage: 1.5,
  errnoCode: 1.5,
  wordInShortQuery: 1.0,
  wordInTitle: 1.0,
  wordInErrorMessage: 0.9,
  wordInReport: 0.6,
  number: 0.5,
  /** Repeated mentions multiply the weight by 1 + boost * log2(count), up to maxRepeatFactor. */
  repeatBoost: 0.2,
  maxRepeatFactor: 1.6,
} as const;

const LIMITS = { wordsInReport: 40, terms: 120, symbols: 40, messageChars: 200, tokenChars: 300 } as const;

// ---------------------------------------------------------------------------------------------
// Vocabularies.

const STOP_WORDS = new Set(
  (
    "a about above after again against all also am an and any are aren as at be because been before being below " +
    "between both but by can cannot could couldn did didn do does doesn doing don down during each either else " +
    "etc even ever every few for from further had hadn has hasn have haven having he her here hers herself him " +
    "himself his how however i if in into is isn it its itself just let lets like ll may me might more most much " +
    "must mustn my myself need needs no nor not now of off on once one only or other our ours ourselves out over " +
    "own per please re really same see seem seems shall shan she should shouldn so some such than that the their " +
    "theirs them themselves then there these they this those though through thus to too under until up upon us " +
    "use used using ve very via was wasn way we were weren what when where whether which while who whom whose why " +
    "will with within without won would wouldn yet you your yours yourself yourselves s t d m o y e g ie eg " +
    "anyone anything someone something somewhere thing things get gets got getting go goes going want wants " +
    "wanted know find found make makes made take takes tell show shows look looks looking able " +
    "im ive id ill youre youve theyre dont doesnt didnt isnt wasnt arent werent cant couldnt wont wouldnt " +
    "shouldnt hasnt havent hadnt thats theres whats heres"
  ).split(/\s+/),
);

/** Words that bug-report templates and pleasantries put in every report. */
const REPORT_NOISE = new Set(
  (
    "bug bugs issue issues report reported reporting describe description expected expect expecting actual " +
    "behavior behaviour reproduce reproducing reproduction reproducible repro steps step minimal example " +
    "examples sample additional context screenshot screenshots environment version versions installed install " +
    "os python node npm pip thanks thank hi hello hey cheers regards help helps helpful problem problems " +
    "following output outputs result results run runs running ran try tried trying work works worked working " +
    "instead happen happens happened happening case cases currently current would like code snippet " +
    "sure question questions anybody somebody maybe probably think thought seems seemed appears appear " +
    "correct correctly wrong fine okay ok still already yes please note"
  ).split(/\s+/),
);

const CODE_KEYWORDS = new Set(
  (
    // Python
    "and as assert async await break class continue def del elif else except finally for from global if " +
    "import in is lambda nonlocal not or pass raise return try while with yield self cls none true false " +
    "None True False print len range str int float dict list tuple set bool bytes object type isinstance " +
    "super open enumerate zip map filter sorted min max sum abs any all repr format kwargs args " +
    // JS / TS
    "var let const function new this typeof instanceof void delete switch case default do throw catch " +
    "export extends implements interface enum null undefined NaN Infinity of get static public private " +
    "protected readonly declare namespace module require console log string number boolean unknown never " +
    "Promise Array Object String Number Boolean Map Set JSON Math Date Error RegExp Symbol window document " +
    "process globalThis then " +
    // shell / misc
    "pip npm npx yarn pnpm conda sudo cd ls echo git python python3 node deno bash sh install run"
  ).split(/\s+/),
);

/** Receivers whose members are library calls, not project symbols (`np.array`, `console.log`). */
const LIBRARY_ALIASES = new Set(
  "np pd plt os sys re json math time datetime dt tf sp mpl sns console Math JSON Object Array Promise Number String Date window document process Reflect Symbol require module exports path fs util".split(
    " ",
  ),
);

/** Receivers in JS frames that carry no project meaning (`Object.parseConfig`). */
const JS_FRAME_RECEIVERS = new Set("Object Function Module Promise Array process Timeout Immediate EventEmitter Generator AsyncGenerator".split(" "));

const BUILTIN_ERRORS = new Set(
  (
    "BaseException Exception ArithmeticError AssertionError AttributeError BlockingIOError BrokenPipeError " +
    "BufferError ChildProcessError ConnectionAbortedError ConnectionError ConnectionRefusedError " +
    "ConnectionResetError EOFError EnvironmentError FileExistsError FileNotFoundError FloatingPointError " +
    "GeneratorExit IOError ImportError IndentationError IndexError InterruptedError IsADirectoryError KeyError " +
    "KeyboardInterrupt LookupError MemoryError ModuleNotFoundError NameError NotADirectoryError " +
    "NotImplementedError OSError OverflowError PermissionError ProcessLookupError RecursionError ReferenceError " +
    "RuntimeError StopAsyncIteration StopIteration SyntaxError SystemError SystemExit TabError TimeoutError " +
    "TypeError UnboundLocalError UnicodeDecodeError UnicodeEncodeError UnicodeError ValueError ZeroDivisionError " +
    "Warning UserWarning DeprecationWarning PendingDeprecationWarning SyntaxWarning RuntimeWarning FutureWarning " +
    "ImportWarning UnicodeWarning BytesWarning ResourceWarning ExceptionGroup BaseExceptionGroup " +
    "Error EvalError RangeError URIError AggregateError DOMException AbortError " +
    "NullPointerException IllegalArgumentException IllegalStateException ClassCastException " +
    "IndexOutOfBoundsException ArrayIndexOutOfBoundsException UnsupportedOperationException"
  ).split(/\s+/),
);

const ERRNO_CODES = new Set(
  "ENOENT EACCES EPERM EEXIST EISDIR ENOTDIR ENOTEMPTY EMFILE ENFILE EPIPE EBADF EINVAL EAGAIN EBUSY ECONNREFUSED ECONNRESET ECONNABORTED ETIMEDOUT EADDRINUSE EADDRNOTAVAIL EHOSTUNREACH ENETUNREACH ENOTFOUND EAI_AGAIN ENOSPC EROFS ENOMEM".split(
    " ",
  ),
);

const PYTHON_BUILTIN_TYPES = new Set(
  "NoneType str int float dict list tuple set frozenset bool bytes object type function module method builtin_function_or_method".split(" "),
);

const CODE_EXTENSIONS = new Set(
  (
    "py pyi pyx pxd ipynb js mjs cjs jsx ts tsx mts cts vue svelte astro go rs java kt kts scala groovy gradle " +
    "rb erb php c h cc cpp cxx hpp hh hxx m mm cs fs fsx vb swift dart lua pl pm r jl ex exs erl hrl clj cljs " +
    "elm hs ml mli nim zig sol sh bash zsh fish ps1 bat cmd sql graphql gql proto thrift json jsonc json5 yaml yml " +
    "toml ini cfg conf env properties xml html htm css scss sass less md mdx rst txt csv tsv lock cmake mk " +
    "dockerfile tf hcl nix wasm wat"
  ).split(/\s+/),
);

const EXTENSIONLESS_FILES = new Set(["Makefile", "Dockerfile", "Rakefile", "Gemfile", "Procfile", "Jenkinsfile", "Vagrantfile"]);

/** Product names shaped like identifiers or file names. */
const PRODUCT_NAMES = new Set(
  (
    "node.js vue.js next.js nuxt.js three.js d3.js express.js chart.js ember.js backbone.js alpine.js react.js " +
    "angular.js socket.io asp.net github gitlab bitbucket javascript typescript coffeescript actionscript " +
    "macos ios ipados watchos tvos iphone ipad numpy scipy pytorch pypi openai youtube linkedin powershell " +
    "vscode postgresql mysql mongodb mariadb sqlite graphql oauth webgl webgpu devtools jupyterlab ipython " +
    "matplotlib chatgpt deepseek macbook macports homebrew docker kubernetes webpack esbuild pnpm nodejs"
  ).split(/\s+/),
);

const NON_DOTTED = new Set(["e.g", "i.e", "a.k.a", "et.al", "vs", "etc", "approx"]);
const DOMAIN_SUFFIXES = new Set("com org net io dev ai co uk de fr app sh me info edu gov".split(" "));

// ---------------------------------------------------------------------------------------------
// Term accumulation.

type Acc = { text: string; kind: QueryTermKind; weight: number; count: number; order: number };

function createTermBag() {
  const byText = new Map<string, Acc>();
  let order = 0;
  return {
    add(text: string, kind: QueryTermKind, weight: number): void {
      if (text === "" || weight <= 0) return;
      const existing = byText.get(text);
      if (existing === undefined) {
        byText.set(text, { text, kind, weight, count: 1, order: order++ });
        return;
      }
      existing.count++;
      if (weight > existing.weight) {
        existing.weight = weight;
        existing.kind = kind;
      }
    },
    list(): QueryTerm[] {
      const out = [...byText.values()].map((a) => {
        const factor = Math.min(QUERY_WEIGHTS.maxRepeatFactor, 1 + QUERY_WEIGHTS.repeatBoost * Math.log2(a.count));
        return { term: { text: a.text, weight: round(a.weight * factor), kind: a.kind }, order: a.order, count: a.count };
      });
      out.sort((x, y) => y.term.weight - x.term.weight || y.count - x.count || x.order - y.order);
      return out.map((x) => x.term);
    },
  };
}

type TermBag = ReturnType<typeof createTermBag>;

const round = (n: number) => Math.round(n * 100) / 100;

// ---------------------------------------------------------------------------------------------
// Shapes.

const IDENT = /^[A-Za-z_$][\w$]*$/;
const DOTTED = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/;
const CAMEL = /^[A-Za-z_$]*[a-z0-9][A-Z][\w$]*$|^[A-Z]{2,}[a-z][\w$]*$/;
const SNAKE = /^_*[A-Za-z][A-Za-z0-9]*(?:_+[A-Za-z0-9]+)+_*$|^__\w+__$/;
const LINE_SUFFIX = /(?::\d+){1,2}$|#L\d+(?:-L?\d+)?$|\(\d+,\s*\d+\)$|, line \d+$/;

const isCodeShaped = (s: string) => CAMEL.test(s) || SNAKE.test(s);
/** A word of letters, capitalised at most on its first, then either closing punctuation or dots/colons. */
const PLAIN_WORD = /^([A-Za-z][a-z]*)(?:[,;!?]+|[.:]+)?$/;
const isProduct = (s: string) => PRODUCT_NAMES.has(s.toLowerCase());

function isErrorClassName(name: string): boolean {
  return /^[A-Z][\w$]*(?:Error|Exception|Warning|Exit|Interrupt|Fault)$/.test(name) || BUILTIN_ERRORS.has(name);
}

/** Normalises a path-looking string; returns null when it is not a file path. */
function toPath(raw: string, allowNoExtension: boolean): { path: string; line: number | null } | null {
  let s = raw.trim();
  if (s.length === 0 || s.length > LIMITS.tokenChars) return null;
  let line: number | null = null;
  const suffix = LINE_SUFFIX.exec(s);
  if (suffix) {
    const n = /\d+/.exec(suffix[0]);
    line = n ? Number(n[0]) : null;
    s = s.slice(0, suffix.index);
  }
  s = s.replace(/\\/g, "/").replace(/^(?:\.\/)+/, "");
  if (!/^(?:[A-Za-z]:)?[\w.@~+\-/$[\]]+$/.test(s) || /\/\//.test(s)) return null;
  const segments = s.split("/").filter((x) => x !== "");
  const base = segments[segments.length - 1];
  if (base === undefined) return null;
  const hasSlash = segments.length > 1;
  const dot = base.lastIndexOf(".");
  const ext = dot > 0 ? base.slice(dot + 1).toLowerCase() : "";
  // Dotfiles (".gitmodules", ".env") only when quoted as code.
  if (!hasSlash && base.startsWith(".") && allowNoExtension && /^\.[\w-]+(?:\.[\w-]+)*$/.test(base)) return { path: s, line };
  const known = CODE_EXTENSIONS.has(ext) || EXTENSIONLESS_FILES.has(base);
  if (!known && !(allowNoExtension && hasSlash && /^[\w.@+-]+$/.test(base))) return null;
  if (!hasSlash && (isProduct(base) || /^\d/.test(base) || base.startsWith("."))) return null;
  // "foo.bar" with an unknown extension is a dotted name, not a file.
  return { path: s.replace(/\/+$/, ""), line };
}

function frameOrigin(path: string): FrameOrigin {
  const p = path.replace(/\\/g, "/");
  if (/^(?:node:|internal\/|ext:|deno:|bun:|native\b|<|\[)/.test(p) || p.includes("<frozen ")) return "runtime";
  if (/\/(?:site-packages|dist-packages|node_modules)\//.test(p) || /^(?:site-packages|node_modules)\//.test(p)) return "library";
  if (/^https?:\/\//.test(p) || /\/\.cargo\/registry\/|\/go\/pkg\/mod\/|\/\.m2\/repository\//.test(p)) return "library";
  if (/(?:^|\/)lib\/python\d+(?:\.\d+)?\//i.test(p) || /(?:^|\/)python\d*\/lib\//i.test(p)) return "runtime";
  if (/\/usr\/lib\/python|\/lib\/node\/|\/rustc\//.test(p)) return "runtime";
  return "project";
}

/** Strips URL schemes and library prefixes from a frame location. */
function framePath(location: string): string | null {
  let s = location.trim();
  if (s === "" || /^<.*>$/.test(s) || s === "native" || /^(?:node:|internal\/|ext:|deno:|bun:)/.test(s) || s.startsWith("index ")) {
    return null;
  }
  s = s.replace(/^webpack(?:-internal)?:\/\/\/?(?:\([^)]*\)\/)?/, "").replace(/^file:\/\//, "");
  if (/^https?:\/\//.test(s)) {
    try {
      s = new URL(s).pathname.replace(/^\/+/, "");
    } catch {
      return null;
    }
  }
  s = s.replace(/\?.*$/, "").replace(/\\/g, "/").replace(/^\/([A-Za-z]:\/)/, "$1").replace(/^(?:\.\/)+/, "");
  const lib = /^.*\/(?:site-packages|dist-packages|node_modules)\//.exec(s);
  if (lib) s = s.slice(lib[0].length);
  return s === "" ? null : s;
}

// ---------------------------------------------------------------------------------------------
// Stack frames.

const PY_FRAME = /^\s*File "([^"]+)", line (\d+)(?:, in (.+?))?\s*$/;
const PYTEST_FRAME = /^\s*([\w./\\:-]+\.pyx?):(\d+):(?: in ([\w.<>]+)|\s+(?:[A-Z]\w*)?)?\s*$/;
const JS_FRAME_WITH_FN = /^\s*at (?:async )?(?:new )?(.+?) \((.+?)\)\s*$/;
const JS_FRAME_BARE = /^\s*at (?:async )?(\S+?)\s*$/;
const FF_FRAME = /^\s*([\w$.<>/]*)@(.+?:\d+:\d+)\s*$/;
const LOCATION = /^(.*?)(?::(\d+))?(?::(\d+))?$/;

type FrameLine = { frame: StackFrame; stack: number; order: "outer-first" | "inner-first" };

function parseFrameLine(line: string): { frame: StackFrame; order: FrameLine["order"] } | null {
  let m = PY_FRAME.exec(line);
  if (m) {
    const location = m[1] ?? "";
    const path = framePath(location);
    return {
      frame: {
        path,
        line: Number(m[2]),
        symbol: m[3] !== undefined && !m[3].startsWith("<") ? m[3].trim() : null,
        origin: path === null ? "runtime" : frameOrigin(location),
        language: "python",
      },
      order: "outer-first",
    };
  }
  m = PYTEST_FRAME.exec(line);
  if (m) {
    const location = m[1] ?? "";
    const path = framePath(location);
    return {
      frame: {
        path,
        line: Number(m[2]),
        symbol: m[3] !== undefined && !m[3].startsWith("<") ? m[3] : null,
        origin: path === null ? "runtime" : frameOrigin(location),
        language: "python",
      },
      order: "outer-first",
    };
  }
  let fn: string | null = null;
  let location: string | null = null;
  m = JS_FRAME_WITH_FN.exec(line);
  if (m) {
    fn = m[1] ?? null;
    location = m[2] ?? null;
  } else if ((m = JS_FRAME_BARE.exec(line)) && /:\d+(?::\d+)?$/.test(m[1] ?? "")) {
    location = m[1] ?? null;
  } else if ((m = FF_FRAME.exec(line))) {
    fn = m[1] || null;
    location = m[2] ?? null;
  }
  if (location === null) return null;
  // "at Array.map (<anonymous>)", "at async Promise.all (index 0)": location without a file
  const loc = LOCATION.exec(location.trim());
  const file = loc?.[1] ?? location;
  const path = framePath(file);
  return {
    frame: {
      path,
      line: loc?.[2] !== undefined ? Number(loc[2]) : null,
      symbol: fn !== null ? cleanJsFunction(fn) : null,
      origin: path === null ? "runtime" : frameOrigin(file),
      language: "javascript",
    },
    order: "inner-first",
  };
}

function cleanJsFunction(fn: string): string | null {
  const s = fn
    .replace(/\s*\[as [^\]]+\]$/, "")
    .replace(/^async /, "")
    .replace(/^new /, "")
    .replace(/\.<anonymous>$/, "")
    .replace(/^<anonymous>$/, "")
    .trim();
  if (s === "" || s.includes("<") || s === "eval") return null;
  return s;
}

// ---------------------------------------------------------------------------------------------
// Markdown structure.

type Zone = "prose" | "code" | "frame" | "skip";
type Line = { text: string; zone: Zone; fenceLang: string | null };

function splitLines(text: string): { lines: Line[]; fenceLangs: string[] } {
  const raw = text
    .replace(/<!--[\s\S]*?-->/g, " ")
    .replace(/\r\n?/g, "\n")
    .split("\n");
  const lines: Line[] = [];
  const fenceLangs: string[] = [];
  let fence: { char: string; len: number; lang: string } | null = null;
  for (const t of raw) {
    const f = /^ {0,3}(`{3,}|~{3,})\s*([\w+#.-]*)/.exec(t);
    if (fence === null && f) {
      const marks = f[1] ?? "```";
      fence = { char: marks[0] ?? "`", len: marks.length, lang: (f[2] ?? "").toLowerCase() };
      if (fence.lang !== "") fenceLangs.push(fence.lang);
      lines.push({ text: "", zone: "skip", fenceLang: null });
      continue;
    }
    if (fence !== null) {
      const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(t);
      if (close && close[1]?.[0] === fence.char && (close[1]?.length ?? 0) >= fence.len) {
        fence = null;
        lines.push({ text: "", zone: "skip", fenceLang: null });
        continue;
      }
      lines.push({ text: t, zone: "code", fenceLang: fence.lang });
      continue;
    }
    lines.push({ text: t, zone: /^(?: {4}|\t)\S/.test(t) && !/^\s*[-*+]\s/.test(t) ? "code" : "prose", fenceLang: null });
  }
  return { lines, fenceLangs };
}

// ---------------------------------------------------------------------------------------------
// The analysis.

type Ctx = {
  bag: TermBag;
  errors: Map<string, string | null>;
  language: "python" | "javascript" | null;
  long: boolean;
};

export function analyzeQuery(text: string): QueryAnalysis {
  const { lines, fenceLangs } = splitLines(text);

  // 1. Stack frames, and the source lines Python prints under them.
  const frameLines: FrameLine[] = [];
  let stack = 0;
  let previousWasFrame = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^\s*(?:Traceback \(most recent call last\)|Stack trace|Stacktrace)/i.test(line.text)) {
      stack++;
      line.zone = "skip";
      previousWasFrame = false;
      continue;
    }
    const parsed = line.text.length <= 2 * LIMITS.tokenChars ? parseFrameLine(line.text) : null;
    if (parsed) {
      if (!previousWasFrame && parsed.order === "inner-first") stack++;
      frameLines.push({ frame: parsed.frame, stack, order: parsed.order });
      line.zone = "frame";
      previousWasFrame = true;
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

  const ctx: Ctx = { bag: createTermBag(), errors: new Map(), language, long };

  addFrames(ctx, frameLines);

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

  // 5. Assemble.
  let terms = ctx.bag.list();
  if (long) {
    let words = 0;
    terms = terms.filter((t) => t.kind !== "word" || ++words <= LIMITS.wordsInReport);
  }
  terms = terms.slice(0, LIMITS.terms);
  const paths = terms.filter((t) => t.kind === "path").map((t) => t.text);
  const symbols = terms
    .filter(
      (t) =>
        IDENT.test(t.text) &&
        (t.kind === "identifier" || t.kind === "symbolFromTrace" || (t.kind === "error" && !BUILTIN_ERRORS.has(t.text))),
    )
    .map((t) => t.text)
    .slice(0, LIMITS.symbols);

  return {
    terms,
    paths,
    symbols,
    errors: [...ctx.errors].map(([type, message]) => ({ type, message })),
    frames,
    language,
    isLongReport: long,
  };
}

function detectLanguage(text: string, lines: Line[], fenceLangs: string[], frames: StackFrame[]): "python" | "javascript" | null {
  let py = 0;
  let js = 0;
  for (const f of frames) {
    if (f.language === "python") py += 2;
    else js += 2;
  }
  for (const lang of fenceLangs) {
    if (/^(?:py|python|python3|pycon|ipython|pytb)$/.test(lang)) py += 3;
    if (/^(?:js|javascript|ts|typescript|jsx|tsx|mjs|node)$/.test(lang)) js += 3;
  }
  py += (text.match(/\b[\w/-]+\.pyx?\b/g) ?? []).length;
  js += (text.match(/\b[\w/-]+\.(?:[mc]?[jt]sx?)\b/g) ?? []).filter((p) => !isProduct(p)).length;
  for (const l of lines) {
    if (l.zone !== "code") continue;
    if (/^\s*(?:def |class \w+[:(]|from [\w.]+ import |import [\w.]+\s*$|>>> )/.test(l.text)) py++;
    if (/^\s*(?:const |let |function |export |import .* from ['"])|=>|require\(/.test(l.text)) js++;
  }
  if (py === 0 && js === 0) return null;
  return py >= js ? "python" : "javascript";
}

function addFrames(ctx: Ctx, frameLines: FrameLine[]): void {
  // The innermost project frame of each stack: last printed in Python, first printed in JS.
  const innermost = new Set<FrameLine>();
  const byStack = new Map<number, FrameLine[]>();
  for (const f of frameLines) byStack.set(f.stack, [...(byStack.get(f.stack) ?? []), f]);
  for (const group of byStack.values()) {
    const project = group.filter((f) => f.frame.origin === "project" && f.frame.path !== null);
    const pick = group[0]?.order === "inner-first" ? project[0] : project[project.length - 1];
    if (pick) innermost.add(pick);
  }
  const W = QUERY_WEIGHTS;
  for (const f of frameLines) {
    const { frame } = f;
    const bonus = innermost.has(f) ? W.innermostFrameBonus : 0;
    const [pathW, symW] =
      frame.origin === "project"
        ? [W.projectFramePath + bonus, W.projectFrameSymbol + bonus]
        : frame.origin === "library"
          ? [W.libraryFramePath, W.libraryFrameSymbol]
          : [W.runtimeFramePath, W.runtimeFrameSymbol];
    if (frame.path !== null) ctx.bag.add(frame.path, "path", pathW);
    if (frame.symbol !== null && !(frame.origin === "runtime" && frame.path === null)) {
      const parts = frame.symbol.split(".").filter((p) => IDENT.test(p));
      const name = parts[parts.length - 1];
      if (name !== undefined && !CODE_KEYWORDS.has(name)) ctx.bag.add(name, "symbolFromTrace", symW);
      const owner = parts[parts.length - 2];
      if (owner !== undefined && !JS_FRAME_RECEIVERS.has(owner) && !CODE_KEYWORDS.has(owner)) {
        ctx.bag.add(owner, "symbolFromTrace", symW * 0.6);
      }
    }
  }
}

// ----- errors

const ERROR_HEADER = /(?:^|[\s:(])((?:[A-Za-z_][\w$]*\.)*([A-Z][\w$]*))(?:\s*\[([A-Z][A-Z0-9_]+)\])?:\s+(\S.*)$/;
const ERROR_MENTION = /(?<![\w.$])((?:[A-Za-z_][\w$]*\.)*)([A-Z][A-Za-z0-9_]*(?:Error|Exception|Warning|Interrupt)|StopIteration|StopAsyncIteration|SystemExit|GeneratorExit)(?![\w$])/g;
const RAISE = /\b(?:raise|throw\s+new|throw|new)\s+((?:[A-Za-z_][\w$]*\.)*([A-Z][\w$]*))\(\s*[frbu]?(["'`])(.{3,200}?)\3/g;
const ERRNO = /\b(E[A-Z]{2,}[A-Z_]*)\b/g;

/** Adds exception classes, messages and errno codes; true when the line is an error header ("X: message"). */
function extractErrors(ctx: Ctx, line: string): boolean {
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
  // Identifiers and paths quoted in the message: 'NoneType' object has no attribute 'get_clearsky'
  for (const q of msg.matchAll(/(['"`‘“])([^'"`’”\s]{2,120})['"`’”]/g)) {
    const inner = q[2] ?? "";
    const path = toPath(inner, false);
    if (path) ctx.bag.add(path.path, "path", W.pathInText);
    else if (DOTTED.test(inner)) addDotted(ctx, inner, W.dottedInText, false);
    else if (IDENT.test(inner) && !PYTHON_BUILTIN_TYPES.has(inner) && !CODE_KEYWORDS.has(inner)) {
      ctx.bag.add(inner, "identifier", W.identifierQuotedInError);
    }
  }
  addWords(ctx, msg.replace(/(['"`])[^'"`\s]*\1/g, " "), W.wordInErrorMessage);
}

// ----- dotted names

function addDotted(ctx: Ctx, name: string, weight: number, inCode: boolean): void {
  let parts = name.split(".");
  if (parts.length > 1 && /^(?:self|this|cls|super)$/.test(parts[0] ?? "")) parts = parts.slice(1);
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
  if (!CODE_KEYWORDS.has(last) && last.length > 1) ctx.bag.add(last, "identifier", w * 0.75);
  for (const p of parts.slice(alias ? 1 : 0, -1)) {
    if (p.length > 1 && !CODE_KEYWORDS.has(p) && !LIBRARY_ALIASES.has(p)) ctx.bag.add(p, "identifier", w * 0.5);
  }
  // JS property chains (camelCase) are not modules; snake_case chains are Python even in mixed reports.
  // In code, receivers are mostly variables (site.get_clearsky); imports name the modules there.
  if (alias || inCode || (ctx.language === "javascript" && !parts.some((p) => p.includes("_")))) return;
  // Candidate Python modules: the leading lower-case parts before a class or the final attribute.
  const firstClass = parts.findIndex((p) => /^[A-Z]/.test(p));
  const moduleParts = (firstClass === -1 ? parts.slice(0, -1) : parts.slice(0, firstClass)).filter(Boolean);
  if (moduleParts.length === 0 || !moduleParts.every((p) => /^[a-z_][a-z0-9_]*$/.test(p))) return;
  const path = `${moduleParts.join("/")}.py`;
  ctx.bag.add(path, "path", moduleParts.length >= 2 ? QUERY_WEIGHTS.modulePath : QUERY_WEIGHTS.shortModulePath);
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

function extractFromCodeLine(ctx: Ctx, raw: string, factor: number): void {
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
    if (path && path.path.includes("/")) ctx.bag.add(path.path, "path", W.pathInCode * factor);
  }

  // String literals: single-name contents (column names, keys) are kept weakly, the rest dropped.
  const code = line.replace(/(["'`])((?:\\.|(?!\1).)*)\1/g, (_m, _q: string, inner: string) => {
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

function extractFromProseLine(ctx: Ctx, raw: string, isTitle: boolean): void {
  const W = QUERY_WEIGHTS;
  // Inline code spans first.
  const line = raw.replace(/(`+)([^`]+?)\1(?!`)/g, (_m, _ticks: string, inner: string) => {
    extractFromSpan(ctx, inner.trim());
    return " ";
  });
  const wordWeight = !ctx.long ? W.wordInShortQuery : isTitle ? W.wordInTitle : W.wordInReport;
  const words: string[] = [];
  for (const rawToken of line.split(/\s+/)) {
    if (rawToken === "" || rawToken.length > LIMITS.tokenChars) continue;
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
    const token = rawToken.replace(/^[([{<"'“‘*]+/, "").replace(/[)\]}>"'”’*,;!?]+$/, "").replace(/[.:]+$/, "");
    if (token === "") continue;
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(token)) {
      addUrl(ctx, token);
      continue;
    }
    if (/^[@#]\w/.test(token)) continue; // @mentions, #123
    const path = /[/\\.]/.test(token) ? toPath(token, false) : null;
    if (path) {
      ctx.bag.add(path.path, "path", W.pathInText);
      continue;
    }
    if (isProduct(token) || isProduct(token.replace(/\.$/, ""))) {
      words.push(token);
      continue;
    }
    const call = /^([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\(.*\)?$/.exec(token);
    const name = call ? (call[1] ?? "") : token;
    if (DOTTED.test(name) && !NON_DOTTED.has(name.toLowerCase())) {
      const parts = name.split(".");
      const last = parts[parts.length - 1] ?? "";
      const domain = DOMAIN_SUFFIXES.has(last.toLowerCase()) && parts.every((p) => /^[a-z0-9-]+$/i.test(p) && !isCodeShaped(p));
      const sentence = parts.length === 2 && /^[A-Z][a-z]+$/.test(last) && !isCodeShaped(parts[0] ?? "");
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
    ctx.bag.add(path.path, "path", W.pathInText);
    return;
  }
  const name = inner.replace(/\(.*\)$/, "");
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
  // https://github.com/org/repo/blob/<ref>/src/x.py#L10 (GitHub, GitLab "/-/blob/")
  const m = /\/(?:-\/)?(?:blob|tree|raw)\/[^/]+\/([^?#\s]+)/.exec(url);
  if (!m) return;
  const path = toPath(decodeURIComponentSafe(m[1] ?? ""), true);
  if (path) ctx.bag.add(path.path, "path", QUERY_WEIGHTS.pathInText);
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function addWords(ctx: Ctx, text: string, weight: number): void {
  const normalized = text.toLowerCase().replace(/(\w)['’](\w)/g, "$1$2");
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
