/**
 * The cost of custom-context regexes per review line (src/review/safe-regex.ts): milliseconds to test
 * one 4,000-character line (the most a review reads of a line, MAX_LINE_CHARS), for the costliest
 * patterns each engine accepts and for ordinary ones on a minified-JavaScript line.
 *
 *   npx tsx scripts/bench-safe-regex.ts [--baseline <commit>] [--runs 15]
 *
 * --baseline also measures src/review/safe-regex.ts as it was at that commit (read with `git show`),
 * for a before/after comparison. Each figure is the median of --runs timed tests after 3 untimed
 * ones; a pattern an engine refuses is reported with its error. Results:
 * scripts/results/bench-safe-regex.json.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { pathToFileURL } from "node:url";
import { compileSafeRegex, MAX_LINE_CHARS, MAX_NFA_STATES } from "../src/review/safe-regex.ts";
import { projectRoot, writeResults } from "./results.ts";

const { values: args } = parseArgs({ options: { baseline: { type: "string" }, runs: { type: "string", default: "15" } } });
const runs = Number(args.runs);

type Engine = (source: string, flags?: string) => { test(input: string): boolean };

const letters = "a".repeat(MAX_LINE_CHARS);
const minified = "var a=function(b,c){return b+c},d=[1,2,3].map(function(e){return a(e,2)});".repeat(60).slice(0, MAX_LINE_CHARS);

const cases: { name: string; source: string; flags?: string; line: string; lineName: string }[] = [
  { name: "QA's pattern (about 4,800 states)", source: "[a-z]{0,2400}y", line: letters, lineName: "4,000 x `a`" },
  { name: "the same without a required literal", source: "[a-z]{0,2400}[0-9]", line: letters, lineName: "4,000 x `a`" },
  { name: `the costliest accepted now (${MAX_NFA_STATES - 1} states)`, source: "[a-z]{0,249}[0-9]", line: letters, lineName: "4,000 x `a`" },
  { name: "a quarter of it", source: "[a-z]{0,62}[0-9]", line: letters, lineName: "4,000 x `a`" },
  { name: "console.log call", source: "console\\.log\\(", line: minified, lineName: "minified JavaScript" },
  { name: "focused test", source: "\\b(it|describe)\\.only\\(", line: minified, lineName: "minified JavaScript" },
  { name: "assigned secret, case-insensitive", source: "(password|secret|token)\\s*[:=]\\s*[\"'][^\"']{8,}[\"']", flags: "i", line: minified, lineName: "minified JavaScript" },
  { name: "any call with a long argument list", source: "\\w+\\([^)]{40,80}\\)", line: minified, lineName: "minified JavaScript" },
];

function measure(engine: Engine, c: (typeof cases)[number]): { msPerLine: number; matched: boolean } | { refused: string } {
  let compiled: ReturnType<Engine>;
  try {
    compiled = engine(c.source, c.flags ?? "");
  } catch (e) {
    return { refused: e instanceof Error ? e.message : String(e) };
  }
  let matched = false;
  for (let i = 0; i < 3; i++) matched = compiled.test(c.line);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    compiled.test(c.line);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { msPerLine: Math.round(times[Math.floor(times.length / 2)]! * 100) / 100, matched };
}

async function baselineEngine(commit: string): Promise<{ engine: Engine; dir: string }> {
  const source = execFileSync("git", ["show", `${commit}:src/review/safe-regex.ts`], { cwd: projectRoot, encoding: "utf8" });
  const dir = mkdtempSync(join(tmpdir(), "loupe-bench-regex-"));
  const file = join(dir, "safe-regex.ts");
  writeFileSync(file, source);
  const module = (await import(pathToFileURL(file).href)) as { compileSafeRegex: Engine };
  return { engine: module.compileSafeRegex, dir };
}

const baseline = args.baseline ? await baselineEngine(args.baseline) : null;
const figures = cases.map((c) => {
  const row = {
    pattern: `/${c.source}/${c.flags ?? ""}`,
    case: c.name,
    line: c.lineName,
    states: (() => {
      try {
        return compileSafeRegex(c.source, c.flags ?? "").states;
      } catch {
        return null;
      }
    })(),
    now: measure(compileSafeRegex, c),
    ...(baseline ? { baseline: measure(baseline.engine, c) } : {}),
  };
  const show = (m: ReturnType<typeof measure>) => ("refused" in m ? "refused" : `${m.msPerLine} ms`);
  console.log(`${row.pattern.padEnd(56)} now ${show(row.now).padEnd(10)}${row.baseline ? ` baseline ${show(row.baseline)}` : ""}`);
  return row;
});
if (baseline) rmSync(baseline.dir, { recursive: true, force: true });
const path = writeResults("bench-safe-regex", { maxStates: MAX_NFA_STATES, lineChars: MAX_LINE_CHARS, runs, baselineCommit: args.baseline ?? null, cases: figures });
console.log(`wrote ${path}`);
