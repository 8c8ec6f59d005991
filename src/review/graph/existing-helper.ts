/**
 * "Existing helper": a function the change adds that closely duplicates a function already in the
 * repository. Precision first, so a comment names only a real copy:
 *   1. the new function: added whole by the change (every line of it an added line), a function or
 *      method of at least MIN_CODE_LINES lines of code and MIN_TOKENS tokens, outside tests, examples,
 *      scripts and generated code;
 *   2. candidates: functions and methods of the indexed target branch found by a lexical search for
 *      the new function's identifiers (the code index's chunks), outside those paths too;
 *   3. the check: identifier-renaming-insensitive token shingles (./similarity.ts) at least
 *      STRUCTURE_THRESHOLD alike, and the names they call or read as members at least API_THRESHOLD
 *      alike (same shape calling other APIs is not a copy); methods of the same name on different
 *      types (implementations of one interface) and anything in the new function's own file (a
 *      family of setters, accessors or constructors, one per field or constant, that the author and
 *      the reviewer see side by side) are never named: the finding is about the rest of the repository;
 *      nor are variants of one role, each named for its own file (`redisAeAttach` in `ae.h` and
 *      `redisLibuvAttach` in `libuv.h`, `newEpollPoller` in `poll_epoll.go`): one per backend,
 *      platform or format, alike by design, and neither can call the other;
 *   4. the candidate still stands at the pull request's base and head, and still passes the check at
 *      head (a function the change moves or rewrites is not "existing").
 * One comment per new function (the most alike candidate), on the new function's lines.
 */
import type { DiffFile } from "../diff.ts";
import type { Finding } from "../findings.ts";
import type { OutlineDefinition } from "../change-outline.ts";
import { compareDefinitions } from "../change-outline.ts";
import { isScriptPath, isSkippedPath, isTestPath } from "../analysers/context.ts";
import { codeOnly, codeTokens, similarity, STRING_LITERAL, type CodeTokens } from "./similarity.ts";

export const RULE_EXISTING_HELPER = "graph/existing-helper";
export const MIN_TOKENS = 40;
export const MIN_CODE_LINES = 4;
export const STRUCTURE_THRESHOLD = 0.8;
export const API_THRESHOLD = 0.5;
/** New functions looked up per file (the longest first). */
export const MAX_LOOKUPS_PER_FILE = 20;
const FUNCTION_KINDS = new Set(["function", "method"]);

export type NewFunction = {
  path: string;
  name: string;
  parent: string | null;
  kind: string;
  startLine: number;
  endLine: number;
  text: string;
  tokens: CodeTokens;
};

/** A function of the indexed branch that may be the existing helper. */
export type HelperCandidate = { path: string; name: string; parent: string | null; kind: string; text: string };

/** The candidate's definition at the pull request's base and head (null when it is not in both). */
export type DefinitionAtHead = { text: string; startLine: number; endLine: number };

export type HelperLookup = {
  /** Candidates for a new function: functions of the indexed branch that share its identifiers. */
  candidates(fn: NewFunction, identifiers: readonly string[]): Promise<HelperCandidate[]>;
  /** The candidate as it stands at head, when it also stood at the base; null otherwise. */
  atHead(candidate: HelperCandidate): Promise<DefinitionAtHead | null>;
  /** Optional: the files of these candidates will be asked for (read them together). */
  prefetch?(candidates: readonly HelperCandidate[]): Promise<void>;
};

const helperPath = (path: string) => !isTestPath(path) && !isScriptPath(path) && !isSkippedPath(path);

const addedLinesOf = (file: DiffFile) => {
  const added = new Set<number>();
  for (const h of file.hunks) for (const l of h.lines) if (l.kind === "add" && l.newLine !== null) added.add(l.newLine);
  return added;
};

/** The functions and methods the change adds whole to `file` (head version `headContent`), big enough to compare. */
export function newFunctionsOf(file: DiffFile, before: readonly OutlineDefinition[], after: readonly OutlineDefinition[], headContent: string): NewFunction[] {
  if (!helperPath(file.path)) return [];
  const added = addedLinesOf(file);
  const lines = headContent.split("\n");
  const out: NewFunction[] = [];
  for (const change of compareDefinitions(file.path, before, after)) {
    if (change.change !== "added" || !FUNCTION_KINDS.has(change.kind)) continue;
    const def = after.find((d) => d.startLine === change.line && d.name === change.name && d.kind === change.kind);
    if (!def || def.container) continue;
    let whole = true;
    for (let n = def.startLine; n <= def.endLine && whole; n++) if (!added.has(n)) whole = false;
    if (!whole) continue;
    const text = lines.slice(def.startLine - 1, def.endLine).join("\n");
    const tokens = codeTokens(text, file.path);
    if (tokens.tokens.length < MIN_TOKENS || tokens.codeLines < MIN_CODE_LINES) continue;
    out.push({ path: file.path, name: def.name, parent: def.parent, kind: def.kind, startLine: def.startLine, endLine: def.endLine, text, tokens });
  }
  return out.sort((a, b) => b.tokens.tokens.length - a.tokens.tokens.length).slice(0, MAX_LOOKUPS_PER_FILE).sort((a, b) => a.startLine - b.startLine);
}

/** Distinct identifiers of a function's code (as written; not of its comments), the search terms for its candidates. */
export function identifiersOf(fn: NewFunction, max = 40): string[] {
  const names = new Set<string>();
  for (const m of codeOnly(fn.text, fn.path).replace(STRING_LITERAL, " ").matchAll(/[A-Za-z_$][\w$]*/g)) {
    if (m[0].length >= 3) names.add(m[0]);
    if (names.size >= max) break;
  }
  return [...names];
}

type Match = { candidate: HelperCandidate; structure: number };

/** Whether `candidate` passes the check against `fn` (its own text given). */
export function alike(fn: NewFunction, candidate: Pick<HelperCandidate, "name" | "parent" | "kind" | "path">, text: string): number | null {
  if (candidate.kind === "method" && fn.kind === "method" && candidate.name === fn.name) return null; // one interface, two types
  const tokens = codeTokens(text, candidate.path);
  if (tokens.tokens.length < MIN_TOKENS * 0.7) return null;
  // Each delegates to the same-named member of another object (`self.inner.with_target(v)` in
  // `with_target`): a family of wrappers, one per wrapped API, not a copy.
  if (fn.name !== candidate.name && fn.tokens.foreignMembers.has(fn.name) && tokens.foreignMembers.has(candidate.name)) return null;
  const s = similarity(fn.tokens, tokens, [fn.name, candidate.name]);
  return s.structure >= STRUCTURE_THRESHOLD && s.api >= API_THRESHOLD ? s.structure : null;
}

/** The words of a name: camelCase, snake_case and digit runs, lowercased. */
const wordsOf = (name: string): string[] => name.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+/g)?.map((w) => w.toLowerCase()) ?? [];

/** A file's name without its folder and extension, lowercased letters and digits only. */
const stemOf = (path: string): string => path.slice(path.lastIndexOf("/") + 1).replace(/\.[^.]*$/, "").toLowerCase().replace(/[^a-z0-9]/g, "");

/**
 * Whether two functions are variants of one role, each named for its own file: their names share a
 * first or last word and differ in one run of words between, and each name's own run is written in
 * its own file's name and not in the other's (`redis|Module|Attach` in `redismoduleapi.h` against
 * `redis|Ae|Attach` in `ae.h`).
 */
export function variantsOfOneRole(a: { name: string; path: string }, b: { name: string; path: string }): boolean {
  const wa = wordsOf(a.name);
  const wb = wordsOf(b.name);
  let head = 0;
  while (head < wa.length && head < wb.length && wa[head] === wb[head]) head++;
  let tail = 0;
  while (tail < wa.length - head && tail < wb.length - head && wa[wa.length - 1 - tail] === wb[wb.length - 1 - tail]) tail++;
  if (head + tail === 0) return false;
  const ownA = wa.slice(head, wa.length - tail).join("");
  const ownB = wb.slice(head, wb.length - tail).join("");
  if (ownA === "" || ownB === "") return false;
  const stemA = stemOf(a.path);
  const stemB = stemOf(b.path);
  return stemA.includes(ownA) && stemB.includes(ownB) && !stemB.includes(ownA) && !stemA.includes(ownB);
}

const label = (name: string, parent: string | null) => `${parent ? `${parent}.` : ""}${name}()`;

/** The "existing helper" findings of one file's new functions. */
export async function existingHelperFindings(functions: readonly NewFunction[], lookup: HelperLookup): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const fn of functions) {
    const candidates = (await lookup.candidates(fn, identifiersOf(fn))).filter(
      (c) => FUNCTION_KINDS.has(c.kind) && helperPath(c.path) && c.path !== fn.path && !variantsOfOneRole(fn, c),
    );
    const matches: Match[] = [];
    for (const c of candidates) {
      const structure = alike(fn, c, c.text);
      if (structure !== null) matches.push({ candidate: c, structure });
    }
    matches.sort((a, b) => b.structure - a.structure);
    if (matches.length > 0) await lookup.prefetch?.(matches.slice(0, 3).map((m) => m.candidate));
    for (const m of matches.slice(0, 3)) {
      const head = await lookup.atHead(m.candidate);
      if (!head) continue;
      const structure = alike(fn, m.candidate, head.text);
      if (structure === null) continue;
      const where = `${m.candidate.path}:${head.startLine}`;
      findings.push({
        ruleId: RULE_EXISTING_HELPER,
        severity: "medium",
        path: fn.path,
        lineStart: fn.startLine,
        lineEnd: fn.endLine,
        message:
          `\`${label(fn.name, fn.parent)}\` closely duplicates the existing \`${label(m.candidate.name, m.candidate.parent)}\` at \`${where}\` ` +
          `(${Math.round(structure * 100)} % of its code alike, names aside). Consider calling or extending it instead of keeping a second copy.`,
      });
      break;
    }
  }
  return findings;
}
