/**
 * A review run's file reads through one git process (src/features/code-reviews/review-git.ts
 * `openReviewBlobs`), on a real mirror: the reads answer as reads of their own would, one after another
 * and at once; a read that fails does not fail the ones after it; after the run ends, a late read is
 * still answered.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deflateSync } from "node:zlib";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config.ts";
import { createGitMirrors } from "../../src/git/mirrors.ts";
import { GitNameError } from "../../src/git/names.ts";
import { GitError } from "../../src/git/run.ts";
import { createHosts } from "../../src/hosts/index.ts";
import { createReviewGit } from "../../src/features/code-reviews/review-git.ts";
import { createGitHostFixture, type GitHostFixture } from "../support/git-fixtures.ts";

let fixture: GitHostFixture;
let root: string;
let dataDir: string;
let dir: string;
let head: string;
let base: string;
const mirrors = () => createGitMirrors({ rootDir: root });
let reviewGit: ReturnType<typeof createReviewGit>;

beforeAll(async () => {
  fixture = createGitHostFixture();
  const work = fixture.createRepo("acme/reads", { "src/a.py": "def a():\n    return 1\n", "README.md": "# Reads\n" });
  base = work.commit("base");
  work.write({ "src/a.py": "def a():\n    return 2\n", "src/b.py": "def b(x):\n    return x\n", "data/big.txt": "line\n".repeat(200_000) });
  head = work.commit("head");
  work.publish();
  root = mkdtempSync(join(tmpdir(), "loupe-review-blobs-"));
  dataDir = mkdtempSync(join(tmpdir(), "loupe-review-blobs-data-"));
  const config = loadConfig({ LOUPE_DATA_DIR: dataDir, LOUPE_API_KEY: "lp_review_blobs_test_key_0000000000", LOUPE_LOG_LEVEL: "silent", LOUPE_GITHUB_URL: fixture.baseUrl });
  reviewGit = createReviewGit({ config, hosts: createHosts(), mirrors: mirrors() });
  dir = await reviewGit.openMirror("github", "acme/reads", undefined);
});

afterAll(() => {
  fixture.cleanup();
  rmSync(root, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

describe("a review run's reads", () => {
  it("answer as reads of their own do, one after another and all at once", async () => {
    const blobs = reviewGit.openReviewBlobs(dir);
    try {
      const trees = new Map<string, Map<string, string>>();
      const alone = new Map<string, Map<string, string>>();
      const wanted = [
        [base, "src/a.py"],
        [head, "src/a.py"],
        [head, "src/b.py"],
        [base, "src/b.py"],
        [head, "data/big.txt"],
        [head, "README.md"],
      ] as const;
      for (const [sha, path] of wanted) {
        expect(await reviewGit.readFileAt(dir, sha, path, trees, blobs.read)).toBe(await reviewGit.readFileAt(dir, sha, path, alone));
      }
      const together = await Promise.all(wanted.map(([sha, path]) => reviewGit.readFileAt(dir, sha, path, trees, blobs.read)));
      expect(together).toEqual(await Promise.all(wanted.map(([sha, path]) => reviewGit.readFileAt(dir, sha, path, alone))));
      expect(together[4]!.length).toBe(1_000_000);
      expect(together[3]).toBeNull();
      expect(await reviewGit.readFilesAt(dir, head, ["src/a.py", "src/b.py", "gone.py"], trees, blobs.read)).toEqual(
        new Map([["src/a.py", "def a():\n    return 2\n"], ["src/b.py", "def b(x):\n    return x\n"], ["gone.py", null]]),
      );
    } finally {
      blobs.close();
    }
  });

  it("a failed read fails alone: the next reads are answered; after the run, a late read still is", async () => {
    const blobs = reviewGit.openReviewBlobs(dir);
    const trees = new Map<string, Map<string, string>>();
    expect(await reviewGit.readFileAt(dir, head, "src/b.py", trees, blobs.read)).toBe("def b(x):\n    return x\n");
    await expect(blobs.read(["not-an-object-id"])).rejects.toBeInstanceOf(GitNameError);
    expect(await reviewGit.readFileAt(dir, head, "src/a.py", trees, blobs.read)).toBe("def a():\n    return 2\n");
    // A corrupt object ends the git process that reads it (`fatal: unable to stream`).
    const corrupt = "123456789012345678901234567890123456789a";
    mkdirSync(join(dir, "objects", "12"), { recursive: true });
    writeFileSync(join(dir, "objects", "12", corrupt.slice(2)), deflateSync(Buffer.concat([Buffer.from("blob 10\0"), Buffer.alloc(10_000, 120)])).subarray(0, 40));
    await expect(blobs.read([corrupt])).rejects.toBeInstanceOf(GitError);
    expect(await reviewGit.readFileAt(dir, base, "README.md", trees, blobs.read)).toBe("# Reads\n");
    blobs.close();
    expect(await reviewGit.readFileAt(dir, base, "src/a.py", trees, blobs.read)).toBe("def a():\n    return 1\n");
  });
});
