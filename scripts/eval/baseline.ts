/** The BM25 baseline of a case: whole files of base_commit, the case language's non-test sources. */
import { bm25Corpus, bm25Rank, type Bm25File } from "./bm25.ts";
import type { Case } from "./cases.ts";
import { readBlobs, type TreeEntry } from "./git-host.ts";
import { isBaselineFile } from "./languages.ts";

const SYMLINK = "120000";

/** The baseline's ranking for `c` (every file that matches the query, best first); `entries` is base_commit's tree. */
export function baselineRanking(c: Case, entries: readonly TreeEntry[], mirror: string): Bm25File[] {
  const chosen = entries.filter((e) => e.mode !== SYMLINK && isBaselineFile(e.path, c.language));
  const contents = readBlobs(mirror, chosen.map((e) => e.blob));
  const files = chosen.filter((e) => contents.has(e.blob)).map((e) => ({ path: e.path, text: contents.get(e.blob)!.toString("utf8") }));
  return bm25Rank(bm25Corpus(files), c.problem_statement).map(({ path, lines }) => ({ path, lines }));
}
