/**
 * Azure DevOps Services (API base https://dev.azure.com; Azure DevOps Server: https://HOST/tfs,
 * with the collection in place of the organisation).
 *
 * Repository names: `org/project/repo`. The short form `org/repo` means a project and repository
 * of the same name (Azure's default when a project is created). Webhook events always report the
 * long form.
 *
 * Tokens: a JWT (Microsoft Entra / OAuth access token) is sent as Bearer; anything else is a
 * personal access token, sent as Basic auth with an empty user name.
 *
 * Service hooks carry no signature: the subscription is configured with Basic auth over HTTPS,
 * and verifyWebhook compares the password (or `user:password` when the secret contains a colon)
 * in constant time. Azure labels are "tags" on pull requests (`labels[].name`).
 */
import { z } from "zod";
import { HostError, WebhookPayloadError } from "./errors.ts";
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
  safeEqual,
  shapes,
  str,
  strOrNull,
  stripRefsHeads,
  trimSlash,
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
import { Buffer } from "node:buffer";

export const AZURE_API_BASE = "https://dev.azure.com";
const API_VERSION = "api-version=7.1";
const PAGE = 100;

export type AzureRepo = { org: string; project: string; repo: string };

export function parseAzureRepo(repo: string, operation = "parseRepository"): AzureRepo {
  const parts = repoSegments("azure", repo, operation, [2, 3]);
  return parts.length === 3
    ? { org: parts[0]!, project: parts[1]!, repo: parts[2]! }
    : { org: parts[0]!, project: parts[1]!, repo: parts[1]! };
}

const isJwt = (token: string) => /^eyJ[\w-]*\.[\w-]+\.[\w-]*$/.test(token);

function authValue(token: string): string {
  return isJwt(token) ? `Bearer ${token}` : basicAuth("", token);
}

/** The organisation from an Azure URL: dev.azure.com/{org}/... or {org}.visualstudio.com. */
function orgFromUrl(url: string): string {
  try {
    const u = new URL(url);
    const vs = /^([^.]+)\.visualstudio\.com$/i.exec(u.hostname);
    if (vs) return vs[1]!;
    return decodeURIComponent(u.pathname.split("/").filter(Boolean)[0] ?? "");
  } catch {
    return "";
  }
}

function repositoryName(envelope: Json, repository: Json): string {
  const candidates = [
    str(obj(obj(envelope["resourceContainers"])["account"])["baseUrl"]),
    str(repository["remoteUrl"]),
    str(repository["webUrl"]),
    str(repository["url"]),
  ];
  const org = candidates.map(orgFromUrl).find((o) => o !== "") ?? "";
  const project = str(obj(repository["project"])["name"]);
  return `${org}/${project}/${str(repository["name"])}`;
}

/** The fields each handled service hook needs (checked before it is read: a missing one is a 400 naming it). */
const repositoryShape = z.object({ name: shapes.text, project: z.object({ name: shapes.text }) });
const author = z.record(z.string(), z.unknown()).refine((a) => str(a["uniqueName"]) !== "" || str(a["displayName"]) !== "", "expected uniqueName or displayName");
const pullRequestShape = z.object({
  resource: z.object({
    pullRequestId: shapes.number,
    title: z.string(),
    status: shapes.text,
    sourceRefName: shapes.text,
    targetRefName: shapes.text,
    creationDate: shapes.timestamp,
    repository: repositoryShape,
  }),
});
const commentShape = (deleted: boolean) =>
  z.object({
    resource: z.object({
      pullRequest: z.object({ pullRequestId: shapes.number, repository: repositoryShape }),
      comment: deleted ? z.object({ id: shapes.id }) : z.object({ id: shapes.id, content: z.string(), author, publishedDate: shapes.timestamp }),
    }),
  });

/** `org/project/repo` of a hook's repository; the organisation comes from a URL, and one none names is a 400. */
function requireRepositoryName(envelope: Json, repository: Json, field: string): string {
  const name = repositoryName(envelope, repository);
  if (name.startsWith("/")) {
    throw new WebhookPayloadError("azure", [{ field, problem: "no organisation in resourceContainers.account.baseUrl or the repository's remoteUrl, webUrl or url" }]);
  }
  return name;
}

function webUrl(base: string, repo: string, id: number): string {
  const r = parseAzureRepo(repo);
  return `${base}/${encodeURIComponent(r.org)}/${encodeURIComponent(r.project)}/_git/${encodeURIComponent(r.repo)}/pullrequest/${id}`;
}

export function toAzurePullRequest(raw: unknown, repoName: string, base: string, eventTime?: string): HostPullRequest {
  const pr = obj(raw);
  const status = str(pr["status"]);
  const number = num(pr["pullRequestId"]);
  const createdBy = obj(pr["createdBy"]);
  const result: HostPullRequest = {
    number,
    title: str(pr["title"]),
    description: str(pr["description"]),
    state: status === "active" ? "open" : "closed",
    merged: status === "completed",
    isDraft: pr["isDraft"] === true,
    authorLogin: str(createdBy["uniqueName"]) || str(createdBy["displayName"]),
    sourceBranch: stripRefsHeads(str(pr["sourceRefName"])),
    targetBranch: stripRefsHeads(str(pr["targetRefName"])),
    headSha: str(obj(pr["lastMergeSourceCommit"])["commitId"]),
    labels: arr(pr["labels"])
      .map(obj)
      .filter((l) => l["active"] !== false)
      .map((l) => str(l["name"]))
      .filter((n) => n !== ""),
    createdAt: iso(pr["creationDate"]),
    // Azure pull requests have no "updated" timestamp.
    updatedAt: iso(eventTime ?? pr["closedDate"] ?? pr["creationDate"]),
    url: str(obj(obj(pr["_links"])["web"])["href"]) || (number && repoName.split("/").length === 3 ? webUrl(base, repoName, number) : ""),
  };
  const baseSha = str(obj(pr["lastMergeTargetCommit"])["commitId"]);
  if (baseSha) result.baseSha = baseSha;
  return result;
}

const PR_EVENT_TYPES = new Set(["git.pullrequest.created", "git.pullrequest.updated", "git.pullrequest.merged"]);

/** git.pullrequest.updated does not say what changed, except in its (English) message text. */
function updatedAction(pr: HostPullRequest, status: string, message: string): PullRequestAction {
  if (status === "completed") return "merged";
  if (status === "abandoned") return "closed";
  if (/updated the source branch/i.test(message)) return "synchronized";
  if (/reactivated/i.test(message)) return "reopened";
  if (/published/i.test(message) || /marked .* as ready/i.test(message)) return "ready_for_review";
  if (/marked .* as (a )?draft/i.test(message)) return "converted_to_draft";
  return pr.isDraft && /draft/i.test(message) ? "converted_to_draft" : "edited";
}

function threadIdFrom(comment: Json): string {
  const links = obj(comment["_links"]);
  for (const key of ["threads", "self"]) {
    const m = /\/threads\/(\d+)/.exec(str(obj(links[key])["href"]));
    if (m) return m[1]!;
  }
  return "";
}

function toComment(raw: unknown): HostComment {
  const c = obj(raw);
  const threadId = threadIdFrom(c);
  const commentId = str(c["id"]);
  const author = obj(c["author"]);
  return {
    id: threadId ? `${threadId}/${commentId}` : commentId,
    body: str(c["content"]),
    authorLogin: str(author["uniqueName"]) || str(author["displayName"]),
    // The comment event does not carry the thread's file position.
    path: null,
    line: null,
    startLine: null,
    createdAt: iso(c["publishedDate"]),
    updatedAt: iso(c["lastContentUpdatedDate"] ?? c["lastUpdatedDate"] ?? c["publishedDate"]),
  };
}

export const createAzureHost = defineHost({
  remote: "azure",
  defaultApiBase: AZURE_API_BASE,
  headers: { Accept: "application/json", "User-Agent": "loupe" },
  authorization: authValue,
  build({ remote, apiBase, http, auth }) {
    function repoApi(repo: string, operation: string): string {
      const r = parseAzureRepo(repo, operation);
      return `${apiBase}/${encodeURIComponent(r.org)}/${encodeURIComponent(r.project)}/_apis/git/repositories/${encodeURIComponent(r.repo)}`;
    }

    function deliveryId(headers: Headers, body: unknown): string {
      return deliveryIdFrom(remote, [{ field: "id", value: strOrNull(obj(asJson(body))["id"]) }]) ?? bodyHashId(body);
    }

    function parseWebhook(headers: Headers, body: unknown): HostWebhookEvent {
      const id = deliveryId(headers, body);
      const p = obj(asJson(body));
      const eventType = str(p["eventType"]);
      const resource = obj(p["resource"]);
      const message = str(obj(p["message"])["text"]);
      const eventTime = typeof p["createdDate"] === "string" ? p["createdDate"] : undefined;

      if (eventType.startsWith("git.pullrequest.")) {
        if (!PR_EVENT_TYPES.has(eventType)) return ignored(remote, id, `event ${eventType} not handled`);
        requireFields(remote, pullRequestShape, p);
        const repository = requireRepositoryName(p, obj(resource["repository"]), "resource.repository.remoteUrl");
        const pullRequest = toAzurePullRequest(resource, repository, apiBase, eventTime);
        const status = str(resource["status"]);
        let action: PullRequestAction | undefined;
        if (eventType === "git.pullrequest.created") action = "opened";
        else if (eventType === "git.pullrequest.updated") action = updatedAction(pullRequest, status, message);
        else if (eventType === "git.pullrequest.merged") {
          // "Merge attempted": only a completed pull request was merged; conflicts etc. are not.
          if (status === "completed") action = "merged";
          else return ignored(remote, id, `merge attempt with status ${status || "(none)"}`);
        }
        if (!action) return ignored(remote, id, `event ${eventType} not handled`);
        return { kind: "pull_request", remote, deliveryId: id, action, repository, pullRequest };
      }
      if (eventType === "ms.vss-code.git-pullrequest-comment-event") {
        const pr = obj(resource["pullRequest"]);
        const comment = obj(resource["comment"]);
        const deleted = comment["isDeleted"] === true || /\bdeleted\b/i.test(message);
        requireFields(remote, commentShape(deleted), p);
        const c = toComment(comment);
        const action = deleted ? "deleted" : /\bedited\b/i.test(message) || (c.updatedAt && c.createdAt && c.updatedAt > c.createdAt) ? "edited" : "created";
        return {
          kind: "review_comment",
          remote,
          deliveryId: id,
          action,
          repository: requireRepositoryName(p, obj(pr["repository"]), "resource.pullRequest.repository.remoteUrl"),
          prNumber: num(pr["pullRequestId"]),
          comment: c,
        };
      }
      return ignored(remote, id, `event ${eventType || "(missing eventType)"} not handled`);
    }

    async function listPullRequests(
      repo: string,
      token: string | undefined,
      opts: { state: "all" | "open"; limit?: number },
    ): Promise<HostPullRequest[]> {
      const operation = "listPullRequests";
      const url = `${repoApi(repo, operation)}/pullrequests`;
      const r = parseAzureRepo(repo);
      const name = `${r.org}/${r.project}/${r.repo}`;
      const status = opts.state === "open" ? "active" : "all";
      const out: HostPullRequest[] = [];
      const limit = opts.limit ?? Infinity;
      // Azure pages pull requests with $top/$skip and sends no next link: stop on a short page.
      for (let skip = 0; out.length < limit; skip += PAGE) {
        const res = await http.request({
          operation,
          url: `${url}?searchCriteria.status=${status}&$top=${PAGE}&$skip=${skip}&${API_VERSION}`,
          authorization: auth(token),
        });
        if (res.status === 203) throw new HostError(remote, operation, "not authenticated (HTTP 203 sign-in page)", 203);
        const values = arr(obj(res.json)["value"]);
        for (const item of values) out.push(toAzurePullRequest(item, name, apiBase));
        if (values.length < PAGE) break;
      }
      return out.slice(0, limit);
    }

    async function checkReadAccess(repo: string, token: string | undefined): Promise<boolean> {
      const res = await http.request({
        operation: "checkReadAccess",
        url: `${repoApi(repo, "checkReadAccess")}?${API_VERSION}`,
        authorization: auth(token),
        // Azure answers a missing or bad credential with 203 + a sign-in page, or a redirect to one.
        accept: [301, 302, 303, 307, 308, 401, 403, 404],
      });
      return res.status === 200 && obj(res.json)["id"] !== undefined;
    }

    async function postThread(url: string, token: string, body: Json): Promise<string> {
      const res = await http.request({ operation: "postReview", method: "POST", url, authorization: auth(token), body });
      if (res.status === 203) throw new HostError(remote, "postReview", "not authenticated", 203);
      const thread = obj(res.json);
      const threadId = str(thread["id"]);
      const commentId = str(obj(arr(thread["comments"])[0])["id"]);
      if (!threadId || !commentId) throw new HostError(remote, "postReview", "response carried no thread id", res.status);
      return `${threadId}/${commentId}`;
    }

    const threadsUrl = (repo: string, prNumber: number, operation: string) =>
      `${repoApi(repo, operation)}/pullRequests/${encodeURIComponent(String(prNumber))}/threads?${API_VERSION}`;
    const filePathOf = (path: string) => (path.startsWith("/") ? path : `/${path}`);
    /** A review's inline comments with their paths as the threads' file paths read back (no leading slash). */
    const asPosted = (inline: ReviewToPost["inline"]) => inline.map((c) => ({ ...c, path: filePathOf(c.path).slice(1) }));

    /** The pull request's threads that are not deleted, each as the id postThread gives and its first comment. */
    async function threads(url: string, token: string, operation: string): Promise<{ id: string; thread: Json; content: string }[]> {
      const res = await http.request({ operation, url, authorization: auth(token), accept: [203] });
      if (res.status === 203) throw new HostError(remote, operation, "not authenticated", 203);
      const out: { id: string; thread: Json; content: string }[] = [];
      for (const t of arr(obj(res.json)["value"])) {
        const thread = obj(t);
        const first = obj(arr(thread["comments"])[0]);
        if (thread["isDeleted"] === true || first["isDeleted"] === true || !str(thread["id"]) || !str(first["id"])) continue;
        out.push({ id: `${str(thread["id"])}/${str(first["id"])}`, thread, content: str(first["content"]) });
      }
      return out;
    }

    const inlineOf = (all: { id: string; thread: Json; content: string }[]): PostedInline[] =>
      all
        .filter((t) => str(obj(t.thread["threadContext"])["filePath"]))
        .map((t) => {
          const context = obj(t.thread["threadContext"]);
          return { id: t.id, path: str(context["filePath"]).replace(/^\//, ""), line: numOrNull(obj(context["rightFileEnd"])["line"]), body: t.content };
        });

    /**
     * One thread per inline comment first, the summary thread last: a summary on the pull request means
     * the whole review is there. Threads already present with the same path, line and body (an earlier
     * attempt cut short) are reused, not posted again.
     */
    async function postReview(repo: string, prNumber: number, token: string, review: ReviewToPost) {
      const url = threadsUrl(repo, prNumber, "postReview");
      const comment = (content: string) => [{ parentCommentId: 0, content, commentType: 1 }];
      const already = review.inline.length > 0 ? matchPostedInline(asPosted(review.inline), inlineOf(await threads(url, token, "postReview"))) : [];
      const inlineCommentIds: string[] = [];
      for (const [i, c] of review.inline.entries()) {
        const start = c.startLine !== undefined && c.startLine < c.line ? c.startLine : c.line;
        inlineCommentIds.push(
          already[i] ??
            (await postThread(url, token, {
              comments: comment(c.body),
              status: 1,
              threadContext: { filePath: filePathOf(c.path), rightFileStart: { line: start, offset: 1 }, rightFileEnd: { line: c.line, offset: 1 } },
            })),
        );
      }
      const summaryCommentId = await postThread(url, token, { comments: comment(review.summary), status: 1 });
      return { summaryCommentId, inlineCommentIds };
    }

    /** The summary thread carrying `marker` (posted last), with the inline threads matched by path, line and body. */
    async function findPostedReview(repo: string, prNumber: number, token: string, review: ReviewToPost, marker: string) {
      const operation = "findPostedReview";
      const all = await threads(threadsUrl(repo, prNumber, operation), token, operation);
      const summary = all.find((t) => !str(obj(t.thread["threadContext"])["filePath"]) && t.content.includes(marker));
      if (!summary) return null;
      return { summaryCommentId: summary.id, inlineCommentIds: allPosted(remote, operation, matchPostedInline(asPosted(review.inline), inlineOf(all))) };
    }

    function cloneUrl(base: string, repo: string): string {
      const r = parseAzureRepo(repo, "cloneUrl");
      return `${trimSlash(base)}/${encodeURIComponent(r.org)}/${encodeURIComponent(r.project)}/_git/${encodeURIComponent(r.repo)}`;
    }

    const gitAuthHeader = (token: string) => `Authorization: ${authValue(token)}`;

    return {
      verifyWebhook(headers, _rawBody, secret) {
        const header = headers.get("authorization");
        if (!secret || !header) return false;
        const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
        if (!m) return false;
        const decoded = Buffer.from(m[1]!, "base64").toString("utf8");
        const colon = decoded.indexOf(":");
        if (colon < 0) return false;
        const sent = secret.includes(":") ? decoded : decoded.slice(colon + 1);
        return safeEqual(sent, secret);
      },
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
