/**
 * After new commits on a pull request: a service comment is addressed when a later commit changed its
 * lines or applied its suggestion (src/review/addressed.ts); the commits since the last review are
 * recorded. Both go to the pull request's stream.
 */
import type { EventStore } from "../../eventstore/port.ts";
import type { ProjectionRunner } from "../../../projections/runner.ts";
import type { GitMirrors } from "../../git/mirrors.ts";
import type { Remote } from "../../hosts/types.ts";
import { newEvent, type CommandContext } from "../../eventstore/new-event.ts";
import { parseGitDiff } from "../../review/diff.ts";
import { isCommentAddressed } from "../../review/addressed.ts";
import { stillFlaggedBy } from "../../review/still-flagged.ts";
import { BROKEN_CALLERS_RULE, callSitesUpdated } from "../../review/graph/broken-callers.ts";
import { BROKEN_IMPORTS_RULE, removalFixed } from "../../review/graph/broken-imports.ts";
import type { CustomContextLike } from "../../review/patterns.ts";
import type { PullRequestQueries } from "../pull-requests/queries.ts";
import { pullRequestDecider, pullRequestStateOf, pullRequestStream, type PullRequestStreamEvent } from "../pull-requests/decider.ts";
import type { ReviewGit } from "./review-git.ts";

type LastReview = (orgId: string, key: string, exceptId: string) => { headSha: string | null } | undefined;

export function createPullRequestRefresh(deps: {
  eventStore: EventStore;
  runner: ProjectionRunner;
  mirrors: GitMirrors;
  queries: PullRequestQueries;
  git: ReviewGit;
  /** The host token an organisation's background work may use (the service token, for the operator's organisations only). */
  serviceToken: (orgId: string, remote: Remote) => string | undefined;
  lastCompletedReview: LastReview;
  /** The organisation's ACTIVE custom context (a PATTERN's comment is checked against its pattern again). */
  activeContexts: (orgId: string) => CustomContextLike[];
}) {
  const { eventStore, runner, mirrors, queries, lastCompletedReview } = deps;
  const { openMirror, resolveHead, hasCommit, readFileAt } = deps.git;
  /**
   * Addressed detection and commits since the last review, after new commits: a service comment is
   * addressed when a later commit changed its lines or applied its suggestion (src/review/addressed.ts).
   */
  return async function refresh(orgId: string, ref: { remote: Remote; name: string; number: number }): Promise<{ addressed: string[] }> {
    const pr = queries.findPullRequest(orgId, ref.remote, ref.name, ref.number);
    if (!pr) return { addressed: [] };
    const key = pr.id;
    // Inline service comments, and those on a file as a whole (broken imports and callers).
    const onFile = (c: { lineStart: number | null; ruleId?: string | undefined }) => c.lineStart === null && (c.ruleId === BROKEN_IMPORTS_RULE || c.ruleId === BROKEN_CALLERS_RULE);
    const open = queries.commentsOf(orgId, key).filter((c) => c.isGreptileComment && !c.addressed && c.filePath && (c.lineStart !== null || onFile(c)) && c.commitSha);
    const last = lastCompletedReview(orgId, key, "");
    if (open.length === 0 && !last) return { addressed: [] };
    // Runs after a webhook delivery, with no caller: only the service token, and only for the organisations
    // it serves; another organisation's refresh fetches without a token (a private repository's fails).
    const token = deps.serviceToken(orgId, ref.remote);
    const dir = await openMirror(ref.remote, pr.repository.name, token);
    const head = await resolveHead(dir, pr, null, token);
    const context: CommandContext = { orgId, actor: "system:reviewer", correlationId: `refresh:${key}:${head}`, causationId: null };
    const events: PullRequestStreamEvent[] = [];
    const state = pullRequestStateOf(pr);
    const trees = new Map<string, Map<string, string>>();
    const addressed: string[] = [];
    const contexts = deps.activeContexts(orgId);
    for (const c of open) {
      if (c.commitSha === head || !(await hasCommit(dir, c.commitSha))) continue;
      const files = parseGitDiff(await mirrors.diff(dir, c.commitSha!, head, { range: "two-dot" }));
      const touched = files.some((f) => f.oldPath === c.filePath || f.newPath === c.filePath);
      const newContent = touched ? await readFileAt(dir, head, c.filePath!, trees).catch(() => null) : null;
      // Broken callers: addressed too when every call site it names was updated since; broken imports
      // when every import it names was, or the file is back (or moved again).
      const sitesFixed = onFile(c)
        ? removalFixed(c.filePath!, c.body, files)
        : (c.ruleId === BROKEN_CALLERS_RULE && callSitesUpdated(c.body, files)) || (c.ruleId === BROKEN_IMPORTS_RULE && removalFixed(c.filePath!, c.body, files));
      if (c.lineStart === null && !sitesFixed) continue;
      const result: ReturnType<typeof isCommentAddressed> = sitesFixed ? { addressed: true, reason: "lines-changed" } : isCommentAddressed(
        { path: c.filePath!, lineStart: c.lineStart!, lineEnd: c.lineEnd ?? c.lineStart!, suggestedCode: c.suggestedCode, commitSha: c.commitSha! },
        files,
        newContent,
        stillFlaggedBy({ path: c.filePath!, ruleId: c.ruleId, customContextId: c.linkedMemory?.id }, { repository: pr.repository.name, contexts }),
      );
      if (result.addressed) {
        addressed.push(c.id);
        events.push(...pullRequestDecider.decide({ type: "MarkCommentAddressed", data: { repository: pr.repository, prNumber: pr.number, id: c.id, reason: result.reason, commitSha: head } }, state));
      }
    }
    if (last?.headSha && last.headSha !== head && (await hasCommit(dir, last.headSha))) {
      const commits = await mirrors.commitsBetween(dir, last.headSha, head);
      const data = {
        repository: pr.repository,
        prNumber: pr.number,
        baseSha: last.headSha,
        headSha: head,
        commits: commits.slice(-500).map((c) => ({ sha: c.sha, message: c.message.slice(0, 10_000), authorName: c.author.replace(/\s*<[^>]*>$/, ""), committedAt: c.date })),
      };
      events.push(...pullRequestDecider.decide({ type: "RecordCommits", data }, state));
    }
    if (events.length > 0) {
      const result = await eventStore.appendToStream(pullRequestStream(orgId, key), events.map((e) => newEvent(e.type, e.data, context)));
      await runner.waitForPosition(result.lastPosition, 10_000);
    }
    return { addressed };
  };
}
