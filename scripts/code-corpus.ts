/**
 * Real-code corpus for the index evaluation and benchmark: Python standard libraries found on the machine
 * (pyenv under the home directory, /usr/local/lib or /usr/lib), chunked at def/class lines (max 40 lines per chunk) into ChunkDocuments, roughly
 * what the tree-sitter chunker produces. Falls back to generated code when no Python is installed.
 */
import { readdirSync, readFileSync, statSync, existsSync } from "node:fs";
import { homedir } from "node:os";
import { join, relative } from "node:path";
import type { ChunkDocument } from "../src/codeindex/port.ts";

export type CorpusOptions = { targetLines: number; orgId?: string; repoId?: string; maxChunkLines?: number };
export type Corpus = { docs: ChunkDocument[]; lines: number; bytes: number; files: number; roots: string[] };

function pythonLibRoots(): string[] {
  const roots: string[] = [];
  for (const base of [join(homedir(), ".pyenv", "versions"), "/usr/local/lib", "/usr/lib"]) {
    if (!existsSync(base)) continue;
    for (const name of readdirSync(base).sort(byVersionDesc)) {
      for (const candidate of [join(base, name, "lib", name.replace(/^(\d+\.\d+).*/, "python$1")), join(base, name)]) {
        if (/python3\.\d+$/.test(candidate) && existsSync(join(candidate, "asyncio"))) roots.push(candidate);
      }
    }
  }
  return [...new Set(roots)];
}

function byVersionDesc(a: string, b: string): number {
  const va = (a.match(/\d+/g) ?? []).map(Number);
  const vb = (b.match(/\d+/g) ?? []).map(Number);
  for (let i = 0; i < Math.max(va.length, vb.length); i++) {
    const d = (vb[i] ?? -1) - (va[i] ?? -1);
    if (d !== 0) return d;
  }
  return a < b ? -1 : 1;
}

function walkPython(dir: string, out: string[]): void {
  for (const name of readdirSync(dir).sort()) {
    if (name === "site-packages" || name === "__pycache__" || name.startsWith(".")) continue;
    const full = join(dir, name);
    const st = statSync(full, { throwIfNoEntry: false });
    if (!st) continue;
    if (st.isDirectory()) walkPython(full, out);
    else if (name.endsWith(".py") && st.size < 2_000_000) out.push(full);
  }
}

const DEF = /^(\s*)(?:async\s+)?(def|class)\s+([A-Za-z_][A-Za-z0-9_]*)/;

/** Chunks one Python file. */
export function chunkPython(
  source: string,
  meta: { orgId: string; repoId: string; path: string; blobId: string },
  maxChunkLines: number,
): ChunkDocument[] {
  const lines = source.split("\n");
  const starts: number[] = [0];
  for (let i = 1; i < lines.length; i++) {
    const last = starts[starts.length - 1]!;
    if (DEF.test(lines[i]!) || i - last >= maxChunkLines) starts.push(i);
  }
  const topLevel = lines.map((l) => DEF.exec(l)).filter((m) => m && m[1] === "").map((m) => m![3]!);
  const fileSummary = `Python module ${meta.path} defining ${topLevel.slice(0, 20).join(", ")}`;
  const docs: ChunkDocument[] = [];
  let parentClass: string | null = null;
  for (let c = 0; c < starts.length; c++) {
    const start = starts[c]!;
    const end = (starts[c + 1] ?? lines.length) - 1;
    const chunkLines = lines.slice(start, end + 1);
    const text = chunkLines.join("\n");
    if (text.trim() === "") continue;
    const def = DEF.exec(lines[start]!);
    let symbol: string | null = null;
    let signature: string | null = null;
    let kind = "lines";
    let parent: string | null = null;
    let doc: string | null = null;
    if (def) {
      symbol = def[3]!;
      kind = def[2] === "class" ? "class" : def[1] === "" ? "function" : "method";
      if (def[1] === "" && def[2] === "class") parentClass = symbol;
      if (def[1] === "" && def[2] === "def") parentClass = null;
      parent = kind === "method" ? parentClass : null;
      signature = lines[start]!.trim();
      const docMatch = /^\s*(?:"""|''')([\s\S]*?)(?:"""|''')/m.exec(chunkLines.slice(1, 12).join("\n"));
      doc = docMatch ? docMatch[1]!.trim().slice(0, 1000) : null;
    }
    const ordinal = docs.length;
    docs.push({
      id: `${meta.repoId}|${meta.path}|${meta.blobId}|${ordinal}`,
      orgId: meta.orgId,
      repoId: meta.repoId,
      path: meta.path,
      blobId: meta.blobId,
      ordinal,
      language: "python",
      kind,
      symbol,
      parent,
      signature,
      doc,
      startLine: start + 1,
      endLine: end + 1,
      text,
      summary: symbol ? `${kind} ${parent ? parent + "." : ""}${symbol} in ${meta.path}` : `lines ${start + 1}-${end + 1} of ${meta.path}`,
      fileSummary,
    });
  }
  return docs;
}

function fakeBlobId(text: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    h1 = Math.imul(h1 ^ text.charCodeAt(i), 16777619);
    h2 = Math.imul(h2 ^ text.charCodeAt(i), 2246822519);
  }
  return ((h1 >>> 0).toString(16) + (h2 >>> 0).toString(16)).padStart(16, "0");
}

/** Loads real Python code until `targetLines` is reached (repeating the roots with a prefix if needed). */
export function loadCorpus(options: CorpusOptions): Corpus {
  const orgId = options.orgId ?? "org-bench";
  const repoId = options.repoId ?? "repo-bench";
  const maxChunkLines = options.maxChunkLines ?? 20;
  const roots = pythonLibRoots();
  if (roots.length === 0) throw new Error("no Python standard library found for the corpus");
  const docs: ChunkDocument[] = [];
  let lines = 0;
  let bytes = 0;
  let files = 0;
  const used: string[] = [];
  for (let round = 0; lines < options.targetLines; round++) {
    for (const root of roots) {
      if (lines >= options.targetLines) break;
      used.push(root);
      const prefix = `${root.split("/").pop()}${round > 0 ? `-r${round}` : ""}`;
      const paths: string[] = [];
      walkPython(root, paths);
      for (const file of paths) {
        if (lines >= options.targetLines) break;
        const source = readFileSync(file, "utf8");
        const path = `${prefix}/${relative(root, file)}`;
        const fileDocs = chunkPython(source, { orgId, repoId, path, blobId: fakeBlobId(source) }, maxChunkLines);
        if (fileDocs.length === 0) continue;
        for (const d of fileDocs) docs.push(d);
        lines += source.split("\n").length;
        bytes += Buffer.byteLength(source);
        files++;
      }
    }
  }
  return { docs, lines, bytes, files, roots: [...new Set(used)] };
}

/** Realistic queries against the Python corpus. */
export const BENCH_QUERIES: { label: string; text: string }[] = [
  { label: "identifier", text: "run_until_complete" },
  { label: "identifier", text: "getaddrinfo" },
  { label: "identifier", text: "SSLContext load_cert_chain" },
  { label: "identifier", text: "HTTPConnection" },
  { label: "identifier", text: "parse_qsl" },
  { label: "identifier", text: "JSONDecodeError" },
  { label: "identifier", text: "ThreadPoolExecutor submit" },
  { label: "identifier", text: "TextIOWrapper reconfigure" },
  { label: "question", text: "how does the event loop schedule callbacks with call_later" },
  { label: "question", text: "where are HTTP cookies parsed from the Set-Cookie header" },
  { label: "question", text: "how is a zip file extracted to a directory" },
  { label: "question", text: "which function decodes base64 encoded data" },
  { label: "question", text: "how does logging rotate files when they get too large" },
  { label: "question", text: "where does the json encoder handle circular references" },
  {
    label: "bug-report",
    text: `asyncio: StreamReader.readuntil raises LimitOverrunError but leaves the buffer in an inconsistent state

Hi, we run a small TCP proxy on top of asyncio streams. When a client sends a line longer than the
configured limit, readuntil() raises LimitOverrunError as documented, but afterwards the next call to
readline() returns data that starts in the middle of the previous oversized line instead of after the
separator. We expected the reader to either consume the whole line or leave the buffer untouched so the
caller could decide. The documentation of StreamReader says the data is left in the internal buffer and
can be read again, but the consumed count reported in the exception does not match what is left.

Traceback (most recent call last):
  File "/usr/lib/python3.13/asyncio/streams.py", line 568, in readline
    line = await self.readuntil(sep)
  File "/usr/lib/python3.13/asyncio/streams.py", line 660, in readuntil
    raise exceptions.LimitOverrunError(
asyncio.exceptions.LimitOverrunError: Separator is not found, and chunk exceed the limit
During handling of the above exception, another exception occurred:
  File "/app/proxy.py", line 41, in handle_client
    data = await reader.readline()
ValueError: Separator is not found, and chunk exceed the limit

Steps to reproduce: start_server with limit=1024, connect with open_connection, write 5000 bytes without
a newline followed by b"\\n", then write a short line. The second readline should return the short line.
We see it on Linux with Python 3.12 and 3.13, both with the default selector event loop and with uvloop
disabled. The transport is a plain socket, no SSL. Setting a bigger limit hides the problem but memory
use grows for every connection, which is why we want a bounded limit. Is the feed_data / _wait_for_data
logic expected to keep the partial separator, or is this a bug in how the buffer is trimmed when
the exception is raised? Any pointers to where the buffer offset is computed would help, thanks.`,
  },
];
