/**
 * Identifier-aware tokenizer shared by the index and the query side (embedded adapter; the Elasticsearch
 * mapping mirrors it with word_delimiter_graph and the same stop words).
 *
 * `getHTTPResponse` -> gethttpresponse, get, http, response (and joined neighbours of 3+ part names:
 * gethttp, httpresponse); `parse_config` -> parse_config, parse, config; `src/foo/bar_baz.py` -> src, foo,
 * bar_baz, bar, baz, py; `code-index` -> code-index, code, index.
 */

/** English filler words. Programming keywords (if, for, in, not, return, class, import...) are kept. */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  "a", "an", "the", "is", "are", "was", "were", "be", "been", "being", "am",
  "of", "to", "on", "at", "by", "into", "onto", "about", "over", "after", "before", "than", "too", "very",
  "and", "but", "or", "so", "also", "just", "only", "then", "there", "here",
  "it", "its", "this", "that", "these", "those", "i", "me", "my", "we", "us", "our", "you", "your",
  "he", "him", "his", "she", "her", "they", "them", "their",
  "what", "which", "who", "whom", "when", "where", "why", "how",
  "has", "have", "had", "having", "do", "does", "did", "doing", "done",
  "can", "could", "should", "would", "will", "shall", "may", "might", "must",
  "some", "any", "all", "each", "such", "same", "other", "more", "most", "few", "both", "again", "once",
  "please", "thanks", "thank", "hi", "hello", "seems", "seem", "like", "want", "wants", "need", "needs",
]);

export const MAX_TOKEN_LENGTH = 64;
const MIN_TOKEN_LENGTH = 2;

/** Runs of letters, digits and underscores, optionally joined by single hyphens (kebab-case). */
const WORD_CHAR = new Uint8Array(128);
for (let c = 0; c < 128; c++) WORD_CHAR[c] = /[A-Za-z0-9_]/.test(String.fromCharCode(c)) ? 1 : 0;
const HYPHEN = 45;
/** camelCase / PascalCase / ACRONYMWord / digit boundaries inside an underscore-free word. */
const PART = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g;

function keep(token: string): boolean {
  return token.length >= MIN_TOKEN_LENGTH && token.length <= MAX_TOKEN_LENGTH && !STOP_WORDS.has(token);
}

/** Parts of one identifier (no separators other than `_`), lowercased, in order. */
export function identifierParts(identifier: string): string[] {
  const parts: string[] = [];
  for (const piece of identifier.split("_")) {
    if (piece === "") continue;
    for (const m of piece.matchAll(PART)) parts.push(m[0].toLowerCase());
  }
  return parts;
}

/**
 * Finds every word of `text` in order: runs of `[A-Za-z0-9_]`, optionally joined by single hyphens
 * (`/[A-Za-z0-9_]+(?:-[A-Za-z0-9_]+)*\/g`), scanned without regex match objects. `onWord` gets the
 * word's span and its 32-bit FNV-1a hash over the UTF-16 code units, computed on the way.
 */
export function scanWords(text: string, onWord: (text: string, start: number, end: number, hash: number) => void): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    let c = text.charCodeAt(i);
    if (c >= 128 || WORD_CHAR[c] === 0) {
      i++;
      continue;
    }
    const start = i++;
    let hash = Math.imul(FNV_OFFSET ^ c, FNV_PRIME);
    for (;;) {
      while (i < n) {
        c = text.charCodeAt(i);
        if (c >= 128 || WORD_CHAR[c] === 0) break;
        hash = Math.imul(hash ^ c, FNV_PRIME);
        i++;
      }
      if (i + 1 < n && c === HYPHEN) {
        const d = text.charCodeAt(i + 1);
        if (d < 128 && WORD_CHAR[d] === 1) {
          hash = Math.imul(Math.imul(hash ^ HYPHEN, FNV_PRIME) ^ d, FNV_PRIME);
          i += 2;
          continue;
        }
      }
      break;
    }
    onWord(text, start, i, hash);
  }
}

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

/** Calls `emit` with every word of `text` in order (see scanWords). */
export function forEachWord(text: string, emit: (word: string) => void): void {
  scanWords(text, (t, start, end) => emit(t.slice(start, end)));
}

/** The 32-bit FNV-1a hash scanWords gives a word. */
export function wordHash(word: string): number {
  let hash = FNV_OFFSET;
  for (let i = 0; i < word.length; i++) hash = Math.imul(hash ^ word.charCodeAt(i), FNV_PRIME);
  return hash;
}

/**
 * Tokens of one word (see forEachWord), in order, memoised: source repeats the same identifiers over
 * and over, and splitting them (regexes, lowercasing) was a large share of indexing time. Bounded:
 * cleared when full. The returned array must not be modified.
 */
const WORD_CACHE_LIMIT = 100_000;
const wordCache = new Map<string, readonly string[]>();
const NO_TOKENS: readonly string[] = [];

export function wordTokens(word: string): readonly string[] {
  let tokens = wordCache.get(word);
  if (tokens === undefined) {
    const out = splitWord(word);
    tokens = out.length === 0 ? NO_TOKENS : out;
    if (wordCache.size >= WORD_CACHE_LIMIT) wordCache.clear();
    wordCache.set(word, tokens);
  }
  return tokens;
}

/** Tokens of one word, not memoised (callers with their own cache). */
export function splitWord(word: string): string[] {
  const out: string[] = [];
  const push = (t: string) => out.push(t);
  if (word.includes("-")) {
    const whole = word.toLowerCase();
    if (/^[a-z][a-z0-9_]+(?:-[a-z][a-z0-9_]+)+$/.test(whole) && keep(whole)) out.push(whole);
    for (const identifier of word.split("-")) splitIdentifier(identifier, push);
  } else splitIdentifier(word, push);
  return out;
}

/**
 * Calls `emit` for every token of `text`, in order, duplicates included (term frequency matters).
 * Kept allocation-light because indexing 40 MB of source runs through it.
 */
export function forEachToken(text: string, emit: (token: string) => void): void {
  forEachWord(text, (word) => {
    const tokens = wordTokens(word);
    for (let i = 0; i < tokens.length; i++) emit(tokens[i]!);
  });
}

function splitIdentifier(identifier: string, emit: (token: string) => void): void {
  if (identifier.length > MAX_TOKEN_LENGTH * 2) return; // base64 blobs, minified code
  const whole = identifier.toLowerCase().replace(/^_+|_+$/g, "");
  // Fast path: a plain lowercase word or number has no parts beyond itself.
  if (/^[a-z]+$|^[0-9]+$/.test(whole) && whole === identifier) {
    if (keep(whole)) emit(whole);
    return;
  }
  const parts = identifierParts(identifier);
  if (parts.length <= 1) {
    if (keep(whole)) emit(whole);
    return;
  }
  if (keep(whole)) emit(whole);
  for (const part of parts) if (keep(part)) emit(part);
  if (parts.length >= 3) {
    for (let i = 0; i + 1 < parts.length; i++) {
      const left = parts[i]!;
      const right = parts[i + 1]!;
      if (isDigit(left) || isDigit(right)) continue;
      const joined = left + right;
      if (keep(joined)) emit(joined);
    }
  }
}

function isDigit(part: string): boolean {
  const c = part.charCodeAt(0);
  return c >= 48 && c <= 57;
}

/** All tokens of `text`, in order, duplicates included. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  forEachToken(text, (t) => out.push(t));
  return out;
}

/** Token -> count. */
export function termFrequencies(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  forEachToken(text, (t) => counts.set(t, (counts.get(t) ?? 0) + 1));
  return counts;
}

/**
 * Token -> count over the whole words of `text` only (an identifier as written, lowercased: `feed_data`,
 * `limitoverrunerror`), without their parts (`feed`, `data`): for lookups of names as a whole.
 */
export function wholeWordFrequencies(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  forEachWord(text, (word) => {
    const whole = wordTokens(word)[0];
    if (whole !== undefined) counts.set(whole, (counts.get(whole) ?? 0) + 1);
  });
  return counts;
}
