/**
 * Where the work is done: a question's best match is often a short entry point that only hands the work
 * to another definition (`redisFormatCommand` starts a `va_list` and calls `redisvFormatCommand`;
 * `ExceptionUtils.stream` returns `getThrowableList(t).stream()`), and the reader asking "how is X done"
 * wants the code that does it. When the best chunk of a question's first file is a short function or
 * method, the definitions it calls (the code graph's, at most a few places each) that are longer than it
 * are its delegates; the first of them joins the references right after it, in its own file.
 *
 * Structure from the code, not the question's words: the same for every language the graph reads.
 */
import type { ChunkDocument, CodeIndex, DefinitionHit } from "../codeindex/port.ts";
import type { RankedFile } from "./ranking.ts";
import { referencedNames } from "./callees.ts";
import { classifyPath } from "./ranking.ts";
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

/**
 * The definition the entry point hands its work to: among the definitions of the names it calls (in the
 * order it calls them most), a function or method of a source file of the same target, longer than the
 * entry point, whose name is defined in few places: one in the entry point's own file first, else the
 * only one of another file that `elsewhere` accepts (the caller's evidence that the call reaches it).
 * Null when there is none.
 */
export function delegateOf(entry: ChunkDocument, branch: string, names: readonly string[], definitions: readonly DefinitionHit[], elsewhere: (d: DefinitionHit) => boolean): DefinitionHit | null {
  const entryLines = codeLines(entry);
  for (const name of names) {
    const places = definitions.filter((d) => d.def.name === name && d.repoId === entry.repoId && d.branch === branch);
    if (places.length === 0 || places.length > DELEGATION.maxPlaces) continue;
    const longer = places.filter(
      (d) => (d.def.kind === "function" || d.def.kind === "method") && classifyPath(d.path) === "source" && d.def.endLine - d.def.startLine + 1 >= entryLines * DELEGATION.minGrowth,
    );
    const own = longer.find((d) => d.path === entry.path);
    if (own) return own;
    if (longer.length === 1 && elsewhere(longer[0]!)) return longer[0]!;
  }
  return null;
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
  const names = delegatedNames(entry);
  if (names.length === 0) return null;
  const [found, imported] = await Promise.all([
    index.findDefinitions({ orgId, targets: [{ repoId: first.repoId, branch: first.branch }] }, names, 50),
    index.importsOf(first.repoId, first.branch, first.path),
  ]);
  const isCandidate = (d: DefinitionHit) =>
    ranked.some((f) => f.repoId === d.repoId && f.branch === d.branch && f.path === d.path && f.chunks.some((c) => c.doc.startLine <= d.def.endLine && c.doc.endLine >= d.def.startLine));
  return delegateOf(entry, first.branch, names, found, (d) => imported.includes(d.path) && isCandidate(d));
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
 * The ranked files with the delegate's file second when it is another file than the first (moved up, or
 * added with the first's chunks' reason when no list found it); unchanged when it is the first file.
 */
export function withDelegateFile(ranked: readonly RankedFile[], delegate: DefinitionHit): RankedFile[] {
  const [first, ...rest] = ranked;
  if (!first) return [...ranked];
  const same = (f: RankedFile) => f.repoId === delegate.repoId && f.branch === delegate.branch && f.path === delegate.path;
  if (same(first)) return [...ranked];
  const found = rest.find(same);
  const entry = first.chunks[0]?.doc.symbol ?? "the best match";
  const file: RankedFile = found ?? { repoId: delegate.repoId, branch: delegate.branch, path: delegate.path, score: rest[0]?.score ?? first.score, chunks: [], reasons: [] };
  const moved: RankedFile = { ...file, score: Math.max(file.score, rest[0]?.score ?? 0), reasons: [...file.reasons, `called by ${entry}`] };
  return [first, moved, ...rest.filter((f) => f !== found)];
}
