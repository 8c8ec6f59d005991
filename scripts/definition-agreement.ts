/**
 * How well the definitions a search reads inside a chunk by their text (`definitionsIn`,
 * src/retrieval/definition-span.ts: a class kept whole, its methods found by their shapes and ends) agree
 * with the parser's own: for each container chunk (class, interface, module, enum, type) of a repository's
 * source files, the methods and functions tree-sitter found inside it (one per name, as `definitionsIn`
 * keeps them), how many the text reading found by name at their place, and how many with the same last line.
 *
 *   npx tsx scripts/definition-agreement.ts --mirrors ../.mirror --repo square/okio --files '\.kt$' [--limit 40] [--rev HEAD] [--show 6]
 *
 * `--mirrors` holds bare clones as `<owner>+<name>/repo` (as `npm run eval` keeps them); test files are
 * left out. Prints one line per run and up to `--show` misses (a name not found, or found with another end).
 */
import { execFileSync } from "node:child_process";
import { parseArgs } from "node:util";
import { z } from "zod";
import { createChunker } from "../src/indexing/chunking/chunker.ts";
import { definitionsIn } from "../src/retrieval/definition-span.ts";
import { mirrorOf } from "./eval/git-host.ts";

const USAGE = "npx tsx scripts/definition-agreement.ts --mirrors <dir> --repo <owner/name> --files <regex> [--limit N] [--rev <rev>] [--show N]";
const CONTAINERS = new Set(["class", "interface", "module", "enum", "type"]);

const Options = z.object({
  mirrors: z.string().min(1),
  repo: z.string().regex(/^[\w.-]+\/[\w.-]+$/, "owner/name"),
  files: z.string().min(1).refine((s) => { try { new RegExp(s); return true; } catch { return false; } }, "a regular expression"),
  limit: z.coerce.number().int().positive().default(40),
  rev: z.string().regex(/^[\w./-]+$/).refine((s) => !s.startsWith("-"), "a revision, not an option").default("HEAD"),
  show: z.coerce.number().int().nonnegative().default(6),
});

const fail = (message: string): never => {
  process.stderr.write(`${message}\n\nusage: ${USAGE}\n`);
  process.exit(2);
};
let values: Record<string, unknown> = {};
try {
  values = parseArgs({ options: { mirrors: { type: "string" }, repo: { type: "string" }, files: { type: "string" }, limit: { type: "string" }, rev: { type: "string" }, show: { type: "string" } } }).values;
} catch (error) {
  fail((error as Error).message);
}
const parsed = Options.safeParse(values);
if (!parsed.success) fail(parsed.error.issues.map((i) => `--${i.path.join(".")}: ${i.message}`).join("\n"));
const { mirrors, repo, files: filesPattern, limit, rev, show } = parsed.data!;
const gitDir = mirrorOf(mirrors, repo);
const git = (args: string[]) => execFileSync("git", ["--git-dir", gitDir, ...args], { encoding: "utf8", maxBuffer: 1 << 28 });

const wanted = new RegExp(filesPattern);
const files = git(["ls-tree", "-r", "--name-only", rev]).split("\n").filter((f) => wanted.test(f) && !/test/i.test(f)).slice(0, limit);
const chunker = createChunker();
const bare = (name: string) => name.replace(/[?!=]$/, "");
let truth = 0, found = 0, sameEnd = 0;
const misses: string[] = [];
for (const path of files) {
  const content = git(["show", `${rev}:${path}`]);
  const file = await chunker.chunkFile(path, content);
  for (const chunk of file.chunks) {
    if (!CONTAINERS.has(chunk.kind)) continue;
    const inside = file.symbols.filter((s) => (s.kind === "method" || s.kind === "function") && s.startLine > chunk.startLine && s.endLine <= chunk.endLine);
    const parsedDefs = inside.filter((s, k) => inside.findIndex((o) => o.name === s.name) === k);
    const read = definitionsIn(chunk.text, chunk.startLine, file.language);
    for (const s of parsedDefs) {
      truth++;
      const mine = read.find((d) => bare(d.name) === bare(s.name) && d.startLine >= s.startLine - 1 && d.startLine <= s.endLine);
      if (!mine) misses.push(`not found ${path}:${s.startLine} ${s.name}`);
      else {
        found++;
        if (mine.endLine === s.endLine) sameEnd++;
        else misses.push(`other end ${path}:${s.startLine} ${s.name}: ${mine.endLine}, parser ${s.endLine}`);
      }
    }
  }
}
const share = (n: number) => `${((100 * n) / Math.max(1, truth)).toFixed(1)}%`;
process.stdout.write(`${repo} ${rev} (${files.length} files): ${truth} definitions in container chunks, found ${found} (${share(found)}), same last line ${sameEnd} (${share(sameEnd)})\n`);
for (const m of misses.slice(0, show)) process.stdout.write(`  ${m}\n`);
