import { execFile } from "node:child_process";
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { parseGitDiff, type DiffFile } from "../../src/review/diff.ts";

const run = promisify(execFile);

export type TempRepo = {
  dir: string;
  git(...args: string[]): Promise<string>;
  write(path: string, content: string | Uint8Array): Promise<void>;
  commit(message: string): Promise<string>;
  cleanup(): Promise<void>;
};

export async function makeRepo(): Promise<TempRepo> {
  const dir = await mkdtemp(join(tmpdir(), "loupe-review-"));
  const env = {
    ...process.env,
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_AUTHOR_NAME: "t",
    GIT_AUTHOR_EMAIL: "t@example.com",
    GIT_COMMITTER_NAME: "t",
    GIT_COMMITTER_EMAIL: "t@example.com",
  };
  const git = async (...args: string[]) => (await run("git", args, { cwd: dir, env, maxBuffer: 64 * 1024 * 1024 })).stdout;
  await git("init", "-q", "-b", "main");
  return {
    dir,
    git,
    async write(path, content) {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), content);
    },
    async commit(message) {
      await git("add", "-A");
      await git("commit", "-q", "-m", message);
      return (await git("rev-parse", "HEAD")).trim();
    },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

/**
 * A one-hunk diff of `before` -> `after` (common prefix and suffix as context), parsed by diff.ts.
 * `before: null` makes an added file.
 */
export function diffOf(path: string, before: string[] | null, after: string[]): DiffFile {
  const old = before ?? [];
  let p = 0;
  while (p < old.length && p < after.length && old[p] === after[p]) p++;
  let s = 0;
  while (s < old.length - p && s < after.length - p && old[old.length - 1 - s] === after[after.length - 1 - s]) s++;
  const body = [
    ...old.slice(0, p).map((l) => ` ${l}`),
    ...old.slice(p, old.length - s).map((l) => `-${l}`),
    ...after.slice(p, after.length - s).map((l) => `+${l}`),
    ...old.slice(old.length - s).map((l) => ` ${l}`),
  ];
  const header = before === null
    ? [`diff --git a/${path} b/${path}`, "new file mode 100644", "--- /dev/null", `+++ b/${path}`]
    : [`diff --git a/${path} b/${path}`, `--- a/${path}`, `+++ b/${path}`];
  const text = [...header, `@@ -${old.length === 0 ? 0 : 1},${old.length} +1,${after.length} @@`, ...body, ""].join("\n");
  const files = parseGitDiff(text);
  if (files.length !== 1) throw new Error("diffOf: expected one file");
  return files[0]!;
}

/** An added file made of these lines. */
export function added(path: string, lines: string[]): DiffFile {
  return diffOf(path, null, lines);
}
