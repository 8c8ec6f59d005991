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
 *   already recorded are skipped, files already in the index are reused. It resumes them from a
 *   repositories read model that has applied the whole log: while it lags (its commits refused by a
 *   full disk), a job it shows unfinished may have ended in the log, so resuming waits until it caught up.
 * - A job that failed reads failed at once, even while its failure waits to be recorded or applied
 *   (./ended-jobs.ts).
 * - Host tokens live only in memory for the job (never in events, read models, logs or git config).
 * - The code index is rebuildable from the log and the mirrors (./rebuild.ts).
 */
import path from "node:path";
import { ulid } from "../../ids.ts";
import type { Config } from "../../config.ts";
import type { Logger } from "../../logging.ts";
import type { EventStore } from "../../eventstore/port.ts";
import type { ReadStore } from "../../readstore/port.ts";
import type { ProjectionRunner } from "../../../projections/runner.ts";
import { newEvent, type CommandContext } from "../../eventstore/new-event.ts";
import type { CodeIndex } from "../../codeindex/port.ts";
import type { Embedder } from "../../models/embedder.ts";
import type { Hosts, Remote } from "../../hosts/index.ts";
import { createParsePool, type ParsePool } from "../../indexing/chunking/pool.ts";
import { CHUNKER_VERSION } from "../../indexing/chunking/chunker.ts";
import { FILE_FILTER_VERSION } from "../../indexing/file-filter.ts";
import { parseRepositoryId, repositoryId, UNRESOLVED_BRANCH } from "../../indexing/repo-id.ts";
import type { GitMirrors } from "../../git/mirrors.ts";
import { validateBranchName, validateRepositoryName } from "../../git/names.ts";
import { redact } from "../../git/run.ts";
import { repositoriesProjection, repositoryQueries, type RepositoryRecord } from "./projection.ts";
import { createEndedJobs } from "./ended-jobs.ts";
import { repositoryDecider, repositoryStateOf, repositoryStream } from "./decider.ts";
import { createJobRunner, type IndexerStats, type Job } from "./jobs.ts";
import { failureReason, serverPaths, withoutServerPaths } from "./failure-reason.ts";
import { createVisibility } from "./visibility.ts";
import { LOCAL_PATHS_OPERATOR_ONLY } from "./local.ts";
import { DomainError } from "../../eventstore/decider.ts";

export type { IndexerStats } from "./jobs.ts";

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

/** What the indexer can report of a re-index: the record it re-indexed, or none (unknown / other org). */
export type ReindexResult = SubmitResult & {
  /**
   * Set when the record stood for a default branch that was never resolved (`HEAD`: the host could not be
   * reached) and the default branch resolved now: the repository is indexed under that branch's id, and
   * the unresolved record is dropped from the read model (projection.ts).
   */
  replaced?: string;
};

export type SubmitResult = {
  repoId: string;
  message: "Indexing started" | "Re-indexing started" | "Repository is up to date";
  /** True when a job was started (HTTP 202), false when nothing was to do (200). */
  started: boolean;
};

export type RepositoryView = RepositoryRecord;

export type Indexer = {
  submit(input: SubmitInput, ctx: CommandContext): Promise<SubmitResult>;
  /**
   * Indexes a repository record again: the same repository and branch, keeping what the first submission
   * asked for (a default-branch record stays one). A record whose default branch never resolved
   * (`remote:HEAD:owner/repo`) resolves it now, exactly as a submission with no branch does.
   */
  reindex(orgId: string, repoId: string, ctx: CommandContext, options?: { hostToken?: string | undefined }): Promise<ReindexResult | undefined>;
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
  /**
   * Whether an organisation may index the repositories `cloneUrlFor` answers for (local paths: only the
   * bootstrap organisation, LOUPE_LOCAL_ROOTS being an operator setting); default: any.
   */
  mayIndexLocal?: (orgId: string) => boolean;
  /** Jobs running at once (default 2). */
  concurrency?: number;
  /** Files per RepositoryFilesIndexed event (default 200) and the longest wait between two (1 s). */
  batchFiles?: number;
  batchMs?: number;
};

/** Answer of the submit-time `ls-remote`, in time to tell a client at once. */
const PREFLIGHT_TIMEOUT_MS = 20_000;
/** How often a start whose read model lags the log looks whether it caught up (to resume jobs then). */
const CATCH_UP_CHECK_MS = 2_000;
/** Events read per page when reading back failures the read model has not applied. */
const SEED_PAGE = 500;

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
  const ended = createEndedJobs();
  let catchUpTimer: ReturnType<typeof setTimeout> | undefined;
  const counters: IndexerStats = { filesParsed: 0, filesReused: 0, bytesParsed: 0, jobsRun: 0, chunkWaitMs: 0, indexWriteMs: 0 };

  const visibility = createVisibility({ hosts, fileHostsNeedToken: config.fileHostsNeedToken, timeoutMs: PREFLIGHT_TIMEOUT_MS, logger });
  const jobKey = (orgId: string, repoId: string) => `${orgId}\u0000${repoId}`;
  const getPool = () => (pool ??= createParsePool({ ...(config.workers ? { threads: config.workers } : {}), bundleDir: path.join(config.dataDir, "cache") }));

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

  const jobRunner = createJobRunner({
    config, logger, eventStore, readStore, runner, codeIndex, mirrors, embedder, metrics: deps.metrics, queries, ended, counters, getPool, cloneUrlOf, authEnvOf,
    isClosed: () => closed,
    batchFilesCount,
    batchMs,
  });
  const runJob = jobRunner.runJob;

  const enqueue = (job: Job) => {
    jobs.set(jobKey(job.orgId, job.repoId), job);
    queue.push(job);
    pump();
  };

  /** `requestedBranch` (a re-index): what the record's first submission asked for, when it differs from `branch`. */
  async function submit(input: SubmitInput & { requestedBranch?: string | null }, ctx: CommandContext): Promise<SubmitResult> {
    if (closed) throw new Error("the indexer is closed");
    const repository = validateRepositoryName(input.remote, input.repository);
    if (input.branch !== undefined) validateBranchName(input.branch);
    // A registered local repository, named as the `github` remote's `local/<name>-<hash>`: the same rule as POST /v2/repositories/local.
    if (deps.cloneUrlFor?.(input.remote, repository) !== undefined && deps.mayIndexLocal && !deps.mayIndexLocal(input.orgId)) {
      throw new DomainError("forbidden", LOCAL_PATHS_OPERATOR_ONLY);
    }
    const cloneUrl = cloneUrlOf(input.remote, repository);
    const authEnv = authEnvOf(input.remote, input.hostToken);

    // Preflight (ls-remote with the caller's token): the default branch, the current sha, and
    // proof that this token can read the repository (mirrors are shared between organisations).
    let preflight: Job["preflight"];
    let branch = input.branch;
    let defaultBranch: string | null | undefined;
    try {
      const head = await mirrors.remoteHead(cloneUrl, input.branch, { authEnv, timeoutMs: PREFLIGHT_TIMEOUT_MS });
      if (!head) preflight = { error: input.branch ? `Branch not found: ${input.branch}` : "The repository has no default branch (empty repository?)" };
      else {
        preflight = { sha: head.sha };
        branch = head.branch;
        defaultBranch = head.defaultBranch;
      }
    } catch (error) {
      const reason = failureReason(error, input.hostToken);
      preflight = { error: withoutServerPaths(reason, repository, { cloneUrl, paths: serverPaths(config, mirrors.rootDir) }) };
      logger.warn({ orgId: input.orgId, remote: input.remote, repository, reason }, "repository preflight failed");
    }
    const resolvedBranch = branch ?? UNRESOLVED_BRANCH;
    const repoId = repositoryId(input.remote, resolvedBranch, repository);
    const existing = queries.get(input.orgId, repoId);
    const active = jobs.get(jobKey(input.orgId, repoId));

    if (active) return { repoId, message: existing?.sha ? "Re-indexing started" : "Indexing started", started: true };
    // Up to date: the same commit, indexed by this chunker version (a newer one re-indexes, reusing nothing
    // it made) and this file filter version (a newer one plans again, reusing every chunk).
    const current =
      existing?.status === "completed" && existing.indexedChunkerVersion === CHUNKER_VERSION && existing.indexedFileFilterVersion === FILE_FILTER_VERSION;
    if (current && !input.reload && preflight && "sha" in preflight && preflight.sha === existing?.sha) {
      return { repoId, message: "Repository is up to date", started: false };
    }
    const isPrivate = await visibility.isPrivate({
      remote: input.remote,
      repository,
      cloneUrl,
      local: deps.cloneUrlFor?.(input.remote, repository) !== undefined,
      withToken: Boolean(input.hostToken),
      readable: "sha" in preflight,
    });
    const jobId = ulid();
    const submitted = repositoryDecider.decide(
      {
        type: "SubmitRepository",
        submission: {
          repoId,
          orgId: input.orgId,
          jobId,
          remote: input.remote,
          repository,
          branch: input.requestedBranch !== undefined ? input.requestedBranch : (input.branch ?? null),
          resolvedBranch,
          reload: input.reload ?? false,
          notify: input.notify ?? false,
          withToken: Boolean(input.hostToken),
          ...(defaultBranch !== undefined ? { defaultBranch } : {}),
          ...(isPrivate !== undefined ? { private: isPrivate } : {}),
        },
      },
      repositoryStateOf(existing),
    );
    const { lastPosition: position } = await eventStore.appendToStream(repositoryStream(input.orgId, repoId), submitted.map((e) => newEvent(e.type, e.data, ctx)));
    await runner.waitForPosition(position, 30_000);
    enqueue({ orgId: input.orgId, repoId, jobId, phase: "queued", hostToken: input.hostToken, preflight, abort: new AbortController() });
    return { repoId, message: existing ? "Re-indexing started" : "Indexing started", started: true };
  }

  /** Where the repositories read model is in the log (the runner moves it past events it ignores). */
  const appliedPosition = async () => (await runner.status()).find((s) => s.name === repositoriesProjection.name)?.checkpoint ?? 0;

  function resumeUnfinished() {
    for (const record of queries.unfinished()) {
      if (jobs.has(jobKey(record.orgId, record.repoId))) continue;
      logger.info({ orgId: record.orgId, repoId: record.repoId, status: record.status }, "resuming indexing job");
      enqueue({ orgId: record.orgId, repoId: record.repoId, jobId: record.jobId, phase: "queued", abort: new AbortController() });
    }
  }

  return {
    submit: (input, ctx) => submit(input, ctx),

    async reindex(orgId, repoId, ctx, options = {}) {
      const record = queries.get(orgId, repoId);
      const ref = parseRepositoryId(repoId);
      if (!record || !ref) return undefined;
      // The branch of the id, not the record's: an unresolved record may have indexed its default branch after a restart.
      const unresolved = ref.branch === UNRESOLVED_BRANCH;
      const result = await submit(
        {
          orgId,
          remote: ref.remote,
          repository: record.repository,
          branch: unresolved ? undefined : ref.branch,
          requestedBranch: unresolved ? null : record.requestedBranch,
          reload: true,
          notify: record.notify,
          hostToken: options.hostToken,
        },
        ctx,
      );
      // The submission of the resolved default branch drops the unresolved record (projection.ts); say so only when it did.
      return result.repoId !== repoId && !queries.get(orgId, repoId) ? { ...result, replaced: repoId } : result;
    },

    get(orgId, repoId) {
      const stored = queries.get(orgId, repoId);
      if (!stored) return undefined;
      const record = ended.view(stored);
      const job = jobs.get(jobKey(orgId, repoId));
      if (job && job.jobId === record.jobId && job.phase === "cloning" && record.status === "submitted") return { ...record, status: "cloning" };
      return record;
    },

    list: (orgId) => queries.list(orgId).map(ended.view),

    async start() {
      const head = await eventStore.headPosition();
      const applied = await appliedPosition();
      if (applied >= head) return resumeUnfinished();
      // The read model lags the log (its commits refused: a full disk). Readers see the failures the log
      // holds past it; jobs are resumed once it has caught up (not from a record a failure left behind).
      for (let from = applied; from < head; ) {
        const page = await eventStore.readAll({ fromPosition: from, maxCount: SEED_PAGE });
        if (page.length === 0) break;
        ended.seed(page);
        from = page[page.length - 1]!.position;
      }
      logger.warn({ applied, head }, "the repositories read model lags the log (free space in the data directory): unfinished indexing jobs are resumed once it has caught up");
      const check = async () => {
        catchUpTimer = undefined;
        if (closed) return;
        if ((await appliedPosition()) >= head) {
          logger.info({ head }, "the repositories read model has caught up with the log: resuming unfinished indexing jobs");
          return resumeUnfinished();
        }
        catchUpTimer = setTimeout(() => void check(), CATCH_UP_CHECK_MS);
        catchUpTimer.unref?.();
      };
      await check();
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
      clearTimeout(catchUpTimer);
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

