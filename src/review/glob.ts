/**
 * Glob matching for scope values, include and ignore lists, without regular expressions.
 *
 * Syntax: `*` (any run of characters except `/`), `**` as a whole path segment (any number of
 * directories, including none: `a/**\/b` matches `a/b`; elsewhere `**` acts as `*`), `?` (one
 * character except `/`), `[abc]`, `[a-z]`, `[!abc]` / `[^abc]` (one character except `/`),
 * `{a,b}` alternatives (nested allowed), `\x` escapes. `*` and `?` also match a leading dot.
 * A leading `/` or `./` in the pattern or the path is ignored (paths are repository-relative).
 *
 * Matching simulates a small NFA over the pattern tokens (a set of active positions per input
 * character), so it costs O(pattern length x path length) per alternative with no backtracking:
 * hostile patterns like `a*a*a*a*a*b` or `**\/**\/**\/x` cannot blow up. Limits: pattern length
 * (MAX_GLOB_LENGTH), brace alternatives (MAX_BRACE_EXPANSIONS) and their total length; paths longer
 * than MAX_PATH_LENGTH never match.
 */

export const MAX_GLOB_LENGTH = 1000;
export const MAX_BRACE_EXPANSIONS = 128;
export const MAX_EXPANDED_LENGTH = 16_384;
export const MAX_PATH_LENGTH = 4096;

export class GlobError extends Error {
  override readonly name = "GlobError";
}

export type GlobOptions = {
  /** Case-insensitive matching (used for repository names). */
  nocase?: boolean;
  /** A pattern without `/` is matched against the path's last segment (gitignore style). */
  matchBase?: boolean;
};

export type CompiledGlob = {
  pattern: string;
  match(path: string): boolean;
};

type ClassItem = { from: string; to: string };
type Token =
  | { k: "lit"; c: string }
  | { k: "any" }
  | { k: "class"; neg: boolean; items: ClassItem[] }
  | { k: "star" }
  | { k: "globstar" }
  | { k: "dirstar" };

function stripLeading(s: string): string {
  let out = s;
  for (;;) {
    if (out.startsWith("./")) out = out.slice(2);
    else if (out.startsWith("/")) out = out.slice(1);
    else return out;
  }
}

/** Expands `{a,b}` alternatives (bounded); braces without a top-level comma stay literal. */
export function expandBraces(pattern: string): string[] {
  const out: string[] = [];
  let total = 0;
  const visit = (p: string, from: number) => {
    for (let i = from; i < p.length; i++) {
      const ch = p[i];
      if (ch === "\\") {
        i++;
        continue;
      }
      if (ch !== "{") continue;
      let depth = 0;
      const commas: number[] = [];
      let close = -1;
      for (let j = i; j < p.length; j++) {
        const cj = p[j];
        if (cj === "\\") {
          j++;
          continue;
        }
        if (cj === "{") depth++;
        else if (cj === "}") {
          depth--;
          if (depth === 0) {
            close = j;
            break;
          }
        } else if (cj === "," && depth === 1) commas.push(j);
      }
      if (close < 0 || commas.length === 0) continue;
      const pre = p.slice(0, i);
      const post = p.slice(close + 1);
      const bounds = [i, ...commas, close];
      for (let k = 0; k + 1 < bounds.length; k++) {
        const alt = p.slice(bounds[k]! + 1, bounds[k + 1]!);
        visit(pre + alt + post, pre.length);
      }
      return;
    }
    out.push(p);
    total += p.length;
    if (out.length > MAX_BRACE_EXPANSIONS) throw new GlobError(`glob expands to more than ${MAX_BRACE_EXPANSIONS} alternatives`);
    if (total > MAX_EXPANDED_LENGTH) throw new GlobError("glob alternatives are too long in total");
  };
  visit(pattern, 0);
  return out;
}

function tokenize(p: string): Token[] {
  const chars = Array.from(p);
  const toks: Token[] = [];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    if (ch === "\\") {
      const next = chars[i + 1];
      toks.push({ k: "lit", c: next ?? "\\" });
      i++;
      continue;
    }
    if (ch === "?") {
      toks.push({ k: "any" });
      continue;
    }
    if (ch === "*") {
      let j = i;
      while (chars[j + 1] === "*") j++;
      const run = j - i + 1;
      const atSegStart = i === 0 || chars[i - 1] === "/";
      const atSegEnd = j + 1 === chars.length || chars[j + 1] === "/";
      const prev = toks[toks.length - 1];
      if (run >= 2 && atSegStart && atSegEnd) {
        if (chars[j + 1] === "/") {
          if (prev?.k !== "dirstar") toks.push({ k: "dirstar" }); // `**/**/` == `**/`
          i = j + 1;
        } else {
          if (prev?.k === "dirstar") toks.pop(); // `**/**` == `**`
          toks.push({ k: "globstar" });
          i = j;
        }
      } else {
        if (prev?.k !== "star") toks.push({ k: "star" });
        i = j;
      }
      continue;
    }
    if (ch === "[") {
      const parsed = parseClass(chars, i);
      if (parsed) {
        toks.push(parsed.token);
        i = parsed.end;
        continue;
      }
    }
    toks.push({ k: "lit", c: ch });
  }
  return toks;
}

function parseClass(chars: string[], start: number): { token: Token; end: number } | null {
  let i = start + 1;
  let neg = false;
  if (chars[i] === "!" || chars[i] === "^") {
    neg = true;
    i++;
  }
  const items: ClassItem[] = [];
  let first = true;
  for (; i < chars.length; i++) {
    let ch = chars[i]!;
    if (ch === "]" && !first) return { token: { k: "class", neg, items }, end: i };
    first = false;
    if (ch === "\\" && i + 1 < chars.length) ch = chars[++i]!;
    if (chars[i + 1] === "-" && chars[i + 2] !== undefined && chars[i + 2] !== "]") {
      let to = chars[i + 2]!;
      i += 2;
      if (to === "\\" && i + 1 < chars.length) to = chars[++i]!;
      items.push({ from: ch, to });
    } else {
      items.push({ from: ch, to: ch });
    }
  }
  return null; // no closing bracket: `[` is literal
}

function classMatches(t: Extract<Token, { k: "class" }>, c: string): boolean {
  let hit = false;
  for (const it of t.items) {
    if (c >= it.from && c <= it.to) {
      hit = true;
      break;
    }
  }
  return hit !== t.neg;
}

function nfaMatch(toks: Token[], input: string[]): boolean {
  const m = toks.length;
  let cur = new Uint8Array(m + 1);
  let mid = new Uint8Array(m + 1);
  let next = new Uint8Array(m + 1);
  let nextMid = new Uint8Array(m + 1);
  const closure = (set: Uint8Array) => {
    for (let i = 0; i < m; i++) {
      const k = toks[i]!.k;
      if (set[i] && (k === "star" || k === "globstar" || k === "dirstar")) set[i + 1] = 1;
    }
  };
  cur[0] = 1;
  closure(cur);
  for (const c of input) {
    next.fill(0);
    nextMid.fill(0);
    let any = false;
    for (let i = 0; i < m; i++) {
      const t = toks[i]!;
      if (mid[i]) {
        nextMid[i] = 1;
        if (c === "/") next[i + 1] = 1;
        any = true;
      }
      if (!cur[i]) continue;
      switch (t.k) {
        case "lit":
          if (c === t.c) (next[i + 1] = 1), (any = true);
          break;
        case "any":
          if (c !== "/") (next[i + 1] = 1), (any = true);
          break;
        case "class":
          if (c !== "/" && classMatches(t, c)) (next[i + 1] = 1), (any = true);
          break;
        case "star":
          if (c !== "/") (next[i] = 1), (any = true);
          break;
        case "globstar":
          next[i] = 1;
          any = true;
          break;
        case "dirstar":
          nextMid[i] = 1;
          if (c === "/") next[i + 1] = 1;
          any = true;
          break;
      }
    }
    if (!any) return false;
    closure(next);
    [cur, next] = [next, cur];
    [mid, nextMid] = [nextMid, mid];
  }
  return cur[m] === 1;
}

export function compileGlob(pattern: string, options: GlobOptions = {}): CompiledGlob {
  if (typeof pattern !== "string") throw new GlobError("glob must be a string");
  if (pattern.length > MAX_GLOB_LENGTH) throw new GlobError(`glob is longer than ${MAX_GLOB_LENGTH} characters`);
  const source = stripLeading(options.nocase ? pattern.toLowerCase() : pattern);
  const alternatives = expandBraces(source).map(tokenize);
  const baseOnly = options.matchBase === true && !source.includes("/");
  return {
    pattern,
    match(path: string): boolean {
      if (typeof path !== "string" || path.length > MAX_PATH_LENGTH) return false;
      let p = stripLeading(options.nocase ? path.toLowerCase() : path);
      if (baseOnly) p = p.slice(p.lastIndexOf("/") + 1);
      const input = Array.from(p);
      return alternatives.some((toks) => nfaMatch(toks, input));
    },
  };
}

/** Returns an error message for an unusable glob, or null when it compiles. */
export function validateGlob(pattern: string): string | null {
  try {
    compileGlob(pattern);
    return null;
  } catch (e) {
    return e instanceof GlobError ? e.message : String(e);
  }
}

const cache = new Map<string, CompiledGlob>();
const CACHE_SIZE = 512;

/** Matches with a small bounded cache of compiled patterns. Throws GlobError for invalid patterns. */
export function globMatch(pattern: string, path: string, options: GlobOptions = {}): boolean {
  const key = `${options.nocase ? 1 : 0}${options.matchBase ? 1 : 0}${pattern}`;
  let g = cache.get(key);
  if (!g) {
    g = compileGlob(pattern, options);
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
    cache.set(key, g);
  }
  return g.match(path);
}
