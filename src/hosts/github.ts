/**
 * GitHub (github.com and Enterprise Server, API base https://HOST/api/v3).
 * Repositories are `owner/repo`. Webhooks: X-GitHub-Event, X-GitHub-Delivery, X-Hub-Signature-256.
 */
import { z } from "zod";
import { HostError, HostRateLimitError } from "./errors.ts";
import {
  arr,
  asJson,
  basicAuth,
  bodyHashId,
  deliveryIdFrom,
  ignored,
  iso,
  isRateLimited,
  nextLink,
  num,
  numOrNull,
  obj,
  repoSegments,
  requireFields,
  shapes,
  str,
  trimSlash,
  verifySha256Signature,
  type Json,
} from "./shared.ts";
import { defineHost } from "./define-host.ts";
import type {
  HostPullRequest,
  HostWebhookEvent,
  PullRequestAction,
  ReviewToPost,
} from "./types.ts";

export const GITHUB_API_BASE = "https://api.github.com";

const PR_ACTIONS: Record<string, PullRequestAction> = {
  opened: "opened",
  edited: "edited",
  synchronize: "synchronized",
  reopened: "reopened",
  ready_for_review: "ready_for_review",
  converted_to_draft: "converted_to_draft",
  labeled: "labeled",
  unlabeled: "unlabeled",
};

const COMMENT_ACTIONS = { created: "created", edited: "edited", deleted: "deleted" } as const;

/** The fields each handled delivery needs (checked before it is read: a missing one is a 400 naming it). */
const repository = z.object({ full_name: shapes.repository("two") });
const user = z.object({ login: shapes.text });
const pullRequestShape = z.object({
  repository,
  pull_request: z.object({
    number: shapes.number,
    title: z.string(),
    state: z.enum(["open", "closed"]),
    user,
    head: z.object({ ref: shapes.text, sha: shapes.text }),
    base: z.object({ ref: shapes.text }),
    created_at: shapes.timestamp,
    updated_at: shapes.timestamp,
  }),
});
const comment = z.object({ id: shapes.id, body: z.string(), user, created_at: shapes.timestamp, updated_at: shapes.timestamp });
const commentShape = (on: "issue" | "pull_request", action: string) =>
  z.object({ repository, [on]: z.object({ number: shapes.number }), comment: action === "deleted" ? z.object({ id: shapes.id }) : comment });
const threadShape = z.object({
  repository,
  pull_request: z.object({ number: shapes.number }),
  thread: z.object({ comments: z.array(z.object({ id: shapes.id })) }),
});

/** Maps a GitHub pull request object (webhook or REST) to the neutral shape. */
export function toGitHubPullRequest(raw: unknown): HostPullRequest {
  const pr = obj(raw);
  const head = obj(pr["head"]);
  const base = obj(pr["base"]);
  const merged = pr["merged"] === true || (pr["merged"] === undefined && pr["merged_at"] != null);
  const result: HostPullRequest = {
    number: num(pr["number"]),
    title: str(pr["title"]),
    description: str(pr["body"]),
    state: pr["state"] === "open" ? "open" : "closed",
    merged,
    isDraft: pr["draft"] === true,
    authorLogin: str(obj(pr["user"])["login"]),
    sourceBranch: str(head["ref"]),
    targetBranch: str(base["ref"]),
    headSha: str(head["sha"]),
    labels: arr(pr["labels"]).map((l) => str(obj(l)["name"])).filter((n) => n !== ""),
    createdAt: iso(pr["created_at"]),
    updatedAt: iso(pr["updated_at"]),
    url: str(pr["html_url"]),
  };
  const baseSha = str(base["sha"]);
  if (baseSha) result.baseSha = baseSha;
  if (typeof pr["changed_files"] === "number") {
    result.stats = {
      changedFiles: num(pr["changed_files"]),
      additions: num(pr["additions"]),
      deletions: num(pr["deletions"]),
    };
  }
  return result;
}

function toComment(raw: unknown) {
  const c = obj(raw);
  const path = typeof c["path"] === "string" ? c["path"] : null;
  // `line` is null once a comment is outdated; fall back to the line it was written on.
  const line = numOrNull(c["line"]) ?? numOrNull(c["original_line"]);
  const startLine = numOrNull(c["start_line"]) ?? numOrNull(c["original_start_line"]);
  return {
    id: str(c["id"]),
    body: str(c["body"]),
    authorLogin: str(obj(c["user"])["login"]),
    path,
    line: path ? line : null,
    startLine: path ? startLine : null,
    createdAt: iso(c["created_at"]),
    updatedAt: iso(c["updated_at"]),
  };
}

export const createGitHubHost = defineHost({
  remote: "github",
  defaultApiBase: GITHUB_API_BASE,
  headers: {
    Accept: "application/vnd.github+json",
    "X-GitHub-Api-Version": "2022-11-28",
    "User-Agent": "loupe",
  },
  authorization: (token) => `Bearer ${token}`,
  build({ remote, apiBase, http, auth }) {
    function repoPath(repo: string, operation: string): string {
      const [owner, name] = repoSegments(remote, repo, operation, [2]);
      return `${apiBase}/repos/${encodeURIComponent(owner!)}/${encodeURIComponent(name!)}`;
    }

    function deliveryId(headers: Headers, body: unknown): string {
      return deliveryIdFrom(remote, [{ field: "X-GitHub-Delivery", value: headers.get("x-github-delivery") }]) ?? bodyHashId(body);
    }

    function parseWebhook(headers: Headers, body: unknown): HostWebhookEvent {
      const id = deliveryId(headers, body);
      const event = headers.get("x-github-event") ?? "";
      const p = obj(asJson(body));
      const action = str(p["action"]);
      const repository = str(obj(p["repository"])["full_name"]);

      if (event === "pull_request") {
        if (action !== "closed" && !PR_ACTIONS[action]) return ignored(remote, id, `pull_request action ${action || "(none)"} not handled`);
        requireFields(remote, pullRequestShape, p);
        const pullRequest = toGitHubPullRequest(p["pull_request"]);
        const mapped = action === "closed" ? (pullRequest.merged ? "merged" : "closed") : PR_ACTIONS[action]!;
        return { kind: "pull_request", remote, deliveryId: id, action: mapped, repository, pullRequest };
      }
      if (event === "pull_request_review_comment" || event === "issue_comment") {
        const commentAction = COMMENT_ACTIONS[action as keyof typeof COMMENT_ACTIONS];
        if (!commentAction) return ignored(remote, id, `${event} action ${action || "(none)"} not handled`);
        // issue_comment fires for issues too; only comments on pull requests (overview comments) count.
        const issue = p["issue"];
        if (event === "issue_comment" && issue !== null && typeof issue === "object" && !obj(issue)["pull_request"]) {
          return ignored(remote, id, "issue_comment on an issue, not a pull request");
        }
        requireFields(remote, commentShape(event === "issue_comment" ? "issue" : "pull_request", commentAction), p);
        const prNumber = num(obj(p[event === "issue_comment" ? "issue" : "pull_request"])["number"]);
        return {
          kind: "review_comment",
          remote,
          deliveryId: id,
          action: commentAction,
          repository,
          prNumber,
          comment: toComment(p["comment"]),
        };
      }
      if (event === "pull_request_review_thread") {
        if (action !== "resolved" && action !== "unresolved") {
          return ignored(remote, id, `pull_request_review_thread action ${action || "(none)"} not handled`);
        }
        requireFields(remote, threadShape, p);
        return {
          kind: "review_thread",
          remote,
          deliveryId: id,
          action,
          repository,
          prNumber: num(obj(p["pull_request"])["number"]),
          commentIds: arr(obj(p["thread"])["comments"]).map((c) => str(obj(c)["id"])).filter((s) => s !== ""),
        };
      }
      return ignored(remote, id, `event ${event || "(missing X-GitHub-Event)"} not handled`);
    }

    async function listPullRequests(
      repo: string,
      token: string | undefined,
      opts: { state: "all" | "open"; limit?: number },
    ): Promise<HostPullRequest[]> {
      const operation = "listPullRequests";
      const out: HostPullRequest[] = [];
      const limit = opts.limit ?? Infinity;
      let url: string | undefined =
        `${repoPath(repo, operation)}/pulls?state=${opts.state}&per_page=100&sort=created&direction=desc`;
      while (url && out.length < limit) {
        const res = await http.request({ operation, url, authorization: auth(token) });
        for (const item of arr(res.json)) out.push(toGitHubPullRequest(item));
        url = nextLink(res.headers.get("link"));
      }
      return out.slice(0, limit);
    }

    /** Throws (HostError) when GitHub could not say: a rate limit is no "cannot read". */
    async function checkReadAccess(repo: string, token: string | undefined): Promise<boolean> {
      const url = repoPath(repo, "checkReadAccess");
      const res = await http.request({ operation: "checkReadAccess", url, authorization: auth(token), accept: [401, 403, 404] });
      // A 403 it accepted may be a rate limit (./shared.ts, isRateLimited): no answer about the repository.
      if (isRateLimited(res)) throw new HostRateLimitError(remote, "checkReadAccess", `GET ${new URL(url).pathname} rate limited (HTTP ${res.status})`, res.status);
      if (res.status !== 200) return false;
      const body = obj(res.json);
      const permissions = body["permissions"];
      // Anonymous calls get no `permissions`: a public repository is readable then.
      if (permissions === undefined) return body["private"] === false;
      return obj(permissions)["pull"] === true;
    }

    async function postReview(repo: string, prNumber: number, token: string, review: ReviewToPost) {
      const operation = "postReview";
      const prUrl = `${repoPath(repo, operation)}/pulls/${encodeURIComponent(String(prNumber))}`;
      const res = await http.request({
        operation,
        method: "POST",
        url: `${prUrl}/reviews`,
        authorization: auth(token),
        body: {
          commit_id: review.commitSha,
          body: review.summary,
          event: "COMMENT",
          comments: review.inline.map((c) => {
            const comment: Json = { path: c.path, line: c.line, side: "RIGHT", body: c.body };
            if (c.startLine !== undefined && c.startLine < c.line) {
              comment["start_line"] = c.startLine;
              comment["start_side"] = "RIGHT";
            }
            return comment;
          }),
        },
      });
      const reviewId = str(obj(res.json)["id"]);
      if (!reviewId) throw new HostError(remote, operation, "response carried no review id", res.status);
      return { summaryCommentId: reviewId, inlineCommentIds: await inlineIdsOf(prUrl, reviewId, token, review, operation) };
    }

    /** The review response has no comment ids: read them back and match them to the request. */
    async function inlineIdsOf(prUrl: string, reviewId: string, token: string, review: ReviewToPost, operation: string): Promise<string[]> {
      if (review.inline.length === 0) return [];
      const posted: { id: string; path: string; line: number | null; body: string }[] = [];
      let url: string | undefined = `${prUrl}/reviews/${encodeURIComponent(reviewId)}/comments?per_page=100`;
      while (url) {
        const page = await http.request({ operation, url, authorization: auth(token) });
        for (const c of arr(page.json)) {
          const o = obj(c);
          posted.push({
            id: str(o["id"]),
            path: str(o["path"]),
            line: numOrNull(o["line"]) ?? numOrNull(o["original_line"]),
            body: str(o["body"]),
          });
        }
        url = nextLink(page.headers.get("link"));
      }
      const used = new Set<number>();
      return review.inline.map((c, i) => {
        let idx = posted.findIndex((p, j) => !used.has(j) && p.path === c.path && p.line === c.line && p.body === c.body);
        if (idx < 0) idx = posted.findIndex((p, j) => !used.has(j) && p.path === c.path && p.body === c.body);
        if (idx < 0 && !used.has(i) && posted[i]) idx = i;
        if (idx < 0) throw new HostError(remote, operation, `posted review is missing inline comment ${i + 1}`);
        used.add(idx);
        return posted[idx]!.id;
      });
    }

    /** `GET /repos/{o}/{r}/pulls/{n}/reviews`: the review whose body carries `marker`, if any. */
    async function findPostedReview(repo: string, prNumber: number, token: string, review: ReviewToPost, marker: string) {
      const operation = "findPostedReview";
      const prUrl = `${repoPath(repo, operation)}/pulls/${encodeURIComponent(String(prNumber))}`;
      let url: string | undefined = `${prUrl}/reviews?per_page=100`;
      while (url) {
        const page = await http.request({ operation, url, authorization: auth(token) });
        for (const r of arr(page.json)) {
          const o = obj(r);
          if (str(o["body"]).includes(marker) && str(o["id"])) {
            const reviewId = str(o["id"]);
            return { summaryCommentId: reviewId, inlineCommentIds: await inlineIdsOf(prUrl, reviewId, token, review, operation) };
          }
        }
        url = nextLink(page.headers.get("link"));
      }
      return null;
    }

    function cloneUrl(base: string, repo: string): string {
      const [owner, name] = repoSegments(remote, repo, "cloneUrl", [2]);
      return `${trimSlash(base)}/${owner}/${name}.git`;
    }

    // GitHub's git endpoint takes Basic auth with the user `x-access-token` for app and OAuth tokens.
    const gitAuthHeader = (token: string) => `Authorization: ${basicAuth("x-access-token", token)}`;

    return {
      verifyWebhook: (headers, rawBody, secret) =>
        verifySha256Signature(headers.get("x-hub-signature-256"), rawBody, secret),
      deliveryId,
      parseWebhook,
      listPullRequests,
      checkReadAccess,
      postReview,
      findPostedReview,
      cloneUrl,
      gitAuthHeader,
    };
  },
});
