/**
 * Code index port. Adapters: embedded (default, persisted under LOUPE_DATA_DIR) and Elasticsearch;
 * both are held to test/contract/codeindex.contract.ts.
 *
 * Documents are content-addressed per repository: a chunk belongs to (repoId, path, blobId).
 * Which (path, blobId) pairs make up a branch is recorded with setBranchFiles, so a second branch or a
 * reload that changes one file costs writes in proportion to the changed files, not the repository.
 */
export type ChunkDocument = {
  /** Unique: `${repoId}|${path}|${blobId}|${ordinal}`. */
  id: string;
  orgId: string;
  repoId: string;
  path: string;
  blobId: string;
  ordinal: number;
  language: string;
  kind: string;
  symbol: string | null;
  parent: string | null;
  signature: string | null;
  doc: string | null;
  startLine: number;
  endLine: number;
  text: string;
  summary: string;
  /** File-level summary of the file holding the chunk. */
  fileSummary: string;
  vector?: number[];
};

/**
 * Index terms of a run of chunk documents in the embedded index's posting encoding, computed where the
 * chunks are made (analyseDocuments in analysis.ts) and handed to `upsertChunks`.
 */
export type DocumentTerms = {
  /** Documents covered, in order. */
  docCount: number;
  /**
   * Distinct terms of the documents, joined by "\n" (terms never contain it): one string crosses
   * between threads far more cheaply than thousands.
   */
  termList: string;
  /** Per term: end of its entries in `postings` (they start at the previous term's end, or 0). */
  ends: Uint32Array;
  /** Per term: local index of the last document containing it. */
  lasts: Uint32Array;
  /** Per term: number of documents containing it. */
  counts: Uint32Array;
  /**
   * Per term, its entries by document: varint delta of the local document index (the first entry's is
   * the index itself), then the posting payload: field mask, and per field present a varint term
   * frequency and the quantised field length.
   */
  postings: Uint8Array;
  /** Per field: tokens summed over the documents (for average field lengths). */
  lengthSums: number[];
};

export type BranchFile = { path: string; blobId: string };

export type UpsertOptions = {
  /**
   * The documents' index terms computed beforehand (analyseDocuments in analysis.ts, e.g. by the parse
   * workers), covering `docs` in order. An adapter that takes them (`takesDocumentTerms`) uses them
   * instead of tokenising on its own thread when every document is new; others ignore them.
   */
  terms?: readonly DocumentTerms[];
};

export type IndexFilter = {
  orgId: string;
  /** Restrict to these (repoId, branch) pairs; each branch resolves to its file set. */
  targets: { repoId: string; branch: string }[];
  /** Optional path prefix, e.g. "src/". */
  pathPrefix?: string;
};

export type IndexHit = {
  doc: ChunkDocument;
  /** Adapter score, higher is better (BM25 for lexical, cosine similarity for kNN). */
  score: number;
  /** The branch (from the filter targets) through which the doc matched. */
  branch: string;
};

/** A file of a whole-file lexical search (searchFiles), through the first target it is visible through. */
export type FileHit = { repoId: string; branch: string; path: string; score: number };

export type LexicalQuery = {
  text: string;
  limit: number;
  /**
   * Score only the whole words of the text (identifiers as written, lowercased), not their parts: a
   * lookup of names (`feed_data`, not `feed` and `data`). A hint: an adapter may search the text as usual.
   */
  wholeWords?: boolean;
};

/**
 * The code graph of one file (see docs/code-index.md), content-addressed like its chunks: it belongs to
 * (repoId, path, blobId), so every branch holding that blob shares it. Made from the parse the chunker
 * already does (src/indexing/graph/), written with the chunks.
 */
export type GraphDefinitionKind = "function" | "method" | "class" | "interface" | "enum" | "type";

export type GraphParam = {
  /** As written, with its marker for rest/keyword parameters (`*args`, `**kw`, `...rest`, `&self`); `_` for unnamed ones. */
  name: string;
  /** True when the parameter has a default value or is optional (`x=1`, `x?: T`, C++ `int x = 0`). */
  hasDefault: boolean;
};

export type GraphDefinition = {
  name: string;
  kind: GraphDefinitionKind;
  /** The language's word: "struct", "trait", "interface", "typedef", "constructor"... */
  label: string;
  /** Enclosing class, struct, impl, interface or namespace (a Go receiver's type; C++ `A::f` -> "A"), or null. */
  parent: string | null;
  /** 1-based inclusive lines of the definition itself (without leading comments or decorators). */
  startLine: number;
  endLine: number;
  /** Functions and methods: the parameters in order (a receiver such as Python's `self` included as written). Null for others. */
  params: GraphParam[] | null;
  /** Functions and methods: the parameter list as written, whitespace collapsed, e.g. "(self, a, b=1)". */
  paramsText: string | null;
};

export type GraphReference = {
  /** A called name, a member name (`x.foo` -> "foo") or a type name. */
  name: string;
  /** 1-based line. */
  line: number;
  /** True when the name is called (or constructed) on that line. */
  call: boolean;
};

export type GraphImportKind = "import" | "module" | "include" | "system-include";

export type GraphImport = {
  /**
   * The spec as written: Python "pkg.mod" or "..mod" (from-imports carry `names`), JS/TS "./x" (import,
   * export-from, require, dynamic import), Go "example.com/m/pkg", Rust `use` path "crate::a::{b, c}" or
   * `mod` name (kind "module"), Java "com.x.Foo" / "com.x.*" / static "com.x.Foo.bar", C/C++ include path.
   */
  spec: string;
  kind: GraphImportKind;
  /** 1-based line. */
  line: number;
  /** Python `from spec import a, b`: the names imported. */
  names?: string[];
};

/** What the parse of one file yields; the same for every place the blob appears. */
export type FileGraphContent = {
  /** Java package or Go package name, or null. */
  package: string | null;
  /** In file order (start line, then name). */
  definitions: GraphDefinition[];
  /** Sorted by line, then name; one entry per (name, line, call). */
  references: GraphReference[];
  /** In file order. */
  imports: GraphImport[];
};

export type FileGraph = FileGraphContent & {
  orgId: string;
  repoId: string;
  path: string;
  blobId: string;
  language: string;
};

/**
 * A file's graph as written: its place and its canonical encoding (encodeGraph in
 * src/codeindex/graph/codec.ts), made where the file is parsed and stored as it is.
 */
export type FileGraphRecord = { orgId: string; repoId: string; path: string; blobId: string; language: string; graph: string };

/** An import of a file on a branch, with the branch's files it points to (empty when none could be found). */
export type ResolvedImport = GraphImport & { targets: string[] };

/** A file's graph as seen from a branch: its imports resolved against the branch's files. */
export type BranchFileGraph = Omit<FileGraph, "imports"> & { branch: string; imports: ResolvedImport[] };

export type DefinitionHit = { repoId: string; branch: string; path: string; blobId: string; language: string; def: GraphDefinition };

export type ReferenceHit = { repoId: string; branch: string; path: string; blobId: string; line: number; call: boolean };

export type CodeIndex = {
  /** True when upsertChunks uses precomputed `terms` (so producing them is worth it). */
  readonly takesDocumentTerms?: boolean;
  upsertChunks(docs: ChunkDocument[], options?: UpsertOptions): Promise<void>;
  /** Remove every chunk of (repoId, path, blobId). */
  deleteBlob(repoId: string, path: string, blobId: string): Promise<void>;
  /** True when chunks for (repoId, path, blobId) are present. */
  hasBlob(repoId: string, path: string, blobId: string): Promise<boolean>;
  /** Replace the file set of a branch. */
  setBranchFiles(repoId: string, branch: string, files: BranchFile[]): Promise<void>;
  getBranchFiles(repoId: string, branch: string): Promise<BranchFile[]>;
  /** Identifier-aware lexical search (BM25 or equivalent). */
  searchLexical(query: string, filter: IndexFilter, limit: number): Promise<IndexHit[]>;
  /** Several lexical searches over one filter, results in query order (an adapter may share work). */
  searchLexicalMany(queries: LexicalQuery[], filter: IndexFilter): Promise<IndexHit[][]>;
  /**
   * Whole-file lexical ranking: each FILE of the filter's branches scored as one document (its chunks'
   * term frequencies summed, saturated per file, weighted by the terms' rarity among files), best
   * first, at most `query.limit`. Finds the file whose words are spread over several chunks.
   */
  searchFiles(query: LexicalQuery, filter: IndexFilter): Promise<FileHit[]>;
  /** Vector kNN by cosine similarity over documents that carry a vector. */
  searchVector(vector: number[], filter: IndexFilter, limit: number): Promise<IndexHit[]>;
  /** Documents of one file on a branch, in ordinal order. */
  getFileChunks(repoId: string, branch: string, path: string): Promise<ChunkDocument[]>;
  /**
   * Code graph: replaces the graph of each (repoId, path, blobId); idempotent (an unchanged graph
   * is not rewritten). deleteBlob, deleteRepository and truncate remove graphs too.
   */
  upsertGraphs(graphs: FileGraphRecord[]): Promise<void>;
  /** The graph of the file at `path` on a branch, its imports resolved on that branch; null when none. */
  getFileGraph(repoId: string, branch: string, path: string): Promise<BranchFileGraph | null>;
  /**
   * Definitions named exactly `names` (case-sensitive) in the filter's branches (path prefix honoured),
   * ordered by target, path, start line. At most `limit` (default 1000).
   */
  findDefinitions(filter: IndexFilter, names: string[], limit?: number): Promise<DefinitionHit[]>;
  /** Where `name` is used (called, accessed as a member or used as a type), ordered by target, path, line. At most `limit` (default 1000). */
  findReferences(filter: IndexFilter, name: string, limit?: number): Promise<ReferenceHit[]>;
  /** The branch's files that `path` imports (resolved), sorted. */
  importsOf(repoId: string, branch: string, path: string): Promise<string[]>;
  /** The branch's files that import `path`, sorted. */
  importersOf(repoId: string, branch: string, path: string): Promise<string[]>;
  /** Remove everything of a repository (all branches). */
  deleteRepository(repoId: string): Promise<void>;
  /** Drop everything (projection rebuild). */
  truncate(): Promise<void>;
  /**
   * Optional: resolves once every write made so far is durable (an adapter whose writes may be visible
   * before they reach the disk). Callers that record "indexed" events wait for it first.
   */
  flushed?(): Promise<void>;
  close(): Promise<void>;
};
