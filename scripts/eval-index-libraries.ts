/**
 * Evaluates search libraries for the embedded code index on real code (Python standard libraries, see
 * code-corpus.ts): @orama/orama (save/load), minisearch (JSON / loadJSON), flexsearch (export/import) and
 * our lmdb inverted index (src/codeindex/embedded/code-index.ts). All use the same identifier-aware tokenizer.
 *
 *   npx tsx scripts/eval-index-libraries.ts [--lines 1150000] [--libs orama,minisearch,flexsearch,lmdb]
 *
 * Each library builds in one child process and opens in another, so RSS after open is the library's own.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { create, insertMultiple, load, save, search } from "@orama/orama";
import type { AnyOrama } from "@orama/orama";
import MiniSearch from "minisearch";
import FlexSearch from "flexsearch";
import { createEmbeddedCodeIndex } from "../src/codeindex/embedded/code-index.ts";
import type { ChunkDocument } from "../src/codeindex/port.ts";
import { tokenize } from "../src/codeindex/tokenize.ts";
import { BENCH_QUERIES, loadCorpus } from "./code-corpus.ts";

const { values: args } = parseArgs({
  options: {
    lines: { type: "string", default: "1150000" },
    libs: { type: "string", default: "orama,minisearch,flexsearch,lmdb" },
    phase: { type: "string", default: "main" },
    lib: { type: "string" },
    dir: { type: "string" },
  },
});

const FIELDS = ["symbol", "parent", "path", "signature", "doc", "text"] as const;
const BOOST = { symbol: 6, parent: 1.5, path: 2.5, signature: 2.5, doc: 1.5, text: 1 };
type FlatDoc = { id: string } & Record<(typeof FIELDS)[number], string>;
const flat = (d: ChunkDocument): FlatDoc => ({
  id: d.id,
  symbol: d.symbol ?? "",
  parent: d.parent ?? "",
  path: d.path,
  signature: d.signature ?? "",
  doc: d.doc ?? "",
  text: d.text,
});
const LIMIT = 100;
/** Libraries that take seconds per query are cut short: 5 rounds of the queries or 90 s, whichever first. */
const QUERY_BUDGET_MS = 90_000;
const FILTER = { orgId: "org-bench", targets: [{ repoId: "repo-bench", branch: "main" }] };

type Searcher = (query: string) => Promise<string[]>;
type Library = {
  build(docs: ChunkDocument[], dir: string): Promise<void>;
  open(dir: string): Promise<Searcher>;
};

const oramaSchema = { id: "string", symbol: "string", parent: "string", path: "string", signature: "string", doc: "string", text: "string" } as const;
const oramaTokenizer = { language: "english", normalizationCache: new Map(), tokenize: (raw: string) => tokenize(raw) };
const makeOrama = () => create({ schema: oramaSchema, components: { tokenizer: oramaTokenizer } });

const miniOptions = { fields: [...FIELDS], storeFields: [] as string[], tokenize: (t: string) => tokenize(t), processTerm: (t: string) => t };

const makeFlex = () =>
  new FlexSearch.Document({
    document: { id: "id", index: [...FIELDS] },
    tokenize: "strict",
    encode: (text: string) => tokenize(text),
  });

const libraries: Record<string, Library> = {
  orama: {
    async build(docs, dir) {
      const db = makeOrama();
      await insertMultiple(db, docs.map(flat), 1000);
      writeFileSync(join(dir, "orama.json"), JSON.stringify(save(db)));
    },
    async open(dir) {
      const db: AnyOrama = makeOrama();
      load(db, JSON.parse(readFileSync(join(dir, "orama.json"), "utf8")));
      return async (term) => {
        const result = await search(db, { term, limit: LIMIT, boost: BOOST });
        return result.hits.map((h) => String(h.id));
      };
    },
  },
  minisearch: {
    async build(docs, dir) {
      const ms = new MiniSearch<FlatDoc>(miniOptions);
      ms.addAll(docs.map(flat));
      writeFileSync(join(dir, "minisearch.json"), JSON.stringify(ms));
    },
    async open(dir) {
      const ms = MiniSearch.loadJSON<FlatDoc>(readFileSync(join(dir, "minisearch.json"), "utf8"), miniOptions);
      return async (query) => ms.search(query, { boost: BOOST, combineWith: "OR" }).slice(0, LIMIT).map((r) => String(r.id));
    },
  },
  flexsearch: {
    async build(docs, dir) {
      const index = makeFlex();
      for (const d of docs) index.add(flat(d));
      const parts: Record<string, string> = {};
      await index.export((key: string, data: string) => {
        parts[key] = data;
      });
      writeFileSync(join(dir, "flexsearch.json"), JSON.stringify(parts));
    },
    async open(dir) {
      const index = makeFlex();
      const parts = JSON.parse(readFileSync(join(dir, "flexsearch.json"), "utf8")) as Record<string, string>;
      for (const [key, data] of Object.entries(parts)) index.import(key, data);
      return async (query) => {
        const results = (await index.search(query, { limit: LIMIT, suggest: true })) as { result: string[] }[];
        const ids = new Set<string>();
        for (const field of results) for (const id of field.result) ids.add(String(id));
        return [...ids].slice(0, LIMIT);
      };
    },
  },
  lmdb: {
    async build(docs, dir) {
      const index = createEmbeddedCodeIndex({ dir });
      for (let i = 0; i < docs.length; i += 2000) await index.upsertChunks(docs.slice(i, i + 2000));
      const files = new Map(docs.map((d) => [d.path, d.blobId]));
      await index.setBranchFiles("repo-bench", "main", [...files].map(([path, blobId]) => ({ path, blobId })));
      await index.close();
    },
    async open(dir) {
      const index = createEmbeddedCodeIndex({ dir });
      await index.searchLexical("warm the branch filter", FILTER, 1);
      return async (query) => (await index.searchLexical(query, FILTER, LIMIT)).map((h) => h.doc.id);
    },
  },
};

const dirSize = (dir: string) => readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function child(): Promise<void> {
  const library = libraries[args.lib!]!;
  const dir = args.dir!;
  if (args.phase === "build") {
    const corpus = loadCorpus({ targetLines: Number(args.lines), orgId: "org-bench", repoId: "repo-bench" });
    const t0 = performance.now();
    await library.build(corpus.docs, dir);
    const buildMs = performance.now() - t0;
    console.log(JSON.stringify({ docs: corpus.docs.length, lines: corpus.lines, buildMs, sizeBytes: dirSize(dir), buildRss: process.memoryUsage().rss }));
    return;
  }
  const t0 = performance.now();
  const searcher = await library.open(dir);
  const openMs = performance.now() - t0;
  const openRss = process.memoryUsage().rss;
  console.log(JSON.stringify({ openMs, openRss }));
  const latencies: number[] = [];
  const top: Record<string, string[]> = {};
  const started = performance.now();
  for (let round = 0; round < 5 && performance.now() - started < QUERY_BUDGET_MS; round++) {
    for (const q of BENCH_QUERIES) {
      if (performance.now() - started > QUERY_BUDGET_MS) break;
      const t = performance.now();
      const ids = await searcher(q.text);
      latencies.push(performance.now() - t);
      if (round === 0) top[q.text.slice(0, 40)] = ids.slice(0, 3).map((id) => id.split("|")[1]!);
    }
  }
  latencies.sort((a, b) => a - b);
  console.log(JSON.stringify({ queries: latencies.length, p50: percentile(latencies, 50), p99: percentile(latencies, 99), top }));
}

function runChild(lib: string, phase: string, dir: string): Record<string, unknown> {
  const result = spawnSync(
    process.execPath,
    ["--max-old-space-size=8192", ...process.execArgv, fileURLToPath(import.meta.url), "--phase", phase, "--lib", lib, "--dir", dir, "--lines", args.lines!],
    { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, timeout: 20 * 60_000 },
  );
  const lines = result.stdout.trim().split("\n").filter((l) => l.startsWith("{"));
  const merged = Object.assign({}, ...lines.map((l) => JSON.parse(l) as Record<string, unknown>)) as Record<string, unknown>;
  if (result.status !== 0) {
    const reason = result.error?.message ?? result.stderr.trim().split("\n").filter((l) => /Error|heap|memory/i.test(l)).slice(0, 2).join(" / ");
    merged.error = reason || `exit ${result.status ?? result.signal}`;
  }
  return merged;
}

async function main(): Promise<void> {
  const mb = (x: unknown) => (typeof x === "number" ? `${(x / 1024 / 1024).toFixed(0)} MB` : "-");
  const msf = (x: unknown) => (typeof x === "number" ? `${x.toFixed(1)} ms` : "-");
  const rows: string[] = ["| library | docs | build | serialized size | open/load | RSS after open | query p50 | query p99 | queries |", "|---|---|---|---|---|---|---|---|---|"];
  for (const lib of args.libs!.split(",")) {
    const dir = mkdtempSync(join(tmpdir(), `loupe-eval-${lib}-`));
    const built = runChild(lib, "build", dir);
    const opened = built.error ? { error: "not built" } : runChild(lib, "open", dir);
    rmSync(dir, { recursive: true, force: true });
    const error = (built.error ?? opened.error) as string | undefined;
    rows.push(
      `| ${lib} | ${built.docs ?? "-"} | ${msf(built.buildMs)} | ${mb(built.sizeBytes)} | ${msf(opened.openMs)} | ${mb(opened.openRss)} | ` +
        `${msf(opened.p50)} | ${msf(opened.p99)} | ${opened.queries ?? 0} |${error ? ` failed: ${error}` : ""}`,
    );
    console.error(`${lib}: ${JSON.stringify({ built, opened })}`);
  }
  console.log(rows.join("\n"));
}

await (args.phase === "main" ? main() : child());
