/**
 * Bare mirrors of remote repositories under one root directory (`<rootDir>/<remote>/<owner>/<repo>.git`),
 * and the read operations the indexer and the review engine need on them.
 *
 * Credentials: a host token reaches git only through the environment (`authEnv`, from a host's
 * `gitAuthEnv(token)`: http.extraHeader via GIT_CONFIG_COUNT), never through a URL, so nothing
 * secret lands in the mirror's config, on the command line or in an error message.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import { randomBytes } from "node:crypto";
import { createBlobReader, type BlobReader } from "./blob-reader.ts";
import { GitError, gitText, runGit } from "./run.ts";
import { GitNameError, canonicalRepositoryName, validateBranchName, validateRefName, validateRevision } from "./names.ts";

export type TreeEntry = { path: string; blobId: string; size: number; mode: string };
export type CommitInfo = { sha: string; message: string; author: string; date: string };
export type RemoteHead = { branch: string; sha: string; defaultBranch: string | null };
export type EnsureOptions = { authEnv?: Record<string, string>; fetch?: boolean; timeoutMs?: number };

/** A branch or ref that does not exist in the mirror (or on the remote). */
export class GitRefNotFoundError extends Error {
  constructor(readonly ref: string) {
    super(`branch or ref not found: ${ref}`);
    this.name = "GitRefNotFoundError";
  }
}

export type GitMirrors = {
  readonly rootDir: string;
  /** Where the mirror of (remote, repo) lives; always inside rootDir. */
  mirrorDir(remote: string, repo: string): string;
  /** Clones the mirror on first use (`git clone --mirror`), fetches (`--prune`) when asked. */
  ensure(remote: string, repo: string, cloneUrl: string, options?: EnsureOptions): Promise<{ dir: string; fetched: boolean }>;
  /**
   * Removes the temporary clones (`<name>.git.tmp-<id>`): what a crash during a clone left behind.
   * Call it at start-up, before any clone (it removes every temporary clone, one being written too), under
   * the data directory's lock (no other process clones into the root then). Returns the directories removed.
   */
  removeStaleClones(): string[];
  /** True when the mirror exists locally. */
  exists(remote: string, repo: string): boolean;
  /** The branch (default: the mirror's HEAD) and its commit. Throws GitRefNotFoundError. */
  resolveBranch(dir: string, branch?: string): Promise<{ branch: string; sha: string }>;
  /**
   * The sha of `branch` (default: the remote's default branch) and the remote's default branch (its
   * HEAD; null when the remote has none), without cloning. Null when the branch does not exist.
   */
  remoteHead(cloneUrl: string, branch?: string, options?: { authEnv?: Record<string, string>; timeoutMs?: number }): Promise<RemoteHead | null>;
  /** Every blob in the commit's tree (submodules left out), `git ls-tree -r -l -z`. */
  listTree(dir: string, sha: string): Promise<TreeEntry[]>;
  /** Blob contents by id through one `git cat-file --batch` process. Missing ids are absent from the map. */
  readBlobs(dir: string, blobIds: readonly string[]): Promise<Map<string, Buffer>>;
  /** One `git cat-file --batch` process for many reads (close it when done). */
  openBlobReader(dir: string): BlobReader;
  /** Unified diff; `range` "three-dot" (default: changes on head since the merge base) or "two-dot". */
  diff(dir: string, base: string, head: string, options?: { range?: "three-dot" | "two-dot"; paths?: string[] }): Promise<string>;
  mergeBase(dir: string, a: string, b: string): Promise<string | null>;
  /** Commits reachable from head and not from base, oldest first. */
  commitsBetween(dir: string, base: string, head: string): Promise<CommitInfo[]>;
  /** Fetches one ref (e.g. `refs/pull/12/head`) into the mirror under the same name; returns its sha. */
  fetchRef(dir: string, ref: string, options?: { authEnv?: Record<string, string>; timeoutMs?: number }): Promise<string>;
};

const FETCH_TIMEOUT_MS = 30 * 60_000;
/** A temporary clone's directory name: the mirror's, then `.tmp-<id>` (see ensure). */
const TEMP_CLONE = /\.git\.tmp-[0-9a-z-]+$/;
const REMOTE_TIMEOUT_MS = 60_000;

function assertCleanUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new GitNameError("remote", "clone URL is not a URL");
  }
  if (!["https:", "http:", "file:"].includes(parsed.protocol)) throw new GitNameError("remote", `unsupported clone URL scheme ${parsed.protocol}`);
  if (parsed.username || parsed.password) throw new GitNameError("remote", "clone URL must not carry credentials");
}

export function createGitMirrors({ rootDir }: { rootDir: string }): GitMirrors {
  const root = resolve(rootDir);
  mkdirSync(root, { recursive: true });
  const locks = new Map<string, Promise<unknown>>();

  /** `*.git.tmp-*` under `dir`, not descending into mirrors or temporary clones. */
  const findTemporaryClones = (dir: string, found: string[] = []): string[] => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const path = join(dir, entry.name);
      if (TEMP_CLONE.test(entry.name)) found.push(path);
      else if (!entry.name.endsWith(".git")) findTemporaryClones(path, found);
    }
    return found;
  };

  /** Serialises work on one mirror directory within this process. */
  const withLock = async <T>(key: string, fn: () => Promise<T>): Promise<T> => {
    const previous = locks.get(key) ?? Promise.resolve();
    const run = previous.catch(() => undefined).then(fn);
    const settled = run.catch(() => undefined);
    locks.set(key, settled);
    try {
      return await run;
    } finally {
      if (locks.get(key) === settled) locks.delete(key);
    }
  };

  const mirrorDir = (remote: string, repo: string): string => {
    if (!/^[a-z]+$/.test(remote)) throw new GitNameError("remote", "must be a lower-case word");
    const name = canonicalRepositoryName(remote, repo);
    const dir = resolve(root, remote, ...name.split("/")) + ".git";
    if (!dir.startsWith(root + sep)) throw new GitNameError("repository", "resolves outside the mirror root");
    return dir;
  };

  const isMirror = (dir: string) => existsSync(join(dir, "HEAD")) && existsSync(join(dir, "objects"));

  const revParse = async (dir: string, rev: string): Promise<string | null> => {
    try {
      return await gitText(["rev-parse", "--verify", "--quiet", "--end-of-options", `${rev}^{commit}`], { cwd: dir });
    } catch (error) {
      if (error instanceof GitError && error.exitCode === 1) return null;
      throw error;
    }
  };

  /** Points the mirror's HEAD at the remote's default branch (a fetch does not update it). */
  const syncHead = async (dir: string, authEnv?: Record<string, string>) => {
    const out = await gitText(["ls-remote", "--symref", "origin", "HEAD"], { cwd: dir, env: authEnv, timeoutMs: REMOTE_TIMEOUT_MS }).catch(() => "");
    const m = /^ref: (refs\/heads\/\S+)\tHEAD$/m.exec(out);
    if (m) await runGit(["symbolic-ref", "HEAD", m[1]!], { cwd: dir }).catch(() => undefined);
  };

  return {
    rootDir: root,
    mirrorDir,
    exists: (remote, repo) => isMirror(mirrorDir(remote, repo)),

    removeStaleClones() {
      const stale = findTemporaryClones(root);
      for (const dir of stale) rmSync(dir, { recursive: true, force: true });
      return stale;
    },

    async ensure(remote, repo, cloneUrl, options = {}) {
      const dir = mirrorDir(remote, repo);
      assertCleanUrl(cloneUrl);
      const timeoutMs = options.timeoutMs ?? FETCH_TIMEOUT_MS;
      return withLock(dir, async () => {
        if (isMirror(dir)) {
          if (!options.fetch) return { dir, fetched: false };
          await runGit(["config", "remote.origin.url", cloneUrl], { cwd: dir });
          await runGit(["fetch", "--prune", "--quiet", "origin"], { cwd: dir, env: options.authEnv, timeoutMs });
          await syncHead(dir, options.authEnv);
          return { dir, fetched: true };
        }
        mkdirSync(dirname(dir), { recursive: true });
        // Clone beside the target and rename: a crash never leaves a half-cloned mirror in place.
        // A crash (kill -9, power) can still leave the temporary clone: removeStaleClones at start-up.
        const temp = `${dir}.tmp-${randomBytes(4).toString("hex")}`;
        try {
          await runGit(["clone", "--mirror", "--quiet", "--", cloneUrl, temp], { env: options.authEnv, timeoutMs });
          renameSync(temp, dir);
        } finally {
          rmSync(temp, { recursive: true, force: true });
        }
        return { dir, fetched: true };
      });
    },

    async resolveBranch(dir, branch) {
      let name = branch;
      if (name === undefined) {
        const head = await gitText(["symbolic-ref", "--quiet", "HEAD"], { cwd: dir }).catch(() => "");
        if (!head.startsWith("refs/heads/")) throw new GitRefNotFoundError("HEAD");
        name = head.slice("refs/heads/".length);
      }
      validateBranchName(name);
      const sha = await revParse(dir, `refs/heads/${name}`);
      if (!sha) throw new GitRefNotFoundError(name);
      return { branch: name, sha };
    },

    async remoteHead(cloneUrl, branch, options = {}) {
      assertCleanUrl(cloneUrl);
      if (branch !== undefined) validateBranchName(branch);
      const wanted = branch === undefined ? "HEAD" : `refs/heads/${branch}`;
      const out = await gitText(["ls-remote", "--symref", "--", cloneUrl, ...new Set(["HEAD", wanted])], {
        env: options.authEnv,
        timeoutMs: options.timeoutMs ?? REMOTE_TIMEOUT_MS,
      });
      let defaultBranch: string | null = null;
      let sha: string | null = null;
      for (const line of out.split("\n")) {
        const symref = /^ref: refs\/heads\/(\S+)\tHEAD$/.exec(line);
        if (symref) defaultBranch = symref[1]!;
        const ref = /^([0-9a-f]{40,64})\t(\S+)$/.exec(line);
        if (ref && ref[2] === wanted) sha = ref[1]!;
      }
      const name = branch ?? defaultBranch;
      return name !== null && sha ? { branch: name, sha, defaultBranch } : null;
    },

    async listTree(dir, sha) {
      validateRevision(sha);
      const { stdout } = await runGit(["ls-tree", "-r", "-l", "-z", "--full-tree", "--end-of-options", sha], { cwd: dir });
      const entries: TreeEntry[] = [];
      let start = 0;
      while (start < stdout.length) {
        let end = stdout.indexOf(0, start);
        if (end < 0) end = stdout.length;
        const record = stdout.toString("utf8", start, end);
        start = end + 1;
        const tab = record.indexOf("\t");
        if (tab < 0) continue;
        const [mode, type, blobId, size] = record.slice(0, tab).split(/ +/);
        if (type !== "blob" || !mode || !blobId) continue;
        entries.push({ path: record.slice(tab + 1), blobId, size: size === "-" ? 0 : Number(size), mode });
      }
      return entries;
    },

    async readBlobs(dir, blobIds) {
      const reader = createBlobReader(dir);
      try {
        return await reader.read(blobIds);
      } finally {
        reader.close();
      }
    },

    openBlobReader: (dir) => createBlobReader(dir),

    async diff(dir, base, head, options = {}) {
      validateRevision(base);
      validateRevision(head);
      const range = (options.range ?? "three-dot") === "three-dot" ? `${base}...${head}` : `${base}..${head}`;
      const args = ["diff", "--no-color", "--no-ext-diff", "--no-textconv", "-M", "--unified=3", "--end-of-options", range, "--"];
      if (options.paths) args.push(...options.paths.map((p) => `:(literal)${p}`));
      const { stdout } = await runGit(args, { cwd: dir });
      return stdout.toString("utf8");
    },

    async mergeBase(dir, a, b) {
      validateRevision(a);
      validateRevision(b);
      try {
        return await gitText(["merge-base", "--end-of-options", a, b], { cwd: dir });
      } catch (error) {
        if (error instanceof GitError && error.exitCode === 1) return null;
        throw error;
      }
    },

    async commitsBetween(dir, base, head) {
      validateRevision(base);
      validateRevision(head);
      const { stdout } = await runGit(
        ["log", "--reverse", "--no-color", "--format=%H%x00%an <%ae>%x00%aI%x00%B%x1e", "--end-of-options", `${base}..${head}`, "--"],
        { cwd: dir },
      );
      return stdout
        .toString("utf8")
        .split("\x1e")
        .map((record) => record.replace(/^\n/, ""))
        .filter((record) => record.length > 0)
        .map((record) => {
          const [sha, author, date, message] = record.split("\x00");
          return { sha: sha!, author: author ?? "", date: date ?? "", message: (message ?? "").trim() };
        });
    },

    async fetchRef(dir, ref, options = {}) {
      validateRefName(ref);
      await runGit(["fetch", "--quiet", "--no-tags", "--end-of-options", "origin", `+${ref}:${ref}`], {
        cwd: dir,
        env: options.authEnv,
        timeoutMs: options.timeoutMs ?? REMOTE_TIMEOUT_MS * 5,
      });
      const sha = await revParse(dir, ref);
      if (!sha) throw new GitRefNotFoundError(ref);
      return sha;
    },
  };
}
