/**
 * Candidate search over the code index and ranking into file-level results.
 *
 * Candidates: several lexical queries built from the query analysis (names and paths; natural-language
 * words; the raw text for short questions), a definitions lookup for the names the query mentions and
 * for what the short ones among those definitions call (wrappers, ./callees.ts), and kNN over chunk
 * vectors when an embedder is configured. They are fused and re-ranked in ./ranking.ts, and the files
 * fused with a whole-file lexical ranking of the same text (./whole-file.ts). `genius` searches deeper:
 * larger candidate lists, and the definitions of identifiers that the best chunks call are pulled in too.
 * Each file's references (spans) come from its ranked chunks (./references.ts), led by the lines the
 * query points at in it (./located.ts).
 */
import type { CodeIndex, ChunkDocument, FileHit, IndexHit } from "../codeindex/port.ts";
import type { Embedder } from "../models/embedder.ts";
import type { Logger } from "../logging.ts";
import { analyzeQuery, type QueryAnalysis, type StackFrame } from "./query-analysis.ts";
import { innermostFirst } from "./query/frames/index.ts";
import { withSourcesOfTests } from "./test-sources.ts";
import { referencedNames, wrapperCallees, WRAPPERS } from "./callees.ts";
import { delegateOfBest, delegationReason, withDelegate, withDelegateFile } from "./delegation.ts";
import { namesAFile, withExtraPaths } from "./path-mentions.ts";
import { normalized } from "./quoted-messages.ts";
import { distances, mentionsWord, queryNames, rankFiles, targetKey, translationsOf, type CandidateList, type RankedFile, type TargetKey } from "./ranking.ts";
import { classifyPath } from "./path-classes.ts";
import { crowdedOut, withWholeFileRanking, WHOLE_FILE } from "./whole-file.ts";
import { cUnprefixed, OTHER_SPELLING, STRONG_NAME_WEIGHT } from "./strong-names.ts";
import { withVerbForms } from "./query/base-forms.ts";
import { withoutUsageShapeWords } from "./query/usages.ts";
import { linesIn, specificLocations, withLocatedSpans } from "./located.ts";
import { byOwnEvidence, referencesOf, REFERENCES, type Reference } from "./references.ts";
import { WHOLE_DEFINITION_FILES, windowAt, windowsOfWidened, withWholeDefinitions } from "./whole-definitions.ts";

export type SearchTarget = {
  /** Code-index repository key (orgId:remote:owner/repo). */
  repoId: string;
  branch: string;
  /** Changes whenever the branch's file set changes (the indexed sha): keys the file-list cache. */
  version: string;
};

export type SearchRequest = {
  orgId: string;
  targets: SearchTarget[];
  query: string;
  /** Earlier questions of the session: they add context with a lower weight. */
  context?: string[];
  genius?: boolean;
  /** Files returned (default 20). */
  limit?: number;
  /** false: references only, each file's `chunks` left empty (less to copy back from a search thread). */
  withChunks?: boolean;
  signal?: AbortSignal;
};

export type SearchHitFile = {
  repoId: string;
  branch: string;
  path: string;
  linestart: number | null;
  lineend: number | null;
  summary: string;
  distance: number;
  score: number;
  /**
   * The file's references, best first: the spans of the chunks that carry the evidence (the best one,
   * and others scoring at least REFERENCES.minShare of it, at most REFERENCES.firstFile for the first
   * file and REFERENCES.laterFilesShown for the others).
   */
  references: Reference[];
  /** The chunks that made the file rank, best first (the best span's chunk first). */
  chunks: ChunkDocument[];
  /**
   * All of the file's chunks when the search read them (a file ranked by its path, a widened definition,
   * lines the query points at), so an answer does not read them again; absent when it did not, or
   * when the request asked for no chunks.
   */
  fileChunks?: readonly ChunkDocument[];
  reasons: string[];
};

/**
 * `frames`: the trace frames of the query itself (an answer quotes the line a frame points at); a
 * follow-up read together with an earlier question has none of its own (a question with frames never
 * points back), whatever frames `analysis` holds of that question.
 */
export type SearchOutcome = { files: SearchHitFile[]; analysis: QueryAnalysis; frames: StackFrame[]; vector: boolean };

export type Searcher = {
  search(request: SearchRequest): Promise<SearchOutcome>;
};

/**
 * A query is read whole up to the longest the faces accept (HTTP /v2: 100,000 characters): a pasted log
 * puts its exception and frames at its end, after however many lines of output, and they are a report's
 * strongest evidence. (Cut at 20,000, a 21,000-character log lost its whole trace.) Reading 100,000
 * characters costs the query analysis about 10 ms.
 */
const MAX_QUERY_CHARS = 100_000;
/** The session's earlier questions: they only nudge the order (the "context" list), so less of them is read. */
const MAX_CONTEXT_CHARS = 10_000;

/**
 * Names a question or a search mentions strongly enough that a span narrows to their definition
 * (strongest first). Not for bug reports: the names a report mentions are where it looked, not always
 * where the fix goes, and there the enclosing chunk serves better (measured on the eval's reports).
 */
const spanNames = (analysis: QueryAnalysis): string[] =>
  analysis.isLongReport
    ? []
    : [...queryNames(analysis)]
    // Not a name whose uses are asked for: its definition is what the answer is not about, and a span
    // narrowed to it would hide the calls around it.
    .filter(([name, weight]) => weight >= 1.4 && name.length >= 3 && !(analysis.usages ?? []).includes(name))
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([name]) => name);

/**
 * For a question about where a name is used, a file's chunks that use it, when it has any: its references
 * are its uses. A short function whose name holds the name's words (`redisFreeCommand` for `redisFree`)
 * can outscore a long caller on words alone and take the caller's place among the file's references.
 */
function usesOnly<T extends { doc: ChunkDocument }>(chunks: readonly T[], usages: readonly string[]): readonly T[] {
  if (usages.length === 0) return chunks;
  const using = chunks.filter((c) => usages.some((name) => c.doc.symbol !== name && mentionsWord(c.doc.text, name)));
  return using.length > 0 ? using : chunks;
}

/** The weight of a path mention that names no file: a plain word's. */
const UNKNOWN_PATH_WEIGHT = 0.6;

/** `text` repeated so the index's query-term frequency carries the weight (1 + 0.5 ln qtf). */
function weighted(text: string, weight: number): string {
  const times = Math.max(1, Math.min(8, Math.round(weight * weight)));
  return Array.from({ length: times }, () => text).join(" ");
}

/**
 * The `n` strongest names of a query, strongest first, with the function of its trace's innermost frame
 * that is not the runtime's among them: a long log brings dozens of names of its own (loggers, keys,
 * classes), each weighing more than a library frame's function (1.0), which would not be looked up at all.
 * That function (and its class) takes the place of the weakest other names. (Every frame's function so:
 * an outer `__init__` pushed out a report's better names, Python span@1 -4.6 on the dev sets.)
 */
function strongestNames(analysis: QueryAnalysis, n: number): [string, number][] {
  const all = [...queryNames(analysis)].sort((a, b) => b[1] - a[1]);
  if (all.length <= n) return all;
  const frames = analysis.frames.filter((f) => f.origin !== "runtime" && f.symbol !== null);
  const innermost = innermostFirst(frames)[0];
  if (innermost === undefined) return all.slice(0, n);
  const traced = new Set(innermost.symbol!.split(".").slice(-2));
  const top = all.slice(0, n);
  const left = all.slice(n).filter(([name]) => traced.has(name));
  for (let i = top.length - 1; i >= 0 && left.length > 0; i--) if (!traced.has(top[i]![0])) top.splice(i, 1, left.shift()!);
  return top.sort((a, b) => b[1] - a[1]);
}

/** The lexical queries for an analysis. */
export function lexicalQueries(analysis: QueryAnalysis, raw: string, namesFile: (path: string) => boolean = () => true): { name: string; weight: number; text: string }[] {
  const names = strongestNames(analysis, 14);
  const paths = analysis.terms.filter((t) => t.kind === "path").slice(0, 6);
  const featureText = [
    ...names.map(([n, w]) => weighted(n, w)),
    // A path that names no file of the repositories (`Day.js` the product, a path of a build's output)
    // is only words: at a word's weight, not a path's.
    ...paths.map((p) => weighted(p.text.replace(/\.[A-Za-z0-9]+$/, "").replace(/\//g, " "), namesFile(p.text) ? p.weight * 0.7 : Math.min(p.weight * 0.7, UNKNOWN_PATH_WEIGHT))),
  ].join(" ");
  const words = analysis.terms.filter((t) => t.kind === "word").slice(0, 24);
  const wordText = words.map((t) => weighted(t.text, t.weight)).join(" ");
  const queries: { name: string; weight: number; text: string }[] = [];
  if (analysis.isLongReport) {
    if (featureText.trim()) queries.push({ name: "names", weight: 1, text: featureText });
    if (wordText.trim()) queries.push({ name: "words", weight: 0.6, text: wordText });
  } else {
    // A short query: ONE lexical query carrying both the names/paths (weighted by repetition) and the
    // raw text, instead of one each (they retrieve nearly the same chunks; the index's BM25F sums the
    // per-term contributions, so a chunk matching both still ranks first). Weight 2 = the two lists' sum.
    // A usage question's own words ("called", "callers") say what is asked, not what the uses hold.
    const question = (analysis.usages ?? []).length > 0 ? withoutUsageShapeWords(raw.slice(0, 2000)) : raw.slice(0, 2000);
    const text = withVerbForms(question);
    queries.push({ name: "combined", weight: featureText.trim() ? 2 : 1, text: featureText.trim() ? `${featureText} ${text}` : text });
  }
  return queries;
}

/** A word that points back at what was said before (English; a question in another language is read alone). */
const REFERS_BACK = /\b(?:it|its|this|that|these|those|them|they)\b/i;
/** A follow-up is short: a longer question says what it is about. */
const FOLLOW_UP_MAX_WORDS = 12;

/** A short question that names nothing of its own and points back ("and where is it tested?", "what calls it?"). */
function pointsBack(question: string, analysis: () => QueryAnalysis): boolean {
  if (!REFERS_BACK.test(question) || question.trim().split(/\s+/).length > FOLLOW_UP_MAX_WORDS) return false;
  const own = analysis();
  return !own.isLongReport && own.terms.every((t) => t.kind === "word");
}

/**
 * A short follow-up that names nothing of its own and points back is about the subject the conversation
 * established: it is read together with the latest earlier question that is not such a follow-up itself
 * (whose names then lead), so "where is it called?" asked twice keeps the subject of the question before
 * both. Any other question or report is read alone; the session's earlier questions still nudge it (the
 * "context" list).
 */
export function followUpAnalysis(query: string, context: readonly string[], own: QueryAnalysis = analyzeQuery(query)): QueryAnalysis {
  if (!pointsBack(query, () => own)) return own;
  const subject = [...context].reverse().find((q) => q.trim() !== "" && !pointsBack(q, () => analyzeQuery(q)));
  if (subject === undefined) return own;
  return analyzeQuery(`${subject.slice(0, MAX_CONTEXT_CHARS)}\n${query}`);
}

export function createSearcher(deps: { codeIndex: CodeIndex; embedder?: Embedder | null; logger?: Logger }): Searcher {
  const { codeIndex } = deps;
  const embedder = deps.embedder ?? null;
  // File lists per (target, version): path and module-name mentions are matched against every file.
  const fileLists = new Map<string, { paths: string[]; at: number }>();
  const FILE_LIST_LIMIT = 64;

  async function filesOf(target: SearchTarget): Promise<string[]> {
    const key = `${target.repoId}\u0000${target.branch}\u0000${target.version}`;
    const cached = fileLists.get(key);
    if (cached) return cached.paths;
    const paths = (await codeIndex.getBranchFiles(target.repoId, target.branch)).map((f) => f.path);
    fileLists.set(key, { paths, at: Date.now() });
    if (fileLists.size > FILE_LIST_LIMIT) fileLists.delete(fileLists.keys().next().value!);
    return paths;
  }

  return {
    async search(request) {
      const query = request.query.slice(0, MAX_QUERY_CHARS);
      const contextText = (request.context ?? []).join("\n").slice(0, MAX_CONTEXT_CHARS);
      const targetFiles = await Promise.all(request.targets.map(filesOf));
      const namesFile = (path: string) => namesAFile(path, targetFiles);
      const queryAlone = analyzeQuery(query, { ownsPath: namesFile });
      const analysis = withSourcesOfTests(withExtraPaths(followUpAnalysis(query, request.context ?? [], queryAlone), query));
      const report = normalized(query);
      const filter = { orgId: request.orgId, targets: request.targets.map((t) => ({ repoId: t.repoId, branch: t.branch })) };
      const deep = request.genius === true;
      const chunkLimit = deep ? 400 : 150;
      const limit = request.limit ?? 20;

      const lists: CandidateList[] = [];
      const queries = lexicalQueries(analysis, query, namesFile).map((q) => ({ ...q, limit: chunkLimit }));
      if (queries.length === 0) queries.push({ name: "raw", weight: 1, text: query.slice(0, 2000), limit: chunkLimit });
      if (contextText.trim()) {
        // Earlier questions of the session: their names and words in ONE query, at a lower weight
        // (0.35 of the lists it stands for, and never more than 0.35 of the question's own: a question
        // that says what it is about is not outweighed by the one before) and with a shorter list (it
        // only nudges the order).
        const earlier = lexicalQueries(analyzeQuery(contextText), contextText, namesFile);
        if (earlier.length > 0) {
          const weightOf = (list: { weight: number }[]) => list.reduce((w, q) => w + q.weight, 0);
          queries.push({
            name: "context",
            weight: 0.35 * Math.min(weightOf(earlier), weightOf(queries)),
            text: earlier.map((q) => q.text).join(" "),
            limit: Math.min(chunkLimit, deep ? 150 : 60),
          });
        }
      }
      // Definitions of the names the query mentions: for a short query, taken from its combined list
      // (names dominate it); otherwise a query of the names alone, run in the same pass as the lists
      // (it shares their terms, so the index decodes them once).
      const nameWeights = [...queryNames(analysis)].sort((a, b) => b[1] - a[1]);
      const names = strongestNames(analysis, deep ? 24 : 12).map(([n]) => n);
      const definitions: { doc: ChunkDocument; branch: string; weight: number }[] = [];
      const wanted = new Set(names.map((n) => n.toLowerCase()));
      // A strong name also finds a C function under its library prefix (ranking.ts, cUnprefixed).
      const strong = new Set(nameWeights.filter(([, w]) => w >= STRONG_NAME_WEIGHT).map(([n]) => n.toLowerCase()));
      const wantedLengths = new Set([...wanted].map((n) => n.length)); // a symbol is lowercased only when some name is as long
      const collect = (hits: IndexHit[]) => {
        for (const h of hits) {
          const symbol = h.doc.symbol;
          if (symbol && wantedLengths.has(symbol.length) && wanted.has(symbol.toLowerCase())) definitions.push({ doc: h.doc, branch: h.branch, weight: 0.3 });
          else if (symbol && strong.has(cUnprefixed(symbol, h.doc.language) ?? "")) definitions.push({ doc: h.doc, branch: h.branch, weight: 0.3 * OTHER_SPELLING });
        }
      };
      // Only the names as whole words: a definition's symbol field holds its name whole, and the parts of
      // the names (`for`, `data`, `error`) would touch most of the index for nothing.
      const definitionQuery = names.length > 0 && (analysis.isLongReport || deep) ? { text: names.join(" "), limit: deep ? 600 : 250, wholeWords: true } : null;
      const searches: Promise<void>[] = [
        codeIndex.searchLexicalMany([...queries, ...(definitionQuery ? [definitionQuery] : [])], filter).then((results) => {
          queries.forEach((q, i) => lists.push({ name: q.name, weight: q.weight, hits: results[i]! }));
          if (definitionQuery) collect(results[queries.length]!);
          else if (names.length > 0) collect(lists.find((l) => l.name === "combined")?.hits ?? []);
        }),
      ];

      let vector = false;
      if (embedder) {
        searches.push(
          (async () => {
            try {
              const [v] = await embedder.embed([query.slice(0, 4000)], request.signal ? { signal: request.signal } : undefined);
              if (v && v.length > 0) {
                lists.push({ name: "vector", weight: 1, hits: await codeIndex.searchVector(v, filter, chunkLimit) });
                vector = true;
              }
            } catch (error) {
              deps.logger?.warn({ err: { message: (error as Error).message } }, "query embedding failed; lexical search only");
            }
          })(),
        );
      }
      // Whole-file lexical ranking of the same text: the files whose words are spread over several chunks.
      let wholeFiles: FileHit[] = [];
      const fileQueryText = queries.filter((q) => q.name !== "context").map((q) => q.text).join(" ");
      // Only for a report: words spread over a file are a report's evidence; a name or a one-line question
      // is answered by the chunks that hold it (and the file-level pass cost a short search half its CPU),
      // unless other files crowded its candidates out (below).
      if (analysis.isLongReport) {
        searches.push(
          codeIndex.searchFiles({ text: fileQueryText, limit: WHOLE_FILE.limit }, filter).then((hits) => {
            wholeFiles = hits;
          }),
        );
      }
      const fileMap = new Map<TargetKey, string[]>(request.targets.map((t, i) => [targetKey(t.repoId, t.branch), targetFiles[i]!]));
      await Promise.all(searches);

      const translations = translationsOf(analysis, fileMap, report);
      // A short query whose candidates other files crowded out (./whole-file.ts): the whole-file ranking
      // brings the code's files.
      const ownLists = lists.filter((l) => l.name !== "context" && l.name !== "vector");
      const crowded = !analysis.isLongReport && ownLists.some((l) => l.hits.length >= chunkLimit) && crowdedOut(ownLists.flatMap((l) => l.hits), analysis, namesFile, translations);
      if (crowded) wholeFiles = await codeIndex.searchFiles({ text: fileQueryText, limit: WHOLE_FILE.limit }, filter);
      const callees = wrapperCallees(definitions, names);
      if (callees.length > 0) {
        const wanted = new Set(callees.map((n) => n.toLowerCase()));
        const [hits = []] = await codeIndex.searchLexicalMany([{ text: callees.join(" "), limit: 200, wholeWords: true }], filter);
        for (const h of hits) {
          if (h.doc.symbol && wanted.has(h.doc.symbol.toLowerCase()) && classifyPath(h.doc.path) !== "test") {
            definitions.push({ doc: h.doc, branch: h.branch, weight: WRAPPERS.weight });
          }
        }
      }

      let ranked = rankFiles({ analysis, lists, definitions, files: fileMap, limit: Math.max(limit, 30), report, query, namesFile, translations });

      if (deep && ranked.length > 0) {
        // Follow the symbols the best chunks use: pull in their definitions and rank again.
        const followed = new Set<string>();
        for (const f of ranked.slice(0, 5)) for (const c of f.chunks.slice(0, 2)) for (const n of referencedNames(c.doc)) followed.add(n);
        if (followed.size > 0) {
          const wanted = new Set([...followed].map((n) => n.toLowerCase()));
          const [hits = []] = await codeIndex.searchLexicalMany([{ text: [...followed].join(" "), limit: 300, wholeWords: true }], filter);
          for (const h of hits) if (h.doc.symbol && wanted.has(h.doc.symbol.toLowerCase())) definitions.push({ doc: h.doc, branch: h.branch, weight: 0.25 });
          ranked = rankFiles({ analysis, lists, definitions, files: fileMap, limit: Math.max(limit, 30), report, query, namesFile, translations });
        }
      }

      ranked = withWholeFileRanking(ranked, wholeFiles, analysis, namesFile, translations, crowded).slice(0, limit);
      // A question's best match that only hands its work over: what it calls is read next (./delegation.ts).
      const delegate = !analysis.isLongReport && (analysis.usages ?? []).length === 0 ? await delegateOfBest(codeIndex, request.orgId, ranked) : null;
      if (delegate) ranked = withDelegateFile(ranked, delegate);
      const named = spanNames(analysis);
      const spanWords = named.length === 0 ? [] : analysis.terms.filter((t) => t.kind === "word" || t.kind === "identifier").map((t) => t.text.toLowerCase());
      const locations = specificLocations(analysis.locations, fileMap.values());
      const files = await Promise.all(ranked.map((f, i) => toResult(f, i)));
      const ds = distances(ranked);
      files.forEach((f, i) => (f.distance = ds[i]!));
      return { files, analysis, frames: queryAlone.frames, vector };

      async function toResult(f: RankedFile, rank: number): Promise<SearchHitFile> {
        // A question about where a name is used: the chunks that use it (./ranking.ts ranks them; a file's
        // references and returned chunks are those).
        const own = analysis.isLongReport ? f.chunks : usesOnly(f.chunks, analysis.usages ?? []);
        let chunks = own.map((c) => c.doc);
        // The file's chunks, read once when a step needs them all.
        let all: ChunkDocument[] | undefined;
        const allChunks = async () => (all ??= await codeIndex.getFileChunks(f.repoId, f.branch, f.path));
        const perFile = rank === 0 ? REFERENCES.firstFile : REFERENCES.perFile;
        // A report's references follow each chunk's own evidence (./references.ts, byOwnEvidence).
        const options = { names: named, words: spanWords, joinNeighbours: analysis.isLongReport, perFile };
        let references = referencesOf(analysis.isLongReport ? byOwnEvidence(f.chunks) : own, options);
        if (chunks.length === 0) {
          // A file that ranks by its path only: take its chunks to pick a span and a summary.
          const local = bestLocalChunks(await allChunks(), analysis);
          chunks = local.map((c) => c.doc);
          references = referencesOf(local.filter((c) => c.score > 0 || c === local[0]), options);
        }
        // A reference to a window of a long definition is the whole definition (./whole-definitions.ts), the
        // window its focus, in the files a reader opens first (each widening reads the file's chunks).
        // The windows of a widened definition go with the result, so its code can be shown whole.
        let windows: ChunkDocument[] = [];
        if (rank < WHOLE_DEFINITION_FILES && references.some((r) => windowAt(r, chunks))) {
          const fileChunks = await allChunks();
          references = withWholeDefinitions(references, chunks, fileChunks);
          windows = windowsOfWidened(references, fileChunks);
        }
        let reasons = f.reasons;
        if (delegate && delegate.path === f.path && delegate.branch === f.branch && delegate.repoId === f.repoId) {
          references = withDelegate(references, delegate, rank === 0, perFile);
          if (rank === 0) reasons = [...reasons, delegationReason(ranked[0]!.chunks[0]!.doc.symbol!, delegate.def.name)];
          const fileChunks = await allChunks();
          const held = fileChunks.filter((c) => c.endLine >= delegate.def.startLine && c.startLine <= delegate.def.endLine && !chunks.includes(c));
          chunks = [...chunks, ...held];
        }
        // The lines the query points at in this file lead its references (./located.ts).
        const lines = linesIn(f.path, locations);
        if (lines.length > 0) references = withLocatedSpans(references, lines, await allChunks(), perFile);
        const best = chunks[0];
        return {
          repoId: f.repoId,
          branch: f.branch,
          path: f.path,
          linestart: best ? best.startLine : null,
          lineend: best ? best.endLine : null,
          summary: best ? fileSummaryOf(best) : "",
          distance: 1,
          score: f.score,
          references: rank === 0 ? references : references.slice(0, REFERENCES.laterFilesShown),
          chunks: request.withChunks === false ? [] : withWindows(chunks.slice(0, 4), windows),
          ...(all && request.withChunks !== false ? { fileChunks: all } : {}),
          reasons,
        };
      }
    },
  };
}

/** A result's chunks and the windows of its widened references (read again from the file: compared by id). */
const withWindows = (shown: ChunkDocument[], windows: readonly ChunkDocument[]): ChunkDocument[] => [...shown, ...windows.filter((w) => !shown.some((c) => c.id === w.id))];

/** The summary a result carries: its file's (any chunk of the file has it), capped. */
export function fileSummaryOf(doc: ChunkDocument): string {
  return (doc.fileSummary || doc.summary || "").slice(0, 1000);
}

/** Chunks of one file ordered by how many query names and words they contain. */
function bestLocalChunks(all: ChunkDocument[], analysis: QueryAnalysis): { doc: ChunkDocument; score: number }[] {
  const terms = analysis.terms.filter((t) => t.kind !== "path").slice(0, 30);
  const scored = all.map((doc) => {
    const text = `${doc.symbol ?? ""} ${doc.text}`.toLowerCase();
    let s = 0;
    for (const t of terms) if (text.includes(t.text.toLowerCase())) s += t.weight;
    return { doc, s };
  });
  scored.sort((a, b) => b.s - a.s || a.doc.ordinal - b.doc.ordinal);
  return scored.map((x) => ({ doc: x.doc, score: x.s }));
}

export type { IndexHit };
