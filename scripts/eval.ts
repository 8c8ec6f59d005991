/**
 * Retrieval quality on the dev sets of ../shared/eval (README there), measured THROUGH THE PUBLIC HTTP API.
 *
 *   npm run eval -- [--dataset <jsonl>[,<jsonl>]]... [--cases N] [--language <name>] [--repo owner/name]
 *                   [--only <instance substring>] [--data-dir <dir>] [--mirrors <dir>] [--out <file>]
 *                   [--index-jobs N] [--verbose]
 *
 * Defaults: both ../shared/eval/swe-lite-dev.jsonl and ../shared/eval/multilang-dev.jsonl, mirrors in
 * ../.mirror (`<owner>+<name>/repo`), results in scripts/results/eval.json; paths relative to the
 * project root. --cases keeps the first N cases left by the other filters (dataset order).
 *
 * 1. A file:// git host tree `<data-dir>-githost` with one parentless branch per case holding
 *    base_commit's tree, its objects from the read-only mirrors through alternates (eval/git-host.ts).
 * 2. The real service in-process (createLoupe + serve), indexing every branch through
 *    POST /v2/repositories (eval/service.ts). With --data-dir the index is kept and reused by the next
 *    run ("Repository is up to date"). Its statistics span everything indexed in that data dir, so
 *    compare runs (and digests) over the same cases and the same data dir content.
 * 3. POST /v2/search with the problem statement; file-level Acc@k and line-level span@k (eval/metrics.ts,
 *    eval/diff.ts) overall and per language, beside a whole-file BM25 baseline over the language's non-test
 *    sources (eval/bm25.ts, eval/languages.ts); a digest of every reference returned (eval/report.ts).
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { projectRoot, writeResults } from "./results.ts";
import { filterCases, loadCases } from "./eval/cases.ts";
import { changedOldLines, type Placement } from "./eval/diff.ts";
import { buildHostTree, mirrorOf, readBlobs } from "./eval/git-host.ts";
import { knownLanguage, LANGUAGES } from "./eval/languages.ts";
import { fileRank, quantile, spanRank } from "./eval/metrics.ts";
import { baselineRanking } from "./eval/baseline.ts";
import { indexCases, startService } from "./eval/service.ts";
import { caseDigest, digestOf, digestReference, formatTable, tables, type CaseResult, type DigestReference } from "./eval/report.ts";

const USAGE = `npm run eval -- [--dataset <jsonl>[,<jsonl>]]... [--cases N] [--language <name>] [--repo owner/name] [--only <instance substring>] [--data-dir <dir>] [--mirrors <dir>] [--out <file>] [--index-jobs N] [--verbose]`;
const DEFAULT_DATASETS = ["../shared/eval/swe-lite-dev.jsonl", "../shared/eval/multilang-dev.jsonl"];

const { values: args } = parseArgs({
  options: {
    dataset: { type: "string", multiple: true },
    cases: { type: "string" },
    language: { type: "string" },
    repo: { type: "string" },
    only: { type: "string" },
    "data-dir": { type: "string" },
    mirrors: { type: "string" },
    out: { type: "string" },
    "index-jobs": { type: "string", default: "2" },
    verbose: { type: "boolean", default: false },
    help: { type: "boolean", default: false },
  },
});

function fail(message: string): never {
  process.stderr.write(`${message}\n\nusage: ${USAGE}\n`);
  process.exit(2);
}

if (args.help) {
  process.stdout.write(`usage: ${USAGE}\n`);
  process.exit(0);
}
const count = (flag: string, v: string | undefined) => {
  if (v === undefined) return undefined;
  if (!/^[1-9]\d*$/.test(v)) fail(`--${flag} takes a whole number above 0`);
  return Number(v);
};
const maxCases = count("cases", args.cases);
const indexJobs = count("index-jobs", args["index-jobs"])!;
if (args.language && !knownLanguage(args.language)) fail(`--language: unknown language ${args.language} (known: ${LANGUAGES.join(", ")})`);

// Defaults are relative to the project root; paths given on the command line to the working directory.
const datasets = (args.dataset ?? []).flatMap((d) => d.split(",")).filter(Boolean).map((d) => resolve(d));
if (datasets.length === 0) datasets.push(...DEFAULT_DATASETS.map((d) => resolve(projectRoot, d)));
const mirrors = args.mirrors ? resolve(args.mirrors) : resolve(projectRoot, "../.mirror");
const cases = filterCases(loadCases(datasets), { language: args.language, repo: args.repo, only: args.only, cases: maxCases });
if (cases.length === 0) fail("no case matches the filters");

const keepData = Boolean(args["data-dir"]);
const dataDir = resolve(args["data-dir"] ?? mkdtempSync(join(tmpdir(), "loupe-eval-")));
const hostDir = `${dataDir}-githost`;
const shown = (p: string) => relative(projectRoot, p) || ".";
const log = (line: string) => process.stderr.write(`${line}\n`);

async function main() {
  log(`eval: ${cases.length} cases from ${datasets.map(shown).join(", ")}; data dir ${dataDir}`);
  const hosted = buildHostTree(cases, hostDir, mirrors);
  const service = await startService(dataDir, hostDir);
  const results: CaseResult[] = [];
  const allRefs: { instanceId: string; refs: DigestReference[] }[] = [];
  let indexing;
  try {
    let done = 0;
    indexing = await indexCases(service, cases, { jobs: indexJobs, log: (line) => log(`[${++done}/${cases.length}] ${line}`) });
    log(`indexed in ${indexing.seconds.toFixed(1)}s (${indexing.indexed} indexed, ${indexing.upToDate} up to date, ${indexing.failures.size} failed)`);

    for (const c of cases) {
      const { entries, dropped } = hosted.get(c.instance_id)!;
      const inTree = new Set(entries.map((e) => e.path));
      const absent = new Set(dropped);
      const blobOf = new Map(entries.map((e) => [e.path, e.blob]));
      const placement: Placement = { hunks: 0, moved: 0, unmatched: 0 };
      const oldText = (path: string) => {
        const blob = blobOf.get(path);
        return blob === undefined ? undefined : readBlobs(mirrorOf(mirrors, c.repo), [blob]).get(blob)?.toString("utf8");
      };
      const changed = changedOldLines(c.patch, oldText, placement);
      let refs: Awaited<ReturnType<typeof service.search>> = [];
      let error = indexing.failures.get(c.instance_id);
      let searchMs = 0;
      if (!error) {
        const started = performance.now();
        try {
          refs = await service.search(c);
        } catch (e) {
          error = (e as Error).message;
        }
        searchMs = performance.now() - started;
      }
      const digestRefs = refs.map(digestReference);
      allRefs.push({ instanceId: c.instance_id, refs: digestRefs });
      const bm = baselineRanking(c, entries, mirrorOf(mirrors, c.repo));
      const bmRefs = bm.map((f) => ({ filepath: f.path, linestart: 1, lineend: Math.max(1, f.lines) }));
      results.push({
        instance_id: c.instance_id,
        dataset: c.dataset,
        language: c.language,
        repo: c.repo,
        gold_files: c.gold_files,
        goldNotInTree: c.gold_files.filter((g) => !inTree.has(g) || absent.has(g)),
        goldLines: Object.fromEntries(c.gold_files.map((g) => [g, changed.get(g)?.length ?? 0])),
        hunks: placement,
        loupe: { fileRank: fileRank(refs.map((r) => r.filepath), c.gold_files), spanRank: spanRank(refs, c.gold_files, changed), references: refs.length, searchMs: Math.round(searchMs), ...(error ? { error } : {}) },
        bm25: { fileRank: fileRank(bm.map((f) => f.path), c.gold_files), spanRank: spanRank(bmRefs, c.gold_files, changed), files: bm.length },
        top: digestRefs.slice(0, 10),
        digest: caseDigest(c.instance_id, digestRefs),
      });
      const r = results[results.length - 1]!;
      const rank = (n: number | null) => String(n ?? "-").padStart(3);
      process.stdout.write(
        `${c.instance_id.padEnd(40)} ${c.language.padEnd(10)} loupe file ${rank(r.loupe.fileRank)} span ${rank(r.loupe.spanRank)}  bm25 file ${rank(r.bm25.fileRank)} span ${rank(r.bm25.spanRank)}${error ? `  ERROR ${error.slice(0, 120)}` : ""}\n`,
      );
      if (args.verbose) {
        process.stdout.write(`    gold: ${c.gold_files.map((g) => `${g} (${r.goldLines[g]} lines${r.goldNotInTree.includes(g) ? ", not in tree" : ""})`).join("  ")}\n`);
        for (const [path, ls, le, d] of digestRefs.slice(0, 5)) process.stdout.write(`    ${String(d).padEnd(8)} ${path}:${ls}-${le}\n`);
      }
    }
  } finally {
    await service.close();
    if (!keepData) {
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(hostDir, { recursive: true, force: true });
    }
  }

  const latencies = results.filter((r) => !r.loupe.error).map((r) => r.loupe.searchMs).sort((a, b) => a - b);
  const rows = tables(results);
  const digest = digestOf(allRefs);
  const searchMs = { p50: quantile(latencies, 0.5), max: latencies[latencies.length - 1] ?? 0 };
  const wallSeconds = Math.round(performance.now() / 100) / 10; // since the process started
  process.stdout.write(`\n${formatTable(rows)}\n\n`);
  process.stdout.write(`search ms p50 ${searchMs.p50} max ${searchMs.max}; index ${indexing.seconds.toFixed(1)}s (${indexing.indexed} indexed, ${indexing.upToDate} up to date); wall ${wallSeconds}s\n`);
  const failed = results.filter((r) => r.loupe.error);
  if (failed.length) process.stdout.write(`${failed.length} case(s) failed: ${failed.map((r) => r.instance_id).join(", ")}\n`);
  const noGold = results.filter((r) => r.goldNotInTree.length === r.gold_files.length).map((r) => r.instance_id);
  if (noGold.length) process.stdout.write(`no gold file in the base tree: ${noGold.join(", ")}\n`);
  process.stdout.write(`digest ${digest}\n`);

  const path = writeResults(
    "eval",
    {
      datasets: datasets.map((d) => ({ path: shown(d), sha256: createHash("sha256").update(readFileSync(d)).digest("hex"), cases: cases.filter((c) => c.dataset === d.slice(d.lastIndexOf("/") + 1)).length })),
      filters: { cases: maxCases ?? null, language: args.language ?? null, repo: args.repo ?? null, only: args.only ?? null },
      digest,
      tables: rows,
      searchMs,
      indexSeconds: Math.round(indexing.seconds * 10) / 10,
      indexed: { indexed: indexing.indexed, upToDate: indexing.upToDate, failed: indexing.failures.size, jobs: indexJobs },
      wallSeconds,
      cases: results,
    },
    args.out ? { path: resolve(args.out) } : {},
  );
  log(`results: ${path.startsWith(projectRoot) ? shown(path) : path}`);
  if (failed.length) process.exitCode = 1; // the figures count a failed case as not found
}

await main();
