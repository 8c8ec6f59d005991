/** What the query analysis produces (../query-analysis.ts), and the weights of its features. */

export type QueryTermKind = "identifier" | "dotted" | "path" | "error" | "word" | "symbolFromTrace";

export type QueryTerm = { text: string; weight: number; kind: QueryTermKind };

export type FrameOrigin = "project" | "library" | "runtime";

/** The languages whose stack traces and error output the analysis reads. */
export type ReportLanguage = "python" | "javascript" | "go" | "rust" | "java" | "kotlin" | "c" | "cpp" | "ruby" | "csharp" | "php";

/** Languages run from their source (their stacks are the program's own calls, with no `main` entry point). */
export const isScripting = (language: ReportLanguage | null): boolean => language === "python" || language === "javascript" || language === "ruby" || language === "php";

export type StackFrame = {
  /** Normalised path, null when the frame has none (`<anonymous>`, `<stdin>`). */
  path: string | null;
  line: number | null;
  /** Function name as printed (e.g. "Location.get_clearsky"), null for module-level code. */
  symbol: string | null;
  origin: FrameOrigin;
  language: ReportLanguage;
};

/** One frame (or a diagnostic's location) read at a line of a report (./frames/). */
export type FrameMatch = {
  frame: StackFrame;
  /** Python prints the outermost call first; every other format the innermost. */
  order: "outer-first" | "inner-first";
  /** Lines the frame takes (Go and Rust print the function and its file on two lines). */
  lines: number;
  /** The frame opens a new stack (`#0`, frame `0:`, a compiler error after other output). */
  startsStack?: boolean;
  /** Text printed after the location that is still worth reading (a compiler or test message). */
  message?: string;
  /** A location a tool reported (compiler, linter, test assertion), not a call in a running stack. */
  diagnostic?: boolean;
};

/**
 * A line of a file the writer of the query points at: `path:line` in the text or its code, a
 * `blob/<ref>/x.js#L12` link. (Stack frames and diagnostics keep theirs in `frames`.)
 */
export type SourceLocation = { path: string; line: number };

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
  /**
   * Lines the writer points at, in the order the analysis reads them (code blocks, then each prose line's
   * code spans before its words); unique, at most LIMITS.locations.
   */
  locations: SourceLocation[];
  /** The language the report seems to be about, when there are signals. */
  language: ReportLanguage | null;
  /** A bug report rather than a short question: long, or with a stack trace or a code block. */
  isLongReport: boolean;
  /** Names a short question asks the uses of ("where is `parseDate` called?": ./usages.ts); none for a report. */
  usages?: string[];
  /** A short query that reports changes to tests beside the code ("fix X, add a test": ./test-work.ts), rather than asking for tests. */
  testWork?: boolean;
  /** The sections a Conventional Commits title's scope names (`fix(router):`: ./commit-scope.ts), as keys. */
  scopes?: string[];
};

// ---------------------------------------------------------------------------------------------
// Weights. One place, so the ranker's evaluation can tune them.

export const QUERY_WEIGHTS = {
  projectFramePath: 3.0,
  projectFrameSymbol: 2.5,
  innermostFrameBonus: 1.0,
  /** Each project frame further out than a stack's innermost one weighs this much of the one inside it (not below a library frame). */
  outerFrameDecay: 0.75,
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
