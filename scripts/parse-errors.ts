/**
 * How well the chunker reads the C and C++ files of a repository: lines inside parse errors as each
 * file reads by its extension alone, against the reading the chunker keeps (src/indexing/chunking/c-family.ts),
 * and the files left to line windows. Reads a git directory at a revision (a bare mirror works).
 *
 *   npx tsx scripts/parse-errors.ts <git-dir> [rev]
 */
import { execFileSync } from "node:child_process";
import { createChunker } from "../src/indexing/chunking/chunker.ts";
import { detectLanguage } from "../src/indexing/chunking/languages.ts";
import { parserFor } from "../src/indexing/chunking/parsers.ts";
import { readings } from "../src/indexing/chunking/c-family.ts";
import { errorLines, errorRows } from "../src/indexing/chunking/emit.ts";
import { MAX_ERROR_SHARE } from "../src/indexing/chunking/chunk-bounds.ts";
import { languageById } from "../src/indexing/chunking/languages.ts";

const [gitDir, rev = "HEAD"] = process.argv.slice(2);
if (!gitDir || gitDir.startsWith("-") || rev.startsWith("-")) {
  console.error("usage: parse-errors <git-dir> [rev]");
  process.exit(2);
}
const git = (args: string[]) => execFileSync("git", ["--git-dir", gitDir, ...args], { maxBuffer: 1 << 28 }).toString();
const paths = git(["ls-tree", "-r", "--name-only", rev]).split("\n").filter((p) => ["c", "cpp"].includes(detectLanguage(p)?.id ?? ""));
const chunker = createChunker();
const totals = { files: 0, lines: 0, asIs: 0, kept: 0, windowedAsIs: 0, windowedKept: 0, readAgain: 0 };
for (const path of paths) {
  const text = git(["show", `${rev}:${path}`]);
  const language = detectLanguage(path)!;
  const tree = (await parserFor(language)).parse(text);
  if (!tree) continue;
  const lines = text.split("\n").length;
  const asIs = errorLines(tree.rootNode);
  const windowedAsIs = errorRows(tree.rootNode) / lines > MAX_ERROR_SHARE;
  tree.delete();
  let kept = asIs;
  for (const reading of asIs > 0 ? readings(path, language.id, text) : []) {
    const other = (await parserFor(languageById(reading.languageId)!)).parse(reading.text);
    if (other) kept = Math.min(kept, errorLines(other.rootNode));
    other?.delete();
  }
  const chunked = await chunker.chunkFile(path, text);
  totals.files++;
  totals.lines += lines;
  totals.asIs += asIs;
  totals.kept += kept;
  totals.readAgain += kept < asIs ? 1 : 0;
  totals.windowedAsIs += windowedAsIs ? 1 : 0;
  totals.windowedKept += chunked.parseError ? 1 : 0;
}
console.log(`${gitDir} ${rev}: ${totals.files} C/C++ files, ${totals.lines} lines`);
console.log(`lines in parse errors: ${totals.asIs} as the extension reads them, ${totals.kept} as the chunker reads them (${totals.readAgain} files read again)`);
console.log(`files chunked by line windows: ${totals.windowedAsIs} -> ${totals.windowedKept}`);
process.exit(0);
