/**
 * The git side of the evaluation:
 * - a file:// git host tree `<host>/<owner>/<name>.git` (as the dataset spells it): for each repository a bare repo whose objects
 *   come from the fetched mirror `<mirrors>/<owner>+<name>/repo` through `objects/info/alternates` (the
 *   mirrors are only read), with one branch per case: a parentless commit holding base_commit's tree
 *   (the fetched mirrors lack some objects of older history, so a branch AT base_commit could not be
 *   cloned whole; the indexed content is identical);
 * - base_commit's tree and blobs, read from the mirror for the BM25 baseline.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Case } from "./cases.ts";

export type TreeEntry = { mode: string; blob: string; path: string };

export const branchOf = (c: Case): string => `eval-${c.instance_id.replace(/[^A-Za-z0-9_.-]/g, "-")}`;
export const mirrorOf = (mirrors: string, repo: string): string => join(mirrors, repo.replace("/", "+"), "repo");

export function git(dir: string, args: string[], options: { input?: string; env?: NodeJS.ProcessEnv } = {}): string {
  return execFileSync("git", args, { cwd: dir, maxBuffer: 1 << 30, ...(options.input === undefined ? {} : { input: options.input }), ...(options.env ? { env: options.env } : {}) }).toString("utf8");
}

/** The blobs of base_commit's tree (symlinks and submodules aside). */
export function listTree(dir: string, commit: string): TreeEntry[] {
  return git(dir, ["ls-tree", "-r", "-z", commit])
    .split("\0")
    .filter(Boolean)
    .map((line) => {
      const tab = line.indexOf("\t");
      const [mode, type, blob] = line.slice(0, tab).split(" ") as [string, string, string];
      return { mode, type, blob, path: line.slice(tab + 1) };
    })
    .filter((e) => e.type === "blob")
    .map(({ mode, blob, path }) => ({ mode, blob, path }));
}

/** Which of `blobs` the repository lacks. */
export function missingBlobs(dir: string, blobs: readonly string[]): Set<string> {
  if (blobs.length === 0) return new Set();
  const check = spawnSync("git", ["cat-file", "--batch-check"], { cwd: dir, input: blobs.join("\n") + "\n", maxBuffer: 1 << 30 });
  return new Set(check.stdout.toString().split("\n").filter((l) => l.endsWith(" missing")).map((l) => l.split(" ")[0]!));
}

/** Contents of `blobs` (those present), by blob id. */
export function readBlobs(dir: string, blobs: readonly string[]): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const unique = [...new Set(blobs)];
  if (unique.length === 0) return out;
  const buf = spawnSync("git", ["cat-file", "--batch"], { cwd: dir, input: unique.join("\n") + "\n", maxBuffer: 2 ** 31 }).stdout;
  let at = 0;
  while (at < buf.length) {
    const nl = buf.indexOf(10, at);
    if (nl === -1) break;
    const header = buf.subarray(at, nl).toString("utf8").split(" ");
    if (header[1] === "missing" || header.length < 3) {
      at = nl + 1;
      continue;
    }
    const size = Number(header[2]);
    out.set(header[0]!, buf.subarray(nl + 1, nl + 1 + size));
    at = nl + 1 + size + 1;
  }
  return out;
}

const FIXED_ENV = { GIT_AUTHOR_NAME: "eval", GIT_AUTHOR_EMAIL: "eval@localhost", GIT_COMMITTER_NAME: "eval", GIT_COMMITTER_EMAIL: "eval@localhost", GIT_AUTHOR_DATE: "2000-01-01T00:00:00Z", GIT_COMMITTER_DATE: "2000-01-01T00:00:00Z" };

/** What the host tree holds of a case: its base tree less the blobs the mirror lacks. */
export type HostedCase = { entries: TreeEntry[]; dropped: string[] };

/**
 * Creates (or completes) the host tree for `cases` under `hostDir`; returns each case's tree entries
 * (as listed at base_commit) and the paths left out because the mirror lacks their blobs.
 */
export function buildHostTree(cases: readonly Case[], hostDir: string, mirrors: string): Map<string, HostedCase> {
  const out = new Map<string, HostedCase>();
  for (const repo of new Set(cases.map((c) => c.repo))) {
    const source = mirrorOf(mirrors, repo);
    if (!existsSync(source)) throw new Error(`missing mirror ${source} (fetch github:${repo} first)`);
    // The name as given: the service clones a repository by the name it was submitted with.
    const bare = join(hostDir, `${repo}.git`);
    if (!existsSync(join(bare, "HEAD"))) {
      mkdirSync(bare, { recursive: true });
      git(bare, ["init", "--bare", "--quiet"]);
      writeFileSync(join(bare, "objects", "info", "alternates"), `${resolve(source, "objects")}\n`);
    }
    const mine = cases.filter((x) => x.repo === repo);
    for (const c of mine) {
      const entries = listTree(bare, c.base_commit);
      const gone = missingBlobs(bare, entries.map((e) => e.blob));
      const dropped = entries.filter((e) => gone.has(e.blob)).map((e) => e.path);
      const tree = dropped.length === 0 ? git(bare, ["rev-parse", `${c.base_commit}^{tree}`]).trim() : treeWithout(bare, c.base_commit, dropped);
      const commit = git(bare, ["commit-tree", tree, "-m", `eval ${c.instance_id} (tree of ${c.base_commit})`], { env: { ...process.env, ...FIXED_ENV } }).trim();
      git(bare, ["update-ref", `refs/heads/${branchOf(c)}`, commit]);
      out.set(c.instance_id, { entries, dropped });
    }
    git(bare, ["symbolic-ref", "HEAD", `refs/heads/${branchOf(mine[0]!)}`]);
  }
  return out;
}

/** base_commit's tree less `paths`, written in the host repo. */
function treeWithout(bare: string, commit: string, paths: readonly string[]): string {
  const work = mkdtempSync(join(tmpdir(), "eval-wt-"));
  const indexFile = join(work, "index");
  const env = { ...process.env, GIT_INDEX_FILE: indexFile, GIT_DIR: bare, GIT_WORK_TREE: work };
  try {
    git(bare, ["read-tree", commit], { env });
    git(bare, ["update-index", "--force-remove", "-z", "--stdin"], { env, input: paths.join("\0") + "\0" });
    return git(bare, ["write-tree"], { env }).trim();
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
