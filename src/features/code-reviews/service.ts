/**
 * Code reviews: `trigger` records a PENDING review; an in-process worker runs reviews and pull
 * request refreshes one at a time, and on start resumes every review left unfinished by a stop or
 * a crash (they are found in the `code-reviews` read model).
 */
import { randomUUID } from "node:crypto";
import type { CommandContext } from "../../eventstore/new-event.ts";
import { DomainError, handleCommand } from "../../eventstore/decider.ts";
import { normalizeStrictness } from "../../review/strictness.ts";
import { codeReviewDecider, codeReviewStream } from "./decider.ts";
import type { Remote } from "../../hosts/types.ts";
import { isRemote } from "../../hosts/index.ts";
import { createReviewEngine, ReviewInterrupted, type EngineDeps, type TriggerAccess } from "./engine.ts";

export type TriggerReviewInput = {
  name: string;
  remote: string;
  defaultBranch: string;
  prNumber: number;
  /** Working branch to review instead of the recorded head. */
  branch?: string;
  /** 1..5, default 3. */
  strictness?: number;
  /** Review a draft anyway (default true for explicit triggers). */
  includeDrafts?: boolean;
};

type Job = { kind: "review"; orgId: string; id: string } | { kind: "refresh"; orgId: string; ref: { remote: Remote; name: string; number: number } };

const jobKey = (job: Job) => (job.kind === "review" ? `review:${job.id}` : `refresh:${job.orgId}:${job.ref.remote}:${job.ref.name.toLowerCase()}#${job.ref.number}`);

export function createReviewService(deps: EngineDeps) {
  const { eventStore, runner, queries, reviewQueries, logger, hostTokens } = deps;
  const engine = createReviewEngine(deps);
  /**
   * What each queued review was triggered with: its caller's host token, or the host's word that the
   * repository is public (asked once, at trigger); in memory only, dropped when the review ends.
   */
  const triggeredWith = new Map<string, TriggerAccess>();
  const queue: Job[] = [];
  const queued = new Set<string>();
  let running = false;
  let stopping = false;
  let loop: Promise<void> | null = null;
  let wake: (() => void) | null = null;
  const idleWaiters: (() => void)[] = [];
  let busy = false;

  const enqueue = (job: Job) => {
    const k = jobKey(job);
    if (queued.has(k)) return;
    queued.add(k);
    queue.push(job);
    wake?.();
  };

  async function work() {
    while (running) {
      const job = queue.shift();
      if (!job) {
        for (const w of idleWaiters.splice(0)) w();
        await new Promise<void>((r) => (wake = r));
        wake = null;
        continue;
      }
      queued.delete(jobKey(job));
      busy = true;
      try {
        if (job.kind === "review") {
          await engine.runReview(job.orgId, job.id, () => stopping, triggeredWith.get(job.id));
          triggeredWith.delete(job.id);
        } else await engine.refresh(job.orgId, job.ref);
      } catch (error) {
        if (!(error instanceof ReviewInterrupted)) {
          if (job.kind === "review") triggeredWith.delete(job.id);
          logger.warn({ job: jobKey(job), err: { message: error instanceof Error ? error.message : String(error) } }, "review worker job failed");
        }
      } finally {
        busy = false;
      }
    }
    for (const w of idleWaiters.splice(0)) w();
  }

  return {
    /**
     * trigger_code_review: records a PENDING review and queues it. Each call is a new review, unless
     * `options.codeReviewId` names one: a review of that id that exists already is a conflict
     * (DomainError, or ExpectedVersionConflictError when two requests race), so an id derived from what
     * asks for it requests that review once. `hostToken`: the caller's token for the review's fetches
     * (never recorded); an organisation other than the operator's must give one (HostTokenRequiredError,
     * nothing recorded) unless the host serves the repository to anyone (then the review fetches
     * anonymously) or its host is a `file://` base.
     */
    async trigger(orgId: string, input: TriggerReviewInput, context: CommandContext, options: { trigger?: "manual" | "webhook"; codeReviewId?: string; hostToken?: string | undefined } = {}) {
      if (!input.defaultBranch) throw new DomainError("invalid", "invalid_type - defaultBranch Required", "defaultBranch");
      const remote = input.remote?.toLowerCase();
      if (!isRemote(remote)) throw new DomainError("invalid", "remote must be one of github, gitlab, bitbucket, azure", "remote");
      if (input.strictness !== undefined && (!Number.isInteger(input.strictness) || input.strictness < 1 || input.strictness > 5)) {
        throw new DomainError("invalid", "strictness must be an integer from 1 to 5", "strictness");
      }
      const pr = queries.findPullRequest(orgId, remote, input.name, input.prNumber);
      if (!pr) {
        throw new DomainError("not_found", `Merge request ${input.name}#${input.prNumber} (${remote}) not found: record it through a webhook or a backfill first`);
      }
      const access = await hostTokens.access(orgId, remote, pr.repository.name, options.hostToken, "review a pull request", hostTokens.gitNeedsToken(remote));
      const codeReviewId = options.codeReviewId ?? randomUUID();
      const trigger = options.trigger ?? "manual";
      const { lastPosition } = await handleCommand(
        eventStore,
        codeReviewStream(codeReviewId),
        codeReviewDecider,
        {
          type: "RequestReview",
          request: {
            codeReviewId,
            repository: pr.repository,
            prNumber: pr.number,
            strictness: normalizeStrictness(input.strictness),
            correlationId: randomUUID(),
            branch: input.branch ?? null,
            trigger,
            includeDrafts: input.includeDrafts ?? trigger === "manual",
          },
        },
        { ...context, orgId },
      );
      if (lastPosition !== null) await runner.waitForPosition(lastPosition, 10_000);
      if (options.hostToken) triggeredWith.set(codeReviewId, { callerToken: options.hostToken });
      else if (access.public) triggeredWith.set(codeReviewId, { public: true });
      if (running) enqueue({ kind: "review", orgId, id: codeReviewId });
      return {
        codeReviewId,
        status: "PENDING" as const,
        message: `Code review of ${pr.repository.name}#${pr.number} queued (strictness ${normalizeStrictness(input.strictness)})`,
      };
    },

    /** Queues addressed detection for a pull request (after new commits). */
    refresh(orgId: string, ref: { remote: Remote; name: string; number: number }) {
      if (running) enqueue({ kind: "refresh", orgId, ref });
    },

    /** Runs a refresh now (admin faces, tests). */
    refreshNow: (orgId: string, ref: { remote: Remote; name: string; number: number }) => engine.refresh(orgId, ref),

    /** list_code_reviews: every parameter optional; prNumber without a repository filters across repositories. */
    list: reviewQueries.listCodeReviews,
    get: reviewQueries.getCodeReview,
    record: reviewQueries.codeReviewRecord,
    /** The reviews of one pull request (`prKey`), oldest first. */
    ofPullRequest: (orgId: string, key: string) => reviewQueries.reviewsOf(orgId, key).map((r) => reviewQueries.getCodeReview(orgId, r.id).codeReview),

    /** Starts the worker and queues every unfinished review. */
    start() {
      if (running) return;
      running = true;
      stopping = false;
      for (const r of reviewQueries.unfinishedReviews()) enqueue({ kind: "review", orgId: r.orgId, id: r.id });
      loop = work();
    },

    /** Stops after the current step; an interrupted review stays unfinished and resumes on the next start. */
    async stop() {
      if (!running) return;
      stopping = true;
      running = false;
      wake?.();
      await loop;
      loop = null;
      queue.length = 0;
      queued.clear();
      triggeredWith.clear(); // like a restart: a review resumed later has no caller token, and asks again whether its repository is public
    },

    /** Resolves when the queue is empty and nothing runs (tests). */
    idle(): Promise<void> {
      if (!busy && queue.length === 0) return Promise.resolve();
      return new Promise((r) => idleWaiters.push(r));
    },
  };
}

export type ReviewService = ReturnType<typeof createReviewService>;
