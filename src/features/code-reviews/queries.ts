/**
 * Queries over the code reviews read model (interface.md 2.5, tools list_code_reviews and
 * get_code_review), each review with its merge request's reference from the pull request queries.
 */
import type { ReadStore, ReadView } from "../../readstore/port.ts";
import { DomainError } from "../../eventstore/decider.ts";
import { clampLimit, clampOffset } from "../../readstore/listing.ts";
import { repoKey } from "../../hosts/pull-request-key.ts";
import { CODE_REVIEW_STATUSES, type CodeReviewStatus } from "../../review/status.ts";
import { repositoryGroup, type MergeRequestRef, type PullRequestQueries, type PullRequestReview, type RepositoryFilter } from "../pull-requests/queries.ts";
import type { CodeReviewRecord } from "./projection.ts";

export const LIST_CODE_REVIEWS = { defaultLimit: 20, maxLimit: 100 } as const;

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
  /** Why the review ended FAILED or SKIPPED; null otherwise (additive to interface.md 2.5). */
  reason: string | null;
  mergeRequest: MergeRequestRef & {
    description: string;
    authorLogin: string;
    repository: { id: string; name: string; remote: string };
  };
};

export function createCodeReviewQueries(readStore: ReadStore, pullRequests: PullRequestQueries) {
  const reviews = (): ReadView => readStore.view("code-reviews");
  const mergeRequestRef = (orgId: string, r: CodeReviewRecord): MergeRequestRef =>
    pullRequests.mergeRequestRef(orgId, r.prKey, { prNumber: r.prNumber, repository: r.repository });

  const toDetail = (r: CodeReviewRecord): CodeReviewDetail => {
    const pr = pullRequests.byKey(r.orgId, r.prKey);
    return {
      id: r.id,
      status: r.status,
      createdAt: r.createdAt,
      completedAt: r.completedAt,
      metadata: r.metadata,
      body: r.body,
      reason: r.status === "FAILED" || r.status === "SKIPPED" ? r.reason : null,
      mergeRequest: {
        ...mergeRequestRef(r.orgId, r),
        description: pr?.description ?? "",
        authorLogin: pr?.authorLogin ?? "",
        repository: { id: repoKey(r.repository.remote, r.repository.name), name: pr?.repository.name ?? r.repository.name, remote: r.repository.remote },
      },
    };
  };

  return {
    /** The reviews of one pull request, oldest first. */
    reviewsOf(orgId: string, key: string): (CodeReviewRecord & PullRequestReview)[] {
      return reviews()
        .range<string>(["byPr", orgId, key])
        .map((e) => reviews().get<CodeReviewRecord>(["review", orgId, e.value]))
        .filter((r): r is CodeReviewRecord => r !== undefined);
    },
    countReviews: (orgId: string, key: string): number => reviews().count(["byPr", orgId, key]),

    /**
     * list_code_reviews (interface.md 4.2: every parameter optional). Newest first. The repository
     * (name, remote and defaultBranch together) and prNumber filter independently: prNumber without a
     * repository gives the reviews of pull requests with that number in every repository.
     */
    listCodeReviews(
      orgId: string,
      input: RepositoryFilter & { prNumber?: number; status?: string; limit?: number; offset?: number },
    ): { codeReviews: CodeReviewListItem[]; total: number } {
      const repo = repositoryGroup(input);
      const status = input.status?.toUpperCase();
      const statuses: readonly string[] = CODE_REVIEW_STATUSES;
      if (status !== undefined && !statuses.includes(status)) throw new DomainError("invalid", `status must be one of ${statuses.join(", ")}`, "status");
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

  };
}

export type CodeReviewQueries = ReturnType<typeof createCodeReviewQueries>;
