/**
 * Ranking: fuses candidate lists from the code index (lexical queries, optional kNN), re-ranks chunks
 * with code structure, aggregates chunk scores into FILE scores and picks each file's best span.
 * Pure and synchronous (no I/O): src/retrieval/search.ts gathers the inputs.
 *
 * Features, each meaningful for any repository (none is tuned to a particular code base):
 *  - fused retrieval score: each list's scores divided by that list's best score, weighted per list
 *    and summed per chunk (score normalisation; adapters' raw scores are not comparable);
 *  - definitions over uses: a chunk whose `symbol` is a name the query mentions gets a bonus scaled
 *    by that name's query weight; members of a mentioned class (`parent`) get a smaller one; a chunk
 *    defining the name inside it (`proto.utcOffset = function` in a plugin kept whole) a share of it;
 *  - path mentions: a file whose path ends with a path from the query (trace frames, `foo/bar.py`,
 *    dotted module names turned into paths) gets a bonus scaled by the mention's weight;
 *  - module names: a file whose stem (or package directory, for `__init__`/`index` files) is an
 *    identifier of the query gets a smaller bonus;
 *  - quoted output: a chunk whose string literal the report repeats (what the program printed) gains
 *    (./quoted-messages.ts);
 *  - word pairs: a source chunk writing two query words side by side, as the query does, gains (./word-pairs.ts);
 *  - a title's scope: a file in the section `fix(router):` names gains a little (./query/commit-scope.ts);
 *  - source over tests, docs and examples: those files are demoted unless the query asks for them;
 *  - file aggregation: best chunk + decayed sum of the next ones (a file with several relevant
 *    definitions beats one lucky chunk, but size alone does not win);
 *  - copies: a file whose best chunk nearly repeats a higher file's takes half its score (./copies.ts).
 */
import { cUnprefixed, OTHER_SPELLING, STRONG_NAME_WEIGHT } from "./strong-names.ts";
import type { ChunkDocument, IndexHit } from "../codeindex/port.ts";
import type { QueryAnalysis } from "./query-analysis.ts";
import { MAX_FILES_NAMED, namedFiles, pathFacts } from "./path-mentions.ts";
import { quotedMessageScores } from "./quoted-messages.ts";
import { demoteCopies } from "./copies.ts";
import { definesInside } from "./inner-definitions.ts";
import { classifyPath, RELEASE_NOTES } from "./path-classes.ts";
import { demotedClass, queryWants } from "./query-wants.ts";
import { inScope } from "./query/commit-scope.ts";
import { isBodiless, isTypeOnly } from "./no-behaviour.ts";
import { readsAsReport } from "./query/questions.ts";
import { translationsFor, type Translations } from "./locales.ts";
import { wordPairScores } from "./word-pairs.ts";

export type CandidateList = {
  name: string;
  /** Multiplier of this list's normalised scores. */
  weight: number;
  hits: IndexHit[];
};

/** Per-target key: the code-index repoId and branch the hit came through. */
export type TargetKey = string;
export const targetKey = (repoId: string, branch: string): TargetKey => `${repoId}\u0000${branch}`;

export type RankInput = {
  analysis: QueryAnalysis;
  lists: CandidateList[];
  /** Extra definition hits (chunks defining names the query or the top hits reference). */
  definitions?: { doc: ChunkDocument; branch: string; weight: number }[];
  /** Files of each target, for path and module-name mentions (optional; without it only hit files count). */
  files?: Map<TargetKey, string[]>;
  /** Max files returned. */
  limit: number;
  /** The report's text (./quoted-messages.ts `normalized`): a chunk whose string literal it quotes gains. */
  report?: string;
  /** The query as written: the words it writes side by side (./word-pairs.ts). */
  query?: string;
  /** Whether a path mention names a file of the targets (./query-wants.ts); without it every path does. */
  namesFile?: (path: string) => boolean;
  /** The targets' translations as the query sees them (made from `files` and `report` when not given). */
  translations?: Translations;
};

/** `definition`: the part of the score for defining a name the query mentions (RANKING.definitionBonus). */
export type RankedChunk = { doc: ChunkDocument; score: number; definition?: number };

export type RankedFile = {
  repoId: string;
  branch: string;
  path: string;
  score: number;
  /** Chunks of this file among the candidates, best first (may be empty for a path-only match). */
  chunks: RankedChunk[];
  /** Why it ranks: feature -> contribution (for debugging and the offline answer). */
  reasons: string[];
};

export const RANKING = {
  /** Aggregation: best chunk + decay^i * next chunks (i = 1, 2, ...), at most `aggregateChunks` chunks. */
  aggregateDecay: 0.35,
  aggregateChunks: 4,
  /** Definition of a query name (scaled by the name's weight relative to the strongest name). */
  definitionBonus: 0.9,
  /** Member of a class the query names. */
  parentBonus: 0.25,
  /** Chunk text mentions a query name as a whole word (beyond what BM25 already counts). */
  mentionBonus: 0.1,
  /** File path matches a path from the query (scaled by weight / 3: a project trace frame is ~3). */
  pathBonus: 1.2,
  /** File stem / package directory equals a query identifier (scaled by the identifier's weight / 2.5). */
  stemBonus: 0.35,
  /** A locale file whose language the query names (./locales.ts): a path mention of this weight, shared among the locales named. */
  localeNamedWeight: 1.5,
  /** Multiplier for test, docs and example files (and translations) when the query does not ask for them. */
  auxiliaryFactor: 0.35,
  /**
   * Multiplier for a project's release notes (CHANGELOG.md, History.md, NEWS.md: documentation files of
   * those names) when the query does not ask for them: they repeat, a line each, what changed, in the
   * words a report or question uses, and hold no code.
   */
  releaseNotesFactor: 0.15,
  /** A question asking where a name is used: a chunk that uses it gains a definition's bonus... */
  usageBonus: 0.9,
  /** ...and the name's own definition keeps this share of its score (./query/usages.ts). */
  usageDefinerFactor: 0.3,
  /** ...and a chunk not writing the name only matches its words (`next` for `Next`): this share of its score. */
  usageWordFactor: 0.5,
  /** Multiplier for files that are not source code at all (text, data, config) in a code query. */
  nonCodeFactor: 0.6,
  /** A chunk whose string literal the report quotes (the output it prints; ./quoted-messages.ts). */
  quotedMessageBonus: 0.6,
  /**
   * A chunk holding, inside it, the definition of the strongest name it mentions (a plugin's
   * `proto.utcOffset = function`, a method of a class kept whole, a nested function): this share of
   * the definition bonus, scaled by that name's weight; its references narrow to it (./references.ts).
   */
  innerDefinitionShare: 0.4,
  /** A chunk this short (lines) holds no definition of its own worth reading for (a one-liner's own name). */
  innerDefinitionMinLines: 8,
  /** A source chunk writing the query's word pairs: this times its share (./word-pairs.ts, 1 - e^-weight). */
  wordPairBonus: 0.3,
  /** Multiplier for a file in the section a Conventional Commits title's scope names (`fix(router):`, ./query/commit-scope.ts). */
  scopeFactor: 1.3,
  /** Multiplier for a chunk holding no behaviour (./no-behaviour.ts): a declaration without a body; a TypeScript type when the query does not speak of types. */
  noBehaviourFactor: 0.4,
} as const;

/** A chunk of Rust's test module inside a source file (`#[cfg(test)] mod tests`, by convention `tests` or `test`). */
const isInlineTest = (doc: Pick<ChunkDocument, "symbol" | "parent" | "kind" | "language">): boolean =>
  doc.language === "rust" && (doc.parent === "tests" || doc.parent === "test" || (doc.kind === "module" && (doc.symbol === "tests" || doc.symbol === "test")));

/** A constructor: a method or function named like the class it belongs to (Java, C++, C#). */
export const isConstructor = (doc: Pick<ChunkDocument, "symbol" | "parent" | "kind">): boolean =>
  doc.symbol !== null && doc.symbol === doc.parent && (doc.kind === "method" || doc.kind === "function");

/** [A-Za-z0-9_$] (NaN, past either end of the text, is not). */
function isWordChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36;
}
/** Whether `text` holds `word` as a whole word (no word character on either side). */
export function mentionsWord(text: string, word: string): boolean {
  let at = text.indexOf(word);
  while (at !== -1) {
    if (!isWordChar(text.charCodeAt(at - 1)) && !isWordChar(text.charCodeAt(at + word.length))) return true;
    at = text.indexOf(word, at + 1);
  }
  return false;
}

/** The targets' translations (./locales.ts) as a query sees them: `report` is its normalized text. */
export const translationsOf = (analysis: QueryAnalysis, files: ReadonlyMap<TargetKey, readonly string[]> | undefined, report: string): Translations =>
  translationsFor(files, report, analysis.terms.filter((t) => t.kind === "word").map((t) => t.text.toLowerCase()));

/** A candidate chunk while it is scored; it is also the RankedChunk its file keeps (score = retrieval + bonus). */
type ChunkAcc = { doc: ChunkDocument; branch: string; retrieval: number; bonus: number; score: number; defines: boolean; memberOf: boolean; definition: number; uses: string | null; usedName: boolean; quoted: boolean; innerName?: string };

/** Names the query mentions (identifiers, trace symbols, last parts of dotted names) with weights. */
export function queryNames(analysis: QueryAnalysis): Map<string, number> {
  const names = new Map<string, number>();
  const put = (name: string, w: number) => {
    if (name.length < 2) return;
    if ((names.get(name) ?? 0) < w) names.set(name, w);
  };
  for (const t of analysis.terms) {
    if (t.kind === "identifier" || t.kind === "symbolFromTrace") put(t.text, t.weight);
    else if (t.kind === "error" && /^[A-Za-z_][\w]*$/.test(t.text)) put(t.text, t.weight * 0.8);
    else if (t.kind === "dotted") {
      const parts = t.text.split(".");
      put(parts[parts.length - 1]!, t.weight * 0.9);
    }
  }
  for (const s of analysis.symbols) if (!names.has(s)) put(s, 1);
  return names;
}

export function rankFiles(input: RankInput): RankedFile[] {
  const { analysis } = input;
  const wants = queryWants(analysis, input.namesFile);
  const reported = readsAsReport(analysis, input.query ?? "");
  const names = queryNames(analysis);
  const maxNameWeight = Math.max(1, ...names.values());
  const usages = analysis.usages ?? [];
  const lowerNames = new Map<string, number>();
  for (const [n, w] of names) if ((lowerNames.get(n.toLowerCase()) ?? 0) < w) lowerNames.set(n.toLowerCase(), w);

  // 1. Fuse the lists per chunk. Keyed by branch, then by the doc's own id string (no key is built per
  // hit: the index hands out the same cached id strings, whose hashes V8 keeps).
  const chunks: ChunkAcc[] = [];
  const chunksByBranch = new Map<string, Map<string, ChunkAcc>>();
  const acc = (doc: ChunkDocument, branch: string): ChunkAcc => {
    let byId = chunksByBranch.get(branch);
    if (!byId) chunksByBranch.set(branch, (byId = new Map()));
    let a = byId.get(doc.id);
    if (!a) {
      byId.set(doc.id, (a = { doc, branch, retrieval: 0, bonus: 0, score: 0, defines: false, memberOf: false, definition: 0, uses: null, usedName: false, quoted: false }));
      chunks.push(a);
    }
    return a;
  };
  for (const list of input.lists) {
    const max = list.hits.reduce((m, h) => Math.max(m, h.score), 0);
    if (max <= 0) continue;
    for (const hit of list.hits) acc(hit.doc, hit.branch).retrieval += list.weight * (hit.score / max);
  }
  for (const d of input.definitions ?? []) {
    const a = acc(d.doc, d.branch);
    a.retrieval = Math.max(a.retrieval, d.weight);
  }

  // 2. Structure: definitions over uses, class members, whole-word mentions.
  // Mention candidates heaviest first: a chunk's mention bonus is its heaviest mentioned name, so the
  // scan of its text stops at the first name found.
  const mentionNames = [...names].filter(([, w]) => w >= STRONG_NAME_WEIGHT).sort((x, y) => y[1] - x[1]);
  // The lengths of the lowercased names: a symbol is lowercased only when some name is as long
  // (lowercasing keeps the length of every character but a few outside ASCII).
  const lowerLengths = new Set<number>();
  for (const n of lowerNames.keys()) lowerLengths.add(n.length);
  for (const a of chunks) {
    const { doc } = a;
    if (doc.symbol) {
      // A strong name also matches a C function under its library prefix, like a name in another case.
      const unprefixed = cUnprefixed(doc.symbol, doc.language);
      const prefixed = unprefixed ? (lowerNames.get(unprefixed) ?? 0) : 0;
      const w = (names.get(doc.symbol) ?? (lowerLengths.has(doc.symbol.length) ? (lowerNames.get(doc.symbol.toLowerCase()) ?? 0) * OTHER_SPELLING : 0)) || (prefixed >= STRONG_NAME_WEIGHT ? prefixed * OTHER_SPELLING : 0);
      if (w > 0 && usages.includes(doc.symbol)) a.usedName = true;
      else if (w > 0) {
        // A constructor is named like its class but does not define it: the class's own chunk comes first.
        const kindFactor = isConstructor(doc) || doc.kind === "variable" || doc.kind === "block" || doc.kind === "section" ? 0.5 : 1;
        a.definition = RANKING.definitionBonus * kindFactor * (w / maxNameWeight);
        a.bonus += a.definition;
        a.defines = true;
      }
    }
    // A question asking where a name is used: the chunks that use it, not its definition.
    for (const name of usages) {
      if (doc.symbol === name || !mentionsWord(doc.text, name)) continue;
      a.bonus += RANKING.usageBonus * ((names.get(name) ?? 0) / maxNameWeight);
      a.uses = name;
      break;
    }
    if (doc.parent) {
      const w = names.get(doc.parent) ?? 0;
      if (w > 0) {
        a.bonus += RANKING.parentBonus * (w / maxNameWeight);
        a.memberOf = true;
      }
    }
    let mentioned = 0;
    let mentionedName: string | null = null;
    for (const [name, w] of mentionNames) {
      if (name === doc.symbol || !mentionsWord(doc.text, name)) continue;
      mentioned = w / maxNameWeight;
      mentionedName = name;
      break;
    }
    a.bonus += RANKING.mentionBonus * mentioned;
    // The strongest name it mentions defined inside it (not its own symbol): a definition too, weighing less.
    if (!a.defines && !a.usedName && mentionedName !== null && usages.length === 0 && doc.endLine - doc.startLine >= RANKING.innerDefinitionMinLines) {
      if (definesInside(doc, mentionedName)) {
        a.definition = RANKING.definitionBonus * RANKING.innerDefinitionShare * mentioned;
        a.bonus += a.definition;
        a.defines = true;
        a.innerName = mentionedName;
      }
    }
  }

  // Output the report quotes: the chunks whose literals print it.
  if (input.report) {
    const quoted = quotedMessageScores(input.report, chunks.map((a) => a.doc));
    for (const a of chunks) {
      const strength = quoted.get(a.doc) ?? 0;
      if (strength <= 0) continue;
      a.bonus += RANKING.quotedMessageBonus * strength;
      a.quoted = true;
    }
  }

  const paired = input.query ? wordPairScores(input.query, analysis, chunks.map((a) => a.doc)) : null;
  if (paired && paired.size > 0) for (const a of chunks) a.bonus += RANKING.wordPairBonus * (paired.get(a.doc) ?? 0);

  // 3. Aggregate per file.
  type FileAcc = { repoId: string; branch: string; path: string; chunks: ChunkAcc[]; bonus: number; reasons: string[] };
  const files: FileAcc[] = [];
  const filesByTarget = new Map<string, Map<string, Map<string, FileAcc>>>(); // repoId -> branch -> path
  const fileAcc = (repoId: string, branch: string, path: string): FileAcc => {
    let byBranch = filesByTarget.get(repoId);
    if (!byBranch) filesByTarget.set(repoId, (byBranch = new Map()));
    let byPath = byBranch.get(branch);
    if (!byPath) byBranch.set(branch, (byPath = new Map()));
    let f = byPath.get(path);
    if (!f) {
      byPath.set(path, (f = { repoId, branch, path, chunks: [], bonus: 0, reasons: [] }));
      files.push(f);
    }
    return f;
  };
  for (const a of chunks) {
    const f = fileAcc(a.doc.repoId, a.branch, a.doc.path);
    a.score = (a.retrieval + a.bonus) * (a.usedName ? RANKING.usageDefinerFactor : usages.length > 0 && a.uses === null ? RANKING.usageWordFactor : 1);
    // Tests inside a source file weigh like a test file's, unless the query asks for tests.
    if (!wants.tests && isInlineTest(a.doc)) a.score *= RANKING.auxiliaryFactor;
    // What holds no behaviour (./no-behaviour.ts), for a report (a question may ask what a declaration says):
    // a declaration without a body, a type unless types are asked about.
    else if (reported && (isBodiless(a.doc) || (!wants.types && isTypeOnly(a.doc)))) a.score *= RANKING.noBehaviourFactor;
    f.chunks.push(a);
  }

  // 4. Path and module-name mentions (over every file of the targets when known).
  const pathTerms = analysis.terms.filter((t) => t.kind === "path");
  const stemNames = new Map<string, number>();
  for (const t of analysis.terms) {
    if (t.kind === "identifier" || t.kind === "symbolFromTrace" || t.kind === "dotted") {
      for (const part of t.kind === "dotted" ? t.text.split(".").slice(0, -1) : [t.text]) {
        const key = part.toLowerCase();
        if (key.length >= 3) stemNames.set(key, Math.max(stemNames.get(key) ?? 0, t.weight));
      }
    }
  }
  const candidatesByTarget = new Map<TargetKey, string[]>();
  if (pathTerms.length > 0 || stemNames.size > 0) {
    if (input.files) for (const [k, paths] of input.files) candidatesByTarget.set(k, paths);
    // Targets without a file list: the candidates' own files.
    for (const [repoId, byBranch] of filesByTarget) {
      for (const [branch, byPath] of byBranch) {
        const k = targetKey(repoId, branch);
        if (!candidatesByTarget.has(k)) candidatesByTarget.set(k, [...byPath.keys()]);
      }
    }
  }
  for (const [k, paths] of candidatesByTarget) {
    const [repoId, branch] = k.split("\u0000") as [string, string];
    const { byStem } = pathFacts(paths);
    // A mention counts in proportion to how specific it is: `__init__.py` names dozens of files.
    const matched = pathTerms.map((t) => namedFiles(t.text, paths));
    // Files worth a look: those a path mention names (at most MAX_FILES_NAMED) or whose stem is a query name.
    const hits = new Set<number>();
    const stemOf = new Map<number, string>();
    matched.forEach((at) => {
      if (at.length > 0 && at.length <= MAX_FILES_NAMED) for (const i of at) hits.add(i);
    });
    for (const stem of stemNames.keys()) {
      for (const i of byStem.get(stem) ?? []) {
        hits.add(i);
        stemOf.set(i, stem);
      }
    }
    for (const i of [...hits].sort((a, b) => a - b)) {
      const path = paths[i]!;
      let pathW = 0;
      pathTerms.forEach((t, j) => {
        const count = matched[j]!.length;
        if (count === 0 || count > MAX_FILES_NAMED) return;
        const w = t.weight / count;
        if (w > pathW && matched[j]!.includes(i)) pathW = w;
      });
      const stem = stemOf.get(i);
      const stemW = stem ? (stemNames.get(stem) ?? 0) : 0;
      if (pathW === 0 && stemW === 0) continue;
      const f = fileAcc(repoId, branch, path);
      if (pathW > 0) {
        f.bonus += RANKING.pathBonus * Math.min(1.2, pathW / 3);
        f.reasons.push("path mentioned");
      }
      if (stemW > 0) {
        f.bonus += RANKING.stemBonus * Math.min(1.2, stemW / 2.5);
        f.reasons.push(`module ${stem} mentioned`);
      }
    }
  }

  // Translations (./locales.ts): a locale the query names gains like a path it mentions (one mention
  // shared among the locales named); the locales it does not ask for weigh like tests.
  const translations = input.translations ?? translationsOf(analysis, input.files, input.report ?? "");
  for (const { target, path, share } of translations.named) {
    const [repoId, branch] = target.split("\u0000") as [string, string];
    const f = fileAcc(repoId, branch, path);
    f.bonus += RANKING.pathBonus * Math.min(1.2, (RANKING.localeNamedWeight * share) / 3);
    f.reasons.push("language named");
  }

  // 5. Score files.
  const scored: { file: FileAcc; score: number }[] = [];
  for (const f of files) {
    if (f.chunks.length > 1) f.chunks.sort(byScore);
    let score = 0;
    for (let i = 0, decay = 1; i < f.chunks.length && i < RANKING.aggregateChunks; i++, decay *= RANKING.aggregateDecay) score += f.chunks[i]!.score * decay;
    score += f.bonus;
    const cls = classifyPath(f.path);
    if (cls === "doc" && !wants.releaseNotes && RELEASE_NOTES.test(f.path)) score *= RANKING.releaseNotesFactor;
    else if (demotedClass(cls, wants)) score *= RANKING.auxiliaryFactor;
    else if (cls === "other") score *= RANKING.nonCodeFactor;
    if (translations.unasked(targetKey(f.repoId, f.branch), f.path)) score *= RANKING.auxiliaryFactor;
    if (analysis.scopes?.length && inScope(f.path, analysis.scopes)) {
      score *= RANKING.scopeFactor;
      f.reasons.push("in the title's scope");
    }
    if (score > 0) scored.push({ file: f, score });
  }
  scored.sort((a, b) => b.score - a.score || (a.file.path < b.file.path ? -1 : 1));
  // Copies of a higher file's code or text make room for the rest (./copies.ts).
  demoteCopies(scored);
  return scored.slice(0, input.limit).map(({ file: f, score }) => ({
    repoId: f.repoId,
    branch: f.branch,
    path: f.path,
    score,
    chunks: f.chunks,
    reasons: [...chunkReasons(f.chunks), ...f.reasons],
  }));
}

const QUOTED_REASON = "prints a message the query quotes";

const byScore = (a: { score: number }, b: { score: number }): number => b.score - a.score;

/** Why a returned file ranks: the structure its chunks matched, best chunk first (then its path, added by the caller). */
function chunkReasons(chunks: readonly ChunkAcc[]): string[] {
  const reasons: string[] = [];
  for (const c of chunks) {
    const defined = c.innerName ?? c.doc.symbol;
    if (c.defines && !reasons.includes(`defines ${defined}`)) reasons.push(`defines ${defined}`);
    if (c.memberOf && !reasons.includes(`member of ${c.doc.parent}`)) reasons.push(`member of ${c.doc.parent}`);
    if (c.uses && !reasons.includes(`uses ${c.uses}`)) reasons.push(`uses ${c.uses}`);
    if (c.quoted && !reasons.includes(QUOTED_REASON)) reasons.push(QUOTED_REASON);
  }
  return reasons;
}

/**
 * `distance` for a ranked list: 1 - score / best score, in [0, 1], 0 for the best file. It orders
 * results like the ranking does and says how far each falls behind the best match of THIS query; it is
 * not comparable across queries. Without an embedder it reflects lexical and structural evidence only.
 */
export function distances(files: { score: number }[]): number[] {
  const best = files[0]?.score ?? 0;
  return files.map((f) => (best > 0 ? Math.round((1 - f.score / best) * 10_000) / 10_000 : 1));
}
