/**
 * Small repositories for the broken-callers tests: every file parsed by the real tree-sitter reading,
 * the branch's graph (callers, definitions) computed from those parses, and the change's diff from a
 * real `git diff` in a temporary repository.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { findBrokenCallers, type BranchGraph, type BrokenCaller } from "../../src/review/graph/broken-callers.ts";
import { parseForCalls } from "../../src/review/graph/calls.ts";
import { parseGitDiff, type DiffFile } from "../../src/review/diff.ts";

/** The graph of `files` as the code index would give it (calls and definitions per file; imports resolved by `imports`). */
export async function graphOf(files: Record<string, string>, imports: Record<string, string[]> = {}): Promise<BranchGraph> {
  const parsed = await Promise.all(Object.entries(files).map(async ([path, text]) => ({ path, p: await parseForCalls(path, text, null) })));
  return {
    async callersOf(name) {
      return parsed.flatMap(({ path, p }) => (p?.calls ?? []).filter((c) => c.name === name).map((c) => ({ path, line: c.line })));
    },
    async usersOf(name) {
      return parsed.flatMap(({ path, p }) => (p?.graph.references ?? []).filter((r) => r.name === name).map((r) => ({ path, line: r.line })));
    },
    async definitionsOf(name) {
      return parsed.flatMap(({ path, p }) => (p?.graph.definitions ?? []).filter((d) => d.name === name).map((d) => ({ path, kind: d.kind, parent: d.parent, params: d.params })));
    },
    async importersOf(path) {
      return Object.entries(imports).filter(([, to]) => to.includes(path)).map(([from]) => from);
    },
    async importsOf(path) {
      return imports[path] ?? [];
    },
  };
}

/** The diff of `changed` (null: deleted) against `files` (a real `git diff` in a temp repository). */
export function diffOf(files: Record<string, string>, changed: Record<string, string | null>): DiffFile[] {
  const dir = mkdtempSync(join(tmpdir(), "broken-callers-"));
  try {
    const write = (all: Record<string, string | null>) => {
      for (const [path, text] of Object.entries(all)) {
        if (text === null) rmSync(join(dir, path), { force: true });
        else {
          mkdirSync(dirname(join(dir, path)), { recursive: true });
          writeFileSync(join(dir, path), text);
        }
      }
    };
    const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: dir }).toString();
    git("init", "-q");
    write(files);
    git("add", "-A");
    git("commit", "-qm", "base");
    write(changed);
    git("add", "-A");
    return parseGitDiff(git("diff", "--cached", "-M", "HEAD"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The broken callers of the change `changed` (null: deleted) to `files`. */
export async function brokenOf(files: Record<string, string>, changed: Record<string, string | null>, imports: Record<string, string[]> = {}): Promise<BrokenCaller[]> {
  const head: Record<string, string | null> = { ...files, ...changed };
  return findBrokenCallers({
    files: diffOf(files, changed),
    readBase: async (p) => files[p] ?? null,
    readHead: async (p) => head[p] ?? null,
    graph: await graphOf(files, imports),
  });
}

/** `name path:line` of each stale call site named. */
export async function named(files: Record<string, string>, changed: Record<string, string | null>, imports: Record<string, string[]> = {}): Promise<string[]> {
  return (await brokenOf(files, changed, imports)).flatMap((b) => b.sites.map((s) => `${b.change.name} ${s.path}:${s.line}`));
}
