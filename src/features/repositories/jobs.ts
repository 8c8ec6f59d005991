/**
 * An indexing job: mirror the repository, plan its tree through the file filter, chunk the files in the
 * parse pool ahead of the writes, write the chunks to the code index, and record the job's progress as
 * events through the repository decider; on a failure, record why (the reason never holds a token).
 * A failure the event store refuses to record (a full disk) is tried again, and readers are shown it
 * meanwhile (./ended-jobs.ts): a job no worker is on never reads "processing".
 */
import type { Config } from "../../config.ts";
import type { Logger } from "../../logging.ts";
import type { EventStore } from "../../eventstore/port.ts";
import type { ReadStore } from "../../readstore/port.ts";
import type { ProjectionRunner } from "../../../projections/runner.ts";
import { newEvent, type CommandContext } from "../../eventstore/new-event.ts";
import type { CodeIndex, BranchFile } from "../../codeindex/port.ts";
import type { Embedder } from "../../models/embedder.ts";
import type { Remote } from "../../hosts/index.ts";
import type { ChunkedFile } from "../../indexing/chunk.ts";
import { filesDocuments, filesGraphs } from "../../indexing/documents.ts";
import { CHUNKER_VERSION } from "../../indexing/chunking/chunker.ts";
import type { ParsePool } from "../../indexing/chunking/pool.ts";
import { sourceText } from "../../indexing/chunking/source.ts";
import { detectLanguage } from "../../indexing/chunking/languages.ts";
import { lineFallback } from "../../indexing/chunking/syntax-chunker.ts";
import { classifyFile, FILE_FILTER_VERSION } from "../../indexing/file-filter.ts";
import { inFolders, vendoredFolders } from "../../indexing/vendored-folders.ts";
import { codeIndexRepoId, UNRESOLVED_BRANCH } from "../../indexing/repo-id.ts";
import type { GitMirrors, TreeEntry } from "../../git/mirrors.ts";
import type { BlobReader } from "../../git/blob-reader.ts";
import { runGit } from "../../git/run.ts";
import { failureReason, serverPaths, withoutServerPaths } from "./failure-reason.ts";
import type { EndedJobs } from "./ended-jobs.ts";
import { recordJobFailure } from "./job-failure.ts";
import { pathKey, type RepositoryQueries, type RepositoryRecord } from "./projection.ts";
import { MAX_SKIPPED_RECORDED, MAX_SYMBOLS_PER_FILE } from "./events.ts";
import { repositoryDecider, repositoryStateOf, repositoryStream, type RepositoryCommand } from "./decider.ts";
import { sampleQuestionsFor } from "./sample-questions.ts";

const SYMLINK_MODE = "120000";
/** Source bytes read from git and sent to the pool per step. */
const GROUP_BYTES = 1024 * 1024;
const GROUP_FILES = 200;
/** Source bytes read and chunked ahead of the index writes, and written per transaction (at most). */
const AHEAD_BYTES = 4 * 1024 * 1024;
const WRITE_BYTES = 4 * 1024 * 1024;
const HEAD_BYTES = 8192;
const EMPTY_BLOB = Buffer.alloc(0);

export type Job = {
  orgId: string;
  repoId: string;
  jobId: string;
  phase: "queued" | "cloning" | "processing";
  hostToken?: string | undefined;
  /** Result of the submit-time `ls-remote` (sha), or why it failed. */
  preflight?: { sha: string } | { error: string };
  abort: AbortController;
};

export class JobAborted extends Error {}

/** A job's events, decided by the repository decider from the job's own state and appended in order. */
function createJobLog(eventStore: EventStore, record: RepositoryRecord, ctx: CommandContext) {
  let state = repositoryStateOf(record);
  const stream = repositoryStream(record.orgId, record.repoId);
  return {
    async record(command: RepositoryCommand): Promise<number> {
      const events = repositoryDecider.decide(command, state);
      const result = await eventStore.appendToStream(stream, events.map((e) => newEvent(e.type, e.data, ctx)));
      state = events.reduce(repositoryDecider.evolve, state);
      return result.lastPosition;
    },
  };
}

type JobLog = ReturnType<typeof createJobLog>;

export type IndexerStats = {
  filesParsed: number;
  filesReused: number;
  bytesParsed: number;
  jobsRun: number;
  /** Milliseconds the job loop waited for reading + chunking, and spent writing the code index. */
  chunkWaitMs: number;
  indexWriteMs: number;
  /** For src/metrics.ts (OperationalStats). */
  queueDepth?: number;
  inFlight?: number;
  workers?: { utilisation?: number };
};

export type JobRunnerDeps = {
  config: Config;
  logger: Logger;
  eventStore: EventStore;
  readStore: ReadStore;
  runner: ProjectionRunner;
  codeIndex: CodeIndex;
  mirrors: GitMirrors;
  embedder: Embedder | null;
  metrics?: { recordIndexedBytes(bytes: number): void } | undefined;
  queries: RepositoryQueries;
  /** Where a job that failed is shown failed until the read model shows it (./ended-jobs.ts). */
  ended: EndedJobs;
  counters: IndexerStats;
  getPool(): ParsePool;
  cloneUrlOf(remote: Remote, repository: string): string;
  authEnvOf(remote: Remote, token?: string): Record<string, string> | undefined;
  isClosed(): boolean;
  /** Files per RepositoryFilesIndexed event and the longest wait between two. */
  batchFilesCount: number;
  batchMs: number;
};

export function createJobRunner(deps: JobRunnerDeps) {
  const { config, logger, eventStore, readStore, runner, codeIndex, mirrors, embedder, queries, counters, getPool, cloneUrlOf, authEnvOf, batchFilesCount, batchMs } = deps;
  const system = (orgId: string, correlationId: string): CommandContext => ({ orgId, actor: "system:indexer", correlationId, causationId: null });

  async function runJob(job: Job): Promise<void> {
    const record = queries.get(job.orgId, job.repoId);
    if (!record || record.jobId !== job.jobId) return;
    const ctx = system(job.orgId, job.jobId);
    const log = createJobLog(eventStore, record, ctx);
    const remote = record.remote as Remote;
    const checkAbort = () => {
      if (job.abort.signal.aborted) throw new JobAborted();
    };
    try {
      if (job.preflight && "error" in job.preflight) throw new Error(job.preflight.error);
      job.phase = "cloning";
      const cloneUrl = cloneUrlOf(remote, record.repository);
      const authEnv = authEnvOf(remote, job.hostToken);
      const resumeSha = record.status === "processing" ? record.headSha : null;
      const hostSha = job.preflight && "sha" in job.preflight ? job.preflight.sha : null;
      const name = record.branch === UNRESOLVED_BRANCH ? undefined : record.branch;
      const existed = mirrors.exists(remote, record.repository);
      const { dir } = await mirrors.ensure(remote, record.repository, cloneUrl, { authEnv, fetch: false });
      // A resumed job needs only its commit. A new one needs the branch as the host has it now: the
      // mirror's branch must point at the commit the host reported, not merely hold it (a branch reset
      // or force-pushed to an older commit would otherwise be indexed at the mirror's stale head).
      // A mirror just cloned is not checked (it is not fetched again either way).
      /** The mirror's branch as resolved before any fetch, kept while no fetch has moved it. */
      let resolved: { branch: string; sha: string } | null = null;
      if (existed) {
        let current: boolean;
        if (resumeSha) current = await hasCommit(dir, resumeSha);
        else {
          resolved = hostSha === null ? null : await mirrors.resolveBranch(dir, name).catch(() => null);
          current = resolved !== null && resolved.sha === hostSha;
        }
        if (!current) {
          resolved = null;
          await mirrors.ensure(remote, record.repository, cloneUrl, { authEnv, fetch: true });
        }
      }
      checkAbort();
      let branch: string;
      let sha: string;
      if (resumeSha) {
        branch = record.branch;
        sha = resumeSha;
      } else {
        ({ branch, sha } = resolved ?? (await mirrors.resolveBranch(dir, name)));
      }
      job.phase = "processing";
      const blobs = mirrors.openBlobReader(dir);
      try {
        await indexCommit(job, record, blobs, branch, sha, log, checkAbort);
      } finally {
        blobs.close();
      }
    } catch (error) {
      if (error instanceof JobAborted || deps.isClosed()) return; // resumed on the next start
      const reason = failureReason(error, job.hostToken);
      logger.warn({ orgId: job.orgId, repoId: job.repoId, reason }, "indexing failed");
      const shown = withoutServerPaths(reason, record.repository, serverPlaces(remote, record.repository));
      deps.ended.failed({ orgId: job.orgId, repoId: job.repoId, jobId: job.jobId, reason: shown });
      const failure = { branch: record.branch, reason: shown };
      await recordJobFailure(() => log.record({ type: "FailIndexing", jobId: job.jobId, failure }), {
        logger: logger.child({ orgId: job.orgId, repoId: job.repoId }),
        signal: job.abort.signal,
        isClosed: deps.isClosed,
      });
    }
  }

  /** Where a failure reason may name the server's disk (see withoutServerPaths). */
  function serverPlaces(remote: Remote, repository: string) {
    return { cloneUrl: cloneUrlOf(remote, repository), paths: serverPaths(config, mirrors.rootDir) };
  }

  async function hasCommit(dir: string, sha: string): Promise<boolean> {
    try {
      await runGit(["cat-file", "-e", `${sha}^{commit}`], { cwd: dir });
      return true;
    } catch {
      return false;
    }
  }

  type Planned = { entry: TreeEntry; language: string };

  async function indexCommit(
    job: Job,
    record: RepositoryRecord,
    blobs: BlobReader,
    branch: string,
    sha: string,
    log: JobLog,
    checkAbort: () => void,
  ) {
    const { orgId, repoId, jobId } = job;
    const indexRepo = codeIndexRepoId(orgId, record.remote, record.repository);
    const view = () => readStore.view("repositories");
    // Made by this chunker version (read model) and present in the index (files with no chunks, e.g.
    // empty ones, have nothing in the index to find).
    const reusable = async (path: string, blobId: string) => {
      const made = view().get<[string, number]>(["blobver", orgId, indexRepo, pathKey(path), blobId]);
      return made?.[0] === CHUNKER_VERSION && (made[1] === 0 || (await codeIndex.hasBlob(indexRepo, path, blobId)));
    };

    // Files this job recorded before a restart (none for a new job: submitting clears them).
    const done = queries.jobFiles(orgId, repoId);
    const current = queries.get(orgId, repoId);
    const resuming = current?.status === "processing" && current.jobId === jobId && current.headSha === sha;

    // Chunking runs ahead of the index writes (up to AHEAD_BYTES of source). The writer takes every
    // group that is ready, in order, into one transaction (up to WRITE_BYTES): when it falls behind, its
    // transactions grow, so each term's last posting block is rewritten once for several groups and
    // fewer commits wait for the disk; when it keeps up, groups are written as they come.
    const chunkOptions = { terms: codeIndex.takesDocumentTerms === true };
    const prepare = async (group: Planned[], read?: Map<string, Buffer>) => {
      const contents = read ?? (await blobs.read(group.map((p) => p.entry.blobId)));
      // The workers get the bytes and decode them: the source text never becomes a string here.
      const sources = group.map((p) => ({ path: p.entry.path, content: contents.get(p.entry.blobId) ?? EMPTY_BLOB }));
      let chunked: ChunkedFile[];
      try {
        chunked = await getPool().chunkFiles(sources, chunkOptions);
      } catch {
        chunked = await Promise.all(sources.map(async (s) => {
          try {
            return (await getPool().chunkFiles([s], chunkOptions))[0]!;
          } catch (error) {
            const language = detectLanguage(s.path) ?? { id: "text", name: "Text", chunking: "text" as const };
            return lineFallback(s.path, sourceText(s.content), language, error instanceof Error ? error.message.slice(0, 200) : "parse failed");
          }
        }));
      }
      return { group, sourceBytes: sources.map((s) => s.content.length), chunked };
    };
    type Ahead = { bytes: number; prepared: ReturnType<typeof prepare>; ready: boolean };
    const ahead: Ahead[] = [];
    let aheadBytes = 0;
    const startChunking = (group: Planned[], read?: Map<string, Buffer>) => {
      const item: Ahead = { bytes: group.reduce((n, p) => n + p.entry.size, 0), prepared: prepare(group, read), ready: false };
      item.prepared.then(() => (item.ready = true), () => (item.ready = true));
      ahead.push(item);
      aheadBytes += item.bytes;
    };

    // 1. Plan: the file filter over the tree, by path, then by content for the files not reused.
    // Deterministic per (path, blob), so a resumed job plans the same. The first files to chunk go to
    // the pool with the contents read for the filter, so chunking starts while the plan completes;
    // the others are read again when their turn comes (holding them all would cost the whole repository).
    const tree = await mirrors.listTree(blobs.dir, sha);
    const skipped: { path: string; reason: string }[] = [];
    const planned: Planned[] = [];
    const reused: Planned[] = [];
    const needHead: TreeEntry[] = [];
    const vendored = vendoredFolders(tree);
    for (const entry of tree) {
      if (entry.mode === SYMLINK_MODE || inFolders(entry.path, vendored)) {
        skipped.push({ path: entry.path, reason: entry.mode === SYMLINK_MODE ? "symlink" : "vendored" });
        continue;
      }
      const byPath = classifyFile({ path: entry.path, size: entry.size, head: new Uint8Array(0) }, { maxFileBytes: config.maxFileBytes });
      if (!byPath.index) skipped.push({ path: entry.path, reason: byPath.reason });
      else if (await reusable(entry.path, entry.blobId)) {
        const item = { entry, language: byPath.language };
        planned.push(item);
        if (done.get(entry.path) !== entry.blobId) reused.push(item);
      } else needHead.push(entry);
    }
    const later: Planned[] = [];
    for (const group of groups(needHead)) {
      checkAbort();
      const contents = await blobs.read(group.map((e) => e.blobId));
      const now: Planned[] = [];
      let nowBytes = 0;
      for (const entry of group) {
        const content = contents.get(entry.blobId) ?? EMPTY_BLOB;
        const verdict = classifyFile({ path: entry.path, size: entry.size, head: content.subarray(0, HEAD_BYTES) }, { maxFileBytes: config.maxFileBytes });
        if (!verdict.index) {
          skipped.push({ path: entry.path, reason: verdict.reason });
          continue;
        }
        const item = { entry, language: verdict.language };
        planned.push(item);
        if (done.get(entry.path) === entry.blobId) continue; // recorded before a restart
        if (later.length === 0 && aheadBytes + nowBytes < AHEAD_BYTES) {
          now.push(item);
          nowBytes += entry.size;
        } else later.push(item);
      }
      if (now.length > 0) startChunking(now, contents);
    }
    planned.sort((a, b) => (a.entry.path < b.entry.path ? -1 : a.entry.path > b.entry.path ? 1 : 0));
    skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

    if (!resuming) {
      const position = await log.record({
        type: "StartIndexing",
        jobId,
        started: { branch, sha, numFiles: planned.length, skipped: skipped.slice(0, MAX_SKIPPED_RECORDED), skippedCount: skipped.length, chunkerVersion: CHUNKER_VERSION, fileFilterVersion: FILE_FILTER_VERSION },
      });
      await runner.waitForPosition(position, 30_000);
    }

    // 2. Process: reuse, or chunk + upsert; record batches as files finish.
    type Recorded = { path: string; blobId: string; language: string; symbols: { name: string; kind: string; label?: string; startLine: number; endLine: number }[]; chunks: number; reused: boolean; parseError?: string };
    let pendingRecords: Recorded[] = [];
    let lastFlush = Date.now();
    let lastPosition = 0;
    const flush = async (force = false) => {
      if (pendingRecords.length === 0) return;
      if (!force && pendingRecords.length < batchFilesCount && Date.now() - lastFlush < batchMs) return;
      const files = pendingRecords;
      pendingRecords = [];
      lastFlush = Date.now();
      await codeIndex.flushed?.(); // the files' chunks are on disk before an event says they are indexed
      lastPosition = await log.record({ type: "RecordIndexedFiles", jobId, batch: { branch, sha, files } });
    };
    for (const { entry, language } of reused) {
      counters.filesReused++;
      pendingRecords.push({ path: entry.path, blobId: entry.blobId, language, symbols: [], chunks: 0, reused: true });
      await flush();
    }

    const work = groupsOf(later);
    let next = 0;
    const fill = () => {
      while (next < work.length && (ahead.length === 0 || aheadBytes < AHEAD_BYTES)) startChunking(work[next++]!);
    };
    fill();
    while (ahead.length > 0) {
      checkAbort();
      const waitStart = performance.now();
      const batch = [await ahead[0]!.prepared];
      counters.chunkWaitMs += performance.now() - waitStart;
      let batchBytes = ahead.shift()!.bytes;
      while (ahead.length > 0 && ahead[0]!.ready && batchBytes < WRITE_BYTES) {
        batch.push(await ahead[0]!.prepared);
        batchBytes += ahead.shift()!.bytes;
      }
      aheadBytes -= batchBytes;
      fill();
      const files = batch.flatMap(({ group, sourceBytes, chunked }) => group.map(({ entry, language }, i) => {
        const file = chunked[i]!;
        counters.bytesParsed += sourceBytes[i]!;
        deps.metrics?.recordIndexedBytes(entry.size);
        return { entry, file, language: file.language || language };
      }));
      const placed = files.map(({ entry, file, language }) => ({ file, at: { orgId, repoId: indexRepo, path: entry.path, blobId: entry.blobId, language } }));
      const { docs, terms } = filesDocuments(placed);
      if (embedder && docs.length > 0) {
        const vectors = await embedder.embed(docs.map((d) => `${d.path}\n${d.summary}\n${d.text}`.slice(0, 8000)), { signal: job.abort.signal });
        docs.forEach((d, i) => (d.vector = vectors[i]));
      }
      const writeStart = performance.now();
      // Chunks of an older chunker version (or a half-written blob) are replaced, not mixed.
      for (const { entry } of files) {
        if (await codeIndex.hasBlob(indexRepo, entry.path, entry.blobId)) await codeIndex.deleteBlob(indexRepo, entry.path, entry.blobId);
      }
      // Started in the same turn: the embedded index commits both in one transaction.
      await Promise.all([codeIndex.upsertChunks(docs, terms ? { terms } : {}), codeIndex.upsertGraphs(filesGraphs(placed))]);
      counters.indexWriteMs += performance.now() - writeStart;
      for (const { entry, file, language } of files) {
        counters.filesParsed++;
        pendingRecords.push({
          path: entry.path,
          blobId: entry.blobId,
          language,
          symbols: file.symbols.slice(0, MAX_SYMBOLS_PER_FILE).map((s) => ({ name: s.name.slice(0, 200), kind: s.kind, ...(s.label ? { label: s.label.slice(0, 60) } : {}), startLine: s.startLine, endLine: s.endLine })),
          chunks: file.chunks.length,
          reused: false,
          ...(file.parseError ? { parseError: file.parseError.slice(0, 300) } : {}),
        });
      }
      await flush();
      // Let HTTP requests (status polls, searches) in between two write batches.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    await flush(true);
    checkAbort();

    // 3. Publish the branch's file set, then complete.
    const files: BranchFile[] = planned.map((p) => ({ path: p.entry.path, blobId: p.entry.blobId }));
    await codeIndex.setBranchFiles(indexRepo, branch, files);
    await codeIndex.flushed?.(); // the branch's file set is on disk before the job is recorded as completed
    if (lastPosition) await runner.waitForPosition(lastPosition, 30_000);
    const after = queries.get(orgId, repoId);
    const sampleQuestions = sampleQuestionsFor(queries.candidates(orgId, indexRepo), new Map(files.map((f) => [f.path, f.blobId])));
    const completedAt = await log.record({
      type: "CompleteIndexing",
      jobId,
      completed: { branch, sha, filesProcessed: after?.filesProcessed ?? planned.length, numFiles: planned.length, sampleQuestions },
    });
    // The job ends once readers see it completed (Indexer.idle() means that), unless its read model lags.
    await runner.waitForPosition(completedAt, 30_000);
    counters.jobsRun++;
    logger.info({ orgId, repoId, sha, numFiles: planned.length, skipped: skipped.length }, "repository indexed");
  }

  return { runJob };
}

function groups(entries: TreeEntry[]): TreeEntry[][] {
  const out: TreeEntry[][] = [];
  let current: TreeEntry[] = [];
  let bytes = 0;
  for (const e of entries) {
    if (current.length > 0 && (bytes + e.size > GROUP_BYTES || current.length >= GROUP_FILES)) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(e);
    bytes += e.size;
  }
  if (current.length) out.push(current);
  return out;
}

function groupsOf<T extends { entry: TreeEntry }>(items: T[]): T[][] {
  const byEntry = groups(items.map((i) => i.entry));
  let at = 0;
  return byEntry.map((g) => {
    const slice = items.slice(at, at + g.length);
    at += g.length;
    return slice;
  });
}
