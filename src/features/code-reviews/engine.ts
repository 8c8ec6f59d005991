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
import type { EventStore } from "../../eventstore/port.ts";
import type { ReadStore } from "../../readstore/port.ts";
import type { ProjectionRunner } from "../../../projections/runner.ts";
import type { Config } from "../../config.ts";
import type { Logger } from "../../logging.ts";
import type { GitMirrors } from "../../git/mirrors.ts";
import { strictnessOf } from "../../review/repo-rules.ts";
import type { Hosts } from "../../hosts/index.ts";
import type { ChatModel } from "../../models/chat.ts";
import { newEvent, type CommandContext } from "../../eventstore/new-event.ts";
import { foldStream } from "../../eventstore/decider.ts";
import type { DiffFile } from "../../review/diff.ts";
import { codeFingerprint, fingerprintFindings, dedupeFindings } from "../../review/dedupe.ts";
import { renderInlineComment, renderSummary } from "../../review/summary.ts";
import { isWholeFile, type Finding } from "../../review/findings.ts";
import type { PullRequestQueries } from "../pull-requests/queries.ts";
import type { CodeReviewQueries } from "./queries.ts";
import type { CustomContextService } from "../custom-context/service.ts";
import { codeReviewDecider, codeReviewStream, type CodeReviewCommand } from "./decider.ts";
import { prKey } from "../../hosts/pull-request-key.ts";
import { serviceCommentId, summaryCommentId } from "../review-comments/ids.ts";
import { reviewFile } from "./reviewer.ts";
import type { CodeIndex } from "../../codeindex/port.ts";
import { relatedCodeFor } from "./related-code.ts";
import { createReviewGit } from "./review-git.ts";
import { createRunFiles } from "./run-files.ts";
import { createReviewPoster } from "./posting.ts";
import { createPullRequestRefresh } from "./refresh.ts";
import { checksAndHumanChecks, outlineOf } from "./summary-input.ts";
import { graphFindingsFor, indexTargetOf, type IndexTarget } from "./graph-findings.ts";
import { createGraphReview, untestedNotesFor } from "./graph-review.ts";
import { rewrittenTestsOf } from "../../review/graph/untested-change.ts";
import { isShownAt } from "../../review/strictness.ts";
import { createParseCache } from "../../review/graph/calls.ts";
import { mayAddOutput } from "../../review/analysers/debug-leftovers.ts";
import { describeSkipped, skipReasonOf, type SkippedFile } from "../../review/skipped.ts";
import type { HostTokens } from "../pull-requests/host-tokens.ts";

export { reviewMarker } from "./posting.ts";

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
  /** Which host token an organisation may use (the service tokens serve only the operator's organisations). */
  hostTokens: HostTokens;
  /** The code index, for related code handed to the chat model (optional). */
  codeIndex?: CodeIndex | null;
  /** Indexed repositories of an organisation (the `repositories` read model), to find the index of a PR's repository. */
  indexedRepositories?: (orgId: string) => readonly { remote: string; repository: string; branch: string; sha: string | null }[];
};

/** A file the change deletes, moves, or only removes lines from: it has no added line of its own, only what it takes away. */
const removesOnly = (f: DiffFile) => f.status === "deleted" || f.status === "renamed" || (f.additions === 0 && f.deletions > 0);

/** Thrown inside a review when the worker is stopping: the review stays unfinished and resumes later. */
export class ReviewInterrupted extends Error {
  constructor() {
    super("review interrupted by shutdown");
    this.name = "ReviewInterrupted";
  }
}

/** What a review was triggered with: its caller's host token, or the host's answer (at trigger) that the repository is public. */
export type TriggerAccess = { callerToken?: string | undefined; public?: true };

export function createReviewEngine(deps: EngineDeps) {
  const { config, logger, eventStore, readStore, runner, mirrors, hosts, queries, reviewQueries, customContext } = deps;
  const botName = config.reviews.botName;
  const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
  const git = createReviewGit({ config, hosts, mirrors });
  const { openMirror, hasCommit, resolveHead, resolveTarget } = git;

  const lastCompletedReview = (orgId: string, key: string, exceptId: string) =>
    reviewQueries
      .reviewsOf(orgId, key)
      .filter((r) => r.id !== exceptId && r.status === "COMPLETED" && r.headSha)
      .sort((a, b) => ((a.completedAt ?? "") < (b.completedAt ?? "") ? -1 : 1))
      .pop();

  const { hostTokens } = deps;
  const postToHost = createReviewPoster({ config, logger, hosts, queries, hostTokens });
  const refresh = createPullRequestRefresh({
    eventStore, runner, mirrors, queries, git, lastCompletedReview,
    serviceToken: hostTokens.serviceToken,
    activeContexts: (orgId) => customContext.activeContexts(orgId),
  });

  /**
   * Runs (or resumes) a code review until a terminal status, or throws ReviewInterrupted. `trigger`: what
   * the review was triggered with (in memory only; gone after a restart): the caller's host token, or
   * the host's answer that the repository is public (then it is not asked again).
   */
  async function runReview(orgId: string, codeReviewId: string, shouldStop: () => boolean, trigger: TriggerAccess = {}): Promise<void> {
    const { callerToken } = trigger;
    const stream = codeReviewStream(codeReviewId);
    const read = await eventStore.readStream(stream);
    let state = foldStream(codeReviewDecider, read.events);
    let version = read.currentStreamVersion;
    if (!state.requested || ["COMPLETED", "FAILED", "SKIPPED"].includes(state.status)) return;
    const req = state.requested;
    const context: CommandContext = { orgId, actor: "system:reviewer", correlationId: req.correlationId, causationId: null };
    let step = read.events.length;
    /** Decides a step from the review's state and appends its events together (expected stream version). */
    const record = async (command: CodeReviewCommand) => {
      const events = codeReviewDecider.decide(command, state);
      if (events.length === 0) return;
      const result = await eventStore.appendToStream(
        stream,
        // One id per event of the step: a step may append several comments of the same type.
        events.map((e, i) => ({ ...newEvent(e.type, e.data, context), id: `cr_${codeReviewId}_${step}_${i}_${e.type}` })),
        { expectedStreamVersion: version },
      );
      version = result.nextExpectedStreamVersion;
      state = events.reduce(codeReviewDecider.evolve, state);
      step += 1;
      await runner.waitForPosition(result.lastPosition, 10_000);
    };
    const finish = async (outcome: "CodeReviewFailed" | "CodeReviewSkipped", reason: string) => {
      await record({ type: "EndReview", outcome, reason });
      logger.info({ codeReviewId, orgId, status: outcome === "CodeReviewFailed" ? "FAILED" : "SKIPPED", reason }, "code review ended");
    };

    let blobs: ReturnType<typeof git.openReviewBlobs> | null = null;
    try {
      const { remote, name } = req.repository;
      const pr = queries.findPullRequest(orgId, remote, name, req.prNumber);
      if (!pr) return await finish("CodeReviewFailed", `pull request ${name}#${req.prNumber} is not recorded`);
      const key = prKey({ remote, name, number: req.prNumber });

      if (state.status === "PENDING") {
        if (pr.state === "closed") return await finish("CodeReviewSkipped", `pull request is ${pr.merged ? "merged" : "closed"}`);
        if (pr.isDraft && !req.includeDrafts) return await finish("CodeReviewSkipped", "draft pull request (reviews of drafts run only when asked for)");
      }
      // Only a token this organisation may use: its caller's, or the service token for the operator's
      // organisations; another organisation without one fetches a public repository anonymously (a host
      // that does not say fails a review not yet started, and a started one reads what it fetched).
      const token = callerToken ?? hostTokens.serviceToken(orgId, remote);
      // Asked once per review: not again when its trigger asked (an anonymous call of a small quota).
      const anyone = (): Promise<boolean> =>
        trigger.public
          ? Promise.resolve(true)
          : hostTokens.isPublic(remote, pr.repository.name).catch((e: unknown) => {
              if (state.status !== "PENDING") return false;
              throw new Error(`could not tell whether ${pr.repository.name} is public (${e instanceof Error ? e.message : String(e)}); trigger the review again later, or with X-Host-Token`);
            });
      const tokenless = !token && !hostTokens.isOperatorOrg(orgId) && hostTokens.gitNeedsToken(remote) && !(await anyone());
      if (tokenless && state.status === "PENDING") {
        return await finish("CodeReviewFailed", `no ${remote} token to fetch the pull request with, and ${remote} does not serve it without one: the host token the review was triggered with is kept in memory only (the service restarted since); trigger the review again with X-Host-Token`);
      }
      // A started review fetched its commits with its caller's token; resumed without it (after a restart),
      // it reads those commits from the mirror and fetches nothing.
      const dir = await openMirror(remote, pr.repository.name, token, { fetch: !tokenless });
      // The run's file reads go through one git process (closed when the run ends).
      const reviewBlobs = (blobs = git.openReviewBlobs(dir));
      const { rulesAt, diffOf, readAt, prefetch, pathsAt } = createRunFiles(mirrors, git, dir, reviewBlobs);
      // The repository's indexed branch (target, else default, else any) that every index-backed finding reads.
      const target = deps.codeIndex ? indexTargetOf(deps.indexedRepositories, orgId, remote, name, [pr.targetBranch, pr.repository.defaultBranch]) : null;
      const parses = createParseCache(); // the run's parses (graph and calls), for the graph findings and the outline
      // Findings from the target branch's code graph (broken callers and imports), once per run and diff.
      const graphRuns = new Map<string, ReturnType<typeof graphFindingsFor>>();
      const graphFor = (base: string, head: string, files: readonly DiffFile[]) => {
        const k = `${base}..${head}`;
        if (!graphRuns.has(k)) {
          graphRuns.set(k, rulesAt(head).then((rules) => graphFindingsFor({
            codeIndex: deps.codeIndex, target, logger, files,
            readBase: (p) => readAt(base, p).catch(() => null), readHead: (p) => readAt(head, p).catch(() => null),
            prefetchHead: (paths) => prefetch(head, paths),
            basePaths: () => pathsAt(base), headPaths: () => pathsAt(head),
            skipImporter: (p) => rules.rulesFor(p, { repository: name }).ignored,
            parse: parses,
          })));
        }
        return graphRuns.get(k)!;
      };

      if (state.status === "PENDING") {
        const head = await resolveHead(dir, pr, req.branch, token);
        const base = await resolveTarget(dir, pr);
        const mergeBase = (await mirrors.mergeBase(dir, base.sha, head)) ?? base.sha;
        // Re-review after new commits: only what changed since the previous review's head.
        const previous = lastCompletedReview(orgId, key, codeReviewId);
        let diffBase = base.sha;
        let incremental = false;
        if (previous?.headSha && previous.headSha !== head && (await hasCommit(dir, previous.headSha))) {
          if ((await mirrors.mergeBase(dir, previous.headSha, head)) === previous.headSha) {
            diffBase = previous.headSha;
            incremental = true;
          }
        }
        if (!incremental) diffBase = mergeBase;
        const files = await diffOf(diffBase, head, incremental);
        const rules = await rulesAt(head);
        const skippedFiles: SkippedFile[] = [];
        const reviewable: DiffFile[] = [];
        const ignored = (path: string) => rules.rulesFor(path, { repository: name }).ignored;
        // A file without added lines (deleted, moved, or only lines removed) that others still import or
        // call is reviewed for that (a comment on the file as a whole): the graph is read before deciding.
        const removed = target && files.some(removesOnly) ? (await graphFor(diffBase, head, files)).byPath : null;
        for (const f of files) {
          const reason = skipReasonOf(f, ignored, { wholeFileFindings: removed?.has(f.path) ?? false });
          if (reason) skippedFiles.push({ path: f.path, reason });
          else reviewable.push(f);
        }
        const changedLines = reviewable.filter((f) => f.status !== "deleted").reduce((n, f) => n + f.additions + f.deletions, 0);
        if (reviewable.length > config.reviews.maxFiles) {
          return await finish("CodeReviewSkipped", `over the size limit: ${reviewable.length} files to review (limit ${config.reviews.maxFiles})`);
        }
        if (changedLines > config.reviews.maxChangedLines) {
          return await finish("CodeReviewSkipped", `over the size limit: ${changedLines} changed lines (limit ${config.reviews.maxChangedLines})`);
        }
        if (reviewable.length === 0 && !incremental) {
          return await finish("CodeReviewSkipped", files.length === 0 ? "nothing reviewable: the change is empty" : `nothing reviewable: every changed file was skipped: ${describeSkipped(skippedFiles)}`);
        }
        await record({
          type: "StartReview",
          started: { headSha: head, diffBase, incremental, totalFiles: reviewable.length, files: reviewable.map((f) => f.path), skippedFiles: skippedFiles.slice(0, 5000) },
        });
      }

      const started = state.started!;
      const files = await diffOf(started.diffBase, started.headSha, started.incremental);
      const byPath = new Map(files.map((f) => [f.path, f]));

      const changedFiles = started.files.flatMap((p) => byPath.get(p) ?? []).filter((f) => !f.binary).slice(0, 200);
      // Reading ahead is an optimisation: a failure there leaves each file to be read when asked for.
      const [rules] = await Promise.all([
        rulesAt(started.headSha),
        prefetch(started.diffBase, changedFiles.flatMap((f) => (f.status === "added" || !f.oldPath ? [] : [f.oldPath]))).catch(() => undefined),
        prefetch(started.headSha, changedFiles.flatMap((f) => (f.status === "deleted" || !f.newPath ? [] : [f.newPath]))).catch(() => undefined),
      ]);
      const contexts = customContext.activeContexts(orgId);
      // Existing helpers and untested changes: the index checked against base and head.
      const helpers = createGraphReview({
        codeIndex: deps.codeIndex ?? null,
        target,
        read: readAt,
        prefetch,
        paths: pathsAt,
        touched: new Set(files.flatMap((f) => [f.path, f.oldPath, f.newPath].filter((p): p is string => !!p))),
        rewrittenTests: rewrittenTestsOf(files),
        base: started.diffBase,
        head: started.headSha,
        logger,
      });
      if (state.status === "REVIEWING_FILES") {
        const pullRequest = { title: pr.title, description: pr.description, otherFiles: files.map((f) => f.path) };
        const contextTypes = new Map(contexts.map((c) => [c.id, c.type]));
        const callers = await graphFor(started.diffBase, started.headSha, files);
        for (const path of started.files) {
          if (state.reviewed.has(path)) continue;
          if (shouldStop()) throw new ReviewInterrupted();
          const file = byPath.get(path);
          const related = file && deps.chat && target ? await relatedCodeOf(target, file) : undefined;
          const baseContent = file && (deps.chat || mayAddOutput(file)) && file.status !== "added" && file.oldPath ? await readAt(started.diffBase, file.oldPath).catch(() => null) : null;
          const graphFindings = file ? [...(callers.byPath.get(path) ?? []), ...(await helpers.existingHelpers(file))] : [];
          const graphNotes = file && deps.chat ? untestedNotesFor(file.path, (await helpers.untested([file])).listed) : undefined;
          const { findings, model } = file
            ? await reviewFile({ file, repository: name, strictness: req.strictness, contexts, rules, chat: deps.chat, logger, pullRequest, baseContent, graphFindings, ...(graphNotes ? { graphNotes } : {}), ...(related ? { relatedCode: related } : {}) })
            : { findings: [], model: "none" as const };
          const earlier = queries.commentsOf(orgId, key).filter((c) => c.isGreptileComment);
          const known = new Set(earlier.filter((c) => c.fingerprint).map((c) => c.fingerprint!));
          // An open comment on the same code (its line's comment edited since) is not made again.
          const openCode = new Set(earlier.filter((c) => !c.addressed && c.codeFingerprint).map((c) => c.codeFingerprint!));
          const fresh = file
            ? dedupeFindings(fingerprintFindings(findings, file), known)
                .map((f) => ({ ...f, codeFingerprint: codeFingerprint(f, file) }))
                .filter((f) => f.codeFingerprint === null || !openCode.has(f.codeFingerprint))
            : [];
          const now = new Date().toISOString();
          const comments = fresh.map((f) => {
            const inline = renderInlineComment(f);
            const id = serviceCommentId(orgId, key, f.fingerprint);
            return {
                repository: req.repository,
                prNumber: req.prNumber,
                deliveryId: null,
                comment: {
                  id,
                  commentId: id,
                  body: inline.body,
                  authorLogin: botName,
                  filePath: inline.path,
                  // A finding on the file as a whole has no line (not posted inline; the summary carries it).
                  lineStart: isWholeFile(f) ? null : inline.lineStart,
                  lineEnd: isWholeFile(f) ? null : inline.lineEnd,
                  isGreptileComment: true,
                  hasSuggestion: inline.hasSuggestion,
                  suggestedCode: inline.suggestedCode,
                  linkedMemory: linkedMemory(f, contextTypes),
                  createdAt: now,
                  updatedAt: now,
                  commitSha: started.headSha,
                  codeReviewId,
                  fingerprint: f.fingerprint,
                  kind: "inline" as const,
                  severity: f.severity,
                  ruleId: f.ruleId,
                  codeFingerprint: f.codeFingerprint,
                },
            };
          });
          await record({
            type: "RecordFileReviewed",
            path,
            comments,
            findings: fresh.map((f) => ({ ruleId: f.ruleId, severity: f.severity, path: f.path, lineStart: f.lineStart, lineEnd: f.lineEnd, message: f.message.slice(0, 20_000) })),
            model,
          });
          if (config.reviews.throttleMs > 0) await sleep(config.reviews.throttleMs);
        }
        if (shouldStop()) throw new ReviewInterrupted();
        await record({ type: "GenerateSummary" });
      }

      // GENERATING_SUMMARY
      // The files whose added lines were read (a deleted or moved file reviewed for its importers has none).
      const linesRead = started.files.filter((p) => (byPath.get(p)?.additions ?? 0) > 0);
      const model = !deps.chat || state.modelReviewed === 0 ? "none" : state.modelReviewed >= linesRead.length ? "all" : "some";
      const { checks, humanChecks, skippedRules } = checksAndHumanChecks({ reviewedFiles: linesRead, repository: name, contexts, rules, model });
      if (target) checks.callersBranch = target.branch;
      // Each reviewed file's strictness: the nearest `.loupe/config.json` that sets one, else the review's.
      const fileStrictness = started.files.map((path) => ({ path, ...strictnessOf(rules, path, req.strictness, name) }));
      const openEarlier = queries.commentsOf(orgId, key).filter((c) => c.isGreptileComment && c.kind === "inline" && !c.addressed && c.codeReviewId !== codeReviewId).length;
      const untestedReport = await helpers.untested(fileStrictness.filter((f) => isShownAt("medium", f.strictness)).flatMap((f) => byPath.get(f.path) ?? []), files);
      const body = renderSummary({
        files,
        findings: state.findings,
        strictness: req.strictness,
        title: pr.title,
        skipped: started.skippedFiles,
        outline: await outlineOf(files, started.diffBase, started.headSha, readAt, parses),
        checks,
        humanChecks,
        skippedRules,
        openEarlier,
        // Tests not updated: a summary note on the files reviewed at strictness 3 (medium) or above.
        untested: untestedReport.listed,
        mechanical: untestedReport.mechanical,
        folderStrictness: fileStrictness.flatMap((f) => (f.folder === null ? [] : [{ path: f.path, folder: f.folder, strictness: f.strictness }])),
      });
      const summaryId = summaryCommentId(codeReviewId);
      const now = new Date().toISOString();
      // A re-review that found nothing new (new commits, or the same head again) completes quietly: no second summary comment.
      const sameHead = lastCompletedReview(orgId, key, codeReviewId)?.headSha === started.headSha;
      const quiet = (started.incremental || sameHead) && state.findings.length === 0;
      const summary = {
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
              kind: "summary" as const,
              severity: null,
            },
      };
      const posted = quiet ? null : await postToHost(orgId, key, req, pr, body, state, summaryId, started.headSha, record);
      await record({ type: "CompleteReview", summary: quiet ? null : summary, posted, completed: { body, summaryCommentId: quiet ? null : summaryId, headSha: started.headSha } });
      logger.info({ codeReviewId, orgId, files: started.files.length, comments: state.commentIds.length }, "code review completed");
    } catch (error) {
      if (error instanceof ReviewInterrupted) throw error;
      if (shouldStop()) throw new ReviewInterrupted(); // git killed by shutdown and the like: resume later
      const reason = error instanceof Error ? error.message : String(error);
      logger.warn({ codeReviewId, orgId, err: { message: reason } }, "code review failed");
      await finish("CodeReviewFailed", reason);
    } finally {
      blobs?.close();
    }
  }

  function linkedMemory(f: Finding, types: Map<string, string>) {
    if (!f.customContextId) return null;
    if (f.customContextId.startsWith("repo:")) return { id: f.customContextId, type: "REPO_RULE", source: null };
    return { id: f.customContextId, type: types.get(f.customContextId) ?? null, source: null };
  }

  /** The indexed branch of a pull request's repository: the first of `branches` indexed, else any; null when none. */
  /** Related code from the code index of the repository's indexed branch (never fails the review). */
  async function relatedCodeOf(target: IndexTarget, file: DiffFile): Promise<string | undefined> {
    if (!deps.codeIndex) return undefined;
    try {
      return await relatedCodeFor(deps.codeIndex, target, file);
    } catch (error) {
      logger.warn({ path: file.path, err: { message: error instanceof Error ? error.message : String(error) } }, "related code from the index failed; reviewing without it");
      return undefined;
    }
  }

  return { runReview, refresh, readStore };
}

export type ReviewEngine = ReturnType<typeof createReviewEngine>;
