/**
 * The git side of a review: the mirror of a pull request's repository, its head, files and `.loupe/` rules.
 * Mirrors are shared between organisations: every review fetches with the token its organisation may
 * use (../pull-requests/host-tokens.ts) before reading, so a failed fetch (a token that cannot read the
 * repository) ends the review instead of reading what another organisation's work fetched.
 */
import type { Config } from "../../config.ts";
import { GitRefNotFoundError, type GitMirrors, type TreeEntry } from "../../git/mirrors.ts";
import type { BlobReader } from "../../git/blob-reader.ts";
import type { Hosts } from "../../hosts/index.ts";
import type { Remote } from "../../hosts/types.ts";
import { loadRepoRules, type RepoRuleSet } from "../../review/repo-rules.ts";
import type { PullRequestRecord } from "../pull-requests/projection.ts";

/** Blob contents by id (missing ids absent from the map). */
export type BlobSource = (blobIds: readonly string[]) => Promise<Map<string, Buffer>>;

export function createReviewGit({ config, hosts, mirrors }: { config: Config; hosts: Hosts; mirrors: GitMirrors }) {
  const authEnv = (remote: Remote, token: string | undefined) => (token ? hosts.get(remote).gitAuthEnv(token) : undefined);

  /** The repository's mirror, fetched with `token` (never kept) first unless `fetch` is false. */
  async function openMirror(remote: Remote, name: string, token: string | undefined, options: { fetch?: boolean } = {}): Promise<string> {
    const cloneUrl = hosts.get(remote).cloneUrl(config.hostUrls[remote], name);
    const env = authEnv(remote, token);
    const { dir } = await mirrors.ensure(remote, name, cloneUrl, { fetch: options.fetch ?? true, ...(env ? { authEnv: env } : {}) });
    return dir;
  }

  const hasCommit = async (dir: string, sha: string | null | undefined) =>
    !!sha && /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(sha) && (await mirrors.mergeBase(dir, sha, sha).catch(() => null)) !== null;

  /** The pull request's head commit in the mirror: the recorded head, the working branch, the source branch, or the host's PR ref. */
  async function resolveHead(dir: string, pr: PullRequestRecord, branch: string | null, token: string | undefined): Promise<string> {
    if (branch) {
      const b = await mirrors.resolveBranch(dir, branch).catch(() => null);
      if (b) return b.sha;
      // The pull request's own source branch may live in a fork: its head is found below. Any other
      // branch asked for must exist, or the review would silently be of something else.
      if (branch !== pr.sourceBranch) {
        throw new Error(`branch ${JSON.stringify(branch)} (asked for as the branch to review) is not on the host's ${pr.repository.name}; pull request #${pr.number} is from ${JSON.stringify(pr.sourceBranch)}`);
      }
    }
    if (await hasCommit(dir, pr.headSha)) return pr.headSha;
    const source = await mirrors.resolveBranch(dir, pr.sourceBranch).catch(() => null);
    const pullRef: Record<Remote, string | null> = {
      github: `refs/pull/${pr.number}/head`,
      gitlab: `refs/merge-requests/${pr.number}/head`,
      azure: `refs/pull/${pr.number}/merge`,
      bitbucket: null,
    };
    const ref = pullRef[pr.repository.remote];
    if (ref) {
      const env = authEnv(pr.repository.remote, token);
      const sha = await mirrors.fetchRef(dir, ref, env ? { authEnv: env } : {}).catch(() => null);
      if (sha && (!source || pr.repository.remote !== "azure")) return sha;
    }
    if (source) return source.sha;
    throw new Error(`the head of pull request #${pr.number} (${pr.sourceBranch}) is not in the repository`);
  }

  /** The pull request's target (base) branch in the mirror; when the host no longer has it, an error naming it as the target. */
  async function resolveTarget(dir: string, pr: PullRequestRecord): Promise<{ branch: string; sha: string }> {
    try {
      return await mirrors.resolveBranch(dir, pr.targetBranch);
    } catch (error) {
      if (!(error instanceof GitRefNotFoundError)) throw error;
      throw new Error(
        `the target branch ${JSON.stringify(pr.targetBranch)} of pull request #${pr.number} (the branch it would merge into) is not on the host's ${pr.repository.name}: deleted or renamed since the pull request was recorded; nothing to compare the pull request with`,
      );
    }
  }

  /**
   * One `git cat-file --batch` process for a review run's reads (close it when the run ends): a review
   * reads files one at a time as its findings ask for them (callers, importers, tests, candidates), and
   * a spawn of git per read costs more than the read. A read that fails is read again by a process of
   * its own, and the next read starts a new process.
   */
  function openReviewBlobs(dir: string): { read: BlobSource; close(): void } {
    let reader: BlobReader | null = null;
    let closed = false;
    return {
      async read(blobIds) {
        if (closed) return mirrors.readBlobs(dir, blobIds);
        const current = (reader ??= mirrors.openBlobReader(dir));
        try {
          return await current.read(blobIds);
        } catch {
          current.close();
          if (reader === current) reader = null;
          return mirrors.readBlobs(dir, blobIds);
        }
      },
      close() {
        closed = true;
        reader?.close();
        reader = null;
      },
    };
  }

  async function readFileAt(dir: string, sha: string, path: string, cache: Map<string, Map<string, string>>, blobs: BlobSource = (ids) => mirrors.readBlobs(dir, ids)): Promise<string | null> {
    let tree = cache.get(sha);
    if (!tree) {
      tree = new Map((await mirrors.listTree(dir, sha)).map((e) => [e.path, e.blobId]));
      cache.set(sha, tree);
    }
    const blob = tree.get(path);
    if (!blob) return null;
    return (await blobs([blob])).get(blob)?.toString("utf8") ?? null;
  }

  /**
   * Files at a commit, read together (one git call for all their blobs): path -> content, null when
   * the commit has no such file. For a review that reads the same files again and again (before and
   * after the change, for each finding and the summary), each spawn of git costs more than the read.
   */
  async function readFilesAt(dir: string, sha: string, paths: readonly string[], cache: Map<string, Map<string, string>>, read: BlobSource = (ids) => mirrors.readBlobs(dir, ids)): Promise<Map<string, string | null>> {
    let tree = cache.get(sha);
    if (!tree) {
      tree = new Map((await mirrors.listTree(dir, sha)).map((e) => [e.path, e.blobId]));
      cache.set(sha, tree);
    }
    const blobs = await read([...new Set(paths.flatMap((p) => tree.get(p) ?? []))]);
    return new Map(paths.map((p) => {
      const blob = tree.get(p);
      return [p, blob ? (blobs.get(blob)?.toString("utf8") ?? null) : null];
    }));
  }

  /** The `.loupe/` rules at a commit; `listing`: the commit's tree when the caller has it already; `read`: the run's reads. */
  async function repoRules(dir: string, sha: string, listing?: readonly TreeEntry[], read: BlobSource = (ids) => mirrors.readBlobs(dir, ids)): Promise<RepoRuleSet> {
    const tree = listing ?? (await mirrors.listTree(dir, sha));
    const ruleEntries = tree.filter((e) => /(^|\/)\.loupe\/[^/]+$/.test(e.path) && e.size <= 200_000);
    const blobs = await read(ruleEntries.map((e) => e.blobId));
    const byPath = new Map(ruleEntries.map((e) => [e.path, blobs.get(e.blobId)?.toString("utf8") ?? ""]));
    return loadRepoRules([...byPath.keys()], async (p) => byPath.get(p) ?? "");
  }

  return { openMirror, hasCommit, resolveHead, resolveTarget, openReviewBlobs, readFileAt, readFilesAt, repoRules };
}

export type ReviewGit = ReturnType<typeof createReviewGit>;
