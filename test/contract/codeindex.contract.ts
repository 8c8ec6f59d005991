/**
 * Behaviour every CodeIndex adapter must show. Run from a spec file:
 *   codeIndexContract("embedded", async () => ({ index, reopen, cleanup }));
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ChunkDocument, CodeIndex, IndexFilter } from "../../src/codeindex/port.ts";

export type CodeIndexFixture = {
  index: CodeIndex;
  /** Closes the index and opens it again on the same storage (persistent adapters). */
  reopen?(): Promise<CodeIndex>;
  cleanup(): Promise<void>;
};

const ORG = "org-a";
const OTHER_ORG = "org-b";

let ordinals = 0;
export function chunk(overrides: Partial<ChunkDocument> & Pick<ChunkDocument, "repoId" | "path" | "blobId">): ChunkDocument {
  const ordinal = overrides.ordinal ?? ordinals++;
  return {
    id: `${overrides.repoId}|${overrides.path}|${overrides.blobId}|${ordinal}`,
    orgId: ORG,
    ordinal,
    language: "typescript",
    kind: "function",
    symbol: null,
    parent: null,
    signature: null,
    doc: null,
    startLine: 1,
    endLine: 10,
    text: "",
    summary: "",
    fileSummary: "",
    ...overrides,
  };
}

const main = (repoId: string, extra: Partial<IndexFilter> = {}): IndexFilter => ({
  orgId: ORG,
  targets: [{ repoId, branch: "main" }],
  ...extra,
});

const ids = (hits: { doc: ChunkDocument }[]) => hits.map((h) => h.doc.id);
const withoutVector = ({ vector: _vector, ...doc }: ChunkDocument) => doc;

export function codeIndexContract(label: string, makeIndex: () => Promise<CodeIndexFixture>): void {
  describe(`CodeIndex contract: ${label}`, () => {
    let fixture: CodeIndexFixture;
    let index: CodeIndex;

    beforeEach(async () => {
      fixture = await makeIndex();
      index = fixture.index;
    });
    afterEach(async () => {
      await fixture.cleanup();
    });

    /** Upserts chunks and puts each (path, blobId) on `branch` of its repository. */
    async function indexOnBranch(branch: string, docs: ChunkDocument[]): Promise<void> {
      await index.upsertChunks(docs);
      const byRepo = new Map<string, Map<string, string>>();
      for (const d of docs) {
        const files = byRepo.get(d.repoId) ?? new Map<string, string>();
        files.set(d.path, d.blobId);
        byRepo.set(d.repoId, files);
      }
      for (const [repoId, files] of byRepo) {
        const current = await index.getBranchFiles(repoId, branch);
        const merged = new Map(current.map((f) => [f.path, f.blobId]));
        for (const [path, blobId] of files) merged.set(path, blobId);
        await index.setBranchFiles(repoId, branch, [...merged].map(([path, blobId]) => ({ path, blobId })));
      }
    }

    it("upserts chunks, reports their blob, deletes the blob", async () => {
      const a = chunk({ repoId: "r1", path: "src/a.ts", blobId: "b1", ordinal: 0, text: "export const alpha = 1;" });
      const b = chunk({ repoId: "r1", path: "src/a.ts", blobId: "b1", ordinal: 1, text: "export const beta = 2;" });
      expect(await index.hasBlob("r1", "src/a.ts", "b1")).toBe(false);
      await indexOnBranch("main", [a, b]);
      expect(await index.hasBlob("r1", "src/a.ts", "b1")).toBe(true);
      expect(await index.hasBlob("r1", "src/a.ts", "b2")).toBe(false);
      expect(await index.hasBlob("r2", "src/a.ts", "b1")).toBe(false);
      expect(ids(await index.searchLexical("alpha", main("r1"), 10))).toEqual([a.id]);

      await index.deleteBlob("r1", "src/a.ts", "b1");
      expect(await index.hasBlob("r1", "src/a.ts", "b1")).toBe(false);
      expect(await index.searchLexical("alpha", main("r1"), 10)).toEqual([]);
      expect(await index.getFileChunks("r1", "main", "src/a.ts")).toEqual([]);
    });

    it("finds camelCase and snake_case identifiers from partial words, and paths", async () => {
      const camel = chunk({ repoId: "r1", path: "src/net/client.ts", blobId: "c1", symbol: "getHTTPResponse", text: "function getHTTPResponse(url) { return fetch(url); }" });
      const snake = chunk({ repoId: "r1", path: "lib/settings.py", blobId: "s1", language: "python", symbol: "parse_config_file", text: "def parse_config_file(path):\n    return toml.load(path)" });
      const byPath = chunk({ repoId: "r1", path: "src/payments/refund_handler.ts", blobId: "p1", kind: "lines", text: "const x = 1;" });
      const noise = chunk({ repoId: "r1", path: "src/other.ts", blobId: "n1", text: "const unrelated = true;" });
      await indexOnBranch("main", [camel, snake, byPath, noise]);

      expect(ids(await index.searchLexical("http response", main("r1"), 10))[0]).toBe(camel.id);
      expect(ids(await index.searchLexical("HttpResponse", main("r1"), 10))[0]).toBe(camel.id);
      expect(ids(await index.searchLexical("getHTTPResponse", main("r1"), 10))[0]).toBe(camel.id);
      expect(ids(await index.searchLexical("config file", main("r1"), 10))[0]).toBe(snake.id);
      expect(ids(await index.searchLexical("parseConfigFile", main("r1"), 10))[0]).toBe(snake.id);
      expect(ids(await index.searchLexical("refund handler", main("r1"), 10))).toEqual([byPath.id]);
      expect(ids(await index.searchLexical("payments", main("r1"), 10))).toEqual([byPath.id]);
      expect(await index.searchLexical("the of and", main("r1"), 10)).toEqual([]);
    });

    it("answers several lexical queries at once exactly as one by one", async () => {
      const docs = [
        chunk({ repoId: "r1", path: "src/net/client.ts", blobId: "c1", symbol: "getHTTPResponse", text: "function getHTTPResponse(url) { return fetch(url); }" }),
        chunk({ repoId: "r1", path: "src/net/retry.ts", blobId: "r1", symbol: "retryRequest", text: "function retryRequest(url, times) { return getHTTPResponse(url); }" }),
        chunk({ repoId: "r1", path: "lib/settings.py", blobId: "s1", language: "python", symbol: "parse_config_file", text: "def parse_config_file(path):\n    return toml.load(path)" }),
        chunk({ repoId: "r1", path: "docs/http.md", blobId: "d1", kind: "section", text: "HTTP response handling and retry of requests" }),
      ];
      await indexOnBranch("main", docs);
      const queries = [
        { text: "http response retry", limit: 10 },
        { text: "getHTTPResponse getHTTPResponse retryRequest", limit: 2 },
        { text: "config file path", limit: 10 },
        { text: "nothing matches this", limit: 10 },
        { text: "http", limit: 0 },
      ];
      const together = await index.searchLexicalMany(queries, main("r1"));
      const alone = await Promise.all(queries.map((q) => index.searchLexical(q.text, main("r1"), q.limit)));
      expect(together.map((hits) => hits.map((h) => [h.doc.id, h.score]))).toEqual(alone.map((hits) => hits.map((h) => [h.doc.id, h.score])));
      expect(together[0]!.length).toBeGreaterThan(1);
      expect(together[1]!.length).toBe(2);
      expect(together[3]).toEqual([]);
      expect(together[4]).toEqual([]);
    });

    it("ranks the chunk defining a symbol above one mentioning it in passing", async () => {
      const definition = chunk({
        repoId: "r1", path: "src/cache/evict.ts", blobId: "d1", symbol: "evictStaleEntries",
        signature: "export function evictStaleEntries(cache: Cache, now: number): number",
        text: "export function evictStaleEntries(cache: Cache, now: number): number {\n  let removed = 0;\n  for (const [key, entry] of cache) if (entry.expires < now) { cache.delete(key); removed++; }\n  return removed;\n}",
      });
      const mention = chunk({
        repoId: "r1", path: "src/server/timer.ts", blobId: "m1", symbol: "startTimers",
        text: "export function startTimers(cache: Cache) {\n  // every minute\n  setInterval(() => evictStaleEntries(cache, Date.now()), 60_000);\n  log.info('timers started', { cache: cache.size });\n}",
      });
      await indexOnBranch("main", [mention, definition]);
      for (const query of ["evictStaleEntries", "evict stale entries", "where are stale cache entries evicted"]) {
        const hits = await index.searchLexical(query, main("r1"), 10);
        expect(ids(hits)).toEqual([definition.id, mention.id]);
        expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
      }
    });

    it("ranks whole files: words spread over a file's chunks beat one chunk repeating one word", async () => {
      await indexOnBranch("main", [
        chunk({ repoId: "r1", path: "src/spread.ts", blobId: "s1", text: "function parseHeader(input) { return input.split(':'); }" }),
        chunk({ repoId: "r1", path: "src/spread.ts", blobId: "s1", text: "function renderFrame(frame) { draw(frame); }" }),
        chunk({ repoId: "r1", path: "src/spread.ts", blobId: "s1", text: "function flushBuffer(buffer) { write(buffer); }" }),
        chunk({ repoId: "r1", path: "src/once.ts", blobId: "o1", text: "parse parse parse parse parse the header header header" }),
        chunk({ repoId: "r1", path: "src/other.ts", blobId: "x1", text: "function unrelated() { return 42; }" }),
      ]);
      await indexOnBranch("dev", [chunk({ repoId: "r1", path: "src/spread.ts", blobId: "s2", text: "function nothingHere() {}" })]);
      const hits = await index.searchFiles({ text: "parse render flush frame buffer", limit: 10 }, main("r1"));
      expect(hits.map((h) => h.path)).toEqual(["src/spread.ts", "src/once.ts"]);
      expect(hits[0]).toMatchObject({ repoId: "r1", branch: "main" });
      expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
      // Limit, path prefix, organisation and branch are honoured; each file comes once.
      expect((await index.searchFiles({ text: "parse render flush frame buffer", limit: 1 }, main("r1"))).map((h) => h.path)).toEqual(["src/spread.ts"]);
      expect(await index.searchFiles({ text: "parse render flush", limit: 10 }, main("r1", { pathPrefix: "lib/" }))).toEqual([]);
      expect(await index.searchFiles({ text: "parse render flush", limit: 10 }, { ...main("r1"), orgId: OTHER_ORG })).toEqual([]);
      expect(await index.searchFiles({ text: "parse render flush", limit: 10 }, { orgId: ORG, targets: [{ repoId: "r1", branch: "dev" }] })).toEqual([]);
      const both = await index.searchFiles({ text: "render frame", limit: 10 }, { orgId: ORG, targets: [{ repoId: "r1", branch: "dev" }, { repoId: "r1", branch: "main" }] });
      expect(both.map((h) => [h.path, h.branch])).toEqual([["src/spread.ts", "main"]]);
      expect(await index.searchFiles({ text: "zzzqqq", limit: 10 }, main("r1"))).toEqual([]);
    });

    it("never returns another organisation's chunks", async () => {
      const mine = chunk({ repoId: "r1", path: "src/secret.ts", blobId: "x1", symbol: "rotateSigningKey", text: "rotateSigningKey()" });
      const theirs = chunk({ repoId: "r1", path: "src/secret2.ts", blobId: "x2", orgId: OTHER_ORG, symbol: "rotateSigningKey", text: "rotateSigningKey()" });
      const theirRepo = chunk({ repoId: "r9", path: "src/secret.ts", blobId: "x1", orgId: OTHER_ORG, symbol: "rotateSigningKey", text: "rotateSigningKey()" });
      await indexOnBranch("main", [mine, theirs, theirRepo]);
      expect(ids(await index.searchLexical("rotateSigningKey", main("r1"), 10))).toEqual([mine.id]);
      const both: IndexFilter = { orgId: ORG, targets: [{ repoId: "r1", branch: "main" }, { repoId: "r9", branch: "main" }] };
      expect(ids(await index.searchLexical("rotateSigningKey", both, 10))).toEqual([mine.id]);
      expect(ids(await index.searchLexical("rotateSigningKey", { ...both, orgId: OTHER_ORG }, 10)).sort()).toEqual([theirRepo.id, theirs.id].sort());
    });

    it("filters by repository and path prefix", async () => {
      const r1 = chunk({ repoId: "r1", path: "src/core/queue.ts", blobId: "q1", symbol: "drainQueue", text: "drainQueue" });
      const r1Test = chunk({ repoId: "r1", path: "test/queue.spec.ts", blobId: "q2", symbol: "drainQueue", text: "drainQueue" });
      const r2 = chunk({ repoId: "r2", path: "src/core/queue.ts", blobId: "q1", symbol: "drainQueue", text: "drainQueue" });
      await indexOnBranch("main", [r1, r1Test, r2]);
      expect(ids(await index.searchLexical("drainQueue", main("r1"), 10)).sort()).toEqual([r1.id, r1Test.id].sort());
      expect(ids(await index.searchLexical("drainQueue", main("r2"), 10))).toEqual([r2.id]);
      expect(ids(await index.searchLexical("drainQueue", main("r1", { pathPrefix: "src/" }), 10))).toEqual([r1.id]);
      expect(ids(await index.searchLexical("drainQueue", main("r1", { pathPrefix: "test/" }), 10))).toEqual([r1Test.id]);
      expect(await index.searchLexical("drainQueue", main("r1", { pathPrefix: "docs/" }), 10)).toEqual([]);
      expect(await index.searchLexical("drainQueue", main("r3"), 10)).toEqual([]);
      expect(await index.searchLexical("drainQueue", { orgId: ORG, targets: [] }, 10)).toEqual([]);
    });

    it("resolves each branch to its own blob of the same path", async () => {
      const onMain = chunk({ repoId: "r1", path: "src/retry.ts", blobId: "v1", symbol: "retryWithBackoff", text: "retryWithBackoff linear delay" });
      const onFeature = chunk({ repoId: "r1", path: "src/retry.ts", blobId: "v2", symbol: "retryWithBackoff", text: "retryWithBackoff exponential jitter delay" });
      const shared = chunk({ repoId: "r1", path: "src/util.ts", blobId: "u1", text: "helper used by retryWithBackoff" });
      await indexOnBranch("main", [onMain, shared]);
      await indexOnBranch("feature", [onFeature, shared]);

      const viaMain = await index.searchLexical("retryWithBackoff", main("r1"), 10);
      expect(ids(viaMain).sort()).toEqual([onMain.id, shared.id].sort());
      expect(viaMain.every((h) => h.branch === "main")).toBe(true);
      const viaFeature = await index.searchLexical("retryWithBackoff", { orgId: ORG, targets: [{ repoId: "r1", branch: "feature" }] }, 10);
      expect(ids(viaFeature).sort()).toEqual([onFeature.id, shared.id].sort());
      expect(viaFeature.every((h) => h.branch === "feature")).toBe(true);
      expect(ids(await index.searchLexical("exponential jitter", main("r1"), 10))).toEqual([]);

      const both = await index.searchLexical("retryWithBackoff", { orgId: ORG, targets: [{ repoId: "r1", branch: "main" }, { repoId: "r1", branch: "feature" }] }, 10);
      const branchOf = new Map(both.map((h) => [h.doc.id, h.branch]));
      expect(branchOf.get(onMain.id)).toBe("main");
      expect(branchOf.get(onFeature.id)).toBe("feature");
      expect(both).toHaveLength(3);

      expect((await index.getFileChunks("r1", "main", "src/retry.ts")).map((d) => d.id)).toEqual([onMain.id]);
      expect((await index.getFileChunks("r1", "feature", "src/retry.ts")).map((d) => d.id)).toEqual([onFeature.id]);
    });

    it("replaces a branch's file set", async () => {
      const a = chunk({ repoId: "r1", path: "a.ts", blobId: "a1", text: "kangaroo" });
      const b = chunk({ repoId: "r1", path: "b.ts", blobId: "b1", text: "kangaroo wallaby" });
      const b2 = chunk({ repoId: "r1", path: "b.ts", blobId: "b2", text: "kangaroo koala" });
      await index.upsertChunks([a, b, b2]);
      await index.setBranchFiles("r1", "main", [{ path: "a.ts", blobId: "a1" }, { path: "b.ts", blobId: "b1" }]);
      expect(ids(await index.searchLexical("kangaroo", main("r1"), 10)).sort()).toEqual([a.id, b.id].sort());

      await index.setBranchFiles("r1", "main", [{ path: "b.ts", blobId: "b2" }]);
      expect(await index.getBranchFiles("r1", "main")).toEqual([{ path: "b.ts", blobId: "b2" }]);
      expect(ids(await index.searchLexical("kangaroo", main("r1"), 10))).toEqual([b2.id]);
      expect(await index.searchLexical("wallaby", main("r1"), 10)).toEqual([]);
      expect(await index.getFileChunks("r1", "main", "a.ts")).toEqual([]);

      await index.setBranchFiles("r1", "main", []);
      expect(await index.getBranchFiles("r1", "main")).toEqual([]);
      expect(await index.searchLexical("kangaroo", main("r1"), 10)).toEqual([]);
    });

    it("handles realistic long repository ids, branches and paths", async () => {
      const repoId = `${ORG}:github:some-organisation/a-rather-long-repository-name`;
      const branch = "feature/very-long-branch-name-for-testing";
      const path = "src/deeply/nested/package/module/sub_module/implementation_details.py";
      const doc = chunk({ repoId, path, blobId: "0123456789abcdef0123456789abcdef01234567", text: "def compute_long_identifier_name(): pass" });
      await index.upsertChunks([doc]);
      await index.setBranchFiles(repoId, branch, [{ path, blobId: doc.blobId }]);
      const filter = { orgId: ORG, targets: [{ repoId, branch }] };
      expect(await index.getBranchFiles(repoId, branch)).toEqual([{ path, blobId: doc.blobId }]);
      expect(ids(await index.searchLexical("compute_long_identifier_name", filter, 10))).toEqual([doc.id]);
      expect((await index.getFileChunks(repoId, branch, path)).map((d) => d.id)).toEqual([doc.id]);
    });

    it("returns a file's chunks in ordinal order, vectors included", async () => {
      const docs = [2, 0, 1].map((ordinal) =>
        chunk({ repoId: "r1", path: "src/big.ts", blobId: "g1", ordinal, startLine: ordinal * 10 + 1, text: `part ${ordinal}`, vector: [ordinal + 1, 0.5, 0.25] }),
      );
      await indexOnBranch("main", docs);
      const chunks = await index.getFileChunks("r1", "main", "src/big.ts");
      expect(chunks.map((c) => c.ordinal)).toEqual([0, 1, 2]);
      expect(chunks.map(withoutVector)).toEqual([docs[1]!, docs[2]!, docs[0]!].map(withoutVector));
      expect(chunks[2]!.vector).toEqual([3, 0.5, 0.25]);
      expect(await index.getFileChunks("r1", "main", "src/missing.ts")).toEqual([]);
      expect(await index.getFileChunks("r1", "nobranch", "src/big.ts")).toEqual([]);
    });

    it("orders vector kNN hits by cosine similarity, within the filter", async () => {
      const near = chunk({ repoId: "r1", path: "v/near.ts", blobId: "n1", text: "near", vector: [1, 0.1, 0] });
      const mid = chunk({ repoId: "r1", path: "v/mid.ts", blobId: "m1", text: "mid", vector: [1, 1, 0] });
      const far = chunk({ repoId: "r1", path: "v/far.ts", blobId: "f1", text: "far", vector: [-1, 0, 0.2] });
      const none = chunk({ repoId: "r1", path: "v/none.ts", blobId: "x1", text: "no vector" });
      const otherOrg = chunk({ repoId: "r1", path: "v/other.ts", blobId: "o1", orgId: OTHER_ORG, text: "other", vector: [1, 0, 0] });
      await indexOnBranch("main", [near, mid, far, none, otherOrg]);
      const hits = await index.searchVector([2, 0, 0], main("r1"), 10);
      expect(ids(hits)).toEqual([near.id, mid.id, far.id]);
      expect(hits[0]!.score).toBeCloseTo(1 / Math.sqrt(1.01), 4);
      expect(hits[1]!.score).toBeCloseTo(Math.SQRT1_2, 4);
      expect(hits[2]!.score).toBeLessThan(0);
      expect(hits.every((h) => h.branch === "main")).toBe(true);
      expect(ids(await index.searchVector([2, 0, 0], main("r1"), 2))).toEqual([near.id, mid.id]);
      expect(ids(await index.searchVector([2, 0, 0], main("r1", { pathPrefix: "v/m" }), 10))).toEqual([mid.id]);
    });

    it("deletes a repository on every branch and leaves others alone", async () => {
      const r1 = chunk({ repoId: "r1", path: "src/x.ts", blobId: "x1", text: "platypus" });
      const r2 = chunk({ repoId: "r2", path: "src/x.ts", blobId: "x1", text: "platypus" });
      await indexOnBranch("main", [r1, r2]);
      await indexOnBranch("dev", [r1]);
      await index.deleteRepository("r1");
      expect(await index.hasBlob("r1", "src/x.ts", "x1")).toBe(false);
      expect(await index.getBranchFiles("r1", "main")).toEqual([]);
      expect(await index.getBranchFiles("r1", "dev")).toEqual([]);
      expect(await index.searchLexical("platypus", main("r1"), 10)).toEqual([]);
      expect(ids(await index.searchLexical("platypus", main("r2"), 10))).toEqual([r2.id]);
      expect(await index.hasBlob("r2", "src/x.ts", "x1")).toBe(true);
    });

    it("truncates everything", async () => {
      const r1 = chunk({ repoId: "r1", path: "src/x.ts", blobId: "x1", text: "echidna", vector: [1, 0] });
      await indexOnBranch("main", [r1]);
      await index.truncate();
      expect(await index.hasBlob("r1", "src/x.ts", "x1")).toBe(false);
      expect(await index.getBranchFiles("r1", "main")).toEqual([]);
      expect(await index.searchLexical("echidna", main("r1"), 10)).toEqual([]);
      expect(await index.searchVector([1, 0], main("r1"), 10)).toEqual([]);
      await indexOnBranch("main", [r1]);
      expect(ids(await index.searchLexical("echidna", main("r1"), 10))).toEqual([r1.id]);
    });

    it("is idempotent: upserting the same chunks twice leaves the same state, a changed chunk replaces the old", async () => {
      const docs = [
        chunk({ repoId: "r1", path: "src/q.ts", blobId: "q1", ordinal: 0, symbol: "enqueueJob", text: "enqueueJob(job) pushes onto the queue" }),
        chunk({ repoId: "r1", path: "src/q.ts", blobId: "q1", ordinal: 1, symbol: "dequeueJob", text: "dequeueJob pops from the queue" }),
        chunk({ repoId: "r1", path: "src/w.ts", blobId: "w1", ordinal: 0, symbol: "worker", text: "worker loop calls dequeueJob" }),
      ];
      await indexOnBranch("main", docs);
      const before = await index.searchLexical("queue job", main("r1"), 10);
      await index.upsertChunks(docs);
      await index.upsertChunks([...docs].reverse());
      const after = await index.searchLexical("queue job", main("r1"), 10);
      expect(ids(after)).toEqual(ids(before));
      after.forEach((hit, i) => expect(hit.score).toBeCloseTo(before[i]!.score, 5));
      expect(await index.getFileChunks("r1", "main", "src/q.ts")).toEqual(await index.getFileChunks("r1", "main", "src/q.ts"));
      expect((await index.getFileChunks("r1", "main", "src/q.ts")).map(withoutVector)).toEqual(docs.slice(0, 2).map(withoutVector));

      const changed = { ...docs[1]!, text: "dequeueJob takes from the mailbox" };
      await index.upsertChunks([changed]);
      expect(await index.searchLexical("pops", main("r1"), 10)).toEqual([]);
      expect(ids(await index.searchLexical("mailbox", main("r1"), 10))).toEqual([changed.id]);
      expect((await index.getFileChunks("r1", "main", "src/q.ts"))[1]!.text).toBe(changed.text);
    });

    it("persists across a reopen", async () => {
      if (!fixture.reopen) return;
      const doc = chunk({ repoId: "r1", path: "src/p.ts", blobId: "p1", symbol: "persistMe", text: "persistMe survives", vector: [0, 1] });
      await indexOnBranch("main", [doc]);
      index = await fixture.reopen();
      expect(await index.hasBlob("r1", "src/p.ts", "p1")).toBe(true);
      expect(await index.getBranchFiles("r1", "main")).toEqual([{ path: "src/p.ts", blobId: "p1" }]);
      expect(ids(await index.searchLexical("persist me", main("r1"), 10))).toEqual([doc.id]);
      expect(ids(await index.searchVector([0, 1], main("r1"), 10))).toEqual([doc.id]);
      expect((await index.getFileChunks("r1", "main", "src/p.ts"))[0]).toEqual(doc);
    });
  });
}
