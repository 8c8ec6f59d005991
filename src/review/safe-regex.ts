/**
 * A small regular-expression engine with guaranteed linear-time matching, for user-supplied
 * patterns (custom context PATTERN bodies). The expression is compiled to a Thompson NFA and
 * simulated with a set of active states, so no input can trigger catastrophic backtracking.
 *
 * Supported: literals, `.`, `^`, `$`, `\b`, `\B`, classes `[a-z]`, `[^...]`, `\d \D \w \W \s \S`,
 * escapes (`\n \t \r \f \v \xHH \uHHHH`, escaped punctuation), groups `(...)`, `(?:...)`,
 * `(?<name>...)`, alternation `|`, quantifiers `* + ? {n} {n,} {n,m}` (lazy `?` suffix accepted;
 * only "does it match" is answered). Flags: `i` (others ignored).
 * Rejected with SafeRegexError: backreferences, lookaround, unknown escapes, patterns longer than
 * MAX_REGEX_LENGTH, or more than MAX_NFA_STATES compiled states (large bounded repeats).
 */

export const MAX_REGEX_LENGTH = 500;
export const MAX_NFA_STATES = 5000;

export class SafeRegexError extends Error {
  override readonly name = "SafeRegexError";
}

export type SafeRegex = {
  source: string;
  flags: string;
  /** True when the expression matches somewhere in `input`. */
  test(input: string): boolean;
};

type CharTest = (c: string) => boolean;
type Node =
  | { t: "char"; test: CharTest }
  | { t: "assert"; kind: "bol" | "eol" | "wordb" | "nonwordb" }
  | { t: "cat"; items: Node[] }
  | { t: "alt"; items: Node[] }
  | { t: "rep"; node: Node; min: number; max: number };

const isDigit: CharTest = (c) => c >= "0" && c <= "9";
const isWordChar: CharTest = (c) => /^[A-Za-z0-9_]$/.test(c);
const isSpace: CharTest = (c) => /^\s$/.test(c);

function parse(src: string): Node {
  let i = 0;
  const fail = (msg: string): never => {
    throw new SafeRegexError(`${msg} at position ${i} in /${src}/`);
  };

  const parseAlt = (): Node => {
    const items: Node[] = [parseCat()];
    while (src[i] === "|") {
      i++;
      items.push(parseCat());
    }
    return items.length === 1 ? items[0]! : { t: "alt", items };
  };

  const parseCat = (): Node => {
    const items: Node[] = [];
    while (i < src.length && src[i] !== "|" && src[i] !== ")") items.push(parseRepeat());
    return { t: "cat", items };
  };

  const parseRepeat = (): Node => {
    let node = parseAtom();
    for (;;) {
      const c = src[i];
      let min: number;
      let max: number;
      if (c === "*") (min = 0), (max = Infinity), i++;
      else if (c === "+") (min = 1), (max = Infinity), i++;
      else if (c === "?") (min = 0), (max = 1), i++;
      else if (c === "{") {
        const m = /^\{(\d{1,4})(,(\d{0,4}))?\}/.exec(src.slice(i));
        if (!m) return node; // literal `{` is handled by parseAtom on the next round
        min = Number(m[1]);
        max = m[2] === undefined ? min : m[3] === "" ? Infinity : Number(m[3]);
        if (max < min) fail("bad repeat range");
        i += m[0].length;
      } else return node;
      if (node.t === "assert") fail("quantified assertion");
      if (src[i] === "?") i++; // lazy: irrelevant for a yes/no answer
      node = { t: "rep", node, min, max };
    }
  };

  const parseEscape = (inClass: boolean): CharTest | { assert: "wordb" | "nonwordb" } => {
    const c = src[i++];
    if (c === undefined) return fail("trailing backslash");
    switch (c) {
      case "d":
        return isDigit;
      case "D":
        return (x) => !isDigit(x);
      case "w":
        return isWordChar;
      case "W":
        return (x) => !isWordChar(x);
      case "s":
        return isSpace;
      case "S":
        return (x) => !isSpace(x);
      case "n":
        return (x) => x === "\n";
      case "t":
        return (x) => x === "\t";
      case "r":
        return (x) => x === "\r";
      case "f":
        return (x) => x === "\f";
      case "v":
        return (x) => x === "\v";
      case "b":
        if (inClass) return (x) => x === "\b";
        return { assert: "wordb" };
      case "B":
        if (inClass) return fail("\\B in class");
        return { assert: "nonwordb" };
      case "x": {
        const m = /^[0-9a-fA-F]{2}/.exec(src.slice(i));
        if (!m) return fail("bad \\x escape");
        i += 2;
        const ch = String.fromCharCode(parseInt(m[0], 16));
        return (x) => x === ch;
      }
      case "u": {
        const m = /^[0-9a-fA-F]{4}/.exec(src.slice(i));
        if (!m) return fail("bad \\u escape");
        i += 4;
        const ch = String.fromCharCode(parseInt(m[0], 16));
        return (x) => x === ch;
      }
      default:
        if (/[0-9]/.test(c)) return fail("backreferences are not supported");
        if (/[A-Za-z]/.test(c)) return fail(`unsupported escape \\${c}`);
        return (x) => x === c;
    }
  };

  const parseClass = (): Node => {
    // src[i] is just after "["
    let neg = false;
    if (src[i] === "^") {
      neg = true;
      i++;
    }
    const tests: CharTest[] = [];
    let first = true;
    for (;;) {
      if (i >= src.length) fail("unterminated character class");
      const c = src[i]!;
      if (c === "]" && !first) {
        i++;
        break;
      }
      first = false;
      i++;
      if (c === "\\") {
        const e = parseEscape(true);
        if (typeof e !== "function") return fail("assertion in class");
        tests.push(e);
        continue;
      }
      if (src[i] === "-" && src[i + 1] !== undefined && src[i + 1] !== "]") {
        let to = src[i + 1]!;
        i += 2;
        if (to === "\\") {
          to = src[i++] ?? fail("trailing backslash");
          if (/[A-Za-z0-9]/.test(to)) fail("class range to an escape");
        }
        if (to < c) fail("bad class range");
        const from = c;
        tests.push((x) => x >= from && x <= to);
        continue;
      }
      const lit = c;
      tests.push((x) => x === lit);
    }
    return { t: "char", test: (x) => tests.some((t) => t(x)) !== neg };
  };

  const parseAtom = (): Node => {
    const c = src[i];
    if (c === undefined) return fail("unexpected end");
    if (c === "(") {
      i++;
      if (src[i] === "?") {
        if (src[i + 1] === ":") i += 2;
        else if (src[i + 1] === "<" && src[i + 2] !== "=" && src[i + 2] !== "!") {
          const close = src.indexOf(">", i);
          if (close < 0) fail("bad group name");
          i = close + 1;
        } else fail("lookaround and inline flags are not supported");
      }
      const inner = parseAlt();
      if (src[i] !== ")") fail("missing )");
      i++;
      return inner;
    }
    if (c === ")") return fail("unbalanced )");
    if (c === "*" || c === "+" || c === "?") return fail("nothing to repeat");
    i++;
    if (c === "[") return parseClass();
    if (c === ".") return { t: "char", test: (x) => x !== "\n" && x !== "\r" };
    if (c === "^") return { t: "assert", kind: "bol" };
    if (c === "$") return { t: "assert", kind: "eol" };
    if (c === "\\") {
      const e = parseEscape(false);
      if (typeof e === "function") return { t: "char", test: e };
      return { t: "assert", kind: e.assert };
    }
    return { t: "char", test: (x) => x === c };
  };

  const node = parseAlt();
  if (i < src.length) fail("unbalanced )");
  return node;
}

type State =
  | { k: "char"; test: CharTest; out: number }
  | { k: "split"; a: number; b: number }
  | { k: "assert"; kind: "bol" | "eol" | "wordb" | "nonwordb"; out: number }
  | { k: "match" };

function build(root: Node): { states: State[]; start: number } {
  const states: State[] = [{ k: "match" }];
  const add = (s: State): number => {
    if (states.length >= MAX_NFA_STATES) throw new SafeRegexError("pattern is too large");
    states.push(s);
    return states.length - 1;
  };
  const compile = (node: Node, next: number): number => {
    switch (node.t) {
      case "char":
        return add({ k: "char", test: node.test, out: next });
      case "assert":
        return add({ k: "assert", kind: node.kind, out: next });
      case "cat": {
        let s = next;
        for (let j = node.items.length - 1; j >= 0; j--) s = compile(node.items[j]!, s);
        return s;
      }
      case "alt": {
        let s = compile(node.items[node.items.length - 1]!, next);
        for (let j = node.items.length - 2; j >= 0; j--) s = add({ k: "split", a: compile(node.items[j]!, next), b: s });
        return s;
      }
      case "rep": {
        let tail: number;
        if (node.max === Infinity) {
          const loop = add({ k: "split", a: -1, b: next });
          const body = compile(node.node, loop);
          (states[loop] as { a: number }).a = body;
          tail = loop;
        } else {
          tail = next;
          for (let j = node.min; j < node.max; j++) tail = add({ k: "split", a: compile(node.node, tail), b: next });
        }
        let s = tail;
        for (let j = 0; j < node.min; j++) s = compile(node.node, s);
        return s;
      }
    }
  };
  const start = compile(root, 0);
  return { states, start };
}

export function compileSafeRegex(source: string, flags = ""): SafeRegex {
  if (source.length > MAX_REGEX_LENGTH) throw new SafeRegexError(`pattern is longer than ${MAX_REGEX_LENGTH} characters`);
  if (source.length === 0) throw new SafeRegexError("empty pattern");
  const nocase = flags.includes("i");
  const { states, start } = build(parse(source));
  if (nocase) {
    for (const s of states) {
      if (s.k === "char") {
        const t = s.test;
        s.test = (x) => t(x) || t(x.toLowerCase()) || t(x.toUpperCase());
      }
    }
  }
  const n = states.length;
  return {
    source,
    flags,
    test(input: string): boolean {
      const chars = Array.from(input);
      const mark = new Int32Array(n).fill(-1);
      let gen = 0;
      let cur: number[] = [];
      let nxt: number[] = [];
      let matched = false;
      const addState = (list: number[], s: number, pos: number) => {
        const stack = [s];
        while (stack.length > 0) {
          const id = stack.pop()!;
          if (mark[id] === gen) continue;
          mark[id] = gen;
          const st = states[id]!;
          if (st.k === "match") {
            matched = true;
          } else if (st.k === "split") {
            stack.push(st.b, st.a);
          } else if (st.k === "assert") {
            const prev = pos > 0 ? chars[pos - 1]! : "";
            const here = pos < chars.length ? chars[pos]! : "";
            let ok: boolean;
            if (st.kind === "bol") ok = pos === 0;
            else if (st.kind === "eol") ok = pos === chars.length;
            else {
              const boundary = (prev !== "" && isWordChar(prev)) !== (here !== "" && isWordChar(here));
              ok = st.kind === "wordb" ? boundary : !boundary;
            }
            if (ok) stack.push(st.out);
          } else {
            list.push(id);
          }
        }
      };
      for (let pos = 0; pos <= chars.length; pos++) {
        addState(cur, start, pos); // unanchored search: a new attempt starts at every position
        if (matched) return true;
        if (pos === chars.length) break;
        const c = chars[pos]!;
        gen++;
        nxt = [];
        for (const id of cur) {
          const st = states[id] as Extract<State, { k: "char" }>;
          if (st.test(c)) addState(nxt, st.out, pos + 1);
        }
        if (matched) return true;
        cur = nxt;
      }
      return matched;
    },
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
