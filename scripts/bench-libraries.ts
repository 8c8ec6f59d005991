/**
 * Own parts against the libraries that could replace them (docs/dependencies.md): the same input
 * through both, the results compared, the time measured (medians of several runs).
 *
 * - SSE: `createSseParser` (src/models/sse.ts, whatever it is built on now) against
 *   eventsource-parser used directly, on 100,000 streamed chat deltas fed in 4 KB pieces.
 * - Glob: `compileGlob` (src/review/glob.ts) against picomatch (devDependency, for this comparison):
 *   agreement on scope-like patterns over a repository's paths, matches per second, and the time of
 *   one match of a hostile pattern (nested stars) against a long path: backtracking or not.
 *
 * - Diff parsing, caches, limiter, retry, CLI output, webhook signatures: scripts/bench-libraries/*.ts
 *   (each module says what it compares and how).
 *
 *   npx tsx scripts/bench-libraries.ts [--mirror <bare git repository> ...] [--commits 500] [--only diff,caches,...]
 *
 * The diff comparison runs on the last `--commits` commits of each `--mirror` (or of the repositories in
 * LOUPE_BENCH_MIRRORS, comma-separated), cloned into a temp dir first; without one it is left out.
 */
import { parseArgs } from "node:util";
import { createParser } from "eventsource-parser";
import picomatch from "picomatch";
import { createSseParser } from "../src/models/sse.ts";
import { compileGlob } from "../src/review/glob.ts";
import { benchCaches } from "./bench-libraries/cache.ts";
import { benchDiff } from "./bench-libraries/diff.ts";
import { benchLimiter } from "./bench-libraries/limiter.ts";
import { benchOutput } from "./bench-libraries/output.ts";
import { benchRetry } from "./bench-libraries/retry.ts";
import { time } from "./bench-libraries/timing.ts";
import { benchWebhooks } from "./bench-libraries/webhooks.ts";
import { writeResults } from "./results.ts";

const { values: args } = parseArgs({
  options: { mirror: { type: "string", multiple: true }, commits: { type: "string", default: "500" }, only: { type: "string" } },
});
const mirrors = args.mirror?.length ? args.mirror : (process.env.LOUPE_BENCH_MIRRORS ?? "").split(",").map((m) => m.trim()).filter(Boolean);
const only = args.only ? new Set(args.only.split(",")) : null;
const wanted = (name: string) => only === null || only.has(name);
const log = (line: string) => process.stderr.write(`${line}\n`);

function benchSse() {
  const EVENTS = 100_000;
  let stream = "";
  for (let i = 0; i < EVENTS; i++) {
    stream += `event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"token ${i} of the answer"}}\n\n`;
    if (i % 1000 === 0) stream += ": keep-alive\r\n\r\n";
  }
  const pieces: string[] = [];
  for (let i = 0; i < stream.length; i += 4096) pieces.push(stream.slice(i, i + 4096));
  const megabytes = stream.length / 1e6;

  function viaOwn(): string[] {
    const parser = createSseParser();
    const out: string[] = [];
    for (const p of pieces) for (const e of parser.push(p)) out.push(e.data);
    for (const e of parser.end()) out.push(e.data);
    return out;
  }
  function viaLibrary(): string[] {
    const out: string[] = [];
    const parser = createParser({ onEvent: (e) => out.push(e.data) });
    for (const p of pieces) parser.feed(p);
    parser.reset({ consume: true });
    return out;
  }
  const ownEvents = viaOwn();
  const libEvents = viaLibrary();
  const sse = {
    input: `${EVENTS} events, ${megabytes.toFixed(1)} MB in 4 KB pieces`,
    sameEvents: ownEvents.length === libEvents.length && ownEvents.every((d, i) => d === libEvents[i]),
    createSseParserMBps: +(megabytes / (time(viaOwn) / 1000)).toFixed(1),
    eventsourceParserMBps: +(megabytes / (time(viaLibrary) / 1000)).toFixed(1),
  };
  return sse;
}

function benchGlob() {
  const dirs = ["src", "src/api", "src/api/v2", "lib/util", "test/unit", "docs", ".github/workflows", "packages/core/src"];
  const names = ["index.ts", "server.js", "README.md", "util.test.ts", "main.go", "a.min.js", ".env", "config.yml", "Dockerfile"];
  const paths: string[] = [];
  for (let i = 0; i < 12_500; i++) paths.push(`${dirs[i % dirs.length]}/${i % 7 === 0 ? "nested/" : ""}${names[i % names.length]}`);
  const patterns = ["**/*.ts", "src/**", "**/*.{js,ts}", "src/api/**/*.ts", "*.md", "**/test/**", "**/*.test.ts", "docs/*", "**/[A-Z]*", "packages/*/src/**/*.ts", "**/.github/**"];
  let disagreements = 0;
  const disagreed: string[] = [];
  for (const pattern of patterns) {
    const own = compileGlob(pattern);
    const lib = picomatch(pattern, { dot: true });
    for (const path of paths) {
      if (own.match(path) !== lib(path)) {
        disagreements++;
        if (disagreed.length < 5) disagreed.push(`${pattern} ~ ${path}: own ${own.match(path)}, picomatch ${lib(path)}`);
      }
    }
  }
  const matches = patterns.length * paths.length;
  const ownCompiled = patterns.map((p) => compileGlob(p));
  const libCompiled = patterns.map((p) => picomatch(p, { dot: true }));
  const ownMs = time(() => {
    for (const g of ownCompiled) for (const p of paths) g.match(p);
  });
  const libMs = time(() => {
    for (const g of libCompiled) for (const p of paths) g(p);
  });
  /** One match of a hostile pattern against a path that almost matches. */
  const hostile = (n: number) => ({ pattern: `${"a*".repeat(n)}b`, path: "a".repeat(40) });
  const hostileFigures = [6, 10, 12].map((n) => {
    const { pattern, path } = hostile(n);
    const own = compileGlob(pattern);
    const lib = picomatch(pattern);
    return {
      pattern,
      pathLength: path.length,
      compileGlobMs: +time(() => own.match(path), 3).toFixed(2),
      picomatchMs: +time(() => lib(path), 3).toFixed(2),
    };
  });
  const glob = {
    input: `${patterns.length} patterns x ${paths.length} paths`,
    disagreements,
    disagreed,
    compileGlobMatchesPerSecond: Math.round(matches / (ownMs / 1000)),
    picomatchMatchesPerSecond: Math.round(matches / (libMs / 1000)),
    hostile: hostileFigures,
  };
  return glob;
}

const figures: Record<string, unknown> = {};
const sections: [string, () => unknown][] = [
  ["sse", benchSse],
  ["glob", benchGlob],
  ["diff", () => (mirrors.length > 0 ? benchDiff(mirrors, Number(args.commits)) : "left out: no --mirror (or LOUPE_BENCH_MIRRORS) given")],
  ["caches", benchCaches],
  ["limiter", benchLimiter],
  ["retry", benchRetry],
  ["output", benchOutput],
  ["webhooks", benchWebhooks],
];
for (const [name, run] of sections) {
  if (!wanted(name)) continue;
  log(`${name}...`);
  figures[name] = await run();
}

const path = writeResults("bench-libraries", figures);
process.stdout.write(JSON.stringify(figures, null, 2) + `\nwritten to ${path}\n`);
