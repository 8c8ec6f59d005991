import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { analyseDocuments } from "../../src/codeindex/analysis.ts";
import { createEmbeddedCodeIndex, type EmbeddedCodeIndex, type EmbeddedCodeIndexOptions } from "../../src/codeindex/embedded/code-index.ts";
import type { CodeIndex } from "../../src/codeindex/port.ts";
import { chunk, codeIndexContract, type CodeIndexFixture } from "../contract/codeindex.contract.ts";
import { codeGraphContract } from "../contract/codegraph.contract.ts";

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), "loupe-codeindex-"));
}

/** Runs `fn` on a fresh index in a temp directory, then closes and removes it. */
async function withIndex(fn: (index: EmbeddedCodeIndex) => Promise<void>, options: Omit<EmbeddedCodeIndexOptions, "dir"> = {}): Promise<void> {
  const dir = tempDir();
  const index = createEmbeddedCodeIndex({ dir, ...options });
  try {
    await fn(index);
  } finally {
    await index.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Runs `fn` with a writer and a reader instance over one temp directory, the reader keyed by the writer's
 * generations (as a search thread is), then closes both and removes the directory.
 */
async function withWriterAndReader(fn: (writer: EmbeddedCodeIndex, reader: EmbeddedCodeIndex, dir: string) => Promise<void>): Promise<void> {
  const dir = tempDir();
  const writer = createEmbeddedCodeIndex({ dir });
  const reader = createEmbeddedCodeIndex({ dir, generationOf: (r) => writer.generationOf(r), writeGeneration: () => writer.writeGeneration() });
  try {
    await fn(writer, reader, dir);
  } finally {
    await reader.close();
    await writer.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const embeddedFixture = async (): Promise<CodeIndexFixture> => {
  const dir = tempDir();
  let index: CodeIndex = createEmbeddedCodeIndex({ dir });
  return {
    index,
    async reopen() {
      await index.close();
      index = createEmbeddedCodeIndex({ dir });
      return index;
    },
    async cleanup() {
      await index.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
};

codeIndexContract("embedded (lmdb)", embeddedFixture);
codeGraphContract("embedded (lmdb)", embeddedFixture);

describe("embedded code index specifics", () => {
  it("keeps long queries bounded to the highest-IDF terms and still finds the rare identifier", async () => {
    await withIndex(async (index) => {
      const docs = Array.from({ length: 40 }, (_, i) =>
        chunk({ repoId: "r1", path: `src/f${i}.ts`, blobId: `b${i}`, ordinal: 0, text: `common words value result handler ${i % 2 ? "odd" : "even"}` }),
      );
      const target = chunk({ repoId: "r1", path: "src/rare.ts", blobId: "rare", ordinal: 0, symbol: "flushZebraBuffer", text: "flushZebraBuffer common value" });
      await index.upsertChunks([...docs, target]);
      await index.setBranchFiles("r1", "main", [...docs, target].map((d) => ({ path: d.path, blobId: d.blobId })));
      const report = `${"common words value result handler odd even ".repeat(30)} crash in flushZebraBuffer`;
      const hits = await index.searchLexical(report, { orgId: "org-a", targets: [{ repoId: "r1", branch: "main" }] }, 5);
      expect(hits[0]!.doc.id).toBe(target.id);
      expect(hits).toHaveLength(1); // the 4 highest-IDF terms all come from the identifier: common words were not scored
    }, { maxQueryTerms: 4 });
  });

  it("scores only whole words for a whole-word lookup: a name's parts find nothing on their own", async () => {
    await withIndex(async (index) => {
      const filter = { orgId: "org-a", targets: [{ repoId: "r1", branch: "main" }] };
      const defines = chunk({ repoId: "r1", path: "a.py", blobId: "a1", symbol: "feed_data", text: "def feed_data(self, data): self.buffer.extend(data)" });
      const parts = chunk({ repoId: "r1", path: "b.py", blobId: "b1", symbol: "feed", text: "def feed(data): return data" });
      await index.upsertChunks([defines, parts]);
      await index.setBranchFiles("r1", "main", [{ path: "a.py", blobId: "a1" }, { path: "b.py", blobId: "b1" }]);
      const [whole, usual] = await index.searchLexicalMany([{ text: "feed_data", limit: 10, wholeWords: true }, { text: "feed_data", limit: 10 }], filter);
      expect(whole!.map((h) => h.doc.id)).toEqual([defines.id]);
      expect(usual!.map((h) => h.doc.id).sort()).toEqual([defines.id, parts.id].sort());
    });
  });

  it("does not score a term found in nearly every chunk of a large index when the query has others", async () => {
    await withIndex(async (index) => {
      const filter = { orgId: "org-a", targets: [{ repoId: "r1", branch: "main" }] };
      // 1,200 chunks all under a `pylib` directory (the path segment is in every chunk); one mentions quokka.
      const docs = Array.from({ length: 1200 }, (_, i) =>
        chunk({ repoId: "r1", path: `pylib/m${i}.py`, blobId: `b${i}`, text: i === 7 ? "quokka habitat" : `filler ${i}` }),
      );
      await index.upsertChunks(docs);
      await index.setBranchFiles("r1", "main", docs.map((d) => ({ path: d.path, blobId: d.blobId })));
      const hits = await index.searchLexical("pylib quokka", filter, 50);
      expect(hits.map((h) => h.doc.id)).toEqual([docs[7]!.id]); // pylib alone touched nothing
      // Alone, such a term is still searched.
      expect(await index.searchLexical("pylib", filter, 50)).toHaveLength(50);
    });
  });

  it("returns exactly the first k of the full ranking when common words only add to chunks already found", async () => {
    await withIndex(async (index) => {
      const filter = { orgId: "org-a", targets: [{ repoId: "r1", branch: "main" }] };
      // 600 chunks: every third mentions `handler` (common), a few dozen mention rarer words as well.
      const words = ["parse", "socket", "buffer", "timeout", "retry"];
      const docs = Array.from({ length: 600 }, (_, i) =>
        chunk({
          repoId: "r1",
          path: `src/m${i}.py`,
          blobId: `b${i}`,
          text: [i % 3 === 0 ? "handler handler" : "other", i % 17 === 0 ? words[i % 5]! : "", i % 29 === 0 ? `${words[(i + 1) % 5]!} ${words[(i + 2) % 5]!}` : "", `filler${i % 40}`].join(" "),
        }),
      );
      await index.upsertChunks(docs);
      await index.setBranchFiles("r1", "main", docs.map((d) => ({ path: d.path, blobId: d.blobId })));
      const query = "parse socket buffer timeout retry handler";
      const [short, full] = await index.searchLexicalMany([{ text: query, limit: 10 }, { text: query, limit: 1000 }], filter);
      expect(full!.length).toBeGreaterThan(150); // the common word touched many chunks
      expect(short!.map((h) => [h.doc.id, h.score])).toEqual(full!.slice(0, 10).map((h) => [h.doc.id, h.score]));
    });
  });

  it("deletes a blob's postings so document frequencies recover", async () => {
    await withIndex(async (index) => {
      const filter = { orgId: "org-a", targets: [{ repoId: "r1", branch: "main" }] };
      const keep = chunk({ repoId: "r1", path: "k.ts", blobId: "k1", text: "wombat burrow" });
      const gone = chunk({ repoId: "r1", path: "g.ts", blobId: "g1", text: "wombat wombat burrow" });
      await index.upsertChunks([keep]);
      await index.setBranchFiles("r1", "main", [{ path: "k.ts", blobId: "k1" }, { path: "g.ts", blobId: "g1" }]);
      const alone = (await index.searchLexical("wombat", filter, 10))[0]!.score;
      await index.upsertChunks([gone]);
      await index.deleteBlob("r1", "g.ts", "g1");
      const again = await index.searchLexical("wombat", filter, 10);
      expect(again.map((h) => h.doc.id)).toEqual([keep.id]);
      expect(again[0]!.score).toBeCloseTo(alone, 5);
    });
  });

  it("scores with the document frequencies and statistics of the latest write, as a fresh instance does", async () => {
    await withWriterAndReader(async (writer, reader, dir) => {
      const filter = { orgId: "org-a", targets: [{ repoId: "r1", branch: "main" }] };
      const first = chunk({ repoId: "r1", path: "a.ts", blobId: "a1", text: "numbat termite mound" });
      const others = [1, 2, 3].map((i) => chunk({ repoId: "r1", path: `n${i}.ts`, blobId: `n${i}`, text: `numbat ${"padding ".repeat(i * 3)}` }));
      await writer.upsertChunks([first]);
      await writer.setBranchFiles("r1", "main", [{ path: "a.ts", blobId: "a1" }]);
      reader.refresh();
      const before = (await writer.searchLexical("numbat", filter, 10))[0]!.score;
      expect((await reader.searchLexical("numbat", filter, 10))[0]!.score).toBe(before);
      // More chunks with the term: its document frequency, the document count and the average lengths move.
      await writer.upsertChunks(others);
      await writer.setBranchFiles("r1", "main", [{ path: "a.ts", blobId: "a1" }, ...others.map((c, i) => ({ path: `n${i + 1}.ts`, blobId: `n${i + 1}` }))]);
      reader.refresh();
      const fresh = createEmbeddedCodeIndex({ dir });
      try {
        const expected = await fresh.searchLexical("numbat", filter, 10);
        expect(expected.find((h) => h.doc.id === first.id)!.score).not.toBeCloseTo(before, 5);
        for (const index of [writer, reader]) {
          const hits = await index.searchLexical("numbat", filter, 10);
          expect(hits.map((h) => [h.doc.id, h.score])).toEqual(expected.map((h) => [h.doc.id, h.score]));
        }
      } finally {
        await fresh.close();
      }
    });
  });

  it("a reader instance (as a search thread holds) sees each write, its cached postings and filters renewed by the writer's generations", async () => {
    await withWriterAndReader(async (writer, reader) => {
      const filter = { orgId: "org-a", targets: [{ repoId: "r1", branch: "main" }] };
      const first = chunk({ repoId: "r1", path: "a.ts", blobId: "a1", text: "quokka hop" });
      const second = chunk({ repoId: "r1", path: "b.ts", blobId: "b1", text: "quokka quokka" });
      await writer.upsertChunks([first]);
      await writer.setBranchFiles("r1", "main", [{ path: "a.ts", blobId: "a1" }]);
      reader.refresh();
      expect((await reader.searchLexical("quokka", filter, 10)).map((h) => h.doc.id)).toEqual([first.id]);
      await writer.upsertChunks([second]);
      await writer.setBranchFiles("r1", "main", [{ path: "a.ts", blobId: "a1" }, { path: "b.ts", blobId: "b1" }]);
      reader.refresh();
      expect((await reader.searchLexical("quokka", filter, 10)).map((h) => h.doc.id).sort()).toEqual([first.id, second.id].sort());
      await writer.deleteBlob("r1", "a.ts", "a1");
      await writer.setBranchFiles("r1", "main", [{ path: "b.ts", blobId: "b1" }]);
      reader.refresh();
      expect((await reader.searchLexical("quokka", filter, 10)).map((h) => h.doc.id)).toEqual([second.id]);
    });
  });

  it("answers the same whether document terms come precomputed or not", async () => {
    const words = ["parse", "config", "HttpServer", "read_chunked", "socket", "retry", "buffer", "encodeBase64", "timeout", "handler"];
    const files = Array.from({ length: 12 }, (_, f) =>
      Array.from({ length: 1 + (f % 4) }, (_, i) =>
        chunk({
          repoId: "r1",
          path: `src/mod_${f}.ts`,
          blobId: `b${f}`,
          ordinal: i,
          symbol: words[(f + i) % words.length]!,
          text: Array.from({ length: 20 }, (_, k) => words[(f * 7 + i * 3 + k * k) % words.length]).join(" "),
          summary: `function ${words[(f + i) % words.length]}`,
          fileSummary: `module mod_${f} with ${words[f % words.length]}`,
        }),
      ),
    );
    const filter = { orgId: "org-a", targets: [{ repoId: "r1", branch: "main" }] };
    const results: unknown[] = [];
    for (const precomputed of [false, true]) {
      await withIndex(async (index) => {
        expect(index.takesDocumentTerms).toBe(true);
        for (const group of [files.slice(0, 5), files.slice(5)]) {
          await index.upsertChunks(group.flat(), precomputed ? { terms: group.map((docs) => analyseDocuments(docs)) } : {});
        }
        await index.setBranchFiles("r1", "main", files.map((docs) => ({ path: docs[0]!.path, blobId: docs[0]!.blobId })));
        const answers = [];
        for (const query of ["parse config", "http server socket", "encode base64", "retry timeout handler", "mod_3"]) {
          answers.push((await index.searchLexical(query, filter, 20)).map((h) => [h.doc.id, h.score.toFixed(6)]));
        }
        results.push(answers);
      });
    }
    expect(results[1]).toEqual(results[0]);
    expect((results[0] as unknown[][]).every((hits) => hits.length > 0)).toBe(true);
  });

  it("ignores precomputed terms that do not cover the documents", async () => {
    await withIndex(async (index) => {
      const a = chunk({ repoId: "r1", path: "a.ts", blobId: "a1", text: "wombat burrow" });
      const b = chunk({ repoId: "r1", path: "b.ts", blobId: "b1", text: "quokka island" });
      await index.upsertChunks([a, b], { terms: [analyseDocuments([a])] });
      await index.setBranchFiles("r1", "main", [{ path: "a.ts", blobId: "a1" }, { path: "b.ts", blobId: "b1" }]);
      const filter = { orgId: "org-a", targets: [{ repoId: "r1", branch: "main" }] };
      expect((await index.searchLexical("quokka", filter, 5)).map((h) => h.doc.id)).toEqual([b.id]);
    });
  });

  it("refuses to use a closed index", async () => {
    const dir = tempDir();
    const index = createEmbeddedCodeIndex({ dir });
    await index.close();
    await expect(index.hasBlob("r", "p", "b")).rejects.toThrow(/closed/);
    rmSync(dir, { recursive: true, force: true });
  });
});
