/**
 * The syntax side of the safe regular-expression engine (./safe-regex.ts): the parser from pattern
 * text to a tree, the number of NFA states a tree compiles to (counted before anything is built, so a
 * costly pattern is refused with its size), and the literal every match must contain (a line without
 * it is skipped without running the automaton).
 */

export class SafeRegexError extends Error {
  override readonly name: string = "SafeRegexError";
}

export type CharTest = (c: string) => boolean;
export type AssertKind = "bol" | "eol" | "wordb" | "nonwordb";
export type Node =
  /** `lit`: the one character it matches, when it is a plain literal (for the required literal). */
  | { t: "char"; test: CharTest; lit?: string }
  | { t: "assert"; kind: AssertKind }
  | { t: "cat"; items: Node[] }
  | { t: "alt"; items: Node[] }
  | { t: "rep"; node: Node; min: number; max: number };

const isDigit: CharTest = (c) => c >= "0" && c <= "9";
export const isWordChar: CharTest = (c) => /^[A-Za-z0-9_]$/.test(c);
const isSpace: CharTest = (c) => /^\s$/.test(c);
const literal = (ch: string): Extract<Node, { t: "char" }> => ({ t: "char", test: (x) => x === ch, lit: ch });

type Escape = { node: Extract<Node, { t: "char" }> } | { assert: "wordb" | "nonwordb" };

/** A test that also takes the other case of a character (the `i` flag). */
const caseless = (test: CharTest): CharTest => (x) => test(x) || test(x.toLowerCase()) || test(x.toUpperCase());

/** The tree of `src`; with `nocase` (the `i` flag) every character test takes either case (a class before its `^`). */
export function parse(src: string, nocase = false): Node {
  let i = 0;
  const matching = (node: Extract<Node, { t: "char" }>): Node => (nocase ? { ...node, test: caseless(node.test) } : node);
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

  const parseEscape = (inClass: boolean): Escape => {
    const c = src[i++];
    if (c === undefined) return fail("trailing backslash");
    const test = (t: CharTest): Escape => ({ node: { t: "char", test: t } });
    switch (c) {
      case "d":
        return test(isDigit);
      case "D":
        return test((x) => !isDigit(x));
      case "w":
        return test(isWordChar);
      case "W":
        return test((x) => !isWordChar(x));
      case "s":
        return test(isSpace);
      case "S":
        return test((x) => !isSpace(x));
      case "n":
        return { node: literal("\n") };
      case "t":
        return { node: literal("\t") };
      case "r":
        return { node: literal("\r") };
      case "f":
        return { node: literal("\f") };
      case "v":
        return { node: literal("\v") };
      case "b":
        if (inClass) return { node: literal("\b") };
        return { assert: "wordb" };
      case "B":
        if (inClass) return fail("\\B in class");
        return { assert: "nonwordb" };
      case "x": {
        const m = /^[0-9a-fA-F]{2}/.exec(src.slice(i));
        if (!m) return fail("bad \\x escape");
        i += 2;
        return { node: literal(String.fromCharCode(parseInt(m[0], 16))) };
      }
      case "u": {
        const m = /^[0-9a-fA-F]{4}/.exec(src.slice(i));
        if (!m) return fail("bad \\u escape");
        i += 4;
        return { node: literal(String.fromCharCode(parseInt(m[0], 16))) };
      }
      default:
        if (/[0-9]/.test(c)) return fail("backreferences are not supported");
        if (/[A-Za-z]/.test(c)) return fail(`unsupported escape \\${c}`);
        return { node: literal(c) };
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
        if (!("node" in e)) return fail("assertion in class");
        tests.push(e.node.test);
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
    const member: CharTest = (x) => tests.some((t) => t(x));
    const inClass = nocase ? caseless(member) : member; // [^a] with `i` refuses `A` too
    return { t: "char", test: (x) => inClass(x) !== neg };
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
      return "node" in e ? matching(e.node) : { t: "assert", kind: e.assert };
    }
    return matching(literal(c));
  };

  const node = parseAlt();
  if (i < src.length) fail("unbalanced )");
  return node;
}

/**
 * The number of states `node` compiles to in ./safe-regex.ts's Thompson construction (the final match
 * state not counted): one per character or assertion, one split per alternative and per optional or
 * unbounded repetition, the body once per repetition. It can be huge for nested repeats; it is only
 * compared with the limit.
 */
export function stateCount(node: Node): number {
  switch (node.t) {
    case "char":
    case "assert":
      return 1;
    case "cat":
      return node.items.reduce((n, item) => n + stateCount(item), 0);
    case "alt":
      return node.items.reduce((n, item) => n + stateCount(item), 0) + node.items.length - 1;
    case "rep": {
      const body = stateCount(node.node);
      if (node.max === Infinity) return body * (node.min + 1) + 1;
      return body * node.min + (body + 1) * (node.max - node.min);
    }
  }
}

/** Literals are tracked up to this length (a longer exact string is treated as unknown). */
const MAX_TRACKED = 256;
const MAX_LITERAL = 64;
type LiteralInfo = { exact: string | null; required: string };
const longer = (a: string, b: string) => (b.length > a.length ? b : a);
const tracked = (s: string | null) => (s !== null && s.length <= MAX_TRACKED ? s : null);

/**
 * `exact`: the one string every match of `node` is, when there is one (null: several, or unknown);
 * `required`: a string every match contains.
 */
function literalInfo(node: Node): LiteralInfo {
  switch (node.t) {
    case "char":
      return node.lit !== undefined ? { exact: node.lit, required: node.lit } : { exact: null, required: "" };
    case "assert":
      return { exact: "", required: "" };
    case "cat": {
      let run = ""; // the exact strings of the items just before, which every match holds side by side
      let exact: string | null = "";
      let required = "";
      for (const item of node.items) {
        const info = literalInfo(item);
        required = longer(required, info.required);
        if (info.exact !== null) {
          run = tracked(run + info.exact) ?? info.exact;
          required = longer(required, run);
          exact = exact === null ? null : tracked(exact + info.exact);
        } else {
          run = "";
          exact = null;
        }
      }
      return { exact, required };
    }
    case "alt": {
      const infos = node.items.map(literalInfo);
      const same = (pick: (i: LiteralInfo) => string | null) => infos.every((i) => pick(i) === pick(infos[0]!));
      return { exact: same((i) => i.exact) ? infos[0]!.exact : null, required: same((i) => i.required) ? infos[0]!.required : "" };
    }
    case "rep": {
      if (node.min === 0) return { exact: node.max === 0 ? "" : null, required: "" };
      const inner = literalInfo(node.node);
      if (inner.exact === null) return { exact: null, required: inner.required };
      // Every match starts with `min` copies side by side.
      const whole = inner.exact.length * node.min <= MAX_TRACKED ? inner.exact.repeat(node.min) : null;
      return { exact: node.min === node.max ? whole : null, required: longer(inner.required, whole ?? inner.exact) };
    }
  }
}

/** The longest literal (its first 64 characters) found in every match of `node`, or "" when none is known. */
export function requiredLiteral(node: Node): string {
  return literalInfo(node).required.slice(0, MAX_LITERAL);
}
