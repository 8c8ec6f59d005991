/** Word lists and token shapes the query analysis uses to tell code from prose (../query-analysis.ts). */

/** tracedTerms: the terms of a report's frames and errors kept past `terms` and `symbols` (../query-analysis.ts). */
export const LIMITS = { wordsInReport: 40, terms: 120, symbols: 40, tracedTerms: 40, messageChars: 200, tokenChars: 300, frameLineChars: 2000, locations: 20 } as const;

// ---------------------------------------------------------------------------------------------
// Vocabularies.

export const STOP_WORDS = new Set(
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
export const REPORT_NOISE = new Set(
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

export const CODE_KEYWORDS = new Set(
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

/** Keywords of Go, Rust, Java, Kotlin, C and C++ that compilers quote in their messages ('constexpr'). */
export const COMPILED_KEYWORDS = new Set(
  (
    "auto break case char const constexpr consteval constinit continue default do double else enum extern float " +
    "for goto if inline int long register restrict return short signed sizeof static struct switch typedef union " +
    "unsigned void volatile while alignas alignof bool catch class decltype delete explicit export friend " +
    "mutable namespace new noexcept nullptr operator private protected public template this throw try typeid " +
    "typename using virtual override final concept requires co_await co_return co_yield " +
    "as async await crate dyn fn impl let loop match mod move mut pub ref self Self super trait type unsafe use where " +
    "chan defer fallthrough func go import interface map package range select var " +
    "abstract assert boolean byte extends implements instanceof native strictfp synchronized throws transient " +
    "fun val when object companion data sealed suspend inner open internal lateinit vararg"
  ).split(/\s+/),
);

/** Receivers whose members are library calls, not project symbols (`np.array`, `console.log`; C++ and Rust `std::`). */
export const LIBRARY_ALIASES = new Set(
  "np pd plt os sys re json math time datetime dt tf sp mpl sns console Math JSON Object Array Promise Number String Date window document process Reflect Symbol require module exports path fs util std".split(
    " ",
  ),
);

/** Receivers in JS frames that carry no project meaning (`Object.parseConfig`). */
export const JS_FRAME_RECEIVERS = new Set("Object Function Module Promise Array process Timeout Immediate EventEmitter Generator AsyncGenerator".split(" "));

export const BUILTIN_ERRORS = new Set(
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

export const ERRNO_CODES = new Set(
  "ENOENT EACCES EPERM EEXIST EISDIR ENOTDIR ENOTEMPTY EMFILE ENFILE EPIPE EBADF EINVAL EAGAIN EBUSY ECONNREFUSED ECONNRESET ECONNABORTED ETIMEDOUT EADDRINUSE EADDRNOTAVAIL EHOSTUNREACH ENETUNREACH ENOTFOUND EAI_AGAIN ENOSPC EROFS ENOMEM".split(
    " ",
  ),
);

export const PYTHON_BUILTIN_TYPES = new Set(
  "NoneType str int float dict list tuple set frozenset bool bytes object type function module method builtin_function_or_method".split(" "),
);

export const CODE_EXTENSIONS = new Set(
  (
    "py pyi pyx pxd ipynb js mjs cjs jsx ts tsx mts cts vue svelte astro go rs java kt kts scala groovy gradle " +
    "rb erb php c h cc cpp cxx hpp hh hxx m mm cs fs fsx vb swift dart lua pl pm r jl ex exs erl hrl clj cljs " +
    "elm hs ml mli nim zig sol sh bash zsh fish ps1 bat cmd sql graphql gql proto thrift json jsonc json5 yaml yml " +
    "toml ini cfg conf env properties xml html htm css scss sass less md mdx rst txt csv tsv lock cmake mk " +
    "dockerfile tf hcl nix wasm wat"
  ).split(/\s+/),
);

export const EXTENSIONLESS_FILES = new Set(["Makefile", "Dockerfile", "Rakefile", "Gemfile", "Procfile", "Jenkinsfile", "Vagrantfile"]);

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

export const NON_DOTTED = new Set(["e.g", "i.e", "a.k.a", "et.al", "vs", "etc", "approx"]);
export const DOMAIN_SUFFIXES = new Set("com org net io dev ai co uk de fr app sh me info edu gov".split(" "));

// ---------------------------------------------------------------------------------------------
// Shapes.

export const IDENT = /^[A-Za-z_$][\w$]*$/;
export const DOTTED = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/;
const CAMEL = /^[A-Za-z_$]*[a-z0-9][A-Z][\w$]*$|^[A-Z]{2,}[a-z][\w$]*$/;
const SNAKE = /^_*[A-Za-z][A-Za-z0-9]*(?:_+[A-Za-z0-9]+)+_*$|^__\w+__$/;
export const LINE_SUFFIX = /(?::\d+){1,2}$|#L\d+(?:-L?\d+)?$|\(\d+,\s*\d+\)$|, line \d+$/;

/**
 * A name qualified with `::` (C++ `fmt::format`, Rust `Span::enter`, `tracing_subscriber::Layer::downcast_raw`,
 * PHP and Ruby `Foo::bar`, the global scope's `::strlen`), template or generic arguments (`Vec<T>::push`)
 * aside, or with `#` or `->`, as dotted parts; null for anything else.
 */
export function qualifiedParts(text: string): string[] | null {
  // A class's member as documentation writes it (Javadoc, Ruby, JSDoc: `JsonPointer#last`) and a member
  // through a C pointer (`ctx->flags`) are qualified names too.
  if (MEMBER_OF.test(text)) return text.split(/#|->/);
  if (!text.includes("::")) return null;
  let name = text;
  // Generic arguments, innermost first (`HashMap<K, Vec<V>>::new`).
  for (let i = 0; i < 4 && name.includes("<"); i++) name = name.replace(/<[^<>]*>/g, "");
  return QUALIFIED.test(name) ? name.split("::").filter(Boolean) : null;
}
const QUALIFIED = /^(?:::)?[A-Za-z_]\w*(?:::[A-Za-z_]\w*)*$/;
const MEMBER_OF = /^(?:[A-Z]\w*#[A-Za-z_]\w*|[A-Za-z_]\w*(?:->[A-Za-z_]\w*)+)$/;

export const isCodeShaped = (s: string) => CAMEL.test(s) || SNAKE.test(s);
/** A word of letters, capitalised at most on its first, then either closing punctuation or dots/colons. */
export const PLAIN_WORD = /^([A-Za-z][a-z]*)(?:[,;!?]+|[.:]+)?$/;
export const isProduct = (s: string) => PRODUCT_NAMES.has(s.toLowerCase());

export function isErrorClassName(name: string): boolean {
  return /^[A-Z][\w$]*(?:Error|Exception|Warning|Exit|Interrupt|Fault)$/.test(name) || BUILTIN_ERRORS.has(name);
}
