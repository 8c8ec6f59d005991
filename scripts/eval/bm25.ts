/**
 * The whole-file BM25 baseline: identifier-splitting tokenizer (each identifier lower-cased, plus its
 * snake_case / camelCase parts when it has several), k1 1.2, b 0.75, the query's DISTINCT tokens,
 * idf = ln(1 + (N - df + 0.5) / (df + 0.5)). Files that match no query token are not returned; ties
 * go to the lower path, so the ranking is deterministic.
 */

const K1 = 1.2;
const B = 0.75;

export function bm25Tokens(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/[A-Za-z_][A-Za-z0-9_]*|[0-9]+/g)) {
    const word = m[0];
    out.push(word.toLowerCase());
    const parts = word
      .split("_")
      .flatMap((p) => p.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g) ?? [])
      .map((p) => p.toLowerCase());
    if (parts.length > 1) for (const p of parts) out.push(p);
  }
  return out;
}

export type Bm25File = { path: string; lines: number };

export type Bm25Corpus = { files: Bm25File[]; tfs: Map<string, number>[]; lengths: number[]; df: Map<string, number>; avg: number };

/** Lines of a text as an editor numbers them (a final newline ends the last line, it does not start one). */
export function lineCount(text: string): number {
  if (text.length === 0) return 0;
  let n = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return text.endsWith("\n") ? n - 1 : n;
}

export function bm25Corpus(files: readonly { path: string; text: string }[]): Bm25Corpus {
  const tfs: Map<string, number>[] = [];
  const lengths: number[] = [];
  const df = new Map<string, number>();
  for (const { text } of files) {
    const tf = new Map<string, number>();
    const tokens = bm25Tokens(text);
    for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const t of tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
    tfs.push(tf);
    lengths.push(tokens.length);
  }
  return {
    files: files.map((f) => ({ path: f.path, lines: lineCount(f.text) })),
    tfs,
    lengths,
    df,
    avg: lengths.reduce((a, b) => a + b, 0) / Math.max(1, lengths.length),
  };
}

/** The corpus's files that match the query, best first, each with its score. */
export function bm25Rank(corpus: Bm25Corpus, query: string): (Bm25File & { score: number })[] {
  const n = corpus.files.length;
  const terms = [...new Set(bm25Tokens(query))].map((t) => ({ t, df: corpus.df.get(t) ?? 0 })).filter((x) => x.df > 0);
  const out: (Bm25File & { score: number })[] = [];
  corpus.files.forEach((file, i) => {
    const tfs = corpus.tfs[i]!;
    const norm = K1 * (1 - B + (B * corpus.lengths[i]!) / corpus.avg);
    let score = 0;
    for (const { t, df } of terms) {
      const tf = tfs.get(t);
      if (!tf) continue;
      score += (Math.log(1 + (n - df + 0.5) / (df + 0.5)) * tf * (K1 + 1)) / (tf + norm);
    }
    if (score > 0) out.push({ ...file, score });
  });
  return out.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
