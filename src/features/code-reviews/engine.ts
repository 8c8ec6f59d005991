/**
 * The review engine: runs one code review (resumable step by step from its stream) and refreshes a
 * pull request's service comments (addressed detection, commits since the last review).
 *
 * Status: PENDING -> REVIEWING_FILES (totalFiles; completedFiles advances per file) ->
 * GENERATING_SUMMARY -> COMPLETED, or FAILED (reason) / SKIPPED (reason: draft, closed, nothing
 * reviewable, over the size limit). Each file's comments are appended together with its
 * CodeReviewFileReviewed step (one atomic batch, expected stream version): a review stopped or
 * crashed midway resumes at the next file and never creates a comment twice. Service comment ids
 * derive from the dedupe fingerprint, so a re-review never repeats an existing comment.
 */
import type { EventStore, StoredEvent } from "../../eventstore/port.ts";
import type { ReadStore } from "../../readstore/port.ts";
import type { ProjectionRunner } from "../../../projections/runner.ts";
import type { Config } from "../../config.ts";
import type { Logger } from "../../logging.ts";
import type { GitMirrors } from "../../git/mirrors.ts";
import type { Hosts } from "../../hosts/index.ts";
import type { ChatModel } from "../../models/chat.ts";
import type { Remote } from "../../hosts/types.ts";
import { newEvent, type CommandContext } from "../../eventstore/new-event.ts";
import { parseGitDiff, type DiffFile } from "../../review/diff.ts";
import { fingerprintFindings, dedupeFindings } from "../../review/dedupe.ts";
import { renderInlineComment, renderSummary } from "../../review/summary.ts";
import { loadRepoRules, type RepoRuleSet } from "../../review/repo-rules.ts";
import { isCommentAddressed } from "../../review/addressed.ts";
import { isSkippedPath } from "../../review/analysers/context.ts";
import type { Finding, Severity } from "../../review/findings.ts";
import type { PullRequestQueries } from "../pull-requests/queries.ts";
import type { CodeReviewQueries } from "./queries.ts";
import type { PullRequestRecord } from "../pull-requests/projection.ts";
import type { CommentRecord } from "../review-comments/projection.ts";
import type { CodeReviewRecord } from "./projection.ts";
import type { CustomContextService } from "../custom-context/service.ts";
import { codeIndexRepoId } from "../../indexing/repo-id.ts";
import { codeReviewStream } from "./decider.ts";
import { prKey } from "../../hosts/pull-request-key.ts";
import { pullRequestStream } from "../pull-requests/identity.ts";
import { serviceCommentId, summaryCommentId } from "../review-comments/ids.ts";
import { reviewFile } from "./reviewer.ts";
import type { CodeIndex } from "../../codeindex/port.ts";
import { relatedCodeFor } from "./related-code.ts";

export type EngineDeps = {
  config: Config;
  logger: Logger;
  eventStore: EventStore;
  readStore: ReadStore;
  runner: ProjectionRunner;
  mirrors: GitMirrors;
  hosts: Hosts;
  chat: ChatModel | null;
  queries: PullRequestQueries;
  /** The code reviews read model (./queries.ts). */
  reviewQueries: CodeReviewQueries;
  customContext: CustomContextService;
  /** The code index, for related code handed to the chat model (optional). */
  codeIndex?: CodeIndex | null;
  /** Indexed repositories of an organisation (the `repositories` read model), to find the index of a PR's repository. */
  indexedRepositories?: (orgId: string) => readonly { remote: string; repository: string; branch: string; sha: string | null }[];
};

/** Hidden marker ending a posted summary: finds the review on the host after a crash. */
export const reviewMarker = (codeReviewId: string) => `loupe-review:${codeReviewId}`;

type FindingSummary = { ruleId: string; severity: Severity; path: string; lineStart: number; lineEnd: number; message: string };

type ReviewState = {
  version: number;
  status: "NONE" | CodeReviewRecord["status"];
  requested: {
    codeReviewId: string;
    repository: { remote: Remote; name: string; defaultBranch: string | null };
    prNumber: number;
    strictness: number;
    correlationId: string;
    branch: string | null;
    includeDrafts: boolean;
  } | null;
  started: { headSha: string; diffBase: string; incremental: boolean; files: string[]; skippedFiles: { path: string; reason: string }[] } | null;
  reviewed: Set<string>;
  findings: FindingSummary[];
  commentIds: string[];
  /** ReviewPostRequested seen: posting may have reached the host before a crash. */
  postRequested: boolean;
};

function fold(events: StoredEvent[]): ReviewState {
  const s: ReviewState = { version: -1, status: "NONE", requested: null, started: null, reviewed: new Set(), findings: [], commentIds: [], postRequested: false };
  for (const e of events) {
    s.version = e.streamVersion;
    const d = e.data as Record<string, unknown>;
    switch (e.type) {
      case "CodeReviewRequested":
        s.status = "PENDING";
        s.requested = d as ReviewState["requested"];
        break;
      case "CodeReviewStarted":
        s.status = "REVIEWING_FILES";
        s.started = d as ReviewState["started"];
        break;
      case "CodeReviewFileReviewed":
        s.reviewed.add(d.path as string);
        s.findings.push(...(d.findings as FindingSummary[]));
        s.commentIds.push(...(d.commentIds as string[]));
        break;
      case "CodeReviewSummaryGenerating":
        s.status = "GENERATING_SUMMARY";
        break;
      case "ReviewPostRequested":
        s.postRequested = true;
        break;
      case "CodeReviewCompleted":
        s.status = "COMPLETED";
        break;
      case "CodeReviewFailed":
        s.status = "FAILED";
        break;
      case "CodeReviewSkipped":
        s.status = "SKIPPED";
        break;
    }
  }
  return s;
}

/** Thrown inside a review when the worker is stopping: the review stays unfinished and resumes later. */
export class ReviewInterrupted extends Error {
  constructor() {
    super("review interrupted by shutdown");
    this.name = "ReviewInterrupted";
  }
}

export function createReviewEngine(deps: EngineDeps) {
  const { config, logger, eventStore, readStore, runner, mirrors, hosts, queries, reviewQueries, customContext } = deps;
  const botName = config.reviews.botName;
  const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

  const tokenFor = (remote: Remote) => config.reviews.tokens[remote];
  const authEnv = (remote: Remote) => {
    const token = tokenFor(remote);
    return token ? hosts.get(remote).gitAuthEnv(token) : undefined;
  };

  async function openMirror(remote: Remote, name: string): Promise<string> {
    const cloneUrl = hosts.get(remote).cloneUrl(config.hostUrls[remote], name);
    const env = authEnv(remote);
    const { dir } = await mirrors.ensure(remote, name, cloneUrl, { fetch: true, ...(env ? { authEnv: env } : {}) });
    return dir;
  }

  const hasCommit = async (dir: string, sha: string | null | undefined) =>
    !!sha && /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(sha) && (await mirrors.mergeBase(dir, sha, sha).catch(() => null)) !== null;

  /** The pull request's head commit in the mirror: the recorded head, the working branch, the source branch, or the host's PR ref. */
  async function resolveHead(dir: string, pr: PullRequestRecord, branch: string | null): Promise<string> {
    if (branch) {
      const b = await mirrors.resolveBranch(dir, branch).catch(() => null);
      if (b) return b.sha;
    }
    if (await hasCommit(dir, pr.headSha)) return pr.headSha;
    const source = await mirrors.resolveBranch(dir, pr.sourceBranch).catch(() => null);
    const pullRef: Record<Remote, string | null> = {
      github: `refs/pull/${pr.number}/head`,
      gitlab: `refs/merge-requests/${pr.number}/head`,
      azure: `refs/pull/${pr.number}/merge`,
      bitbucket: null,
    };
    const ref = pullRef[pr.repository.remote];
    if (ref) {
      const env = authEnv(pr.repository.remote);
      const sha = await mirrors.fetchRef(dir, ref, env ? { authEnv: env } : {}).catch(() => null);
      if (sha && (!source || pr.repository.remote !== "azure")) return sha;
    }
    if (source) return source.sha;
    throw new Error(`the head of pull request #${pr.number} (${pr.sourceBranch}) is not in the repository`);
  }

  async function readFileAt(dir: string, sha: string, path: string, cache: Map<string, Map<string, string>>): Promise<string | null> {
    let tree = cache.get(sha);
    if (!tree) {
      tree = new Map((await mirrors.listTree(dir, sha)).map((e) => [e.path, e.blobId]));
      cache.set(sha, tree);
    }
    const blob = tree.get(path);
    if (!blob) return null;
    const blobs = await mirrors.readBlobs(dir, [blob]);
    return blobs.get(blob)?.toString("utf8") ?? null;
  }

  async function repoRules(dir: string, sha: string): Promise<RepoRuleSet> {
    const tree = await mirrors.listTree(dir, sha);
    const ruleEntries = tree.filter((e) => /(^|\/)\.loupe\/[^/]+$/.test(e.path) && e.size <= 200_000);
    const blobs = await mirrors.readBlobs(dir, ruleEntries.map((e) => e.blobId));
    const byPath = new Map(ruleEntries.map((e) => [e.path, blobs.get(e.blobId)?.toString("utf8") ?? ""]));
    return loadRepoRules([...byPath.keys()], async (p) => byPath.get(p) ?? "");
  }

  const lastCompletedReview = (orgId: string, key: string, exceptId: string) =>
    reviewQueries
      .reviewsOf(orgId, key)
      .filter((r) => r.id !== exceptId && r.status === "COMPLETED" && r.headSha)
      .sort((a, b) => ((a.completedAt ?? "") < (b.completedAt ?? "") ? -1 : 1))
      .pop();

  /** Runs (or resumes) a code review until a terminal status, or throws ReviewInterrupted. */
  async function runReview(orgId: string, codeReviewId: string, shouldStop: () => boolean): Promise<void> {
    const stream = codeReviewStream(codeReviewId);
    const read = await eventStore.readStream(stream);
    const state = fold(read.events);
    if (!state.requested || ["COMPLETED", "FAILED", "SKIPPED"].includes(state.status)) return;
    const req = state.requested;
    const context: CommandContext = { orgId, actor: "system:reviewer", correlationId: req.correlationId, causationId: null };
    let step = read.events.length;
    const append = async (events: { type: string; data: Record<string, unknown> }[]) => {
      const result = await eventStore.appendToStream(
        stream,
        events.map((e) => ({ ...newEvent(e.type, e.data, context), id: `cr_${codeReviewId}_${step}_${e.type}` })),
        { expectedStreamVersion: state.version },
      );
      state.version = result.nextExpectedStreamVersion;
      step += 1;
      await runner.waitForPosition(result.lastPosition, 10_000);
    };
    const finish = async (type: "CodeReviewFailed" | "CodeReviewSkipped", reason: string) => {
      await append([{ type, data: { codeReviewId, reason: reason.slice(0, 2000) } }]);
      logger.info({ codeReviewId, orgId, status: type === "CodeReviewFailed" ? "FAILED" : "SKIPPED", reason }, "code review ended");
    };

    try {
      const { remote, name } = req.repository;
      const pr = queries.findPullRequest(orgId, remote, name, req.prNumber);
      if (!pr) return await finish("CodeReviewFailed", `pull request ${name}#${req.prNumber} is not recorded`);
      const key = prKey({ remote, name, number: req.prNumber });

      if (state.status === "PENDING") {
        if (pr.state === "closed") return await finish("CodeReviewSkipped", `pull request is ${pr.merged ? "merged" : "closed"}`);
        if (pr.isDraft && !req.includeDrafts) return await finish("CodeReviewSkipped", "draft pull request (reviews of drafts run only when asked for)");
      }
      const dir = await openMirror(remote, pr.repository.name);
      const diffCache = new Map<string, DiffFile[]>();
      const diffOf = async (base: string, head: string, incremental: boolean) => {
        const k = `${base}..${head}`;
        if (!diffCache.has(k)) diffCache.set(k, parseGitDiff(await mirrors.diff(dir, base, head, { range: incremental ? "two-dot" : "three-dot" })));
        return diffCache.get(k)!;
      };

      if (state.status === "PENDING") {
        const head = await resolveHead(dir, pr, req.branch);
        const target = await mirrors.resolveBranch(dir, pr.targetBranch);
        const mergeBase = (await mirrors.mergeBase(dir, target.sha, head)) ?? target.sha;
        // Re-review after new commits: only what changed since the previous review's head.
        const previous = lastCompletedReview(orgId, key, codeReviewId);
        let diffBase = target.sha;
        let incremental = false;
        if (previous?.headSha && previous.headSha !== head && (await hasCommit(dir, previous.headSha))) {
          if ((await mirrors.mergeBase(dir, previous.headSha, head)) === previous.headSha) {
            diffBase = previous.headSha;
            incremental = true;
          }
        }
        if (!incremental) diffBase = mergeBase;
        const files = await diffOf(diffBase, head, incremental);
        const rules = await repoRules(dir, head);
        const skippedFiles: { path: string; reason: string }[] = [];
        const reviewable: DiffFile[] = [];
        for (const f of files) {
          if (f.status === "deleted") skippedFiles.push({ path: f.path, reason: "deleted" });
          else if (f.binary) skippedFiles.push({ path: f.path, reason: "binary" });
          else if (rules.rulesFor(f.path, { repository: name }).ignored) skippedFiles.push({ path: f.path, reason: "ignored by .loupe rules" });
          else if (isSkippedPath(f.path)) skippedFiles.push({ path: f.path, reason: "generated, vendored or lock file" });
          else if (f.additions === 0) skippedFiles.push({ path: f.path, reason: "no added lines" });
          else reviewable.push(f);
        }
        const changedLines = reviewable.reduce((n, f) => n + f.additions + f.deletions, 0);
        if (reviewable.length > config.reviews.maxFiles) {
          return await finish("CodeReviewSkipped", `over the size limit: ${reviewable.length} files to review (limit ${config.reviews.maxFiles})`);
        }
        if (changedLines > config.reviews.maxChangedLines) {
          return await finish("CodeReviewSkipped", `over the size limit: ${changedLines} changed lines (limit ${config.reviews.maxChangedLines})`);
        }
        if (reviewable.length === 0 && !incremental) {
          return await finish("CodeReviewSkipped", files.length === 0 ? "nothing reviewable: the change is empty" : "nothing reviewable: every changed file was skipped");
        }
        await append([
          {
            type: "CodeReviewStarted",
            data: {
              codeReviewId,
              headSha: head,
              diffBase,
              incremental,
              totalFiles: reviewable.length,
              files: reviewable.map((f) => f.path),
              skippedFiles: skippedFiles.slice(0, 5000),
            },
          },
        ]);
        state.status = "REVIEWING_FILES";
        state.started = { headSha: head, diffBase, incremental, files: reviewable.map((f) => f.path), skippedFiles };
      }

      const started = state.started!;
      const files = await diffOf(started.diffBase, started.headSha, started.incremental);
      const byPath = new Map(files.map((f) => [f.path, f]));

      if (state.status === "REVIEWING_FILES") {
        const rules = await repoRules(dir, started.headSha);
        const contexts = customContext.activeContexts(orgId);
        const contextTypes = new Map(contexts.map((c) => [c.id, c.type]));
        for (const path of started.files) {
          if (state.reviewed.has(path)) continue;
          if (shouldStop()) throw new ReviewInterrupted();
          const file = byPath.get(path);
          const related = file && deps.chat && deps.codeIndex ? await relatedCodeOf(orgId, remote, name, [pr.targetBranch, pr.repository.defaultBranch], file) : undefined;
          const findings = file
            ? await reviewFile({ file, repository: name, strictness: req.strictness, contexts, rules, chat: deps.chat, logger, ...(related ? { relatedCode: related } : {}) })
            : [];
          const known = new Set(
            queries
              .commentsOf(orgId, key)
              .filter((c) => c.isGreptileComment && c.fingerprint)
              .map((c) => c.fingerprint!),
          );
          const fresh = file ? dedupeFindings(fingerprintFindings(findings, file), known) : [];
          const now = new Date().toISOString();
          const commentEvents = fresh.map((f) => {
            const inline = renderInlineComment(f);
            const id = serviceCommentId(orgId, key, f.fingerprint);
            return {
              type: "ReviewCommentCreated",
              data: {
                repository: req.repository,
                prNumber: req.prNumber,
                deliveryId: null,
                comment: {
                  id,
                  commentId: id,
                  body: inline.body,
                  authorLogin: botName,
                  filePath: inline.path,
                  lineStart: inline.lineStart,
                  lineEnd: inline.lineEnd,
                  isGreptileComment: true,
                  hasSuggestion: inline.hasSuggestion,
                  suggestedCode: inline.suggestedCode,
                  linkedMemory: linkedMemory(f, contextTypes),
                  createdAt: now,
                  updatedAt: now,
                  commitSha: started.headSha,
                  codeReviewId,
                  fingerprint: f.fingerprint,
                  kind: "inline",
                  severity: f.severity,
                },
              },
            };
          });
          const completedFiles = state.reviewed.size + 1;
          await append([
            ...commentEvents,
            {
              type: "CodeReviewFileReviewed",
              data: {
                codeReviewId,
                path,
                completedFiles,
                commentIds: commentEvents.map((e) => e.data.comment.id),
                findings: fresh.map((f) => ({ ruleId: f.ruleId, severity: f.severity, path: f.path, lineStart: f.lineStart, lineEnd: f.lineEnd, message: f.message.slice(0, 20_000) })),
              },
            },
          ]);
          state.reviewed.add(path);
          state.findings.push(...fresh);
          state.commentIds.push(...commentEvents.map((e) => e.data.comment.id));
          if (config.reviews.throttleMs > 0) await sleep(config.reviews.throttleMs);
        }
        if (shouldStop()) throw new ReviewInterrupted();
        await append([{ type: "CodeReviewSummaryGenerating", data: { codeReviewId } }]);
        state.status = "GENERATING_SUMMARY";
      }

      // GENERATING_SUMMARY
      const body = renderSummary({
        files,
        findings: state.findings as Finding[],
        strictness: req.strictness,
        title: pr.title,
        skipped: started.skippedFiles,
      });
      const summaryId = summaryCommentId(codeReviewId);
      const now = new Date().toISOString();
      // A re-review that found nothing new completes quietly: no second summary comment.
      const quiet = started.incremental && state.findings.length === 0;
      const events: { type: string; data: Record<string, unknown> }[] = [
        {
          type: "ReviewCommentCreated",
          data: {
            repository: req.repository,
            prNumber: req.prNumber,
            deliveryId: null,
            comment: {
              id: summaryId,
              commentId: summaryId,
              body,
              authorLogin: `${botName}[bot]`,
              filePath: null,
              lineStart: null,
              lineEnd: null,
              isGreptileComment: true,
              hasSuggestion: false,
              suggestedCode: null,
              linkedMemory: null,
              createdAt: now,
              updatedAt: now,
              commitSha: started.headSha,
              codeReviewId,
              fingerprint: null,
              kind: "summary",
              severity: null,
            },
          },
        },
      ];
      if (quiet) events.length = 0;
      const posted = quiet ? null : await postToHost(orgId, key, req, pr, body, state, summaryId, started.headSha, append);
      if (posted) events.push({ type: "ReviewCommentsPosted", data: { repository: req.repository, prNumber: req.prNumber, codeReviewId, posted } });
      events.push({ type: "CodeReviewCompleted", data: { codeReviewId, body, summaryCommentId: quiet ? null : summaryId, headSha: started.headSha } });
      await append(events);
      logger.info({ codeReviewId, orgId, files: started.files.length, comments: state.commentIds.length }, "code review completed");
    } catch (error) {
      if (error instanceof ReviewInterrupted) throw error;
      if (shouldStop()) throw new ReviewInterrupted(); // git killed by shutdown and the like: resume later
      const reason = error instanceof Error ? error.message : String(error);
      logger.warn({ codeReviewId, orgId, err: { message: reason } }, "code review failed");
      await finish("CodeReviewFailed", reason);
    }
  }

  function linkedMemory(f: Finding, types: Map<string, string>) {
    if (!f.customContextId) return null;
    if (f.customContextId.startsWith("repo:")) return { id: f.customContextId, type: "REPO_RULE", source: null };
    return { id: f.customContextId, type: types.get(f.customContextId) ?? null, source: null };
  }

  /** Related code from the code index when the repository is indexed; undefined otherwise (never fails the review). */
  async function relatedCodeOf(orgId: string, remote: Remote, name: string, branches: (string | null)[], file: DiffFile): Promise<string | undefined> {
    const codeIndex = deps.codeIndex;
    if (!codeIndex || !deps.indexedRepositories) return undefined;
    try {
      const indexed = deps.indexedRepositories(orgId).filter((r) => r.remote === remote && r.repository.toLowerCase() === name.toLowerCase() && r.sha);
      const pick = branches.map((b) => indexed.find((r) => r.branch === b)).find(Boolean) ?? indexed[0];
      if (!pick) return undefined;
      return await relatedCodeFor(codeIndex, { repoId: codeIndexRepoId(orgId, remote, pick.repository), branch: pick.branch, orgId }, file);
    } catch (error) {
      logger.warn({ path: file.path, err: { message: error instanceof Error ? error.message : String(error) } }, "related code from the index failed; reviewing without it");
      return undefined;
    }
  }

  /**
   * Posts the review when LOUPE_POST_REVIEWS=true and a token is configured; returns host ids by our
   * ids. Crash-safe: ReviewPostRequested is recorded before the call; a resumed review that finds it
   * first asks the host for a review carrying the hidden marker and posts only when there is none.
   */
  async function postToHost(
    orgId: string,
    key: string,
    req: NonNullable<ReviewState["requested"]>,
    pr: PullRequestRecord,
    summary: string,
    state: ReviewState,
    summaryId: string,
    headSha: string,
    append: (events: { type: string; data: Record<string, unknown> }[]) => Promise<void>,
  ): Promise<{ id: string; commentId: string }[] | null> {
    const remote = req.repository.remote;
    const token = tokenFor(remote);
    if (!config.reviews.post || !token) return null;
    const host = hosts.get(remote);
    const all = new Map(queries.commentsOf(orgId, key).map((c) => [c.id, c]));
    const inline = state.commentIds.map((id) => all.get(id)).filter((c): c is CommentRecord => !!c && c.filePath !== null && c.lineEnd !== null);
    const marker = reviewMarker(req.codeReviewId);
    const review = {
      summary: `${summary}\n\n<!-- ${marker} -->`,
      commitSha: headSha,
      inline: inline.map((c) => ({ path: c.filePath!, line: c.lineEnd!, ...(c.lineStart !== null && c.lineStart < c.lineEnd! ? { startLine: c.lineStart } : {}), body: c.body })),
    };
    let result = state.postRequested && host.findPostedReview ? await host.findPostedReview(pr.repository.name, pr.number, token, review, marker) : null;
    if (result) logger.info({ codeReviewId: req.codeReviewId, orgId }, "review was already on the host (posted before a restart); not posting again");
    if (!result) {
      if (!state.postRequested) {
        await append([
          {
            type: "ReviewPostRequested",
            data: { repository: req.repository, prNumber: req.prNumber, codeReviewId: req.codeReviewId, idempotencyKey: marker, commitSha: headSha, inlineCount: inline.length },
          },
        ]);
        state.postRequested = true;
      }
      result = await host.postReview(pr.repository.name, pr.number, token, review);
    }
    const posted = result;
    return [{ id: summaryId, commentId: posted.summaryCommentId }, ...inline.map((c, i) => ({ id: c.id, commentId: posted.inlineCommentIds[i]! }))];
  }

  /**
   * Addressed detection and commits since the last review, after new commits: a service comment is
   * addressed when a later commit changed its lines or applied its suggestion (src/review/addressed.ts).
   */
  async function refresh(orgId: string, ref: { remote: Remote; name: string; number: number }): Promise<{ addressed: string[] }> {
    const pr = queries.findPullRequest(orgId, ref.remote, ref.name, ref.number);
    if (!pr) return { addressed: [] };
    const key = pr.id;
    const open = queries.commentsOf(orgId, key).filter((c) => c.isGreptileComment && !c.addressed && c.filePath && c.lineStart !== null && c.commitSha);
    const last = lastCompletedReview(orgId, key, "");
    if (open.length === 0 && !last) return { addressed: [] };
    const dir = await openMirror(ref.remote, pr.repository.name);
    const head = await resolveHead(dir, pr, null);
    const context: CommandContext = { orgId, actor: "system:reviewer", correlationId: `refresh:${key}:${head}`, causationId: null };
    const events = [];
    const trees = new Map<string, Map<string, string>>();
    const addressed: string[] = [];
    for (const c of open) {
      if (c.commitSha === head || !(await hasCommit(dir, c.commitSha))) continue;
      const files = parseGitDiff(await mirrors.diff(dir, c.commitSha!, head, { range: "two-dot" }));
      const newContent = c.suggestedCode !== null ? await readFileAt(dir, head, c.filePath!, trees) : null;
      const result = isCommentAddressed(
        { path: c.filePath!, lineStart: c.lineStart!, lineEnd: c.lineEnd ?? c.lineStart!, suggestedCode: c.suggestedCode, commitSha: c.commitSha! },
        files,
        newContent,
      );
      if (result.addressed) {
        addressed.push(c.id);
        events.push(newEvent("ReviewCommentAddressed", { repository: pr.repository, prNumber: pr.number, id: c.id, reason: result.reason, commitSha: head }, context));
      }
    }
    if (last?.headSha && last.headSha !== head && (await hasCommit(dir, last.headSha))) {
      const commits = await mirrors.commitsBetween(dir, last.headSha, head);
      events.push(
        newEvent(
          "PullRequestCommitsRecorded",
          {
            repository: pr.repository,
            prNumber: pr.number,
            baseSha: last.headSha,
            headSha: head,
            commits: commits.slice(-500).map((c) => ({ sha: c.sha, message: c.message.slice(0, 10_000), authorName: c.author.replace(/\s*<[^>]*>$/, ""), committedAt: c.date })),
          },
          context,
        ),
      );
    }
    if (events.length > 0) {
      const result = await eventStore.appendToStream(pullRequestStream(orgId, key), events);
      await runner.waitForPosition(result.lastPosition, 10_000);
    }
    return { addressed };
  }

  return { runReview, refresh, readStore };
}

export type ReviewEngine = ReturnType<typeof createReviewEngine>;
