/**
 * Queries over the pull request read model, shaped as interface.md 2.3-2.4 with the semantics of the
 * tools in 4.2 (filters, limits, pagination): merge requests with their comments and reviews, comment
 * search, webhook deliveries seen. Pure reads.
 */
import type { ReadStore, ReadView } from "../../readstore/port.ts";
import type { PullRequestRecord } from "./projection.ts";
import type { CommentRecord } from "../review-comments/projection.ts";
import { createReviewCommentQueries, toReviewComment, type ReviewComment } from "../review-comments/queries.ts";
import type { CodeReviewStatus } from "../../review/status.ts";
import { DomainError } from "../../eventstore/decider.ts";
import { byCreated, clampLimit, clampOffset, fuzzyLoginMatch, lexicalScore, parseTime } from "../../readstore/listing.ts";
import { prKey, repoKey } from "../../hosts/pull-request-key.ts";
import type { Remote } from "../../hosts/types.ts";

export const LIST_PULL_REQUESTS = { defaultLimit: 20, maxLimit: 100 } as const;
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

export type MergeRequestRef = {
  id: string;
  prNumber: number;
  title: string;
  sourceRepoUrl: string;
  repository: { name: string };
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

/** Checks the all-or-none rule of the repository group; returns the filter or null when omitted. */
export function repositoryGroup(filter: RepositoryFilter): { name: string; remote: string; defaultBranch: string } | null {
  const fields = { name: filter.name, remote: filter.remote, defaultBranch: filter.defaultBranch };
  const isGiven = (v: string | null | undefined) => v !== undefined && v !== null && v !== "";
  const given = Object.entries(fields).filter(([, v]) => isGiven(v)).map(([k]) => k);
  if (given.length === 0) return null;
  if (given.length !== 3) {
    // The field named is the first one missing (as the tool interface's schema names it).
    const missing = Object.keys(fields).find((k) => !given.includes(k))!;
    throw new DomainError("invalid", `name, remote and defaultBranch must be given together or all omitted (${given.join(", ")} given)`, missing);
  }
  return { name: filter.name!, remote: filter.remote!.toLowerCase(), defaultBranch: filter.defaultBranch! };
}

/**
 * The code reviews of a pull request, as its merge request shows them: a port the code-reviews feature
 * answers (it sits above this one), given by the composition root.
 */
export type PullRequestReviews = {
  reviewsOf(orgId: string, prKey: string): PullRequestReview[];
  countReviews(orgId: string, prKey: string): number;
};
export type PullRequestReview = { id: string; status: CodeReviewStatus; createdAt: string; completedAt: string | null; headSha: string | null };

/**
 * A comment the review analysis tracks (and the console badges addressed or not): a service comment
 * other than a summary. A summary is never "addressed": completeness and the addressed/unaddressed
 * lists count inline comments.
 */
export const countsAsInline = (c: Pick<CommentRecord, "isGreptileComment" | "kind">): boolean => c.isGreptileComment && c.kind !== "summary";

export function createPullRequestQueries(readStore: ReadStore, hostUrls: Record<Remote, string>, reviews: PullRequestReviews) {
  const prs = (): ReadView => readStore.view("pull-requests");
  const comments = createReviewCommentQueries(readStore);

  const repoUrl = (remote: string, name: string) => `${hostUrls[remote as Remote] ?? ""}/${name}`;

  const findPullRequest = (orgId: string, remote: string, name: string, number: number) =>
    prs().get<PullRequestRecord>(["pr", orgId, prKey({ remote, name, number })]);

  const requirePullRequest = (orgId: string, input: { name: string; remote: string; prNumber: number }) => {
    const pr = findPullRequest(orgId, input.remote.toLowerCase(), input.name, input.prNumber);
    if (!pr) throw new DomainError("not_found", `Merge request ${input.name}#${input.prNumber} (${input.remote}) not found`);
    return pr;
  };

  const commentsOf = comments.commentsOf;
  const byKey = (orgId: string, key: string) => prs().get<PullRequestRecord>(["pr", orgId, key]);

  /** The reference to a merge request that code reviews and comments carry (`known`: what the caller recorded of it). */
  const mergeRequestRef = (orgId: string, key: string, known: { prNumber: number; repository: { remote: string; name: string } }): MergeRequestRef => {
    const pr = byKey(orgId, key);
    return {
      id: key,
      prNumber: known.prNumber,
      title: pr?.title ?? "",
      sourceRepoUrl: repoUrl(known.repository.remote, pr?.repository.name ?? known.repository.name),
      repository: { name: pr?.repository.name ?? known.repository.name },
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
    commentsCount: comments.countOf(orgId, pr.id),
    reviewsCount: reviews.countReviews(orgId, pr.id),
    createdAt: pr.createdAt,
  });

  function reviewAnalysis(pr: PullRequestRecord, all: CommentRecord[], codeReviews: PullRequestReview[]): MergeRequestDetail["reviewAnalysis"] {
    const service = all.filter((c) => c.isGreptileComment);
    const human = all.filter((c) => !c.isGreptileComment);
    const inline = all.filter(countsAsInline);
    const addressed = inline.filter((c) => c.addressed);
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
      unaddressedComments: inline.filter((c) => !c.addressed).map(toReviewComment),
      commitsSinceLastReview: commitsSince,
      lastReviewDate: lastReview?.completedAt ?? null,
      reviewCompleteness: `${addressed.length}/${inline.length} service comments addressed`,
      hasNewCommitsSinceReview: hasNew,
    };
  }

  return {
    findPullRequest,
    requirePullRequest,
    byKey,
    mergeRequestRef,
    commentsOf,

    /** list_pull_requests / list_merge_requests. Newest first. */
    listMergeRequests(
      orgId: string,
      input: RepositoryFilter & { sourceBranch?: string; authorLogin?: string; state?: string; limit?: number; offset?: number },
    ): { mergeRequests: MergeRequestListItem[]; total: number } {
      const repo = repositoryGroup(input);
      const state = input.state?.toLowerCase();
      if (state !== undefined && state !== "open" && state !== "closed") throw new DomainError("invalid", "state must be open or closed", "state");
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
      const codeReviews = reviews.reviewsOf(orgId, pr.id);
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
      if (query === "") throw new DomainError("invalid", "query must not be empty", "query");
      const after = parseTime(input.createdAfter, "createdAfter");
      const limit = clampLimit(input.limit, SEARCH_COMMENTS);
      const includeAddressed = input.includeAddressed ?? false;
      const matches = comments
        .ofOrganisation(orgId)
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
        return {
          ...toReviewComment(c),
          sourceType: c.kind === "summary" ? "summary" : "inline",
          mergeRequest: mergeRequestRef(orgId, c.prKey, c),
        };
      });
      const hidden = includeAddressed ? 0 : summary.addressed;
      const note =
        `Showing ${page.length} of ${eligible.length} matching service comment${eligible.length === 1 ? "" : "s"} (lexical match).` +
        (hidden > 0 ? ` ${hidden} addressed comment${hidden === 1 ? " is" : "s are"} hidden; pass includeAddressed: true to include ${hidden === 1 ? "it" : "them"}.` : "");
      return { comments: page, query, total: eligible.length, note, summary };
    },

    deliverySeen(orgId: string, remote: string, deliveryId: string): boolean {
      return readStore.view("webhook-deliveries").get(["delivery", orgId, remote, deliveryId]) !== undefined;
    },
  };
}

export type PullRequestQueries = ReturnType<typeof createPullRequestQueries>;
