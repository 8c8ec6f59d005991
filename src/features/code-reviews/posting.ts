/**
 * Posting a review to its host, when LOUPE_POST_REVIEWS=true and a service token is configured, for the
 * organisations the service token serves (../pull-requests/host-tokens.ts): the operator's bot never
 * posts for another organisation, and a caller's own token is never used to post.
 * Crash-safe: ReviewPostRequested is recorded before the call; a resumed review that finds it first asks
 * the host for a review carrying the hidden marker and posts only when there is none.
 */
import type { Config } from "../../config.ts";
import type { Logger } from "../../logging.ts";
import type { Hosts } from "../../hosts/index.ts";
import type { PullRequestQueries } from "../pull-requests/queries.ts";
import type { PullRequestRecord } from "../pull-requests/projection.ts";
import type { CommentRecord } from "../review-comments/projection.ts";
import type { CodeReviewCommand, CodeReviewState } from "./decider.ts";
import type { HostTokens } from "../pull-requests/host-tokens.ts";

/** Hidden marker ending a posted summary: finds the review on the host after a crash. */
export const reviewMarker = (codeReviewId: string) => `loupe-review:${codeReviewId}`;

export function createReviewPoster({ config, logger, hosts, queries, hostTokens }: { config: Config; logger: Logger; hosts: Hosts; queries: PullRequestQueries; hostTokens: HostTokens }) {
  /**
   * Posts the review when LOUPE_POST_REVIEWS=true and the service token serves `orgId`; returns host
   * ids by our ids (null when not posted). Crash-safe: ReviewPostRequested is recorded before the call; a resumed review that finds it
   * first asks the host for a review carrying the hidden marker and posts only when there is none.
   */
  return async function postToHost(
    orgId: string,
    key: string,
    req: NonNullable<CodeReviewState["requested"]>,
    pr: PullRequestRecord,
    summary: string,
    state: CodeReviewState,
    summaryId: string,
    headSha: string,
    record: (command: CodeReviewCommand) => Promise<void>,
  ): Promise<{ id: string; commentId: string }[] | null> {
    const remote = req.repository.remote;
    const token = hostTokens.serviceToken(orgId, remote);
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
      if (!state.postRequested) await record({ type: "RequestPost", post: { idempotencyKey: marker, commitSha: headSha, inlineCount: inline.length } });
      result = await host.postReview(pr.repository.name, pr.number, token, review);
    }
    const posted = result;
    return [{ id: summaryId, commentId: posted.summaryCommentId }, ...inline.map((c, i) => ({ id: c.id, commentId: posted.inlineCommentIds[i]! }))];
  };
}
