/**
 * Word pairs: two words a query writes next to each other ("type mismatch", "health check") are
 * stronger evidence together, where a chunk also writes them next to each other (`errTypeMismatch`,
 * `health_check`, a comment's "type mismatch"), than each word alone anywhere in it (the sequential
 * dependence of IR's term-proximity models). Two words are next to each other inside one name (parts
 * split at case changes, underscores and digits) or with only spaces between them: `Jekyll::Renderer`,
 * `a.b` and "Feb, Mar" make no pair. Words are compared lowercased.
 */
import type { ChunkDocument } from "../codeindex/port.ts";
import type { QueryAnalysis } from "./query-analysis.ts";
import { readsAsReport } from "./query/questions.ts";
import { classifyPath } from "./path-classes.ts";
import { importsOnly } from "../indexing/summary.ts";

/** A name's words: split at case changes, underscores and digits, lowercased, letters only. */
function wordsOfName(name: string): string[] {
  const spaced = name.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2");
  return spaced.toLowerCase().match(/[a-z]+/g) ?? [];
}

const NAME_OR_GAP = /([A-Za-z0-9_$]+)|([ \t]+)|[^A-Za-z0-9_$ \t]+/g;

/**
 * A text's words, one space between two words side by side and ` | ` where a pair breaks (punctuation,
 * a line break, a name with no letters), padded with spaces: the pair `a b` is written in the text
 * exactly when ` a b ` is a substring of this.
 */
function wordText(text: string): string {
  const parts: string[] = [" "];
  for (const m of text.matchAll(NAME_OR_GAP)) {
    if (m[1] !== undefined) {
      const words = wordsOfName(m[1]);
      parts.push(words.length === 0 ? "| " : `${words.join(" ")} `);
    } else if (m[2] === undefined) parts.push("| ");
  }
  return parts.join("");
}

/** Calls `pair(a, b)` for each two words of `text` next to each other. */
export function eachPair(text: string, pair: (a: string, b: string) => void): void {
  for (const run of wordText(text).split("|")) {
    const words = run.split(" ").filter((w) => w.length > 0);
    for (let i = 1; i < words.length; i++) pair(words[i - 1]!, words[i]!);
  }
}

/**
 * The query's adjacent pairs of weighed words (both among `weights`, words of 3 letters or more, not the
 * same word), each weighing the lighter of its two words.
 */
export function queryPairs(text: string, weights: ReadonlyMap<string, number>): Map<string, number> {
  const pairs = new Map<string, number>();
  eachPair(text, (a, b) => {
    if (a === b || a.length < 3 || b.length < 3) return;
    const w = Math.min(weights.get(a) ?? 0, weights.get(b) ?? 0);
    if (w <= 0) return;
    const key = `${a} ${b}`;
    if ((pairs.get(key) ?? 0) < w) pairs.set(key, w);
  });
  return pairs;
}

/**
 * Each chunk's `wordText`, kept while the index keeps its document: about as long as the chunk's text
 * (a set of its pairs would weigh ten times more in the index's 16,384 cached documents).
 */
const wordTexts = new WeakMap<ChunkDocument, string>();

function wordTextOf(doc: ChunkDocument): string {
  let text = wordTexts.get(doc);
  if (text === undefined) wordTexts.set(doc, (text = wordText(doc.text)));
  return text;
}

/**
 * The weight of the heaviest of the query's pairs a chunk also writes (not their sum: a chunk of prose
 * writes many weak pairs, and one specific pair says as much as several).
 */
export function pairEvidence(doc: ChunkDocument, pairs: ReadonlyMap<string, number>): number {
  if (pairs.size === 0) return 0;
  const text = wordTextOf(doc);
  let heaviest = 0;
  for (const [key, w] of pairs) if (w > heaviest && text.includes(` ${key} `)) heaviest = w;
  return heaviest;
}

/** The query's words (lowercased) with their weights. */
function wordWeights(analysis: QueryAnalysis): Map<string, number> {
  const weights = new Map<string, number>();
  for (const t of analysis.terms) {
    if (t.kind !== "word") continue;
    const word = t.text.toLowerCase();
    if ((weights.get(word) ?? 0) < t.weight) weights.set(word, t.weight);
  }
  return weights;
}

/**
 * Each source chunk's share of the word-pair bonus, 1 - e^-w (w: the weight of the heaviest of the
 * query's pairs it writes); chunks writing none are left out. Docs and tests take none: prose holds
 * every pair; nor a block of imports and nothing else (`import dayjs`: the report's module, not its
 * behaviour). The query is read lowercased, so its own code names stay whole (they count as names in
 * the ranking already). A short question takes none: the words it writes together name its topic ("where is the session cookie
 * written?"), which the code that answers need not write and other code does (measured on the answer
 * sets' questions, where it cost answers; reports and commit messages gained).
 */
export function wordPairScores(query: string, analysis: QueryAnalysis, docs: readonly ChunkDocument[]): Map<ChunkDocument, number> {
  const scores = new Map<ChunkDocument, number>();
  if (!readsAsReport(analysis, query)) return scores;
  const pairs = queryPairs(query.toLowerCase(), wordWeights(analysis));
  if (pairs.size === 0) return scores;
  for (const doc of docs) {
    if (classifyPath(doc.path) !== "source" || importsOnly(doc.summary)) continue;
    const evidence = pairEvidence(doc, pairs);
    if (evidence > 0) scores.set(doc, 1 - Math.exp(-evidence));
  }
  return scores;
}
