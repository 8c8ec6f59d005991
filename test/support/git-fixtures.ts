import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** Real git repositories in temp dirs, published as bare repos under a `file://` base. */
const cleanEnv = () => {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("GIT_")) env[k] = v;
  return {
    ...env,
    GIT_AUTHOR_NAME: "Test Author",
    GIT_AUTHOR_EMAIL: "author@example.com",
    GIT_COMMITTER_NAME: "Test Author",
    GIT_COMMITTER_EMAIL: "author@example.com",
  };
};

export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, env: cleanEnv(), maxBuffer: 1 << 30 }).toString("utf8").trim();
}

export type FileSpec = Record<string, string | Buffer>;

export type WorkRepo = {
  dir: string;
  write(files: FileSpec): void;
  commit(message: string): string;
  /** Pushes all branches to the bare repository under the base. */
  publish(): void;
};

export type GitHostFixture = {
  /** `file:///...` base to put in LOUPE_GITHUB_URL etc. */
  baseUrl: string;
  baseDir: string;
  /** A work tree whose pushes land in `<base>/<owner>/<repo>.git`. */
  createRepo(fullName: string, files: FileSpec, options?: { branch?: string }): WorkRepo;
  cleanup(): void;
};

export function createGitHostFixture(): GitHostFixture {
  const baseDir = mkdtempSync(join(tmpdir(), "loupe-githost-"));
  const workRoot = mkdtempSync(join(tmpdir(), "loupe-work-"));
  return {
    baseUrl: `file://${baseDir}`,
    baseDir,
    createRepo(fullName, files, options = {}) {
      const branch = options.branch ?? "main";
      const bare = join(baseDir, `${fullName}.git`);
      mkdirSync(bare, { recursive: true });
      git(bare, "init", "--bare", "--quiet", `--initial-branch=${branch}`);
      const dir = join(workRoot, fullName.replace(/\//g, "__"));
      mkdirSync(dir, { recursive: true });
      git(dir, "init", "--quiet", `--initial-branch=${branch}`);
      git(dir, "remote", "add", "origin", bare);
      const repo: WorkRepo = {
        dir,
        write(spec) {
          for (const [path, content] of Object.entries(spec)) {
            const full = join(dir, path);
            mkdirSync(dirname(full), { recursive: true });
            writeFileSync(full, content);
          }
        },
        commit(message) {
          git(dir, "add", "-A");
          git(dir, "commit", "--quiet", "--allow-empty", "-m", message);
          return git(dir, "rev-parse", "HEAD");
        },
        publish() {
          git(dir, "push", "--quiet", "--all", "origin");
        },
      };
      repo.write(files);
      repo.commit("initial");
      repo.publish();
      return repo;
    },
    cleanup() {
      rmSync(baseDir, { recursive: true, force: true });
      rmSync(workRoot, { recursive: true, force: true });
    },
  };
}
