/**
 * What one review run reads from its mirror, each thing once: a commit's file listing, its `.loupe/`
 * rules, a diff, and file contents (the changed files read together up front, the rest as findings
 * ask). File reads go through the run's one git process (`blobs`, closed by the engine when the run ends).
 */
import type { GitMirrors, TreeEntry } from "../../git/mirrors.ts";
import type { RepoRuleSet } from "../../review/repo-rules.ts";
import { parseGitDiff, type DiffFile } from "../../review/diff.ts";
import type { ReviewGit } from "./review-git.ts";

type Blobs = ReturnType<ReviewGit["openReviewBlobs"]>;

export function createRunFiles(mirrors: GitMirrors, git: ReviewGit, dir: string, blobs: Blobs) {
  // Each commit's tree is listed once per run (rules, file reads, test lookups), and its rules read once.
  const trees = new Map<string, Map<string, string>>();
  const listings = new Map<string, Promise<TreeEntry[]>>();
  const listing = (sha: string) => {
    if (!listings.has(sha)) {
      listings.set(sha, mirrors.listTree(dir, sha).then((entries) => {
        if (!trees.has(sha)) trees.set(sha, new Map(entries.map((e) => [e.path, e.blobId])));
        return entries;
      }));
    }
    return listings.get(sha)!;
  };
  const ruleSets = new Map<string, Promise<RepoRuleSet>>();
  const rulesAt = (sha: string) => {
    if (!ruleSets.has(sha)) ruleSets.set(sha, listing(sha).then((entries) => git.repoRules(dir, sha, entries, blobs.read)));
    return ruleSets.get(sha)!;
  };
  const diffCache = new Map<string, DiffFile[]>();
  const diffOf = async (base: string, head: string, incremental: boolean) => {
    const k = `${base}..${head}`;
    if (!diffCache.has(k)) diffCache.set(k, parseGitDiff(await mirrors.diff(dir, base, head, { range: incremental ? "two-dot" : "three-dot" })));
    return diffCache.get(k)!;
  };
  // Files read once per review, kept for the summary that reads them again.
  const contents = new Map<string, Promise<string | null>>();
  const readAt = (sha: string, path: string) => {
    const k = `${sha}\0${path}`;
    // After the commit's listing (once per run), which the read then looks the file up in.
    if (!contents.has(k)) contents.set(k, listing(sha).catch(() => undefined).then(() => git.readFileAt(dir, sha, path, trees, blobs.read)));
    return contents.get(k)!;
  };
  /** Reads `paths` at `sha` in one batch, after the commit's listing (which the batch looks them up in). */
  const prefetch = async (sha: string, paths: string[]) => {
    await listing(sha).catch(() => undefined);
    const wanted = paths.filter((p) => !contents.has(`${sha}\0${p}`));
    if (wanted.length === 0) return;
    // Should the batch fail, each file is read on its own when asked for.
    const read = git.readFilesAt(dir, sha, wanted, trees, blobs.read).catch(() => null);
    for (const p of wanted) contents.set(`${sha}\0${p}`, read.then((m) => (m ? (m.get(p) ?? null) : git.readFileAt(dir, sha, p, trees, blobs.read))));
    await read;
  };
  const pathsAt = async (sha: string) => (await listing(sha)).map((e) => e.path);
  return { rulesAt, diffOf, readAt, prefetch, pathsAt };
}
