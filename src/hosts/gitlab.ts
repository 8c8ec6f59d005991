/**
 * GitLab (gitlab.com and self-managed, API base https://HOST/api/v4).
 * Repositories are full project paths, `group[/subgroup...]/project`.
 * Webhooks: X-Gitlab-Event (Merge Request Hook, Note Hook), secret in plain text in X-Gitlab-Token.
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
  safeEqual,
  shapes,
  str,
  trimSlash,
  type Json,
} from "./shared.ts";
import { defineHost } from "./define-host.ts";
import { GITLAB_MAX_SEGMENTS } from "../git/names.ts";
import type {
  HostComment,
  HostPullRequest,
  HostWebhookEvent,
  PullRequestAction,
  ReviewToPost,
} from "./types.ts";

export const GITLAB_API_BASE = "https://gitlab.com/api/v4";

/** Segments of a project path: a group, up to 20 levels of subgroups, the project (2 to GITLAB_MAX_SEGMENTS, as src/git/names.ts allows). */
const MAX_DEPTH = Array.from({ length: GITLAB_MAX_SEGMENTS - 1 }, (_, i) => i + 2);

function labelTitles(value: unknown): string[] {
  return arr(value)
    .map((l) => (typeof l === "string" ? l : str(obj(l)["title"])))
    .filter((t) => t !== "");
}

function toState(state: string): "open" | "closed" {
  // `locked` is the short-lived state while a merge is in progress.
  return state === "opened" || state === "locked" ? "open" : "closed";
}

/** A merge request from the REST API. */
export function toGitLabMergeRequest(raw: unknown): HostPullRequest {
  const mr = obj(raw);
  const diffRefs = obj(mr["diff_refs"]);
  const result: HostPullRequest = {
    number: num(mr["iid"]),
    title: str(mr["title"]),
    description: str(mr["description"]),
    state: toState(str(mr["state"])),
    merged: mr["state"] === "merged",
    isDraft: mr["draft"] === true || mr["work_in_progress"] === true,
    authorLogin: str(obj(mr["author"])["username"]),
    sourceBranch: str(mr["source_branch"]),
    targetBranch: str(mr["target_branch"]),
    headSha: str(mr["sha"]) || str(diffRefs["head_sha"]),
    labels: labelTitles(mr["labels"]),
    createdAt: iso(mr["created_at"]),
    updatedAt: iso(mr["updated_at"]),
    url: str(mr["web_url"]),
  };
  const baseSha = str(diffRefs["base_sha"]);
  if (baseSha) result.baseSha = baseSha;
  return result;
}

/** A merge request from a Merge Request Hook (`object_attributes`). */
function fromHook(p: Json): HostPullRequest {
  const a = obj(p["object_attributes"]);
  const action = str(a["action"]);
  return {
    number: num(a["iid"]),
    title: str(a["title"]),
    description: str(a["description"]),
    state: toState(str(a["state"])),
    merged: a["state"] === "merged" || action === "merge",
    isDraft: a["draft"] === true || a["work_in_progress"] === true,
    // The hook names only author_id; `user` is the actor, who is the author when opening.
    authorLogin: action === "open" ? str(obj(p["user"])["username"]) || null : null,
    sourceBranch: str(a["source_branch"]),
    targetBranch: str(a["target_branch"]),
    headSha: str(obj(a["last_commit"])["id"]),
    labels: labelTitles(a["labels"] ?? p["labels"]),
    createdAt: iso(a["created_at"]),
    updatedAt: iso(a["updated_at"]),
    url: str(a["url"]),
  };
}

function updateAction(p: Json): PullRequestAction {
  const a = obj(p["object_attributes"]);
  const changes = obj(p["changes"]);
  if (typeof a["oldrev"] === "string" && a["oldrev"] !== "") return "synchronized";
  const draft = obj(changes["draft"] ?? changes["work_in_progress"]);
  if (typeof draft["current"] === "boolean" && draft["previous"] !== draft["current"]) {
    return draft["current"] ? "converted_to_draft" : "ready_for_review";
  }
  const labels = obj(changes["labels"]);
  if ("current" in labels || "previous" in labels) {
    const before = new Set(labelTitles(labels["previous"]));
    return labelTitles(labels["current"]).some((t) => !before.has(t)) ? "labeled" : "unlabeled";
  }
  return "edited";
}

/** The fields each handled hook needs (checked before it is read: a missing one is a 400 naming it). */
const project = z.object({ path_with_namespace: shapes.repository("two or more") });
const mergeRequestShape = z.object({
  project,
  object_attributes: z.object({
    iid: shapes.number,
    title: z.string(),
    state: shapes.text,
    source_branch: shapes.text,
    target_branch: shapes.text,
    created_at: shapes.timestamp,
    updated_at: shapes.timestamp,
  }),
});
const noteShape = z.object({
  project,
  user: z.object({ username: shapes.text }),
  merge_request: z.object({ iid: shapes.number }),
  object_attributes: z.object({ id: shapes.id, note: z.string(), created_at: shapes.timestamp, updated_at: shapes.timestamp }),
});

const MR_ACTIONS: Record<string, PullRequestAction> = {
  open: "opened",
  reopen: "reopened",
  close: "closed",
  merge: "merged",
};

function toNote(p: Json): HostComment {
  const a = obj(p["object_attributes"]);
  const position = obj(a["position"]);
  const path = str(position["new_path"]) || str(position["old_path"]) || null;
  const line = numOrNull(position["new_line"]) ?? numOrNull(position["old_line"]);
  const range = obj(position["line_range"]);
  const rangeStart = obj(range["start"]);
  const start = numOrNull(rangeStart["new_line"]) ?? numOrNull(rangeStart["old_line"]);
  return {
    id: str(a["id"]),
    body: str(a["note"]),
    authorLogin: str(obj(p["user"])["username"]),
    path,
    line: path ? line : null,
    startLine: path && start !== null && start !== line ? start : null,
    createdAt: iso(a["created_at"]),
    updatedAt: iso(a["updated_at"]),
  };
}

export const createGitLabHost = defineHost({
  remote: "gitlab",
  defaultApiBase: GITLAB_API_BASE,
  headers: { Accept: "application/json", "User-Agent": "loupe" },
// GitLab accepts personal, project, group and OAuth tokens as Bearer tokens.
    authorization: (token) => `Bearer ${token}`,
  build({ remote, apiBase, http, auth }) {
    function projectUrl(repo: string, operation: string): string {
      repoSegments(remote, repo, operation, MAX_DEPTH);
      return `${apiBase}/projects/${encodeURIComponent(repo)}`;
    }

    function deliveryId(headers: Headers, body: unknown): string {
      const sources = [
        { field: "Idempotency-Key", value: headers.get("idempotency-key") },
        { field: "X-Gitlab-Event-UUID", value: headers.get("x-gitlab-event-uuid") },
      ];
      return deliveryIdFrom(remote, sources) ?? bodyHashId(body);
    }

    function parseWebhook(headers: Headers, body: unknown): HostWebhookEvent {
      const id = deliveryId(headers, body);
      const event = headers.get("x-gitlab-event") ?? "";
      const p = obj(asJson(body));
      const repository = str(obj(p["project"])["path_with_namespace"]);

      if (event === "Merge Request Hook" || (event === "System Hook" && p["object_kind"] === "merge_request")) {
        const action = str(obj(p["object_attributes"])["action"]);
        const mapped = action === "update" ? updateAction(p) : MR_ACTIONS[action];
        if (!mapped) return ignored(remote, id, `merge request action ${action || "(none)"} not handled`);
        requireFields(remote, mergeRequestShape, p);
        return { kind: "pull_request", remote, deliveryId: id, action: mapped, repository, pullRequest: fromHook(p) };
      }
      if (event === "Note Hook") {
        const a = obj(p["object_attributes"]);
        if (a["noteable_type"] !== "MergeRequest") {
          return ignored(remote, id, `note on ${str(a["noteable_type"], "(unknown)")} not handled`);
        }
        if (a["system"] === true) return ignored(remote, id, "system note");
        const action = str(a["action"], "create");
        if (action !== "create" && action !== "update") return ignored(remote, id, `note action ${action} not handled`);
        requireFields(remote, noteShape, p);
        return {
          kind: "review_comment",
          remote,
          deliveryId: id,
          action: action === "create" ? "created" : "edited",
          repository,
          prNumber: num(obj(p["merge_request"])["iid"]),
          comment: toNote(p),
        };
      }
      return ignored(remote, id, `event ${event || "(missing X-Gitlab-Event)"} not handled`);
    }

    async function listPullRequests(
      repo: string,
      token: string | undefined,
      opts: { state: "all" | "open"; limit?: number },
    ): Promise<HostPullRequest[]> {
      const operation = "listPullRequests";
      const base = `${projectUrl(repo, operation)}/merge_requests?state=${opts.state === "open" ? "opened" : "all"}&per_page=100&order_by=created_at&sort=desc`;
      const out: HostPullRequest[] = [];
      const limit = opts.limit ?? Infinity;
      let page: string | null = "1";
      while (page && out.length < limit) {
        const res = await http.request({ operation, url: `${base}&page=${encodeURIComponent(page)}`, authorization: auth(token) });
        for (const item of arr(res.json)) out.push(toGitLabMergeRequest(item));
        // x-next-page is empty on the last page.
        const next = res.headers.get("x-next-page");
        page = next && /^\d+$/.test(next) && next !== page ? next : null;
      }
      return out.slice(0, limit);
    }

    async function checkReadAccess(repo: string, token: string | undefined): Promise<boolean> {
      const res = await http.request({
        operation: "checkReadAccess",
        url: projectUrl(repo, "checkReadAccess"),
        authorization: auth(token),
        accept: [401, 403, 404],
      });
      return res.status === 200;
    }

    /** Every page of a merge request list endpoint (notes, discussions). */
    async function allPages(url: string, token: string, operation: string): Promise<unknown[]> {
      const out: unknown[] = [];
      let page: string | null = "1";
      while (page) {
        const res = await http.request({ operation, url: `${url}${url.includes("?") ? "&" : "?"}per_page=100&page=${encodeURIComponent(page)}`, authorization: auth(token) });
        out.push(...arr(res.json));
        const next = res.headers.get("x-next-page");
        page = next && /^\d+$/.test(next) && next !== page ? next : null;
      }
      return out;
    }

    /** Diff notes already on the merge request: (path, line, body) -> note id. */
    async function diffNotes(mrUrl: string, token: string, operation: string): Promise<{ id: string; path: string; line: number | null; body: string }[]> {
      const out: { id: string; path: string; line: number | null; body: string }[] = [];
      for (const d of await allPages(`${mrUrl}/discussions`, token, operation)) {
        for (const n of arr(obj(d)["notes"])) {
          const note = obj(n);
          const position = obj(note["position"]);
          if (!str(position["new_path"])) continue;
          out.push({ id: str(note["id"]), path: str(position["new_path"]), line: numOrNull(position["new_line"]), body: str(note["body"]) });
        }
      }
      return out;
    }

    /**
     * Inline comments first (each a discussion), the summary note last: a summary on the merge request
     * means the whole review is there. Discussions already present with the same path, line and body
     * (an earlier attempt cut short) are reused, not posted again.
     */
    async function postReview(repo: string, prNumber: number, token: string, review: ReviewToPost) {
      const operation = "postReview";
      const mrUrl = `${projectUrl(repo, operation)}/merge_requests/${encodeURIComponent(String(prNumber))}`;
      const inlineCommentIds: string[] = [];
      if (review.inline.length > 0) {
        // A diff position needs the merge request's base and start commits.
        const mr = await http.request({ operation, url: mrUrl, authorization: auth(token) });
        const refs = obj(obj(mr.json)["diff_refs"]);
        const baseSha = str(refs["base_sha"]);
        const startSha = str(refs["start_sha"]) || baseSha;
        if (!baseSha) throw new HostError(remote, operation, "merge request has no diff_refs");
        const already = matchPostedInline(review.inline, await diffNotes(mrUrl, token, operation));
        for (const [i, c] of review.inline.entries()) {
          const found = already[i];
          if (found) {
            inlineCommentIds.push(found);
            continue;
          }
          // Anchored on the last line of a range: a GitLab line_range needs line codes of the diff.
          const res = await http.request({
            operation,
            method: "POST",
            url: `${mrUrl}/discussions`,
            authorization: auth(token),
            body: {
              body: c.body,
              commit_id: review.commitSha,
              position: {
                position_type: "text",
                base_sha: baseSha,
                start_sha: startSha,
                head_sha: review.commitSha,
                old_path: c.path,
                new_path: c.path,
                new_line: c.line,
              },
            },
          });
          const noteId = str(obj(arr(obj(res.json)["notes"])[0])["id"]);
          if (!noteId) throw new HostError(remote, operation, "discussion response carried no note id", res.status);
          inlineCommentIds.push(noteId);
        }
      }
      const summary = await http.request({
        operation,
        method: "POST",
        url: `${mrUrl}/notes`,
        authorization: auth(token),
        body: { body: review.summary },
      });
      const summaryCommentId = str(obj(summary.json)["id"]);
      if (!summaryCommentId) throw new HostError(remote, operation, "response carried no note id", summary.status);
      return { summaryCommentId, inlineCommentIds };
    }

    /** The summary note carrying `marker` (posted last), with the inline notes matched by path, line and body. */
    async function findPostedReview(repo: string, prNumber: number, token: string, review: ReviewToPost, marker: string) {
      const operation = "findPostedReview";
      const mrUrl = `${projectUrl(repo, operation)}/merge_requests/${encodeURIComponent(String(prNumber))}`;
      const summary = (await allPages(`${mrUrl}/notes`, token, operation)).map(obj).find((n) => str(n["body"]).includes(marker) && str(n["id"]));
      if (!summary) return null;
      const notes = review.inline.length > 0 ? await diffNotes(mrUrl, token, operation) : [];
      return { summaryCommentId: str(summary["id"]), inlineCommentIds: allPosted(remote, operation, matchPostedInline(review.inline, notes)) };
    }

    function cloneUrl(base: string, repo: string): string {
      repoSegments(remote, repo, "cloneUrl", MAX_DEPTH);
      return `${trimSlash(base)}/${repo}.git`;
    }

    const gitAuthHeader = (token: string) => `Authorization: ${basicAuth("oauth2", token)}`;

    return {
      verifyWebhook(headers, _rawBody, secret) {
        const sent = headers.get("x-gitlab-token");
        if (!secret || sent === null) return false;
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
