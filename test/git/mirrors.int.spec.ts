import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createGitMirrors, GitRefNotFoundError } from "../../src/git/mirrors.ts";
import { GitNameError, canonicalRepositoryName, validateBranchName, validateRepositoryName } from "../../src/git/names.ts";
import { GitError, redact, runGit } from "../../src/git/run.ts";
import { createGitHubHost } from "../../src/hosts/index.ts";
import { createGitHostFixture, git, type GitHostFixture, type WorkRepo } from "../support/git-fixtures.ts";

let fixture: GitHostFixture;
let work: WorkRepo;
let root: string;
let firstSha: string;
let secondSha: string;

beforeAll(() => {
  fixture = createGitHostFixture();
  work = fixture.createRepo("acme/widgets", {
    "src/a.ts": "export const a = 1;\n",
    "README.md": "# Widgets\n",
    "bin/data.bin": Buffer.from([0, 1, 2, 3, 0, 255]),
  });
  firstSha = git(work.dir, "rev-parse", "HEAD");
  git(work.dir, "checkout", "--quiet", "-b", "feature");
  work.write({ "src/a.ts": "export const a = 2;\n", "src/b.ts": "export const b = 3;\n" });
  secondSha = work.commit("change a, add b");
  git(work.dir, "checkout", "--quiet", "main");
  work.publish();
  root = mkdtempSync(join(tmpdir(), "loupe-mirrors-"));
});

afterAll(() => {
  fixture.cleanup();
  rmSync(root, { recursive: true, force: true });
});

describe("git names", () => {
  it.each(["-upload-pack=evil/x", "owner/-x", "../etc/passwd", "owner/..", "a/b/c", "owner/re po", "owner/re\npo", "owner/r$po", "owner", "owner/"])(
    "rejects repository name %j",
    (name) => {
      expect(() => validateRepositoryName("github", name)).toThrow(GitNameError);
    },
  );
  it("accepts owner/repo as given (canonical form lower-cased); azure allows org/project/repo", () => {
    expect(validateRepositoryName("github", "Acme/Widgets.js")).toBe("Acme/Widgets.js");
    expect(validateRepositoryName("azure", "Org/Project/Repo")).toBe("Org/Project/Repo");
    expect(canonicalRepositoryName("github", "Acme/Widgets.js")).toBe("acme/widgets.js");
    expect(() => validateRepositoryName("azure", "a/b/c/d")).toThrow(GitNameError);
  });
  it.each(["-x", "--upload-pack=x", "a..b", "a b", "a~1", "a^", "a:b", "x.lock", ".hidden", "a//b", "/a", "a/", "a.", "@{x}", "HEAD", "a\tb", ""])(
    "rejects branch %j",
    (branch) => {
      expect(() => validateBranchName(branch)).toThrow(GitNameError);
    },
  );
  it("accepts ordinary branches", () => {
    for (const b of ["main", "feature/x-1", "release-2.0", "user@host"]) expect(validateBranchName(b)).toBe(b);
  });
  it("rejects option-like and traversing names before git runs (no mirror directory created)", async () => {
    const mirrors = createGitMirrors({ rootDir: join(root, "names") });
    await expect(mirrors.ensure("github", "-x/evil", `${fixture.baseUrl}/acme/widgets.git`)).rejects.toThrow(GitNameError);
    await expect(mirrors.ensure("github", "../../etc", `${fixture.baseUrl}/acme/widgets.git`)).rejects.toThrow(GitNameError);
    expect(existsSync(join(root, "names", "github", "-x"))).toBe(false);
    const dir = (await mirrors.ensure("github", "acme/widgets", `${fixture.baseUrl}/acme/widgets.git`)).dir;
    await expect(mirrors.resolveBranch(dir, "--output=/tmp/x")).rejects.toThrow(GitNameError);
    await expect(mirrors.diff(dir, "--output=/tmp/pwned", "main")).rejects.toThrow(GitNameError);
  });
});

describe("git mirrors", () => {
  it("clones a bare mirror, resolves branches, lists trees and reads blobs", async () => {
    const mirrors = createGitMirrors({ rootDir: root });
    const url = `${fixture.baseUrl}/acme/widgets.git`;
    const first = await mirrors.ensure("github", "Acme/Widgets", url);
    expect(first.dir).toBe(join(root, "github", "acme", "widgets.git"));
    expect(first.fetched).toBe(true);
    const again = await mirrors.ensure("github", "acme/widgets", url);
    expect(again.fetched).toBe(false);
    expect(await mirrors.resolveBranch(first.dir)).toEqual({ branch: "main", sha: firstSha });
    expect(await mirrors.resolveBranch(first.dir, "feature")).toEqual({ branch: "feature", sha: secondSha });
    await expect(mirrors.resolveBranch(first.dir, "nope")).rejects.toThrow(GitRefNotFoundError);

    const tree = await mirrors.listTree(first.dir, secondSha);
    expect(tree.map((e) => e.path).sort()).toEqual(["README.md", "bin/data.bin", "src/a.ts", "src/b.ts"]);
    const a = tree.find((e) => e.path === "src/a.ts")!;
    expect(a.size).toBe(20);
    expect(a.mode).toBe("100644");
    const blobs = await mirrors.readBlobs(first.dir, [...tree.map((e) => e.blobId), "0".repeat(40)]);
    expect(blobs.size).toBe(4);
    expect(blobs.get(a.blobId)!.toString()).toBe("export const a = 2;\n");
    expect([...blobs.get(tree.find((e) => e.path === "bin/data.bin")!.blobId)!]).toEqual([0, 1, 2, 3, 0, 255]);

    // One cat-file process answers many reads, concurrent ones included, in order.
    const reader = mirrors.openBlobReader(first.dir);
    try {
      const [x, y, z] = await Promise.all([
        reader.read([a.blobId, "0".repeat(40)]),
        reader.read(tree.map((e) => e.blobId)),
        reader.read([]),
      ]);
      expect([...x.keys()]).toEqual([a.blobId]);
      expect(y.size).toBe(4);
      expect(z.size).toBe(0);
      expect((await reader.read([a.blobId])).get(a.blobId)!.toString()).toBe("export const a = 2;\n");
      await expect(reader.read(["--batch-check"])).rejects.toThrow(GitNameError);
    } finally {
      reader.close();
    }
    await expect(reader.read([a.blobId])).rejects.toThrow(/closed/);

    const diff = await mirrors.diff(first.dir, "main", "feature");
    expect(diff).toContain("+export const a = 2;");
    expect(diff).toContain("+++ b/src/b.ts");
    expect(await mirrors.mergeBase(first.dir, "main", "feature")).toBe(firstSha);
    const commits = await mirrors.commitsBetween(first.dir, "main", "feature");
    expect(commits).toEqual([{ sha: secondSha, message: "change a, add b", author: "Test Author <author@example.com>", date: expect.any(String) }]);
  });

  it("fetches new commits and PR refs; remoteHead answers without cloning", async () => {
    const mirrors = createGitMirrors({ rootDir: root });
    const url = `${fixture.baseUrl}/acme/widgets.git`;
    const { dir } = await mirrors.ensure("github", "acme/widgets", url);
    work.write({ "src/c.ts": "export const c = 4;\n" });
    const third = work.commit("add c");
    work.publish();
    git(join(fixture.baseDir, "acme/widgets.git"), "update-ref", "refs/pull/7/head", secondSha);
    expect(await mirrors.remoteHead(url)).toEqual({ branch: "main", sha: third, defaultBranch: "main" });
    expect(await mirrors.remoteHead(url, "feature")).toEqual({ branch: "feature", sha: secondSha, defaultBranch: "main" });
    expect(await mirrors.remoteHead(url, "missing")).toBeNull();
    expect((await mirrors.resolveBranch(dir)).sha).toBe(firstSha);
    const fetched = await mirrors.ensure("github", "acme/widgets", url, { fetch: true });
    expect(fetched.fetched).toBe(true);
    expect((await mirrors.resolveBranch(dir)).sha).toBe(third);
    expect(await mirrors.fetchRef(dir, "refs/pull/7/head")).toBe(secondSha);
  });

  it("keeps tokens out of the mirror config and out of errors", async () => {
    const mirrors = createGitMirrors({ rootDir: root });
    const host = createGitHubHost();
    const token = "ghp_supersecrettoken1234567890";
    const { dir } = await mirrors.ensure("github", "acme/widgets", `${fixture.baseUrl}/acme/widgets.git`, {
      authEnv: host.gitAuthEnv(token),
      fetch: true,
    });
    expect(readFileSync(join(dir, "config"), "utf8")).not.toContain(token);
    await expect(mirrors.ensure("github", "acme/gone", "https://x:secret@example.com/acme/gone.git")).rejects.toThrow(/credentials/);
    const failure = await mirrors
      .ensure("github", "acme/missing", `${fixture.baseUrl}/acme/missing.git`, { authEnv: host.gitAuthEnv(token) })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(GitError);
    expect(String((failure as Error).message)).not.toContain(token);
    expect(existsSync(join(root, "github", "acme", "missing.git"))).toBe(false);
    expect(redact("fatal: unable to access 'https://user:pw@h/x': Authorization: Basic abc==", [])).not.toMatch(/pw@|abc==/);
  });

  it("runs git with a clean environment", async () => {
    process.env.GIT_DIR = "/nonexistent";
    try {
      const { stdout } = await runGit(["rev-parse", "--is-bare-repository"], { cwd: join(root, "github", "acme", "widgets.git") });
      expect(stdout.toString().trim()).toBe("true");
    } finally {
      delete process.env.GIT_DIR;
    }
  });
});
