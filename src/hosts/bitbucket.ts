/**
 * Bitbucket Cloud (API base https://api.bitbucket.org/2.0). Repositories are `workspace/slug`.
 * Webhooks: X-Event-Key, X-Request-UUID, optional X-Hub-Signature (sha256=<hex> HMAC).
 *
 * Tokens: an access token (repository/project/workspace or OAuth) is sent as Bearer; a token of
 * the form `username:app_password` is sent as Basic auth.
 *
 * Bitbucket has no labels (always []), and its `pullrequest:updated` does not say what changed:
 * it is reported as `synchronized` with the current headSha, and consumers compare that with the
 * head they already know before re-reviewing.
 */
import { z } from "zod";
import { HostError } from "./errors.ts";
import {
  allPosted,
  arr,
  asJson,
  basicAuth,
  bodyHashId,
  deliveryIdFrom,
  ignored,
  iso,
  matchPostedInline,
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
  type PostedInline,
} from "./shared.ts";
import { defineHost } from "./define-host.ts";
import type {
  HostComment,
  HostPullRequest,
  HostWebhookEvent,
  PullRequestAction,
  ReviewToPost,
} from "./types.ts";

export const BITBUCKET_API_BASE = "https://api.bitbucket.org/2.0";

function login(user: unknown): string {
  const u = obj(user);
  return str(u["nickname"]) || str(u["username"]) || str(u["display_name"]) || str(u["account_id"]) || str(u["uuid"]);
}

export function toBitbucketPullRequest(raw: unknown): HostPullRequest {
  const pr = obj(raw);
  const source = obj(pr["source"]);
  const destination = obj(pr["destination"]);
  const state = str(pr["state"]);
  const result: HostPullRequest = {
    number: num(pr["id"]),
    title: str(pr["title"]),
    description: str(pr["description"]) || str(obj(pr["summary"])["raw"]),
    state: state === "OPEN" ? "open" : "closed",
    merged: state === "MERGED",
    isDraft: pr["draft"] === true,
    authorLogin: login(pr["author"]),
    sourceBranch: str(obj(source["branch"])["name"]),
    targetBranch: str(obj(destination["branch"])["name"]),
    headSha: str(obj(source["commit"])["hash"]),
    labels: [],
    createdAt: iso(pr["created_on"]),
    updatedAt: iso(pr["updated_on"]),
    url: str(obj(obj(pr["links"])["html"])["href"]),
  };
  const baseSha = str(obj(destination["commit"])["hash"]);
  if (baseSha) result.baseSha = baseSha;
  return result;
}

function toComment(raw: unknown): HostComment {
  const c = obj(raw);
  const inline = obj(c["inline"]);
  const path = str(inline["path"]) || null;
  const to = numOrNull(inline["to"]) ?? numOrNull(inline["from"]);
  const startTo = numOrNull(inline["start_to"]) ?? numOrNull(inline["start_from"]);
  return {
    id: str(c["id"]),
    body: str(obj(c["content"])["raw"]),
    authorLogin: login(c["user"]),
    path,
    line: path ? to : null,
    startLine: path && startTo !== null && startTo !== to ? startTo : null,
    createdAt: iso(c["created_on"]),
    updatedAt: iso(c["updated_on"] ?? c["created_on"]),
  };
}

const PR_EVENTS: Record<string, PullRequestAction> = {
  "pullrequest:created": "opened",
  "pullrequest:updated": "synchronized",
  "pullrequest:fulfilled": "merged",
  "pullrequest:rejected": "closed",
};

const COMMENT_EVENTS = {
  "pullrequest:comment_created": "created",
  "pullrequest:comment_updated": "edited",
  "pullrequest:comment_deleted": "deleted",
} as const;

const THREAD_EVENTS = {
  "pullrequest:comment_resolved": "resolved",
  "pullrequest:comment_reopened": "unresolved",
} as const;

/** The fields each handled event needs (checked before it is read: a missing one is a 400 naming it). */
const repository = z.object({ full_name: shapes.repository("two") });
const pullRequestShape = z.object({
  repository,
  pullrequest: z.object({
    id: shapes.number,
    title: z.string(),
    state: shapes.text,
    source: z.object({ branch: z.object({ name: shapes.text }), commit: z.object({ hash: shapes.text }) }),
    destination: z.object({ branch: z.object({ name: shapes.text }) }),
    created_on: shapes.timestamp,
    updated_on: shapes.timestamp,
  }),
});
const commentShape = (action: "created" | "edited" | "deleted" | "thread") =>
  z.object({
    repository,
    pullrequest: z.object({ id: shapes.number }),
    comment:
      action === "created" || action === "edited"
        ? z.object({ id: shapes.id, content: z.object({ raw: z.string() }), user: z.record(z.string(), z.unknown()).refine((u) => login(u) !== "", "expected a user with a nickname, display_name, account_id or uuid"), created_on: shapes.timestamp })
        : z.object({ id: shapes.id }),
  });

export const createBitbucketHost = defineHost({
  remote: "bitbucket",
  defaultApiBase: BITBUCKET_API_BASE,
  headers: { Accept: "application/json", "User-Agent": "loupe" },
  authorization: (token) => {
    const colon = token.indexOf(":");
    return colon > 0 ? basicAuth(token.slice(0, colon), token.slice(colon + 1)) : `Bearer ${token}`;
  },
  build({ remote, apiBase, http, auth }) {
    function repoUrl(repo: string, operation: string): string {
      const [workspace, slug] = repoSegments(remote, repo, operation, [2]);
      return `${apiBase}/repositories/${encodeURIComponent(workspace!)}/${encodeURIComponent(slug!)}`;
    }

    function deliveryId(headers: Headers, body: unknown): string {
      return deliveryIdFrom(remote, [{ field: "X-Request-UUID", value: headers.get("x-request-uuid") }]) ?? bodyHashId(body);
    }

    function parseWebhook(headers: Headers, body: unknown): HostWebhookEvent {
      const id = deliveryId(headers, body);
      const key = headers.get("x-event-key") ?? "";
      const p = obj(asJson(body));
      const repository = str(obj(p["repository"])["full_name"]);
      const prNumber = num(obj(p["pullrequest"])["id"]);

      const prAction = PR_EVENTS[key];
      if (prAction) {
        requireFields(remote, pullRequestShape, p);
        return {
          kind: "pull_request",
          remote,
          deliveryId: id,
          action: prAction,
          repository,
          pullRequest: toBitbucketPullRequest(p["pullrequest"]),
        };
      }
      const commentAction = COMMENT_EVENTS[key as keyof typeof COMMENT_EVENTS];
      if (commentAction) {
        requireFields(remote, commentShape(commentAction), p);
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
      const threadAction = THREAD_EVENTS[key as keyof typeof THREAD_EVENTS];
      if (threadAction) {
        requireFields(remote, commentShape("thread"), p);
        const commentId = str(obj(p["comment"])["id"]);
        return {
          kind: "review_thread",
          remote,
          deliveryId: id,
          action: threadAction,
          repository,
          prNumber,
          commentIds: commentId ? [commentId] : [],
        };
      }
      return ignored(remote, id, `event ${key || "(missing X-Event-Key)"} not handled`);
    }

    async function listPullRequests(
      repo: string,
      token: string | undefined,
      opts: { state: "all" | "open"; limit?: number },
    ): Promise<HostPullRequest[]> {
      const operation = "listPullRequests";
      const states = opts.state === "open" ? ["OPEN"] : ["OPEN", "MERGED", "DECLINED", "SUPERSEDED"];
      const out: HostPullRequest[] = [];
      const limit = opts.limit ?? Infinity;
      let url: string | undefined =
        `${repoUrl(repo, operation)}/pullrequests?${states.map((s) => `state=${s}`).join("&")}&pagelen=50`;
      while (url && out.length < limit) {
        const res = await http.request({ operation, url, authorization: auth(token) });
        const page = obj(res.json);
        for (const item of arr(page["values"])) out.push(toBitbucketPullRequest(item));
        // `next` is a full URL; the HTTP client refuses it unless it is on the API origin.
        url = typeof page["next"] === "string" ? page["next"] : undefined;
      }
      return out.slice(0, limit);
    }

    async function checkReadAccess(repo: string, token: string | undefined): Promise<boolean> {
      const res = await http.request({
        operation: "checkReadAccess",
        url: repoUrl(repo, "checkReadAccess"),
        authorization: auth(token),
        accept: [401, 403, 404],
      });
      return res.status === 200;
    }

    async function postComment(url: string, token: string, body: Json): Promise<string> {
      const res = await http.request({ operation: "postReview", method: "POST", url, authorization: auth(token), body });
      const id = str(obj(res.json)["id"]);
      if (!id) throw new HostError(remote, "postReview", "response carried no comment id", res.status);
      return id;
    }

    /** Every comment of a pull request (pages followed by their `next` links), deleted ones left out. */
    async function comments(url: string, token: string, operation: string): Promise<Json[]> {
      const out: Json[] = [];
      let next: string | undefined = `${url}?pagelen=100`;
      while (next) {
        const page = obj((await http.request({ operation, url: next, authorization: auth(token) })).json);
        for (const c of arr(page["values"])) if (obj(c)["deleted"] !== true) out.push(obj(c));
        next = typeof page["next"] === "string" ? page["next"] : undefined;
      }
      return out;
    }

    const inlineOf = (all: Json[]): PostedInline[] =>
      all
        .filter((c) => str(obj(c["inline"])["path"]))
        .map((c) => ({ id: str(c["id"]), path: str(obj(c["inline"])["path"]), line: numOrNull(obj(c["inline"])["to"]), body: str(obj(c["content"])["raw"]) }));

    const commentsUrl = (repo: string, prNumber: number, operation: string) =>
      `${repoUrl(repo, operation)}/pullrequests/${encodeURIComponent(String(prNumber))}/comments`;

    /**
     * Inline comments first, the summary last: a summary on the pull request means the whole review is
     * there. Inline comments already present with the same path, line and body (an earlier attempt cut
     * short) are reused, not posted again.
     */
    async function postReview(repo: string, prNumber: number, token: string, review: ReviewToPost) {
      const url = commentsUrl(repo, prNumber, "postReview");
      const already = review.inline.length > 0 ? matchPostedInline(review.inline, inlineOf(await comments(url, token, "postReview"))) : [];
      const inlineCommentIds: string[] = [];
      for (const [i, c] of review.inline.entries()) {
        const inline: Json = { path: c.path, to: c.line };
        if (c.startLine !== undefined && c.startLine < c.line) inline["start_to"] = c.startLine;
        inlineCommentIds.push(already[i] ?? (await postComment(url, token, { content: { raw: c.body }, inline })));
      }
      const summaryCommentId = await postComment(url, token, { content: { raw: review.summary } });
      return { summaryCommentId, inlineCommentIds };
    }

    /** The summary comment carrying `marker` (posted last), with the inline comments matched by path, line and body. */
    async function findPostedReview(repo: string, prNumber: number, token: string, review: ReviewToPost, marker: string) {
      const operation = "findPostedReview";
      const all = await comments(commentsUrl(repo, prNumber, operation), token, operation);
      const summary = all.find((c) => !str(obj(c["inline"])["path"]) && str(obj(c["content"])["raw"]).includes(marker) && str(c["id"]));
      if (!summary) return null;
      return { summaryCommentId: str(summary["id"]), inlineCommentIds: allPosted(remote, operation, matchPostedInline(review.inline, inlineOf(all))) };
    }

    function cloneUrl(base: string, repo: string): string {
      const [workspace, slug] = repoSegments(remote, repo, "cloneUrl", [2]);
      return `${trimSlash(base)}/${workspace}/${slug}.git`;
    }

    function gitAuthHeader(token: string): string {
      const colon = token.indexOf(":");
      const value =
        colon > 0 ? basicAuth(token.slice(0, colon), token.slice(colon + 1)) : basicAuth("x-token-auth", token);
      return `Authorization: ${value}`;
    }

    return {
      verifyWebhook: (headers, rawBody, secret) => verifySha256Signature(headers.get("x-hub-signature"), rawBody, secret),
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
