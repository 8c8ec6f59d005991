/**
 * Neutral git-host types. Everything host-specific (GitHub, GitLab, Bitbucket Cloud, Azure DevOps)
 * lives in one module per host under src/hosts/ and is translated into these shapes, so the rest of
 * the service never sees a host's payloads.
 *
 * Secrets: tokens are passed per call and never stored; webhook secrets are passed to verifyWebhook
 * only. Neither ever appears in an error message or in anything these modules return.
 */

export type Remote = "github" | "gitlab" | "bitbucket" | "azure";

export const REMOTES: readonly Remote[] = ["github", "gitlab", "bitbucket", "azure"];

export type HostPullRequestStats = {
  changedFiles: number;
  additions: number;
  deletions: number;
};

export type HostPullRequest = {
  /** PR number / GitLab iid / Bitbucket id / Azure pullRequestId. */
  number: number;
  title: string;
  description: string;
  /** Merged requests are `closed` (interface 3.2) with `merged: true`. */
  state: "open" | "closed";
  merged: boolean;
  isDraft: boolean;
  /**
   * Login of the author. `null` only when a webhook payload does not name the author (GitLab's
   * Merge Request Hook carries only `author_id`; it names the actor, used for `opened`). Consumers
   * keep the value they already have in that case. Lists from the REST API always fill it.
   */
  authorLogin: string | null;
  sourceBranch: string;
  targetBranch: string;
  /** Head commit of the source branch. Bitbucket gives a 12-character abbreviated hash. */
  headSha: string;
  baseSha?: string;
  labels: string[];
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601. */
  updatedAt: string;
  /** Present only when the host sent them (GitHub webhooks / PR details). */
  stats?: HostPullRequestStats;
  /** Web address of the pull request. */
  url: string;
};

export type PullRequestAction =
  | "opened"
  | "edited"
  | "synchronized"
  | "closed"
  | "merged"
  | "reopened"
  | "ready_for_review"
  | "converted_to_draft"
  | "labeled"
  | "unlabeled";

export type HostComment = {
  /** Platform comment id as a string (Azure: `<threadId>/<commentId>`, unique per pull request). */
  id: string;
  body: string;
  authorLogin: string;
  /** Null for overview (non-inline) comments. */
  path: string | null;
  /** Last line the comment refers to (new side), null for overview comments or when unknown. */
  line: number | null;
  /** First line of a multi-line comment, null when single-line. */
  startLine: number | null;
  createdAt: string;
  updatedAt: string;
};

type EventBase = {
  remote: Remote;
  /**
   * Dedupe key, the same on redelivery. From the host's delivery header when it has one
   * (GitHub X-GitHub-Delivery, GitLab Idempotency-Key / X-Gitlab-Event-UUID, Bitbucket
   * X-Request-UUID, Azure envelope `id`; a blank one counts as absent), else `sha256:<hex>` of the
   * JSON body. At most 200 characters (MAX_DELIVERY_ID_LENGTH).
   * Not prefixed with the remote: dedupe on (remote, deliveryId).
   */
  deliveryId: string;
};

export type HostPullRequestEvent = EventBase & {
  kind: "pull_request";
  action: PullRequestAction;
  /** `owner/repo` (GitLab: full namespace path; Azure: `org/project/repo`). */
  repository: string;
  pullRequest: HostPullRequest;
};

export type HostReviewCommentEvent = EventBase & {
  kind: "review_comment";
  action: "created" | "edited" | "deleted";
  repository: string;
  prNumber: number;
  comment: HostComment;
};

export type HostReviewThreadEvent = EventBase & {
  kind: "review_thread";
  action: "resolved" | "unresolved";
  repository: string;
  prNumber: number;
  commentIds: string[];
};

export type HostIgnoredEvent = EventBase & {
  kind: "ignored";
  reason: string;
};

export type HostWebhookEvent =
  | HostPullRequestEvent
  | HostReviewCommentEvent
  | HostReviewThreadEvent
  | HostIgnoredEvent;

export type ListPullRequestsOptions = {
  state: "all" | "open";
  /** Stop after this many items (pagination stops too). Default: no limit. */
  limit?: number;
};

export type InlineReviewComment = {
  path: string;
  /** Line on the new side of the diff (last line for a range). */
  line: number;
  /** First line of a range, when the comment spans several lines. */
  startLine?: number;
  body: string;
};

export type ReviewToPost = {
  summary: string;
  inline: InlineReviewComment[];
  /** Head commit the review was made against. */
  commitSha: string;
};

export type PostedReview = {
  summaryCommentId: string;
  /** Same order as `inline` in the request. */
  inlineCommentIds: string[];
};

export type Host = {
  readonly remote: Remote;
  /** REST API base (no trailing slash). */
  readonly apiBase: string;
  /** Constant-time check of the webhook's signature / shared secret. False when absent or wrong. */
  verifyWebhook(headers: Headers, rawBody: Uint8Array | string, secret: string): boolean;
  /**
   * Dedupe key of a delivery; `body` may be the raw body or the parsed JSON (same result). A blank id
   * counts as absent; one over MAX_DELIVERY_ID_LENGTH throws a WebhookPayloadError naming its header.
   */
  deliveryId(headers: Headers, body: unknown): string;
  /**
   * Maps a (verified) delivery to a neutral event; anything unsupported is `{ kind: "ignored" }` with
   * the reason. A handled event whose payload lacks a field it needs, or holds a malformed one (checked
   * with zod before it is read), throws a WebhookPayloadError naming each such field.
   */
  parseWebhook(headers: Headers, body: unknown): HostWebhookEvent;
  listPullRequests(
    repo: string,
    token: string | undefined,
    options: ListPullRequestsOptions,
  ): Promise<HostPullRequest[]>;
  /**
   * True when the token (or anonymous access, when undefined) can read the repository, false when the
   * host says it cannot; throws (HostError) when the host did not say (unreachable, failing, rate limited).
   */
  checkReadAccess(repo: string, token: string | undefined): Promise<boolean>;
  postReview(repo: string, prNumber: number, token: string, review: ReviewToPost): Promise<PostedReview>;
  /**
   * Crash recovery for postReview: the review already on the host whose summary carries `marker`
   * (a hidden `<!-- loupe-review:<id> -->`), with its inline comment ids in the order of
   * `review.inline`; null when none was posted. Every host posts the summary last, so a summary found
   * means the whole review is there.
   */
  findPostedReview?(repo: string, prNumber: number, token: string, review: ReviewToPost, marker: string): Promise<PostedReview | null>;
  /** HTTPS clone URL without credentials, from the web base (e.g. https://github.com). */
  cloneUrl(base: string, repo: string): string;
  /**
   * Value for `git -c http.extraHeader=<value>` (e.g. `Authorization: Basic ...`), so the token
   * never lands in a remote URL or in the mirror's config. Prefer gitAuthEnv, which keeps it off
   * the command line too.
   */
  gitAuthHeader(token: string): string;
  /** Environment for a git child process carrying http.extraHeader via GIT_CONFIG_COUNT (git >= 2.31). */
  gitAuthEnv(token: string): Record<string, string>;
};

export type HostOptions = {
  /** REST API base; defaults to the public cloud. */
  apiBase?: string;
  /** Per-request timeout in milliseconds (default 30 000). */
  timeoutMs?: number;
  /** Injected fetch (default: the global one). */
  fetch?: typeof fetch;
  /** Retries of a call the host turned away for now (see createHttpClient; default 2). */
  retries?: number;
  /** Pause before the first retry, doubled for each further one (default 500 ms). */
  retryDelayMs?: number;
};
