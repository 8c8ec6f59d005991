/**
 * Pull requests: recording webhook deliveries (already verified by the route) and backfills as
 * events, plus the read queries of the tools (src/features/pull-requests/queries.ts).
 *
 * Dedupe: a delivery already recorded (the `webhook-deliveries` read model) records nothing; two
 * concurrent copies append the same deterministic event ids, which the event store treats as one.
 * Ordering: events carry the host's snapshot and `updatedAt`; the read model keeps the newest.
 */
import { createHash } from "node:crypto";
import type { EventStore } from "../../eventstore/port.ts";
import { DuplicateEventIdError, ExpectedVersionConflictError } from "../../eventstore/port.ts";
import type { ProjectionRunner } from "../../../projections/runner.ts";
import type { Config } from "../../config.ts";
import type { Logger } from "../../logging.ts";
import { newEvent, type CommandContext } from "../../eventstore/new-event.ts";
import { DomainError } from "../../eventstore/decider.ts";
import type { Hosts } from "../../hosts/index.ts";
import { isRemote } from "../../hosts/index.ts";
import type { HostComment, HostPullRequest, HostPullRequestEvent, HostWebhookEvent, Remote } from "../../hosts/types.ts";
import { parseSuggestion } from "../../review/summary.ts";
import type { PullRequestQueries } from "./queries.ts";
import { autoReviewId, deliveryEventId, pullRequestStream } from "./identity.ts";
import { pullRequestDecider, pullRequestStateOf, type HostChange, type PullRequestStreamEvent } from "./decider.ts";
import { hostCommentId } from "../review-comments/ids.ts";
import { prKey, type RepositoryRef } from "../../hosts/pull-request-key.ts";
import type { HostTokens } from "./host-tokens.ts";
import type { CodeReviewStatus } from "../../review/status.ts";


export type WebhookOutcome =
  | { outcome: "recorded"; deliveryId: string; events: string[] }
  | { outcome: "duplicate"; deliveryId: string }
  | { outcome: "ignored"; deliveryId: string; reason: string };

function snapshot(pr: HostPullRequest) {
  return {
    number: pr.number,
    title: pr.title,
    description: pr.description,
    state: pr.state,
    merged: pr.merged,
    isDraft: pr.isDraft,
    authorLogin: pr.authorLogin,
    sourceBranch: pr.sourceBranch,
    targetBranch: pr.targetBranch,
    headSha: pr.headSha,
    baseSha: pr.baseSha ?? null,
    labels: pr.labels,
    createdAt: pr.createdAt,
    updatedAt: pr.updatedAt,
    stats: pr.stats ?? null,
    url: pr.url,
  };
}

/** The repository's default branch where the payload names it. */
function defaultBranchOf(remote: Remote, body: unknown): string | null {
  const o = (v: unknown) => (v && typeof v === "object" ? (v as Record<string, unknown>) : {});
  const p = o(body);
  let value: unknown = null;
  if (remote === "github") value = o(p.repository).default_branch;
  else if (remote === "gitlab") value = o(p.project).default_branch;
  else if (remote === "azure") value = o(o(o(p.resource).repository)).defaultBranch;
  else if (remote === "bitbucket") value = o(o(o(p.repository).mainbranch)).name;
  return typeof value === "string" && value !== "" ? value.replace(/^refs\/heads\//, "") : null;
}

/**
 * What a recorded delivery sets off in the features above this one (the composition root gives them):
 * code reviews (auto review, addressed detection after new commits) and learning from human comments.
 */
export type PullRequestFollowUps = {
  reviews: {
    trigger(
      orgId: string,
      input: { name: string; remote: string; defaultBranch: string; prNumber: number },
      context: CommandContext,
      /** `codeReviewId`: a review that exists already is not requested again (a conflict is thrown). */
      options: { trigger: "webhook"; codeReviewId: string },
    ): Promise<unknown>;
    refresh(orgId: string, ref: { remote: Remote; name: string; number: number }): void;
    /** A review's status, undefined when no review has that id (an automatic review's attempts are looked up by id). */
    record(orgId: string, codeReviewId: string): { status: CodeReviewStatus } | undefined;
  };
  customContext: { learn(orgId: string, context: CommandContext): Promise<unknown> };
};

export function createPullRequestService(deps: PullRequestFollowUps & {
  config: Config;
  logger: Logger;
  eventStore: EventStore;
  runner: ProjectionRunner;
  hosts: Hosts;
  queries: PullRequestQueries;
  /** Which host token an organisation may use (the service tokens serve only the operator's organisations). */
  hostTokens: HostTokens;
  /** The organisation webhooks record into. */
  webhookOrg: () => string | undefined;
}) {
  const { config, logger, eventStore, runner, hosts, queries, reviews, customContext } = deps;
  const botLogins = new Set([config.reviews.botName.toLowerCase(), `${config.reviews.botName.toLowerCase()}[bot]`]);

  function commentData(orgId: string, key: string, repository: RepositoryRef, prNumber: number, c: HostComment, deliveryId: string) {
    const existingId = readPlatform(orgId, key, c.id);
    const existing = existingId ? queries.commentsOf(orgId, key).find((x) => x.id === existingId) : undefined;
    const isService = existing?.isGreptileComment ?? botLogins.has(c.authorLogin.toLowerCase());
    const suggestedCode = parseSuggestion(c.body);
    return {
      repository,
      prNumber,
      deliveryId,
      comment: {
        id: existingId ?? hostCommentId(orgId, key, c.id),
        commentId: c.id,
        body: c.body,
        authorLogin: c.authorLogin,
        filePath: c.path,
        lineStart: c.path ? (c.startLine ?? c.line) : null,
        lineEnd: c.path ? c.line : null,
        isGreptileComment: isService,
        hasSuggestion: suggestedCode !== null,
        suggestedCode,
        linkedMemory: existing?.linkedMemory ?? null,
        createdAt: c.createdAt,
        updatedAt: c.updatedAt,
        commitSha: existing?.commitSha ?? null,
        codeReviewId: existing?.codeReviewId ?? null,
        fingerprint: existing?.fingerprint ?? null,
        kind: existing?.kind ?? (isService ? (c.path ? "inline" : "summary") : "human"),
        severity: existing?.severity ?? null,
      },
    };
  }

  const readPlatform = (orgId: string, key: string, platformId: string): string | undefined => {
    const found = queries.commentsOf(orgId, key).find((c) => c.commentId === platformId);
    return found?.id;
  };

  async function record(orgId: string, key: string, remote: Remote, deliveryId: string, events: PullRequestStreamEvent[], context: CommandContext) {
    const batch = events.map((e, i) => ({ ...newEvent(e.type, e.data, context), id: deliveryEventId(orgId, remote, deliveryId, i) }));
    try {
      const result = await eventStore.appendToStream(pullRequestStream(orgId, key), batch);
      await runner.waitForPosition(result.lastPosition, 10_000);
      return true;
    } catch (error) {
      if (error instanceof DuplicateEventIdError) return false; // a concurrent copy of the same delivery
      throw error;
    }
  }

  const inFlight = new Map<string, Promise<unknown>>();

  const service = {
    queries,
    list: queries.listMergeRequests,
    get: queries.getMergeRequest,
    listComments: queries.listComments,
    searchComments: queries.searchComments,

    webhookOrg: deps.webhookOrg,

    /**
     * Records a verified delivery. Returns what happened; never throws for an unsupported event.
     * `body` is the parsed JSON of the raw body whose signature was checked.
     */
    async recordWebhook(orgId: string, remote: Remote, headers: Headers, body: unknown): Promise<WebhookOutcome> {
      const event: HostWebhookEvent = hosts.get(remote).parseWebhook(headers, body);
      if (event.kind === "ignored") return { outcome: "ignored", deliveryId: event.deliveryId, reason: event.reason };
      // Copies of one delivery arriving together are handled one after the other (the second is a duplicate).
      const lockKey = `${orgId}\0${remote}\0${event.deliveryId}`;
      const previous = inFlight.get(lockKey) ?? Promise.resolve();
      const run = previous.catch(() => undefined).then(() => recordEvent(orgId, remote, event, body));
      const settled = run.catch(() => undefined);
      inFlight.set(lockKey, settled);
      try {
        return await run;
      } finally {
        if (inFlight.get(lockKey) === settled) inFlight.delete(lockKey);
      }
    },

    /**
     * Lists a repository's pull requests through the host's REST API and records the new or changed
     * ones. The caller's token is used for this call only; without one, the service token when `orgId`
     * is an operator organisation (./host-tokens.ts); any other organisation lists a public repository
     * anonymously, and is refused (HostTokenRequiredError) for any other one before its pull requests
     * are asked for.
     */
    async backfill(
      orgId: string,
      input: { remote: string; name: string; defaultBranch?: string; token?: string; state?: "all" | "open"; limit?: number },
      context: CommandContext,
    ): Promise<{ listed: number; recorded: number; unchanged: number }> {
      const remote = input.remote.toLowerCase();
      if (!isRemote(remote)) throw new DomainError("invalid", "remote must be one of github, gitlab, bitbucket, azure", "remote");
      const token = await deps.hostTokens.forRepository(orgId, remote, input.name, input.token, "list its pull requests");
      const list = await hosts.get(remote).listPullRequests(input.name, token, { state: input.state ?? "all", ...(input.limit ? { limit: input.limit } : {}) });
      let recorded = 0;
      let last: number | null = null;
      for (const pr of list) {
        const existing = queries.findPullRequest(orgId, remote, input.name, pr.number);
        if (existing && existing.updatedAt >= pr.updatedAt) continue;
        const repository: RepositoryRef = { remote, name: existing?.repository.name ?? input.name, defaultBranch: input.defaultBranch ?? existing?.repository.defaultBranch ?? null };
        const key = prKey({ remote, name: input.name, number: pr.number });
        const id = `bf_${createHash("sha256").update(`${orgId}\0${key}\0${pr.updatedAt}\0${pr.headSha}`).digest("hex").slice(0, 32)}`;
        const [decided] = pullRequestDecider.decide(
          { type: "RecordBackfill", data: { repository, pullRequest: snapshot(pr), source: "backfill", deliveryId: null, action: "backfill" } },
          pullRequestStateOf(existing),
        );
        if (!decided) continue;
        const event = { ...newEvent(decided.type, decided.data, { ...context, orgId }), id };
        try {
          const result = await eventStore.appendToStream(pullRequestStream(orgId, key), [event]);
          last = result.lastPosition;
          recorded++;
        } catch (error) {
          if (!(error instanceof DuplicateEventIdError)) throw error;
        }
      }
      if (last !== null) await runner.waitForPosition(last, 10_000);
      logger.info({ orgId, remote, repository: input.name, listed: list.length, recorded }, "pull request backfill done");
      return { listed: list.length, recorded, unchanged: list.length - recorded };
    },
  };


  async function recordEvent(orgId: string, remote: Remote, event: Exclude<HostWebhookEvent, { kind: "ignored" }>, body: unknown): Promise<WebhookOutcome> {
      const deliveryId = event.deliveryId;
      const context: CommandContext = { orgId, actor: `webhook:${remote}`, correlationId: `delivery:${deliveryId}`.slice(0, 200), causationId: null };
      if (queries.deliverySeen(orgId, remote, deliveryId)) return await redelivered(orgId, event, context);
      const repository: RepositoryRef = { remote, name: event.repository, defaultBranch: defaultBranchOf(remote, body) };
      const number = event.kind === "pull_request" ? event.pullRequest.number : event.prNumber;
      const key = prKey({ remote, name: event.repository, number });
      let change: HostChange;
      switch (event.kind) {
        case "pull_request":
          change = { kind: "pull_request", action: event.action, data: { repository, pullRequest: snapshot(event.pullRequest), source: "webhook", deliveryId, action: event.action } };
          break;
        case "review_comment":
          change =
            event.action === "deleted"
              ? { kind: "comment_deleted", data: { repository, prNumber: number, id: readPlatform(orgId, key, event.comment.id) ?? hostCommentId(orgId, key, event.comment.id), deliveryId } }
              : { kind: "comment", action: event.action === "created" ? "created" : "edited", data: commentData(orgId, key, repository, number, event.comment, deliveryId) };
          break;
        case "review_thread":
          change = {
            kind: "thread",
            data: { repository, prNumber: number, ids: event.commentIds.map((id) => readPlatform(orgId, key, id) ?? hostCommentId(orgId, key, id)), resolved: event.action === "resolved", deliveryId },
          };
          break;
      }
      const events = pullRequestDecider.decide({ type: "RecordHostChange", change }, pullRequestStateOf(queries.byKey(orgId, key)));
      const recorded = await record(orgId, key, remote, deliveryId, events, context);
      if (!recorded) return await redelivered(orgId, event, context);
      await react(orgId, event, context);
      return { outcome: "recorded", deliveryId, events: events.map((e) => e.type) };
  }

  /**
   * A delivery recorded before (GitHub's "Redeliver" sends the same delivery id again): it records
   * nothing and sets off nothing, except the automatic review it asks for when that review's attempts
   * all FAILED (or none was requested: the service stopped before the first copy's follow-up).
   */
  async function redelivered(orgId: string, event: Exclude<HostWebhookEvent, { kind: "ignored" }>, context: CommandContext): Promise<WebhookOutcome> {
    if (event.kind === "pull_request") {
      try {
        await autoReview(orgId, event, context);
      } catch (error) {
        logger.warn({ orgId, err: { message: error instanceof Error ? error.message : String(error) } }, "webhook follow-up failed");
      }
    }
    return { outcome: "duplicate", deliveryId: event.deliveryId };
  }

  /**
   * The automatic review a pull request event asks for (LOUPE_AUTO_REVIEW: opened, ready for review,
   * reopened). One per pull request, head commit and action: its id is derived from them, so the same
   * event under another delivery id asks for the same review and starts none while that review is
   * pending, running, COMPLETED or SKIPPED. When it FAILED (a transient host error), the event asks for
   * the next attempt, whose id is derived with the attempt's number: the failed review stays recorded,
   * and concurrent copies still start one review (the second finds it, or conflicts on its id).
   */
  async function autoReview(orgId: string, event: HostPullRequestEvent, context: CommandContext) {
    if (!config.reviews.autoReview || !(event.action === "opened" || event.action === "ready_for_review" || event.action === "reopened")) return;
    const ref = { remote: event.remote, name: event.repository, number: event.pullRequest.number };
    const pr = queries.findPullRequest(orgId, ref.remote, ref.name, ref.number);
    if (!pr || pr.state !== "open") return;
    const headSha = event.pullRequest.headSha;
    let attempt = 0;
    let codeReviewId = autoReviewId(orgId, pr.id, headSha, event.action);
    for (let status = reviews.record(orgId, codeReviewId)?.status; status !== undefined; status = reviews.record(orgId, codeReviewId)?.status) {
      if (status !== "FAILED") {
        logger.info({ orgId, pullRequest: pr.id, headSha, action: event.action, codeReviewId, status }, "auto-review of this head and action already requested: none started");
        return;
      }
      attempt += 1;
      codeReviewId = autoReviewId(orgId, pr.id, headSha, event.action, attempt);
    }
    try {
      await reviews.trigger(
        orgId,
        { name: pr.repository.name, remote: ref.remote, defaultBranch: pr.repository.defaultBranch ?? pr.targetBranch, prNumber: pr.number },
        context,
        { trigger: "webhook", codeReviewId },
      );
      if (attempt > 0) logger.info({ orgId, pullRequest: pr.id, headSha, action: event.action, codeReviewId, attempt }, "auto-review failed before: a new attempt started");
    } catch (error) {
      if (!(error instanceof ExpectedVersionConflictError || (error instanceof DomainError && error.code === "conflict"))) throw error;
      logger.info({ orgId, pullRequest: pr.id, headSha, action: event.action, codeReviewId }, "auto-review of this head and action already requested: none started");
    }
  }

  /** After a recorded delivery: auto-review, addressed detection after new commits, learning. */
  async function react(orgId: string, event: HostWebhookEvent, context: CommandContext) {
    try {
      if (event.kind === "pull_request") {
        if (event.action === "synchronized") reviews.refresh(orgId, { remote: event.remote, name: event.repository, number: event.pullRequest.number });
        await autoReview(orgId, event, context);
      } else if (event.kind === "review_comment" && event.action !== "deleted" && !botLogins.has(event.comment.authorLogin.toLowerCase())) {
        await customContext.learn(orgId, context);
      }
    } catch (error) {
      logger.warn({ orgId, err: { message: error instanceof Error ? error.message : String(error) } }, "webhook follow-up failed");
    }
  }

  return service;
}

export type PullRequestService = ReturnType<typeof createPullRequestService>;
