/**
 * Where the work is done: a question's best match is often a short entry point that only hands the work
 * to another definition (`redisFormatCommand` starts a `va_list` and calls `redisvFormatCommand`;
 * `ExceptionUtils.stream` returns `getThrowableList(t).stream()`), and the reader asking "how is X done"
 * wants the code that does it. When the best chunk of a question's first file is a short function or
 * method, the longer definitions it calls (the code graph's, at most a few places each, among the
 * candidates) are its delegates; the one the question's words scored highest joins the references right
 * after it (in its own file), or brings its file second (in a file the entry's file imports).
 *
 * Structure from the code, not the question's words: the same for every language the graph reads.
 */
import type { ChunkDocument, CodeIndex, DefinitionHit } from "../codeindex/port.ts";
import { referencedNames } from "./callees.ts";
import { classifyPath } from "./path-classes.ts";
import type { RankedFile } from "./ranking.ts";
import type { Reference } from "./references.ts";

export const DELEGATION = {
  /** A best chunk with this few lines of code is read as an entry point that may hand its work over. */
  maxLines: 12,
  /** Names called by the entry point that are looked up. */
  names: 4,
  /** A name defined in more places than this names nothing in particular (`get`, `close`). */
  maxPlaces: 3,
  /** A delegate is at least this many times as long as the entry point: the work is there. */
  minGrowth: 1.5,
} as const;

/** A line that is blank or only a comment (`//`, `#`, `--`, a block comment's lines, a docstring's quotes). */
const NOT_CODE = /^\s*(?:$|\/\/|#(?![[!\w])|--\s|\/\*|\*|"""|''')/;

/** The lines of a chunk that hold code (its doc comment and blank lines not counted). */
export function codeLines(doc: Pick<ChunkDocument, "text">): number {
  let n = 0;
  for (const line of doc.text.split("\n")) if (!NOT_CODE.test(line)) n++;
  return n;
}

/** Whether a chunk is a short function or method that may hand its work to what it calls. */
export function isEntryPoint(doc: ChunkDocument): boolean {
  return (doc.kind === "function" || doc.kind === "method") && doc.symbol !== null && classifyPath(doc.path) === "source" && codeLines(doc) <= DELEGATION.maxLines;
}

/** The names an entry point calls, most called first (not itself). */
export function delegatedNames(doc: ChunkDocument): string[] {
  return referencedNames(doc, DELEGATION.names).filter((n) => n !== doc.symbol);
}

/** A call of an entry point: a name, and the class of the receiver when a local made it (`d = LineDecoder()`). */
export type Call = { name: string; parent: string | null };

/** A local made by a constructor: `d = Cls(...)`, `new Cls(`, `&Cls{`, Rust's `Cls::new(`, Go's `NewCls(`. */
const CONSTRUCTED = /(?<![\w$.])([A-Za-z_$][\w$]*)\s*(?::=|=)\s*(?:new\s+|&)?([A-Z][\w$]*)(?:::new)?\s*[({]/g;
/** A method called on a local: `d.decode(`. */
const METHOD_CALL = /(?<![\w$.])([A-Za-z_$][\w$]*)\s*\.\s*([A-Za-z_$][\w$]{2,})\s*\(/g;

/**
 * What an entry point calls: first the methods it calls on locals it made with a constructor, with
 * their class (`decoder = LineDecoder()` then `decoder.decode(text)` calls `LineDecoder.decode`), then
 * the names it calls most (./callees.ts), not itself.
 */
export function delegatedCalls(doc: ChunkDocument): Call[] {
  const types = new Map<string, string>();
  for (const m of doc.text.matchAll(CONSTRUCTED)) types.set(m[1]!, m[2]!.replace(/^New(?=[A-Z])/, ""));
  const calls: Call[] = [];
  for (const m of doc.text.matchAll(METHOD_CALL)) {
    const parent = types.get(m[1]!);
    if (parent && !calls.some((c) => c.name === m[2] && c.parent === parent)) calls.push({ name: m[2]!, parent });
  }
  for (const name of delegatedNames(doc)) if (!calls.some((c) => c.name === name)) calls.push({ name, parent: null });
  return calls;
}

/**
 * The definition the entry point hands its work to, among the definitions of what it calls (a method
 * of the receiver's class, or a name defined in few places): a function or method of a source file of
 * the same target, longer than the entry point, in the entry point's own file or, the only one of its
 * name there, in another file that `elsewhere` accepts (the caller's evidence that the call reaches it).
 * Of several, the one `evidence` scores highest (the question's words in it), then the first called.
 * Null when there is none.
 */
export function delegateOf(
  entry: ChunkDocument,
  branch: string,
  calls: readonly Call[],
  definitions: readonly DefinitionHit[],
  elsewhere: (d: DefinitionHit) => boolean,
  evidence: (d: DefinitionHit) => number = () => 0,
): DefinitionHit | null {
  const entryLines = codeLines(entry);
  let best: { d: DefinitionHit; score: number } | null = null;
  for (const { name, parent } of calls) {
    const places = definitions.filter((d) => d.def.name === name && (parent === null || d.def.parent === parent) && d.repoId === entry.repoId && d.branch === branch);
    if (places.length === 0 || places.length > DELEGATION.maxPlaces) continue;
    const longer = places.filter(
      (d) => (d.def.kind === "function" || d.def.kind === "method") && classifyPath(d.path) === "source" && d.def.endLine - d.def.startLine + 1 >= entryLines * DELEGATION.minGrowth,
    );
    const found = longer.find((d) => d.path === entry.path) ?? (longer.length === 1 && elsewhere(longer[0]!) ? longer[0]! : undefined);
    if (!found) continue;
    const score = evidence(found);
    if (!best || score > best.score) best = { d: found, score };
  }
  return best?.d ?? null;
}

/**
 * The definition the first file's best chunk hands its work to, when it is a short entry point: another
 * file's only when the entry's file imports it and a chunk of it is among the ranked candidates (the
 * question's words found it too).
 */
export async function delegateOfBest(index: Pick<CodeIndex, "findDefinitions" | "importsOf">, orgId: string, ranked: readonly RankedFile[]): Promise<DefinitionHit | null> {
  const first = ranked[0];
  const entry = first?.chunks[0]?.doc;
  if (!first || !entry || !isEntryPoint(entry)) return null;
  const calls = delegatedCalls(entry);
  if (calls.length === 0) return null;
  // Only the names a candidate chunk defines (or whose receiver's class one is) are looked up in the
  // graph: the question's words found the code worth reading, and reading the outlines of every file
  // defining `get` cost a search a seventh of its time.
  const called = new Set(calls.map((c) => c.name));
  const defined = new Set<string>();
  const typed = calls.filter((c) => c.parent !== null);
  const note = (doc: ChunkDocument) => {
    if (doc.symbol && called.has(doc.symbol)) defined.add(doc.symbol);
    // A class kept whole (or one of its methods) holds the methods called on its instances.
    for (const c of typed) if (doc.symbol === c.parent || doc.parent === c.parent) defined.add(c.name);
  };
  for (const f of ranked) for (const c of f.chunks) note(c.doc);
  if (defined.size === 0) return null;
  const found = await index.findDefinitions({ orgId, targets: [{ repoId: first.repoId, branch: first.branch }] }, [...defined], 50);
  // The best score of the candidates' chunks inside the definition: how much of the question it holds.
  const evidence = (d: DefinitionHit) => {
    let score = 0;
    for (const f of ranked) {
      if (f.repoId !== d.repoId || f.branch !== d.branch || f.path !== d.path) continue;
      for (const c of f.chunks) if (c.doc.startLine <= d.def.endLine && c.doc.endLine >= d.def.startLine) score = Math.max(score, c.score);
    }
    return score;
  };
  // Another file's definition counts when the entry's file imports it (read only when there is one).
  const imported = found.some((d) => d.path !== first.path && evidence(d) > 0) ? await index.importsOf(first.repoId, first.branch, first.path) : [];
  return delegateOf(entry, first.branch, calls.filter((c) => defined.has(c.name)), found, (d) => imported.includes(d.path) && evidence(d) > 0, evidence);
}

/** The first file's reason when its best match hands its work over (read by ./answer/extractive.ts). */
export const delegationReason = (entry: string, delegate: string): string => `${entry} hands its work to ${delegate}`;
const DELEGATION_REASON = /^(\S+) hands its work to (\S+)$/;

/** The entry point and delegate a file's reasons name, when they name one. */
export function delegationIn(reasons: readonly string[]): { entry: string; delegate: string } | null {
  for (const r of reasons) {
    const m = DELEGATION_REASON.exec(r);
    if (m) return { entry: m[1]!, delegate: m[2]! };
  }
  return null;
}

/**
 * A file's references with the delegate's lines among them: right after the entry point's in the entry
 * point's own file (at its score, so it is read next), first in another file. It takes no place of the
 * file's own: they keep their order after it, at most `perFile` of them.
 */
export function withDelegate(references: readonly Reference[], delegate: Pick<DefinitionHit, "def">, entryFile: boolean, perFile: number): Reference[] {
  const { startLine: linestart, endLine: lineend } = delegate.def;
  const others = references.filter((r) => r.lineend < linestart || r.linestart > lineend);
  const at = entryFile ? Math.min(1, others.length) : 0;
  const score = others[0]?.score ?? 0;
  const kept = others.slice(0, perFile);
  return [...kept.slice(0, at), { linestart, lineend, score }, ...kept.slice(at)];
}

/**
 * The ranked files with the delegate's file moved second when it is another of them (a delegate in
 * another file is always among the candidates: `delegateOfBest`); unchanged otherwise.
 */
export function withDelegateFile(ranked: readonly RankedFile[], delegate: DefinitionHit): RankedFile[] {
  const [first, ...rest] = ranked;
  const found = rest.find((f) => f.repoId === delegate.repoId && f.branch === delegate.branch && f.path === delegate.path);
  if (!first || !found) return [...ranked];
  const entry = first.chunks[0]?.doc.symbol ?? "the best match";
  const moved: RankedFile = { ...found, score: Math.max(found.score, rest[0]?.score ?? 0), reasons: [...found.reasons, `called by ${entry}`] };
  return [first, moved, ...rest.filter((f) => f !== found)];
}
