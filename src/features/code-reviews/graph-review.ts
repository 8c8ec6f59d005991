/**
 * The review's "existing helper" and "untested change" findings (src/review/graph/): the code index of
 * the pull request's repository (its indexed branch, chosen by ./graph-findings.ts) for candidates and
 * test references, and the pull request's base and head commits to check what the index says against
 * the code being merged. Without an index, "existing helper" finds nothing and "untested change" uses
 * the test naming conventions only. A failure here never fails a review: the file is reviewed without
 * these findings. (Broken callers: ./graph-findings.ts.)
 */
import type { CodeIndex, GraphDefinition, IndexFilter } from "../../codeindex/port.ts";
import type { Logger } from "../../logging.ts";
import type { DiffFile } from "../../review/diff.ts";
import type { Finding } from "../../review/findings.ts";
import { compareDefinitions, definitionsOf, type DefinitionChange, type OutlineDefinition } from "../../review/change-outline.ts";
import { existingHelperFindings, newFunctionsOf, type HelperCandidate, type HelperLookup } from "../../review/graph/existing-helper.ts";
import { codeWithoutAnnotations } from "../../review/graph/similarity.ts";
import { sameBehaviour, type AddedHelper } from "../../review/graph/same-behaviour.ts";
import { isPublicDefinition, untestedChanges, type TestLookup, type UntestedChange, type UntestedReport } from "../../review/graph/untested-change.ts";
import { namesOf, repeatedEdits, type ChangedFunction } from "../../review/graph/repeated-edit.ts";
import { isTestPath, languageOf } from "../../review/analysers/context.ts";
import type { IndexTarget } from "./graph-findings.ts";

export type GraphReviewDeps = {
  codeIndex: CodeIndex | null;
  /** The indexed branch of the pull request's repository (./graph-findings.ts `indexTargetOf`); null when none. */
  target: IndexTarget | null;
  read(sha: string, path: string): Promise<string | null>;
  /** Reads these files at `sha` together, for the `read` calls that follow. */
  prefetch(sha: string, paths: string[]): Promise<void>;
  paths(sha: string): Promise<string[]>;
  /** Paths the pull request touches (old and new). */
  touched: ReadonlySet<string>;
  /** Test files whose existing lines the pull request rewrites (../../review/graph/untested-change.ts rewrittenTestsOf). */
  rewrittenTests?: ReadonlySet<string>;
  base: string;
  head: string;
  logger: Logger;
};

const CANDIDATES = 15;
/** Import steps, and files at most, followed from a rewritten test to a changed function's file. */
const REACH_DEPTH = 3;
const REACH_FILES = 400;

const NOTHING_UNTESTED: UntestedReport = { listed: [], mechanical: null };
/** A changed definition's identity within one review: its file, parent, name and line at head. */
const keyOf = (d: Pick<DefinitionChange, "path" | "parent" | "name" | "line">) => `${d.path}\0${d.parent ?? ""}\0${d.name}\0${d.line}`;

export function createGraphReview(deps: GraphReviewDeps) {
  const { codeIndex, target, base, head, logger } = deps;
  const filter: IndexFilter | null = target ? { orgId: target.orgId, targets: [{ repoId: target.repoId, branch: target.branch }] } : null;
  const parsed = new Map<string, Promise<{ content: string; defs: OutlineDefinition[] } | null>>();
  /** A file's content and definitions at a commit (null when absent or not parsed). */
  const versionOf = (sha: string, path: string) => {
    const key = `${sha}\0${path}`;
    if (!parsed.has(key)) {
      parsed.set(
        key,
        (async () => {
          const content = await deps.read(sha, path).catch(() => null);
          if (content === null) return null;
          const defs = await definitionsOf(path, content);
          return defs ? { content, defs } : null;
        })(),
      );
    }
    return parsed.get(key)!;
  };
  const textOf = (content: string, d: OutlineDefinition) => content.split("\n").slice(d.startLine - 1, d.endLine).join("\n");
  const fail = (what: string, path: string, error: unknown) => {
    logger.warn({ path, err: { message: error instanceof Error ? error.message : String(error) } }, `${what} failed; reviewing without it`);
  };

  // The indexed branch's graph and text of a file (its definitions' spans; its lines put back together from its chunks).
  const graphs = new Map<string, Promise<GraphDefinition[]>>();
  const graphOf = (path: string) => {
    if (!graphs.has(path)) graphs.set(path, codeIndex && target ? codeIndex.getFileGraph(target.repoId, target.branch, path).then((g) => g?.definitions ?? []) : Promise.resolve([]));
    return graphs.get(path)!;
  };
  const indexedLines = new Map<string, Promise<string[]>>();
  const indexedLinesOf = (path: string) => {
    if (!indexedLines.has(path)) {
      indexedLines.set(
        path,
        (async () => {
          const lines: string[] = [];
          if (!codeIndex || !target) return lines;
          for (const c of await codeIndex.getFileChunks(target.repoId, target.branch, path)) c.text.split("\n").forEach((l, i) => (lines[c.startLine - 1 + i] = l));
          return lines;
        })(),
      );
    }
    return indexedLines.get(path)!;
  };

  const lookup: HelperLookup = {
    /**
     * The functions and methods of the chunks a lexical search finds, each whole: the graph's spans say
     * which definitions a chunk holds (a class's methods, the small functions of a block) or is part of
     * (a long function cut into windows), and a definition longer than its chunk is read whole.
     */
    async candidates(_fn, identifiers) {
      if (!codeIndex || !filter || identifiers.length === 0) return [];
      const hits = await codeIndex.searchLexical(identifiers.join(" "), filter, CANDIDATES);
      const out: HelperCandidate[] = [];
      const seen = new Set<string>();
      for (const { doc } of hits) {
        const defs = (await graphOf(doc.path)).filter((d) => (d.kind === "function" || d.kind === "method") && d.startLine <= doc.endLine && d.endLine >= doc.startLine);
        if (defs.length === 0 && doc.symbol) {
          // No graph for the file: the chunk as it is.
          if (!seen.has(`${doc.path}\0${doc.startLine}`)) out.push({ path: doc.path, name: doc.symbol, parent: doc.parent, kind: doc.kind, text: doc.text });
          seen.add(`${doc.path}\0${doc.startLine}`);
          continue;
        }
        for (const d of defs) {
          const key = `${doc.path}\0${d.startLine}`;
          if (seen.has(key)) continue;
          seen.add(key);
          const inside = d.startLine >= doc.startLine && d.endLine <= doc.endLine;
          const lines = inside ? doc.text.split("\n").slice(d.startLine - doc.startLine, d.endLine - doc.startLine + 1) : (await indexedLinesOf(doc.path)).slice(d.startLine - 1, d.endLine);
          out.push({ path: doc.path, name: d.name, parent: d.parent, kind: d.kind, text: lines.map((l) => l ?? "").join("\n") });
        }
      }
      return out;
    },
    async prefetch(candidates) {
      const paths = [...new Set(candidates.map((c) => c.path))];
      await Promise.all([deps.prefetch(head, paths), deps.prefetch(base, paths.filter((p) => deps.touched.has(p)))]);
    },
    async atHead(candidate) {
      // By name and parent; else (the graph and the outline may name a parent differently) the one function of that name.
      const find = (v: { defs: OutlineDefinition[] } | null) => {
        const named = v?.defs.filter((d) => d.name === candidate.name && (d.kind === "function" || d.kind === "method")) ?? [];
        return named.find((d) => d.parent === candidate.parent) ?? (named.length === 1 ? named[0]! : null);
      };
      // A file the pull request does not touch is the same at its base and head.
      const before = deps.touched.has(candidate.path) ? await versionOf(base, candidate.path) : null;
      if (deps.touched.has(candidate.path) && !find(before)) return null;
      const after = await versionOf(head, candidate.path);
      const d = find(after);
      return d && after ? { text: textOf(after.content, d), startLine: d.startLine, endLine: d.endLine } : null;
    },
  };

  /** "Existing helper" findings for one reviewed file (inline, on the new function). */
  async function existingHelpers(file: DiffFile): Promise<Finding[]> {
    if (!codeIndex || !filter || file.status === "deleted" || file.binary) return [];
    try {
      const after = await versionOf(head, file.path);
      if (!after) return [];
      const before = file.status === "added" || !file.oldPath ? { defs: [] } : await versionOf(base, file.oldPath);
      if (!before) return [];
      return await existingHelperFindings(newFunctionsOf(file, before.defs, after.defs, after.content), lookup);
    } catch (error) {
      fail("the existing-helper check", file.path, error);
      return [];
    }
  }

  let headPaths: Promise<string[]> | null = null;
  // Each file's imports on the indexed branch, read once per review (the reach walks share files).
  const imports = new Map<string, Promise<string[]>>();
  const importsOf = (path: string): Promise<string[]> => {
    if (!codeIndex || !target) return Promise.resolve([]);
    if (!imports.has(path)) imports.set(path, codeIndex.importsOf(target.repoId, target.branch, path));
    return imports.get(path)!;
  };
  const testLookup: TestLookup = {
    headPaths: [],
    readHead: (path) => deps.read(head, path).catch(() => null),
    prefetchHead: (paths) => deps.prefetch(head, [...paths]),
    async graphTests(name, sourcePath) {
      if (!codeIndex || !filter || !target) return [];
      const refs = await codeIndex.findReferences(filter, name, 300);
      const tests = [...new Set(refs.map((r) => r.path).filter(isTestPath))];
      if (tests.length === 0) return [];
      const defs = await codeIndex.findDefinitions(filter, [name], 50);
      if (defs.length > 0 && defs.every((d) => d.path === sourcePath)) return tests;
      const out: string[] = [];
      for (const t of tests.slice(0, 100)) if ((await importsOf(t)).includes(sourcePath)) out.push(t);
      return out;
    },
    async reaches(testPath, sourcePath) {
      if (!codeIndex || !target) return false;
      // Breadth first over the indexed branch's imports: the test, the modules it imports (a package's
      // `__init__.py`), theirs, and one step more.
      let frontier = [testPath];
      const seen = new Set(frontier);
      for (let depth = 0; depth < REACH_DEPTH && frontier.length > 0; depth++) {
        const next: string[] = [];
        for (const p of frontier) {
          for (const i of await importsOf(p)) {
            if (i === sourcePath) return true;
            if (seen.has(i) || seen.size >= REACH_FILES) continue;
            seen.add(i);
            next.push(i);
          }
        }
        frontier = next;
      }
      return false;
    },
  };

  /**
   * Changed public functions of `files` whose code changed, with tests the change leaves untouched; those
   * whose edit another changed function repeats (a mechanical edit, ../../review/graph/repeated-edit.ts)
   * apart. `changeFiles`: all the change's files (the reviewed ones and those skipped, such as a file whose
   * lines are only removed), where a helper may have moved from.
   */
  async function untested(files: readonly DiffFile[], changeFiles: readonly DiffFile[] = files): Promise<UntestedReport> {
    try {
      const changed: DefinitionChange[] = [];
      // Every changed function and method of the change's source files (private ones too): the edits they share.
      const edits: ChangedFunction[] = [];
      const removedDefinitions = new Set<string>();
      const compared: { file: DiffFile; before: Version; after: Version; changes: DefinitionChange[] }[] = [];
      for (const file of files) {
        if (file.status === "deleted" || file.status === "added" || file.binary || !file.oldPath || isTestPath(file.path)) continue;
        const before = await versionOf(base, file.oldPath);
        const after = await versionOf(head, file.path);
        if (!before || !after) continue;
        compared.push({ file, before, after, changes: compareDefinitions(file.path, before.defs, after.defs) });
      }
      const renamed = await movedAndRenamed(changeFiles);
      for (const { file, before, after, changes } of compared) {
        // Functions the change adds to the file: a changed function may now call one in place of its old statements.
        const addedHelpers: AddedHelper[] = changes.flatMap((c) => {
          const d = c.change === "added" && (c.kind === "function" || c.kind === "method") ? after.defs.find((x) => x.startLine === c.line && x.name === c.name) : undefined;
          return d ? [{ name: d.name, text: textOf(after.content, d) }] : [];
        });
        // The file's functions at each version: helpers a changed function may call, or have called, in place of statements.
        const functionsOf = (v: Version, except: string) => v.defs.filter((d) => FUNCTION_KINDS.has(d.kind) && d.name !== except).map((d) => ({ name: d.name, text: textOf(v.content, d) }));
        for (const c of changes) {
          if (c.change === "removed") removedDefinitions.add(c.name);
          if (c.change !== "changed" || (c.kind !== "function" && c.kind !== "method")) continue;
          // The base definition compareDefinitions paired it with (overloads: by text, then signature, then order).
          const same = (d: OutlineDefinition) => d.name === c.name && d.parent === c.parent && d.kind === c.kind;
          const a = after.defs.find((d) => d.startLine === c.line && same(d));
          const b = before.defs.find((d) => d.startLine === c.baseLine && same(d));
          if (!a || !b) continue;
          // Comments, whitespace, line wrapping and type annotations aside; then locals renamed or statements
          // moved into a helper the change adds (../../review/graph/same-behaviour.ts).
          const [old, now] = [textOf(before.content, b), textOf(after.content, a)];
          if (codeWithoutAnnotations(old, file.path) === codeWithoutAnnotations(now, file.path)) continue;
          edits.push({ id: keyOf(c), path: file.path, name: c.name, before: old, after: now });
          const context = { after: functionsOf(after, c.name).filter((h) => !addedHelpers.some((x) => x.name === h.name)), before: functionsOf(before, c.name), renamed };
          if (isPublicDefinition(c) && !sameBehaviour(old, now, file.path, addedHelpers, context)) changed.push(c);
        }
      }
      if (changed.length === 0) return NOTHING_UNTESTED;
      headPaths ??= deps.paths(head);
      const found = await untestedChanges({ changed, touched: deps.touched, ...(deps.rewrittenTests ? { rewrittenTests: deps.rewrittenTests } : {}), lookup: { ...testLookup, headPaths: await headPaths } });
      const repeated = repeatedEdits(edits, removedDefinitions);
      const mechanical = found.filter((u) => repeated.has(keyOf(u)));
      return {
        listed: found.filter((u) => !repeated.has(keyOf(u))),
        mechanical: mechanical.length === 0 ? null : { functions: mechanical.length, ...namesOf(mechanical.map((u) => repeated.get(keyOf(u))!)) },
      };
    } catch (error) {
      fail("the untested-change check", files.map((f) => f.path).join(", ").slice(0, 200), error);
      return NOTHING_UNTESTED;
    }
  }

  /**
   * Functions the change removes whose text (their own name aside) a function it adds has, under another
   * name, in any of its files (reviewed or not: a file whose lines are only removed is not reviewed): a
   * helper moved and renamed (`parse_charset` in `_utils.py` now `_parse_charset` in `_models.py`), by its
   * old name. A text found twice on either side pairs nothing.
   */
  async function movedAndRenamed(files: readonly DiffFile[]): Promise<Map<string, string>> {
    const removed = new Map<string, string[]>();
    const added = new Map<string, string[]>();
    const note = (into: Map<string, string[]>, d: OutlineDefinition) => FUNCTION_KINDS.has(d.kind) && into.set(d.bodyHash, [...(into.get(d.bodyHash) ?? []), d.name]);
    for (const file of files) {
      // Source files only (no document or configuration is read for its definitions).
      const language = languageOf(file.path);
      if (isTestPath(file.path) || file.binary || language === null || language === "markdown" || language === "config") continue;
      const before = file.status === "added" ? null : await versionOf(base, file.oldPath ?? file.path);
      const after = file.status === "deleted" ? null : await versionOf(head, file.path);
      if (!before || !after) {
        // A whole file deleted or added by the change: all its functions are removed or added.
        before?.defs.forEach((d) => note(removed, d));
        after?.defs.forEach((d) => note(added, d));
        continue;
      }
      for (const c of compareDefinitions(file.path, before.defs, after.defs)) {
        if (c.change === "removed") before.defs.filter((d) => d.startLine === c.line && d.name === c.name).forEach((d) => note(removed, d));
        if (c.change === "added") after.defs.filter((d) => d.startLine === c.line && d.name === c.name).forEach((d) => note(added, d));
      }
    }
    const out = new Map<string, string>();
    for (const [hash, names] of removed) {
      const to = added.get(hash);
      if (names.length === 1 && to?.length === 1 && to[0] !== names[0]) out.set(names[0]!, to[0]!);
    }
    return out;
  }

  return { existingHelpers, untested };
}

type Version = { content: string; defs: OutlineDefinition[] };
const FUNCTION_KINDS = new Set(["function", "method"]);

export type GraphReview = ReturnType<typeof createGraphReview>;

/**
 * What the chat model is told of the untested changes of one file (its existing-helper findings reach
 * the model with the file's other findings from the repository's code graph).
 */
export function untestedNotesFor(path: string, untested: readonly UntestedChange[]): string | undefined {
  const notes = untested.filter((u) => u.path === path).map((u) => `- \`${u.name}\` (line ${u.line}) changed; its tests ${u.tests.join(", ")} are not part of this pull request.`);
  return notes.length > 0 ? notes.join("\n") : undefined;
}
