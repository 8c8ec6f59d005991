/**
 * A small regular-expression engine with guaranteed linear-time matching, for user-supplied
 * patterns (custom context PATTERN bodies, `.loupe/` PATTERN rules). The expression is compiled to a
 * Thompson NFA and simulated with a set of active states, so no input can trigger catastrophic
 * backtracking.
 *
 * Supported: literals, `.`, `^`, `$`, `\b`, `\B`, classes `[a-z]`, `[^...]`, `\d \D \w \W \s \S`,
 * escapes (`\n \t \r \f \v \xHH \uHHHH`, escaped punctuation), groups `(...)`, `(?:...)`,
 * `(?<name>...)`, alternation `|`, quantifiers `* + ? {n} {n,} {n,m}` (lazy `?` suffix accepted;
 * only "does it match" is answered). Flags: `i` (others ignored).
 * Rejected with SafeRegexError: backreferences, lookaround, unknown escapes, patterns longer than
 * MAX_REGEX_LENGTH; with SafeRegexCostError (a SafeRegexError): patterns that compile to more than
 * MAX_NFA_STATES states (large bounded repeats such as `[a-z]{0,2400}`), counted before building.
 *
 * The cost budget: for each character of the input the simulation visits each state at most once (a
 * state set deduplicated by generation), so a test costs at most MAX_NFA_STATES state visits per
 * character, and a review line (cut at MAX_LINE_CHARS) at most MAX_NFA_STATES x MAX_LINE_CHARS = 2M.
 * The states are typed arrays and each state's answer for an ASCII character is memoised, so a
 * visit is a few array reads (figures: scripts/bench-safe-regex.ts, scripts/results/bench-safe-regex.json).
 * A line that lacks the literal every match must contain (`y` in `[a-z]{0,99}y`) is answered without
 * running the automaton.
 */
import { isWordChar, parse, requiredLiteral, SafeRegexError, stateCount, type AssertKind, type CharTest, type Node } from "./safe-regex-parse.ts";

export { SafeRegexError };

export const MAX_REGEX_LENGTH = 500;
/** States of the compiled automaton (the match state not counted): the cost of one input character. */
export const MAX_NFA_STATES = 500;
/** The characters of a line that review matching reads (src/review/patterns.ts). */
export const MAX_LINE_CHARS = 4000;

/** A pattern refused for its cost: it would compile to `states` states, over `limit`. */
export class SafeRegexCostError extends SafeRegexError {
  override readonly name = "SafeRegexCostError";
  constructor(
    readonly states: number,
    readonly limit: number,
  ) {
    super(
      `pattern is too large: it compiles to ${states > 1_000_000 ? "more than 1,000,000" : states.toLocaleString("en-US")} states, over the limit of ${limit} ` +
        `(each state costs a step per character of every line reviewed); use smaller repeat counts ({n,m}) or fewer alternatives`,
    );
  }
}

export type SafeRegex = {
  source: string;
  flags: string;
  /** States of the compiled automaton: the most a character of input costs. */
  states: number;
  /** True when the expression matches somewhere in `input`. */
  test(input: string): boolean;
};

const MATCH = 0;
const CHAR = 1;
const SPLIT = 2;
const ASSERT = 3;
const ASSERTS: AssertKind[] = ["bol", "eol", "wordb", "nonwordb"];

type Program = {
  size: number;
  start: number;
  kind: Uint8Array;
  /** CHAR and ASSERT: the next state; SPLIT: the first branch. */
  out: Int32Array;
  /** SPLIT: the second branch; ASSERT: the index of its kind in ASSERTS. */
  arg: Int32Array;
  tests: (CharTest | null)[];
};

function build(root: Node): Program {
  const kind: number[] = [MATCH];
  const out: number[] = [0];
  const arg: number[] = [0];
  const tests: (CharTest | null)[] = [null];
  const add = (k: number, o: number, a: number, test: CharTest | null = null): number => {
    kind.push(k);
    out.push(o);
    arg.push(a);
    tests.push(test);
    return kind.length - 1;
  };
  const compile = (node: Node, next: number): number => {
    switch (node.t) {
      case "char":
        return add(CHAR, next, 0, node.test);
      case "assert":
        return add(ASSERT, next, ASSERTS.indexOf(node.kind));
      case "cat": {
        let s = next;
        for (let j = node.items.length - 1; j >= 0; j--) s = compile(node.items[j]!, s);
        return s;
      }
      case "alt": {
        let s = compile(node.items[node.items.length - 1]!, next);
        for (let j = node.items.length - 2; j >= 0; j--) s = add(SPLIT, compile(node.items[j]!, next), s);
        return s;
      }
      case "rep": {
        let tail: number;
        if (node.max === Infinity) {
          const loop = add(SPLIT, -1, next);
          out[loop] = compile(node.node, loop);
          tail = loop;
        } else {
          tail = next;
          for (let j = node.min; j < node.max; j++) tail = add(SPLIT, compile(node.node, tail), next);
        }
        let s = tail;
        for (let j = 0; j < node.min; j++) s = compile(node.node, s);
        return s;
      }
    }
  };
  const start = compile(root, MATCH);
  return { size: kind.length, start, kind: Uint8Array.from(kind), out: Int32Array.from(out), arg: Int32Array.from(arg), tests };
}

const WORD_ASCII = Uint8Array.from({ length: 128 }, (_, c) => (isWordChar(String.fromCharCode(c)) ? 1 : 0));
const isWordCode = (cp: number) => cp >= 0 && cp < 128 && WORD_ASCII[cp] === 1;

/**
 * The matcher of a program: runs the automaton over an input (code points, as `Array.from` splits
 * them) and answers at the first match. Its buffers are the program's, reused by every call (a call
 * runs to its end synchronously).
 */
function matcher(p: Program): (input: string) => boolean {
  const { size, start, kind, out, arg, tests } = p;
  // A state's answer for an ASCII character, memoised across calls: 0 not asked yet, 1 no, 2 yes.
  const memo = new Uint8Array(size * 128);
  // mark[s] === gen: s was reached for the position being built; a state is visited once per position.
  const mark = new Int32Array(size);
  const stack = new Int32Array(size);
  const lists = [new Int32Array(size), new Int32Array(size)] as const;
  let gen = 0;
  let matched = false;
  // The context of the position being built, for assertions.
  let atStart = true;
  let atEnd = false;
  let prevWord = false;
  let hereWord = false;

  /** Adds the character states reachable from `s` without reading a character to `list`; returns its new length. */
  const add = (s: number, list: Int32Array, len: number): number => {
    if (mark[s] === gen) return len;
    mark[s] = gen;
    let sp = 0;
    stack[sp++] = s;
    while (sp > 0) {
      const id = stack[--sp]!;
      const k = kind[id]!;
      let follow = -1;
      let other = -1;
      if (k === CHAR) list[len++] = id;
      else if (k === MATCH) matched = true;
      else if (k === SPLIT) (follow = out[id]!), (other = arg[id]!);
      else {
        const a = arg[id]!;
        const boundary = prevWord !== hereWord;
        if (a === 0 ? atStart : a === 1 ? atEnd : a === 2 ? boundary : !boundary) follow = out[id]!;
      }
      if (other >= 0 && mark[other] !== gen) (mark[other] = gen), (stack[sp++] = other);
      if (follow >= 0 && mark[follow] !== gen) (mark[follow] = gen), (stack[sp++] = follow);
    }
    return len;
  };

  return (input) => {
    if (gen > 0x3fffffff) (gen = 0), mark.fill(0);
    gen++;
    matched = false;
    atStart = true;
    atEnd = input.length === 0;
    prevWord = false;
    hereWord = input.length > 0 && isWordCode(input.codePointAt(0)!);
    let [cur, next] = lists;
    let curLen = add(start, cur, 0);
    for (let i = 0; i < input.length && !matched; ) {
      const cp = input.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      i += cp > 0xffff ? 2 : 1;
      gen++;
      atStart = false;
      atEnd = i >= input.length;
      prevWord = isWordCode(cp);
      hereWord = !atEnd && isWordCode(input.codePointAt(i)!);
      let nextLen = 0;
      for (let k = 0; k < curLen; k++) {
        const id = cur[k]!;
        let yes: boolean;
        if (cp < 128) {
          const at = id * 128 + cp;
          let known = memo[at]!;
          if (known === 0) memo[at] = known = tests[id]!(ch) ? 2 : 1;
          yes = known === 2;
        } else yes = tests[id]!(ch);
        if (yes) nextLen = add(out[id]!, next, nextLen);
      }
      nextLen = add(start, next, nextLen); // unanchored search: a new attempt starts at every position
      [cur, next] = [next, cur];
      curLen = nextLen;
    }
    return matched;
  };
}

/** A cheap test a line must pass to possibly match: it holds the literal every match holds. */
function prefilterOf(root: Node, nocase: boolean): ((input: string) => boolean) | null {
  const literal = requiredLiteral(root);
  if (literal === "") return null;
  if (!nocase) return (input) => input.includes(literal);
  // Case-insensitive: exact for ASCII lines (the engine folds case per character); others run the automaton.
  if (/[^\x00-\x7f]/.test(literal)) return null;
  const lower = literal.toLowerCase();
  return (input) => /[^\x00-\x7f]/.test(input) || input.toLowerCase().includes(lower);
}

export function compileSafeRegex(source: string, flags = ""): SafeRegex {
  if (source.length > MAX_REGEX_LENGTH) throw new SafeRegexError(`pattern is longer than ${MAX_REGEX_LENGTH} characters`);
  if (source.length === 0) throw new SafeRegexError("empty pattern");
  const nocase = flags.includes("i");
  const root = parse(source, nocase);
  const states = stateCount(root);
  if (states > MAX_NFA_STATES) throw new SafeRegexCostError(states, MAX_NFA_STATES);
  const run = matcher(build(root));
  const prefilter = prefilterOf(root, nocase);
  return {
    source,
    flags,
    states,
    test: (input) => (prefilter === null || prefilter(input)) && run(input),
  };
}

/** Error message for an unusable expression, or null. */
export function validateSafeRegex(source: string, flags = ""): string | null {
  try {
    compileSafeRegex(source, flags);
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}
