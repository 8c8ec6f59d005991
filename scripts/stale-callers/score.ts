/**
 * Scores a case: recall = truth sites named / truth sites (the calls of the changed functions in other
 * files that the commit updated); precision = named sites that are really stale / named sites, a named
 * site counting as stale when the real commit updated that call (any call of the named function at
 * that line whose lines the commit changed), so a site of another changed function the miner did not
 * pick up still counts when the commit fixed it.
 */
import { execFileSync } from "node:child_process";
import { parseForCalls } from "../../src/review/graph/calls.ts";
import type { MinedCase } from "./mine.ts";
import type { NamedSite } from "./run.ts";

const git = (dir: string, args: string[]) => execFileSync("git", args, { cwd: dir, maxBuffer: 1 << 30, stdio: ["ignore", "pipe", "ignore"] }).toString("utf8");

/** Old-side line numbers the commit removes or rewrites in `path`. */
function removedLines(dir: string, c: MinedCase, path: string): Set<number> {
  const out = new Set<number>();
  const diff = git(dir, ["diff", "-U0", "--no-renames", c.parent, c.commit, "--", path]);
  let old = 0;
  for (const line of diff.split("\n")) {
    const h = /^@@ -(\d+)(?:,(\d+))? \+/.exec(line);
    if (h) {
      old = Number(h[1]);
      continue;
    }
    if (line.startsWith("-") && !line.startsWith("---")) out.add(old++);
  }
  return out;
}

export type CaseScore = { truth: number; named: number; found: number; correct: number; missed: string[]; wrong: string[] };

export async function scoreCase(dir: string, c: MinedCase, named: readonly NamedSite[]): Promise<CaseScore> {
  const key = (s: { path: string; line: number }) => `${s.path}:${s.line}`;
  const truth = new Set(c.truth.map(key));
  const unique = new Map(named.map((s) => [key(s), s]));
  let found = 0;
  let correct = 0;
  const wrong: string[] = [];
  for (const [k, s] of unique) {
    if (truth.has(k)) {
      found++;
      correct++;
      continue;
    }
    // Not in the miner's truth: stale all the same when the commit updated that call.
    let updated = false;
    if (s.name && s.path !== c.path) {
      const text = (() => {
        try {
          return git(dir, ["show", `${c.parent}:${s.path}`]);
        } catch {
          return null;
        }
      })();
      const parsed = text === null ? null : await parseForCalls(s.path, text, new Set([s.name]));
      const call = parsed?.calls.find((x) => x.line === s.line);
      if (call) {
        const removed = removedLines(dir, c, s.path);
        for (let l = call.line; l <= call.endLine && !updated; l++) updated = removed.has(l);
      }
    }
    if (updated) correct++;
    else wrong.push(k);
  }
  return { truth: truth.size, named: unique.size, found, correct, missed: [...truth].filter((k) => !unique.has(k)), wrong };
}
