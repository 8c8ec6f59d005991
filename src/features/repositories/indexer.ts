/**
 * Repository indexing service: submit -> (background job) mirror -> tree -> file filter -> chunk
 * (Piscina pool) -> code index, recorded as events (src/features/repositories/events.ts).
 *
 * - Jobs run through an in-process queue with bounded concurrency. Status: submitted -> cloning ->
 *   processing -> completed | failed (`cloning` is the live phase of a running job; the read model
 *   holds the rest).
 * - Content-addressed reuse: a file whose (path, blobId) is already in the code index, made by the
 *   current CHUNKER_VERSION, is not read, parsed or embedded again.
 * - Crash recovery: start() resumes every job submitted or started but not finished; files the job
 *   already recorded are skipped, files already in the index are reused.
 * - Host tokens live only in memory for the job (never in events, read models, logs or git config).
 * - The code index is rebuildable from the log and the mirrors: rebuildCodeIndex() re-chunks the blobs
 *   named by RepositoryFilesIndexed events that are missing from the index and restores the branches'
 *   file sets (see docs/indexing.md).
 */
import path from "node:path";
import { ulid } from "../../ids.ts";
import type { Config } from "../../config.ts";
import type { Logger } from "../../logging.ts";
import type { EventStore, StoredEvent } from "../../eventstore/port.ts";
import type { ReadStore } from "../../readstore/port.ts";
import type { ProjectionRunner } from "../../../projections/runner.ts";
import { newEvent, type CommandContext } from "../../eventstore/new-event.ts";
import type { CodeIndex, BranchFile } from "../../codeindex/port.ts";
import type { Embedder } from "../../models/embedder.ts";
import type { Hosts, Remote } from "../../hosts/index.ts";
import type { ChunkedFile } from "../../indexing/chunk.ts";
import { filesDocuments } from "../../indexing/documents.ts";
import { CHUNKER_VERSION } from "../../indexing/chunking/chunker.ts";
import { createParsePool, type ParsePool } from "../../indexing/chunking/pool.ts";
import { sourceText } from "../../indexing/chunking/source.ts";
import { detectLanguage } from "../../indexing/chunking/languages.ts";
import { lineFallback } from "../../indexing/chunking/syntax-chunker.ts";
import { classifyFile } from "../../indexing/file-filter.ts";
import { codeIndexRepoId, repositoryId } from "../../indexing/repo-id.ts";
import type { GitMirrors, TreeEntry } from "../../git/mirrors.ts";
import type { BlobReader } from "../../git/blob-reader.ts";
import { GitRefNotFoundError } from "../../git/mirrors.ts";
import { GitNameError, validateBranchName, validateRepositoryName } from "../../git/names.ts";
import { GitError, redact, runGit } from "../../git/run.ts";
import { pathKey, repositoryQueries, type RepositoryRecord, type SampleCandidate } from "./projection.ts";
import { MAX_SKIPPED_RECORDED, MAX_SYMBOLS_PER_FILE } from "./events.ts";

export type SubmitInput = {
  orgId: string;
  remote: Remote;
  repository: string;
  branch?: string | undefined;
  reload?: boolean;
  notify?: boolean;
  /** Lives in memory for the job only. */
  hostToken?: string | undefined;
};

export type SubmitResult = {
  repoId: string;
  message: "Indexing started" | "Re-indexing started" | "Repository is up to date";
  /** True when a job was started (HTTP 202), false when nothing was to do (200). */
  started: boolean;
};

export type RepositoryView = RepositoryRecord;

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

export type Indexer = {
  submit(input: SubmitInput, ctx: CommandContext): Promise<SubmitResult>;
  /** The status record (with the live phase of a running job), or undefined (unknown / other org). */
  get(orgId: string, repoId: string): RepositoryView | undefined;
  list(orgId: string): RepositoryView[];
  /** Resumes unfinished jobs (call once after the projections caught up). */
  start(): Promise<void>;
  /** Resolves when no job is queued or running (tests, scripts). */
  idle(): Promise<void>;
  stats(): IndexerStats;
  close(): Promise<void>;
};

export type IndexerDeps = {
  config: Config;
  logger: Logger;
  eventStore: EventStore;
  readStore: ReadStore;
  runner: ProjectionRunner;
  codeIndex: CodeIndex;
  mirrors: GitMirrors;
  hosts: Hosts;
  embedder?: Embedder | null;
  metrics?: { recordIndexedBytes(bytes: number): void };
  /** Clone URL override for (remote, repository), e.g. local repositories (src/features/repositories/local.ts); undefined = the host's. */
  cloneUrlFor?: (remote: Remote, repository: string) => string | undefined;
  /** Jobs running at once (default 2). */
  concurrency?: number;
  /** Files per RepositoryFilesIndexed event (default 200) and the longest wait between two (1 s). */
  batchFiles?: number;
  batchMs?: number;
};

const repoStream = (orgId: string, repoId: string) => `repository-${orgId}-${repoId}`;
const SYMLINK_MODE = "120000";
/** Source bytes read from git and sent to the pool per step. */
const GROUP_BYTES = 1024 * 1024;
const GROUP_FILES = 200;
/** Source bytes read and chunked ahead of the index writes, and written per transaction (at most). */
const AHEAD_BYTES = 4 * 1024 * 1024;
const WRITE_BYTES = 4 * 1024 * 1024;
const PREFLIGHT_TIMEOUT_MS = 20_000;
const HEAD_BYTES = 8192;
const EMPTY_BLOB = Buffer.alloc(0);

type Job = {
  orgId: string;
  repoId: string;
  jobId: string;
  phase: "queued" | "cloning" | "processing";
  hostToken?: string | undefined;
  /** Result of the submit-time `ls-remote` (sha), or why it failed. */
  preflight?: { sha: string } | { error: string };
  abort: AbortController;
};

class JobAborted extends Error {}

/** A reason for the client: git errors are already redacted; anything else is summarised. */
function failureReason(error: unknown, token?: string): string {
  let text: string;
  if (error instanceof GitRefNotFoundError) text = `Branch not found: ${error.ref}`;
  else if (error instanceof GitNameError) text = error.message;
  else if (error instanceof GitError) {
    const stderr = error.stderr.toLowerCase();
    if (/could not resolve host|connection refused|timed out|unable to access|could not read from remote|network is unreachable|does not appear to be a git repository|not found/.test(stderr) || error.timedOut) {
      text = `Could not reach the repository on the host (${error.stderr.split("\n").filter(Boolean).slice(-1)[0] ?? error.message})`;
    } else text = error.message;
  } else text = error instanceof Error ? error.message : String(error);
  return redact(text, token ? [token] : []).slice(0, 1900);
}

export function createIndexer(deps: IndexerDeps): Indexer {
  const { config, logger, eventStore, readStore, runner, codeIndex, mirrors, hosts } = deps;
  const embedder = deps.embedder ?? null;
  const concurrency = deps.concurrency ?? 2;
  const batchFilesCount = deps.batchFiles ?? 200;
  const batchMs = deps.batchMs ?? 1000;
  const queries = repositoryQueries(() => readStore.view("repositories"), () => readStore.version("repositories"));
  const jobs = new Map<string, Job>();
  const queue: Job[] = [];
  let running = 0;
  let closed = false;
  let pool: ParsePool | null = null;
  const idleWaiters = new Set<() => void>();
  const counters: IndexerStats = { filesParsed: 0, filesReused: 0, bytesParsed: 0, jobsRun: 0, chunkWaitMs: 0, indexWriteMs: 0 };

  const jobKey = (orgId: string, repoId: string) => `${orgId}\u0000${repoId}`;
  const getPool = () => (pool ??= createParsePool({ ...(config.workers ? { threads: config.workers } : {}), bundleDir: path.join(config.dataDir, "cache") }));
  const system = (orgId: string, correlationId: string): CommandContext => ({ orgId, actor: "system:indexer", correlationId, causationId: null });

  const append = async (orgId: string, repoId: string, type: string, data: Record<string, unknown>, ctx: CommandContext) => {
    const result = await eventStore.appendToStream(repoStream(orgId, repoId), [newEvent(type, data, ctx)]);
    return result.lastPosition;
  };

  const cloneUrlOf = (remote: Remote, repository: string) =>
    deps.cloneUrlFor?.(remote, repository) ?? hosts.get(remote).cloneUrl(config.hostUrls[remote], repository);
  const authEnvOf = (remote: Remote, token?: string) => (token ? hosts.get(remote).gitAuthEnv(token) : undefined);

  const notifyIdle = () => {
    if (running === 0 && queue.length === 0) for (const w of [...idleWaiters]) w();
  };

  const pump = () => {
    while (!closed && running < concurrency && queue.length > 0) {
      const job = queue.shift()!;
      running++;
      runJob(job)
        .catch((error) => logger.error({ repoId: job.repoId, err: { message: redact(String((error as Error)?.message ?? error)) } }, "indexing job crashed"))
        .finally(() => {
          running--;
          jobs.delete(jobKey(job.orgId, job.repoId));
          pump();
          notifyIdle();
        });
    }
  };

  const enqueue = (job: Job) => {
    jobs.set(jobKey(job.orgId, job.repoId), job);
    queue.push(job);
    pump();
  };

  // --------------------------------------------------------------------------------------------
  // The job

  async function runJob(job: Job): Promise<void> {
    const record = queries.get(job.orgId, job.repoId);
    if (!record || record.jobId !== job.jobId) return;
    const ctx = system(job.orgId, job.jobId);
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
      const wantedSha = resumeSha ?? (job.preflight && "sha" in job.preflight ? job.preflight.sha : null);
      const existed = mirrors.exists(remote, record.repository);
      let { dir } = await mirrors.ensure(remote, record.repository, cloneUrl, { authEnv, fetch: false });
      if (existed && !(wantedSha && (await hasCommit(dir, wantedSha)))) {
        dir = (await mirrors.ensure(remote, record.repository, cloneUrl, { authEnv, fetch: true })).dir;
      }
      checkAbort();
      let branch: string;
      let sha: string;
      if (resumeSha) {
        branch = record.branch;
        sha = resumeSha;
      } else {
        const resolved = await mirrors.resolveBranch(dir, record.branch === "HEAD" ? undefined : record.branch);
        branch = resolved.branch;
        sha = resolved.sha;
      }
      job.phase = "processing";
      const blobs = mirrors.openBlobReader(dir);
      try {
        await indexCommit(job, record, blobs, branch, sha, ctx, checkAbort);
      } finally {
        blobs.close();
      }
    } catch (error) {
      if (error instanceof JobAborted || closed) return; // resumed on the next start
      const reason = failureReason(error, job.hostToken);
      logger.warn({ orgId: job.orgId, repoId: job.repoId, reason }, "indexing failed");
      await append(job.orgId, job.repoId, "RepositoryIndexingFailed", { repoId: job.repoId, orgId: job.orgId, jobId: job.jobId, branch: record.branch, reason }, ctx);
    }
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
    ctx: CommandContext,
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
    for (const entry of tree) {
      if (entry.mode === SYMLINK_MODE) {
        skipped.push({ path: entry.path, reason: "symlink" });
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
      const position = await append(orgId, repoId, "RepositoryIndexingStarted", {
        repoId,
        orgId,
        jobId,
        branch,
        sha,
        numFiles: planned.length,
        skipped: skipped.slice(0, MAX_SKIPPED_RECORDED),
        skippedCount: skipped.length,
        chunkerVersion: CHUNKER_VERSION,
      }, ctx);
      await runner.waitForPosition(position, 30_000);
    }

    // 2. Process: reuse, or chunk + upsert; record batches as files finish.
    type Recorded = { path: string; blobId: string; language: string; symbols: { name: string; kind: string; startLine: number; endLine: number }[]; chunks: number; reused: boolean; parseError?: string };
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
      lastPosition = await append(orgId, repoId, "RepositoryFilesIndexed", { repoId, orgId, jobId, branch, sha, files }, ctx);
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
      const { docs, terms } = filesDocuments(files.map(({ entry, file, language }) => ({ file, at: { orgId, repoId: indexRepo, path: entry.path, blobId: entry.blobId, language } })));
      if (embedder && docs.length > 0) {
        const vectors = await embedder.embed(docs.map((d) => `${d.path}\n${d.summary}\n${d.text}`.slice(0, 8000)), { signal: job.abort.signal });
        docs.forEach((d, i) => (d.vector = vectors[i]));
      }
      const writeStart = performance.now();
      // Chunks of an older chunker version (or a half-written blob) are replaced, not mixed.
      for (const { entry } of files) {
        if (await codeIndex.hasBlob(indexRepo, entry.path, entry.blobId)) await codeIndex.deleteBlob(indexRepo, entry.path, entry.blobId);
      }
      await codeIndex.upsertChunks(docs, terms ? { terms } : {});
      counters.indexWriteMs += performance.now() - writeStart;
      for (const { entry, file, language } of files) {
        counters.filesParsed++;
        pendingRecords.push({
          path: entry.path,
          blobId: entry.blobId,
          language,
          symbols: file.symbols.slice(0, MAX_SYMBOLS_PER_FILE).map((s) => ({ name: s.name.slice(0, 200), kind: s.kind, startLine: s.startLine, endLine: s.endLine })),
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
    await append(orgId, repoId, "RepositoryIndexingCompleted", {
      repoId,
      orgId,
      jobId,
      branch,
      sha,
      filesProcessed: after?.filesProcessed ?? planned.length,
      numFiles: planned.length,
      sampleQuestions,
    }, ctx);
    counters.jobsRun++;
    logger.info({ orgId, repoId, sha, numFiles: planned.length, skipped: skipped.length }, "repository indexed");
  }

  // --------------------------------------------------------------------------------------------

  return {
    async submit(input, ctx) {
      if (closed) throw new Error("the indexer is closed");
      const repository = validateRepositoryName(input.remote, input.repository);
      if (input.branch !== undefined) validateBranchName(input.branch);
      const cloneUrl = cloneUrlOf(input.remote, repository);
      const authEnv = authEnvOf(input.remote, input.hostToken);

      // Preflight (ls-remote with the caller's token): the default branch, the current sha, and
      // proof that this token can read the repository (mirrors are shared between organisations).
      let preflight: Job["preflight"];
      let branch = input.branch;
      try {
        const head = await mirrors.remoteHead(cloneUrl, input.branch, { authEnv, timeoutMs: PREFLIGHT_TIMEOUT_MS });
        if (!head) preflight = { error: input.branch ? `Branch not found: ${input.branch}` : "The repository has no default branch (empty repository?)" };
        else {
          preflight = { sha: head.sha };
          branch = head.branch;
        }
      } catch (error) {
        preflight = { error: failureReason(error, input.hostToken) };
      }
      const resolvedBranch = branch ?? "HEAD";
      const repoId = repositoryId(input.remote, resolvedBranch, repository);
      const existing = queries.get(input.orgId, repoId);
      const active = jobs.get(jobKey(input.orgId, repoId));

      if (active) return { repoId, message: existing?.sha ? "Re-indexing started" : "Indexing started", started: true };
      if (existing?.status === "completed" && !input.reload && preflight && "sha" in preflight && preflight.sha === existing.sha) {
        return { repoId, message: "Repository is up to date", started: false };
      }
      const jobId = ulid();
      const position = await append(input.orgId, repoId, "RepositorySubmitted", {
        repoId,
        orgId: input.orgId,
        jobId,
        remote: input.remote,
        repository,
        branch: input.branch ?? null,
        resolvedBranch,
        reload: input.reload ?? false,
        notify: input.notify ?? false,
        withToken: Boolean(input.hostToken),
      }, ctx);
      await runner.waitForPosition(position, 30_000);
      enqueue({ orgId: input.orgId, repoId, jobId, phase: "queued", hostToken: input.hostToken, preflight, abort: new AbortController() });
      return { repoId, message: existing ? "Re-indexing started" : "Indexing started", started: true };
    },

    get(orgId, repoId) {
      const record = queries.get(orgId, repoId);
      if (!record) return undefined;
      const job = jobs.get(jobKey(orgId, repoId));
      if (job && job.jobId === record.jobId && job.phase === "cloning" && record.status === "submitted") return { ...record, status: "cloning" };
      return record;
    },

    list: (orgId) => queries.list(orgId),

    async start() {
      for (const record of queries.unfinished()) {
        if (jobs.has(jobKey(record.orgId, record.repoId))) continue;
        logger.info({ orgId: record.orgId, repoId: record.repoId, status: record.status }, "resuming indexing job");
        enqueue({ orgId: record.orgId, repoId: record.repoId, jobId: record.jobId, phase: "queued", abort: new AbortController() });
      }
    },

    idle() {
      if (running === 0 && queue.length === 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const w = () => {
          idleWaiters.delete(w);
          resolve();
        };
        idleWaiters.add(w);
      });
    },

    stats: () => ({ ...counters, queueDepth: queue.length, inFlight: running, ...(pool ? { workers: { utilisation: pool.utilization() } } : {}) }),

    async close() {
      closed = true;
      queue.splice(0);
      for (const job of jobs.values()) job.abort.abort();
      if (running > 0) {
        await new Promise<void>((resolve) => {
          const w = () => {
            idleWaiters.delete(w);
            resolve();
          };
          idleWaiters.add(w);
          notifyIdle();
        });
      }
      await pool?.destroy();
      pool = null;
    },
  };
}

// ----------------------------------------------------------------------------------------------

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

const TEST_PATH = /(^|\/)(tests?|__tests__|spec|testing|examples?|fixtures?|benchmarks?)(\/|$)|(_test|\.test|\.spec|_spec)\.\w+$|(^|\/)test_[^/]*$/i;
const KIND_WORD: Record<string, string> = { class: "class", interface: "interface", type: "type", enum: "enum" };

/** A few real questions drawn from the prominent definitions of the indexed files. */
export function sampleQuestionsFor(candidates: SampleCandidate[], files: Map<string, string>, max = 5): string[] {
  const scored: { name: string; kind: string; path: string; score: number }[] = [];
  for (const c of candidates) {
    if (files.get(c.path) !== c.blobId) continue;
    const depthPenalty = c.path.split("/").length * 0.1;
    const testPenalty = TEST_PATH.test(c.path) ? 5 : 0;
    for (const s of c.symbols) {
      const kindWeight = s.kind in KIND_WORD ? 1.5 : s.kind === "function" ? 1.2 : 1;
      scored.push({ name: s.name, kind: s.kind, path: c.path, score: Math.log2(1 + s.lines) * kindWeight - depthPenalty - testPenalty });
    }
  }
  scored.sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : 1));
  const seen = new Set<string>();
  const seenPaths = new Set<string>();
  const questions: string[] = [];
  for (const s of scored) {
    if (questions.length >= max) break;
    if (seen.has(s.name) || seenPaths.has(s.path)) continue;
    seen.add(s.name);
    seenPaths.add(s.path);
    const word = KIND_WORD[s.kind];
    if (word) questions.push(`How does the \`${s.name}\` ${word} work?`);
    else if (questions.length % 2 === 0) questions.push(`Where is \`${s.name}\` implemented?`);
    else questions.push(`What does \`${s.name}\` in \`${s.path}\` do?`);
  }
  return questions;
}

// ----------------------------------------------------------------------------------------------
// Rebuilding the code index from the log and the mirrors

export type RebuildReport = { blobsChecked: number; blobsRechunked: number; branchesRestored: number; missingMirrors: string[] };

/**
 * Idempotent: for every RepositoryFilesIndexed event, re-chunks from the mirror the blobs missing from
 * the code index, then restores each completed job's branch file set. Run with the service stopped
 * (the embedded index has one writer): `npx tsx scripts/rebuild-code-index.ts`.
 */
export async function rebuildCodeIndex(deps: {
  eventStore: EventStore;
  codeIndex: CodeIndex;
  mirrors: GitMirrors;
  pool?: ParsePool;
  embedder?: Embedder | null;
  logger?: Logger;
}): Promise<RebuildReport> {
  const { eventStore, codeIndex, mirrors } = deps;
  const pool = deps.pool ?? createParsePool();
  const report: RebuildReport = { blobsChecked: 0, blobsRechunked: 0, branchesRestored: 0, missingMirrors: [] };
  type JobFiles = { orgId: string; remote: string; repository: string; files: Map<string, string> };
  const jobRepos = new Map<string, { remote: string; repository: string }>();
  const jobFiles = new Map<string, JobFiles>();
  const branchSets: { indexRepo: string; branch: string; files: BranchFile[] }[] = [];
  try {
    let from = 0;
    for (;;) {
      const events: StoredEvent[] = await eventStore.readAll({ fromPosition: from, maxCount: 1000 });
      if (events.length === 0) break;
      from = events[events.length - 1]!.position;
      for (const event of events) {
        const d = event.data as Record<string, unknown>;
        const jobId = d.jobId as string;
        if (event.type === "RepositorySubmitted") jobRepos.set(jobId, { remote: d.remote as string, repository: d.repository as string });
        else if (event.type === "RepositoryFilesIndexed") {
          const repo = jobRepos.get(jobId);
          if (!repo) continue;
          let entry = jobFiles.get(jobId);
          if (!entry) jobFiles.set(jobId, (entry = { orgId: d.orgId as string, ...repo, files: new Map() }));
          const newFiles: { path: string; blobId: string }[] = [];
          for (const f of d.files as { path: string; blobId: string }[]) {
            entry.files.set(f.path, f.blobId);
            newFiles.push(f);
          }
          await restoreBlobs(entry, newFiles);
        } else if (event.type === "RepositoryIndexingCompleted") {
          const entry = jobFiles.get(jobId);
          const repo = jobRepos.get(jobId);
          if (!repo) continue;
          const indexRepo = codeIndexRepoId(d.orgId as string, repo.remote, repo.repository);
          branchSets.push({ indexRepo, branch: d.branch as string, files: entry ? [...entry.files].map(([path, blobId]) => ({ path, blobId })) : [] });
          jobFiles.delete(jobId);
        } else if (event.type === "RepositoryIndexingFailed") jobFiles.delete(jobId);
      }
    }
    // Later completions of the same branch win.
    const latest = new Map<string, (typeof branchSets)[number]>();
    for (const set of branchSets) latest.set(`${set.indexRepo}\u0000${set.branch}`, set);
    for (const set of latest.values()) {
      await codeIndex.setBranchFiles(set.indexRepo, set.branch, set.files);
      report.branchesRestored++;
    }
    return report;
  } finally {
    if (!deps.pool) await pool.destroy();
  }

  async function restoreBlobs(entry: JobFiles, files: { path: string; blobId: string }[]) {
    const indexRepo = codeIndexRepoId(entry.orgId, entry.remote, entry.repository);
    const missing: { path: string; blobId: string }[] = [];
    for (const f of files) {
      report.blobsChecked++;
      if (!(await codeIndex.hasBlob(indexRepo, f.path, f.blobId))) missing.push(f);
    }
    if (missing.length === 0) return;
    if (!mirrors.exists(entry.remote, entry.repository)) {
      const name = `${entry.remote}:${entry.repository}`;
      if (!report.missingMirrors.includes(name)) report.missingMirrors.push(name);
      return;
    }
    const dir = mirrors.mirrorDir(entry.remote, entry.repository);
    const blobs = await mirrors.readBlobs(dir, missing.map((m) => m.blobId));
    const sources = missing.map((m) => ({ path: m.path, content: (blobs.get(m.blobId) ?? Buffer.alloc(0)).toString("utf8") }));
    const chunked = await pool.chunkFiles(sources, { terms: codeIndex.takesDocumentTerms === true });
    const { docs, terms } = filesDocuments(missing.map((m, i) => {
      const file = chunked[i]!;
      return { file, at: { orgId: entry.orgId, repoId: indexRepo, path: m.path, blobId: m.blobId, language: file.language } };
    }));
    if (deps.embedder && docs.length > 0) {
      const vectors = await deps.embedder.embed(docs.map((d) => `${d.path}\n${d.summary}\n${d.text}`.slice(0, 8000)));
      docs.forEach((d, i) => (d.vector = vectors[i]));
    }
    await codeIndex.upsertChunks(docs, terms ? { terms } : {});
    report.blobsRechunked += missing.length;
  }
}
