/**
 * A benchmark's figures, written to one results file per benchmark (`scripts/results/<name>.json`,
 * replaced by each run) with what reproduces them: the command line, the commit (and whether the tree
 * had uncommitted changes), the date and the machine. Docs describe design and point here for figures.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { availableParallelism, totalmem } from "node:os";
import { dirname, isAbsolute, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

export const projectRoot = join(dirname(fileURLToPath(import.meta.url)), "..");

function git(...args: string[]): string | null {
  try {
    return execFileSync("git", args, { cwd: projectRoot, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return null;
  }
}

/** The command as a user would type it from the project root (`npx tsx scripts/x.ts --flag v`). */
export function commandLine(argv: readonly string[] = process.argv): string {
  const script = argv[1] ? relative(projectRoot, argv[1]) : "?";
  const quote = (a: string) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);
  // An absolute path (a mirror, a data directory) is written relative to the project root: no machine's
  // layout goes into a results file.
  const fromRoot = (path: string) => (isAbsolute(path) ? relative(projectRoot, path) || "." : path);
  const shown = (a: string) => (/^--[\w-]+=/.test(a) ? a.replace(/=(.*)$/s, (_, v: string) => `=${fromRoot(v)}`) : fromRoot(a));
  return ["npx tsx", script, ...argv.slice(2).map((a) => quote(shown(a)))].join(" ");
}

export type ResultsFile<F> = {
  benchmark: string;
  command: string;
  commit: string | null;
  uncommittedChanges: boolean;
  date: string;
  machine: { cores: number; memoryGb: number; node: string; platform: string };
  figures: F;
};

/** Writes `scripts/results/<name>.json` (or `path`) and returns the path written. */
export function writeResults<F>(name: string, figures: F, options: { path?: string; argv?: readonly string[] } = {}): string {
  const file: ResultsFile<F> = {
    benchmark: name,
    command: commandLine(options.argv),
    commit: git("rev-parse", "HEAD"),
    // Results files written by earlier runs of a batch are no change to the code that made these figures.
    uncommittedChanges: (git("status", "--porcelain", "--untracked-files=no", "--", ".", ":(exclude)scripts/results") ?? "") !== "",
    date: new Date().toISOString(),
    machine: { cores: availableParallelism(), memoryGb: Math.round(totalmem() / 2 ** 30), node: process.version, platform: `${process.platform}-${process.arch}` },
    figures,
  };
  const path = options.path ?? join(projectRoot, "scripts", "results", `${name}.json`);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(file, null, 2) + "\n");
  return path;
}
