/**
 * Queries over the pull request, comment and code review read models, shaped as interface.md
 * 2.3-2.5 and with the semantics of the tools in 4.2 (filters, limits, pagination). Pure reads.
 */
import type { ReadStore, ReadView } from "../../readstore/port.ts";
import type { PullRequestRecord } from "./projection.ts";
import type { CommentRecord } from "../review-comments/projection.ts";
import type { CodeReviewRecord, CodeReviewStatus } from "../code-reviews/projection.ts";
import { DomainError } from "../../eventstore/decider.ts";
import { prKey, repoKey } from "./identity.ts";
import type { Remote } from "../../hosts/types.ts";

export const LIST_PULL_REQUESTS = { defaultLimit: 20, maxLimit: 100 } as const;
export const LIST_CODE_REVIEWS = { defaultLimit: 20, maxLimit: 100 } as const;
export const SEARCH_COMMENTS = { defaultLimit: 10, maxLimit: 50 } as const;

/** The repository group of the tools: `name`, `remote`, `defaultBranch`, all given or all omitted. */
export type RepositoryFilter = { name?: string | undefined; remote?: string | undefined; defaultBranch?: string | undefined };

export type MergeRequestListItem = {
  id: string;
  number: number;
  title: string;
  state: "open" | "closed";
  isDraft: boolean;
  authorLogin: string;
  branches: { source: string; target: string };
  repository: { name: string; remote: string };
  stats: { changedFiles: number; additions: number; deletions: number };
  commentsCount: number;
  reviewsCount: number;
  createdAt: string;
};

export type ReviewComment = {
  id: string;
  commentId: string;
  body: string;
  authorLogin: string;
  filePath: string | null;
  lineStart: number | null;
  lineEnd: number | null;
  isGreptileComment: boolean;
  addressed: boolean;
  createdAt: string;
  hasSuggestion: boolean;
  suggestedCode: string | null;
  linkedMemory: { id: string; type: string | null; source: string | null } | null;
};

export type MergeRequestRef = {
  id: string;
  prNumber: number;
  title: string;
  sourceRepoUrl: string;
  repository: { name: string };
};

export type CodeReviewListItem = {
  id: string;
  status: CodeReviewStatus;
  createdAt: string;
  completedAt: string | null;
  metadata: { strictness: number; totalFiles: number; completedFiles: number; correlationId: string };
  mergeRequest: MergeRequestRef;
};

export type CodeReviewDetail = Omit<CodeReviewListItem, "mergeRequest"> & {
  body: string;
  mergeRequest: MergeRequestRef & {
    description: string;
    authorLogin: string;
    repository: { id: string; name: string; remote: string };
  };
};

export type Commit = { sha: string; message: string | null; authorName: string | null; committedAt: string | null };

export type MergeRequestDetail = {
  id: string;
  number: number;
  title: string;
  description: string;
  state: "open" | "closed";
  isDraft: boolean;
  authorLogin: string;
  branches: { source: string; target: string };
  repository: { name: string; remote: string; defaultBranch: string | null };
  stats: { changedFiles: number; additions: number; deletions: number };
  labels: string[];
  merged: boolean;
  url: string;
  headSha: string;
  createdAt: string;
  updatedAt: string;
  comments: { greptile: ReviewComment[]; human: ReviewComment[] };
  codeReviews: { id: string; status: CodeReviewStatus; createdAt: string; completedAt: string | null }[];
  reviewAnalysis: {
    totalGreptileComments: number;
    totalHumanComments: number;
    addressedComments: ReviewComment[];
    unaddressedComments: ReviewComment[];
    commitsSinceLastReview: Commit[];
    lastReviewDate: string | null;
    reviewCompleteness: string;
    hasNewCommitsSinceReview: boolean;
  };
};

export function clampLimit(limit: number | undefined, defaults: { defaultLimit: number; maxLimit: number }): number {
  if (limit === undefined || !Number.isFinite(limit)) return defaults.defaultLimit;
  return Math.max(1, Math.min(defaults.maxLimit, Math.floor(limit)));
}

const clampOffset = (offset: number | undefined) => (offset === undefined || !Number.isFinite(offset) ? 0 : Math.max(0, Math.floor(offset)));

/** Checks the all-or-none rule of the repository group; returns the filter or null when omitted. */
export function repositoryGroup(filter: RepositoryFilter): { name: string; remote: string; defaultBranch: string } | null {
  const given = [filter.name, filter.remote, filter.defaultBranch].filter((v) => v !== undefined && v !== null && v !== "");
  if (given.length === 0) return null;
  if (given.length !== 3) throw new DomainError("invalid", "name, remote and defaultBranch must be given together or all omitted");
  return { name: filter.name!, remote: filter.remote!.toLowerCase(), defaultBranch: filter.defaultBranch! };
}

function levenshtein(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 3) return 99;
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j]!;
      prev[j] = Math.min(prev[j]! + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length]!;
}

/** Fuzzy login match: case-insensitive substring either way, ignoring `-_.[bot]`, or a small edit distance. */
export function fuzzyLoginMatch(login: string, query: string): boolean {
  const norm = (s: string) => s.toLowerCase().replace(/\[bot\]$/, "").replace(/[-_.\s]/g, "");
  const l = norm(login);
  const q = norm(query);
  if (q === "") return true;
  if (l.includes(q) || (l.length >= 3 && q.includes(l))) return true;
  return levenshtein(l, q) <= Math.max(1, Math.floor(q.length / 4));
}

const tokenize = (text: string) => (text.toLowerCase().match(/[a-z0-9_]+/g) ?? []).filter((t) => t.length > 1);

/** Lexical relevance: matched query terms (each once), whole-phrase bonus; 0 = no match. */
export function lexicalScore(query: string, ...fields: (string | null | undefined)[]): number {
  const text = fields.filter((f): f is string => typeof f === "string").join("\n").toLowerCase();
  const terms = [...new Set(tokenize(query))];
  if (terms.length === 0) return 0;
  const words = new Set(tokenize(text));
  let score = 0;
  for (const t of terms) {
    if (words.has(t)) score += 2;
    else if (text.includes(t)) score += 1;
  }
  if (score > 0 && query.trim().length > 3 && text.includes(query.trim().toLowerCase())) score += terms.length;
  return score;
}

export function toReviewComment(c: CommentRecord): ReviewComment {
  return {
    id: c.id,
    commentId: c.commentId,
    body: c.body,
    authorLogin: c.authorLogin,
    filePath: c.filePath,
    lineStart: c.lineStart,
    lineEnd: c.lineEnd,
    isGreptileComment: c.isGreptileComment,
    addressed: c.addressed,
    createdAt: c.createdAt,
    hasSuggestion: c.hasSuggestion,
    suggestedCode: c.suggestedCode,
    linkedMemory: c.linkedMemory,
  };
}

const byCreated = <T extends { createdAt: string }>(a: T, b: T) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0);

export function createPullRequestQueries(readStore: ReadStore, hostUrls: Record<Remote, string>) {
  const prs = (): ReadView => readStore.view("pull-requests");
  const comments = (): ReadView => readStore.view("review-comments");
  const reviews = (): ReadView => readStore.view("code-reviews");

  const repoUrl = (remote: string, name: string) => `${hostUrls[remote as Remote] ?? ""}/${name}`;

  const findPullRequest = (orgId: string, remote: string, name: string, number: number) =>
    prs().get<PullRequestRecord>(["pr", orgId, prKey({ remote, name, number })]);

  const requirePullRequest = (orgId: string, input: { name: string; remote: string; prNumber: number }) => {
    const pr = findPullRequest(orgId, input.remote.toLowerCase(), input.name, input.prNumber);
    if (!pr) throw new DomainError("not_found", `Merge request ${input.name}#${input.prNumber} (${input.remote}) not found`);
    return pr;
  };

  const commentsOf = (orgId: string, key: string) => comments().range<CommentRecord>(["comment", orgId, key]).map((e) => e.value);
  const reviewsOf = (orgId: string, key: string) =>
    reviews()
      .range<string>(["byPr", orgId, key])
      .map((e) => reviews().get<CodeReviewRecord>(["review", orgId, e.value]))
      .filter((r): r is CodeReviewRecord => r !== undefined);

  const mergeRequestRef = (orgId: string, r: CodeReviewRecord): MergeRequestRef => {
    const pr = prs().get<PullRequestRecord>(["pr", orgId, r.prKey]);
    return {
      id: r.prKey,
      prNumber: r.prNumber,
      title: pr?.title ?? "",
      sourceRepoUrl: repoUrl(r.repository.remote, pr?.repository.name ?? r.repository.name),
      repository: { name: pr?.repository.name ?? r.repository.name },
    };
  };

  const listItem = (orgId: string, pr: PullRequestRecord): MergeRequestListItem => ({
    id: pr.id,
    number: pr.number,
    title: pr.title,
    state: pr.state,
    isDraft: pr.isDraft,
    authorLogin: pr.authorLogin,
    branches: { source: pr.sourceBranch, target: pr.targetBranch },
    repository: { name: pr.repository.name, remote: pr.repository.remote },
    stats: pr.stats,
    commentsCount: comments().count(["comment", orgId, pr.id]),
    reviewsCount: reviews().count(["byPr", orgId, pr.id]),
    createdAt: pr.createdAt,
  });

  function reviewAnalysis(pr: PullRequestRecord, all: CommentRecord[], codeReviews: CodeReviewRecord[]): MergeRequestDetail["reviewAnalysis"] {
    const service = all.filter((c) => c.isGreptileComment);
    const human = all.filter((c) => !c.isGreptileComment);
    const addressed = service.filter((c) => c.addressed);
    const lastReview = [...codeReviews].filter((r) => r.status === "COMPLETED").sort((a, b) => ((a.completedAt ?? "") < (b.completedAt ?? "") ? -1 : 1)).pop();
    let commitsSince: Commit[] = [];
    let hasNew = false;
    if (lastReview?.headSha && pr.headSha && lastReview.headSha !== pr.headSha) {
      hasNew = true;
      if (pr.commits && pr.commits.baseSha === lastReview.headSha && pr.commits.headSha === pr.headSha) {
        commitsSince = pr.commits.list.map((c) => ({ ...c }));
      } else {
        // Not refreshed yet: the head commits the host reported after the reviewed one.
        const i = pr.headHistory.findIndex((h) => h.sha === lastReview.headSha);
        const after = i >= 0 ? pr.headHistory.slice(i + 1) : pr.headHistory.filter((h) => h.at >= (lastReview.completedAt ?? ""));
        commitsSince = (after.length > 0 ? after : [{ sha: pr.headSha, at: pr.updatedAt }]).map((h) => ({ sha: h.sha, message: null, authorName: null, committedAt: h.at }));
      }
    }
    return {
      totalGreptileComments: service.length,
      totalHumanComments: human.length,
      addressedComments: addressed.map(toReviewComment),
      unaddressedComments: service.filter((c) => !c.addressed).map(toReviewComment),
      commitsSinceLastReview: commitsSince,
      lastReviewDate: lastReview?.completedAt ?? null,
      reviewCompleteness: `${addressed.length}/${service.length} service comments addressed`,
      hasNewCommitsSinceReview: hasNew,
    };
  }

  const toDetail = (r: CodeReviewRecord): CodeReviewDetail => {
    const pr = prs().get<PullRequestRecord>(["pr", r.orgId, r.prKey]);
    return {
      id: r.id,
      status: r.status,
      createdAt: r.createdAt,
      completedAt: r.completedAt,
      metadata: r.metadata,
      body: r.body,
      mergeRequest: {
        ...mergeRequestRef(r.orgId, r),
        description: pr?.description ?? "",
        authorLogin: pr?.authorLogin ?? "",
        repository: { id: repoKey(r.repository.remote, r.repository.name), name: pr?.repository.name ?? r.repository.name, remote: r.repository.remote },
      },
    };
  };

  return {
    findPullRequest,
    requirePullRequest,
    commentsOf,
    reviewsOf,

    /** list_pull_requests / list_merge_requests. Newest first. */
    listMergeRequests(
      orgId: string,
      input: RepositoryFilter & { sourceBranch?: string; authorLogin?: string; state?: string; limit?: number; offset?: number },
    ): { mergeRequests: MergeRequestListItem[]; total: number } {
      const repo = repositoryGroup(input);
      const state = input.state?.toLowerCase();
      if (state !== undefined && state !== "open" && state !== "closed") throw new DomainError("invalid", "state must be open or closed");
      const prefix = repo ? ["pr", orgId] : ["pr", orgId];
      let all = prs()
        .range<PullRequestRecord>(prefix)
        .map((e) => e.value);
      if (repo) {
        const rk = repoKey(repo.remote, repo.name);
        all = all.filter((p) => repoKey(p.repository.remote, p.repository.name) === rk);
      }
      if (input.sourceBranch) {
        const q = input.sourceBranch.toLowerCase();
        all = all.filter((p) => p.sourceBranch.toLowerCase().includes(q));
      }
      if (input.authorLogin) all = all.filter((p) => fuzzyLoginMatch(p.authorLogin, input.authorLogin!));
      if (state) all = all.filter((p) => p.state === state);
      all.sort((a, b) => (a.createdAt > b.createdAt ? -1 : a.createdAt < b.createdAt ? 1 : b.number - a.number));
      const limit = clampLimit(input.limit, LIST_PULL_REQUESTS);
      const offset = clampOffset(input.offset);
      return { mergeRequests: all.slice(offset, offset + limit).map((p) => listItem(orgId, p)), total: all.length };
    },

    /** get_merge_request. */
    getMergeRequest(orgId: string, input: { name: string; remote: string; defaultBranch?: string; prNumber: number }): { mergeRequest: MergeRequestDetail } {
      const pr = requirePullRequest(orgId, input);
      const all = commentsOf(orgId, pr.id).sort(byCreated);
      const codeReviews = reviewsOf(orgId, pr.id);
      return {
        mergeRequest: {
          id: pr.id,
          number: pr.number,
          title: pr.title,
          description: pr.description,
          state: pr.state,
          isDraft: pr.isDraft,
          authorLogin: pr.authorLogin,
          branches: { source: pr.sourceBranch, target: pr.targetBranch },
          repository: { name: pr.repository.name, remote: pr.repository.remote, defaultBranch: pr.repository.defaultBranch },
          stats: pr.stats,
          labels: pr.labels,
          merged: pr.merged,
          url: pr.url,
          headSha: pr.headSha,
          createdAt: pr.createdAt,
          updatedAt: pr.updatedAt,
          comments: {
            greptile: all.filter((c) => c.isGreptileComment).map(toReviewComment),
            human: all.filter((c) => !c.isGreptileComment).map(toReviewComment),
          },
          codeReviews: codeReviews.map((r) => ({ id: r.id, status: r.status, createdAt: r.createdAt, completedAt: r.completedAt })),
          reviewAnalysis: reviewAnalysis(pr, all, codeReviews),
        },
      };
    },

    /** list_merge_request_comments. Oldest first. */
    listComments(
      orgId: string,
      input: { name: string; remote: string; defaultBranch?: string; prNumber: number; greptileGenerated?: boolean; addressed?: boolean; createdAfter?: string; createdBefore?: string },
    ): { comments: ReviewComment[]; repository: string; prNumber: number; total: number } {
      const pr = requirePullRequest(orgId, input);
      const after = parseTime(input.createdAfter, "createdAfter");
      const before = parseTime(input.createdBefore, "createdBefore");
      const list = commentsOf(orgId, pr.id)
        .filter((c) => input.greptileGenerated === undefined || c.isGreptileComment === input.greptileGenerated)
        .filter((c) => input.addressed === undefined || c.addressed === input.addressed)
        .filter((c) => after === null || Date.parse(c.createdAt) > after)
        .filter((c) => before === null || Date.parse(c.createdAt) < before)
        .sort(byCreated);
      return { comments: list.map(toReviewComment), repository: pr.repository.name, prNumber: pr.number, total: list.length };
    },

    /** search_greptile_comments: lexical search over service comments of the organisation. */
    searchComments(orgId: string, input: { query: string; limit?: number; includeAddressed?: boolean; createdAfter?: string }) {
      const query = input.query.trim();
      if (query === "") throw new DomainError("invalid", "query must not be empty");
      const after = parseTime(input.createdAfter, "createdAfter");
      const limit = clampLimit(input.limit, SEARCH_COMMENTS);
      const includeAddressed = input.includeAddressed ?? false;
      const matches = comments()
        .range<CommentRecord>(["comment", orgId])
        .map((e) => e.value)
        .filter((c) => c.isGreptileComment)
        .filter((c) => after === null || Date.parse(c.createdAt) > after)
        .map((c) => ({ c, score: lexicalScore(query, c.body, c.filePath) }))
        .filter((m) => m.score > 0);
      const summary = {
        addressed: matches.filter((m) => m.c.addressed).length,
        unaddressed: matches.filter((m) => !m.c.addressed).length,
        withSuggestions: matches.filter((m) => m.c.hasSuggestion).length,
      };
      const eligible = matches
        .filter((m) => includeAddressed || !m.c.addressed)
        .sort((a, b) => b.score - a.score || (a.c.createdAt > b.c.createdAt ? -1 : a.c.createdAt < b.c.createdAt ? 1 : 0));
      const page = eligible.slice(0, limit).map(({ c }) => {
        const pr = prs().get<PullRequestRecord>(["pr", orgId, c.prKey]);
        return {
          ...toReviewComment(c),
          sourceType: c.kind === "summary" ? "summary" : "inline",
          mergeRequest: {
            id: c.prKey,
            prNumber: c.prNumber,
            title: pr?.title ?? "",
            sourceRepoUrl: repoUrl(c.repository.remote, pr?.repository.name ?? c.repository.name),
            repository: { name: pr?.repository.name ?? c.repository.name },
          },
        };
      });
      const hidden = includeAddressed ? 0 : summary.addressed;
      const note =
        `Showing ${page.length} of ${eligible.length} matching service comment${eligible.length === 1 ? "" : "s"} (lexical match).` +
        (hidden > 0 ? ` ${hidden} addressed comment${hidden === 1 ? " is" : "s are"} hidden; pass includeAddressed: true to include ${hidden === 1 ? "it" : "them"}.` : "");
      return { comments: page, query, total: eligible.length, note, summary };
    },

    /** list_code_reviews. Newest first. */
    listCodeReviews(
      orgId: string,
      input: RepositoryFilter & { prNumber?: number; status?: string; limit?: number; offset?: number },
    ): { codeReviews: CodeReviewListItem[]; total: number } {
      const repo = repositoryGroup(input);
      if (input.prNumber !== undefined && !repo) throw new DomainError("invalid", "prNumber needs name, remote and defaultBranch");
      const status = input.status?.toUpperCase();
      const statuses = ["PENDING", "REVIEWING_FILES", "GENERATING_SUMMARY", "COMPLETED", "FAILED", "SKIPPED"];
      if (status !== undefined && !statuses.includes(status)) throw new DomainError("invalid", `status must be one of ${statuses.join(", ")}`);
      let all = reviews()
        .range<CodeReviewRecord>(["review", orgId])
        .map((e) => e.value);
      if (repo) {
        const rk = repoKey(repo.remote, repo.name);
        all = all.filter((r) => repoKey(r.repository.remote, r.repository.name) === rk);
      }
      if (input.prNumber !== undefined) all = all.filter((r) => r.prNumber === input.prNumber);
      if (status) all = all.filter((r) => r.status === status);
      all.sort((a, b) => (a.createdAt > b.createdAt ? -1 : a.createdAt < b.createdAt ? 1 : 0));
      const limit = clampLimit(input.limit, LIST_CODE_REVIEWS);
      const offset = clampOffset(input.offset);
      return {
        codeReviews: all.slice(offset, offset + limit).map((r) => ({
          id: r.id,
          status: r.status,
          createdAt: r.createdAt,
          completedAt: r.completedAt,
          metadata: r.metadata,
          mergeRequest: mergeRequestRef(orgId, r),
        })),
        total: all.length,
      };
    },

    /** get_code_review. */
    getCodeReview(orgId: string, codeReviewId: string): { codeReview: CodeReviewDetail } {
      const r = reviews().get<CodeReviewRecord>(["review", orgId, codeReviewId]);
      if (!r) throw new DomainError("not_found", `Code review ${codeReviewId} not found`);
      return { codeReview: toDetail(r) };
    },

    /** The full record (status history, files, reason), for admin faces and tests. */
    codeReviewRecord(orgId: string, codeReviewId: string): CodeReviewRecord | undefined {
      return reviews().get<CodeReviewRecord>(["review", orgId, codeReviewId]);
    },

    /** Reviews not yet finished, across organisations (the worker resumes them). */
    unfinishedReviews(): { orgId: string; id: string }[] {
      return reviews()
        .range<string>(["unfinished"])
        .map((e) => ({ id: String(e.key[1]), orgId: e.value }));
    },

    deliverySeen(orgId: string, remote: string, deliveryId: string): boolean {
      return readStore.view("webhook-deliveries").get(["delivery", orgId, remote, deliveryId]) !== undefined;
    },
  };
}

function parseTime(value: string | undefined, field: string): number | null {
  if (value === undefined || value === "") return null;
  const t = Date.parse(value);
  if (Number.isNaN(t)) throw new DomainError("invalid", `${field} must be an ISO 8601 timestamp`);
  return t;
}

export type PullRequestQueries = ReturnType<typeof createPullRequestQueries>;
