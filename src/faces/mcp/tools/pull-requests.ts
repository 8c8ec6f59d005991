/** list_pull_requests (alias list_merge_requests), get_merge_request, list_merge_request_comments (interface.md 4.2). */
import { z } from "zod";
import {
  checkRepositoryGroup,
  defineTool,
  isoDate,
  limit,
  mergeRequestDetail,
  mergeRequestListItem,
  offset,
  prNumber,
  repositoryFields,
  repositoryGroupFields,
  reviewComment,
} from "./common.ts";

export const LIST_PULL_REQUESTS_LIMIT = { default: 20, max: 100 } as const;

export const listPullRequestsInput = z
  .strictObject({
    ...repositoryGroupFields,
    sourceBranch: z.string().min(1).max(500).optional().describe("Partial-match filter on the source branch"),
    authorLogin: z.string().min(1).max(300).optional().describe("Fuzzy-match filter on the author's login"),
    state: z.enum(["open", "closed"]).optional().describe("open or closed (merged requests are closed)"),
    limit: limit(LIST_PULL_REQUESTS_LIMIT.default, LIST_PULL_REQUESTS_LIMIT.max),
    offset,
  })
  .superRefine(checkRepositoryGroup);

export const listPullRequestsOutput = z.object({ mergeRequests: z.array(mergeRequestListItem), total: z.number().int().min(0) });

const listDescription = (alias: string) =>
  "List pull/merge requests recorded for your organisation, newest first. Filter by repository " +
  "(name, remote and defaultBranch together), sourceBranch (partial match), authorLogin (fuzzy match) " +
  `and state (open/closed; merged ones are closed). Paginate with limit (default 20, max 100) and offset. ${alias}`;

export const listPullRequests = defineTool({
  name: "list_pull_requests",
  title: "List pull requests",
  description: listDescription("Same as list_merge_requests."),
  input: listPullRequestsInput,
  output: listPullRequestsOutput,
  readOnly: true,
  run: async (args, ctx) => ctx.services.pullRequests.list(ctx.principal.orgId, args),
});

export const listMergeRequests = defineTool({
  ...listPullRequests,
  name: "list_merge_requests",
  title: "List merge requests",
  description: listDescription("Same as list_pull_requests."),
});

export const getMergeRequestInput = z.strictObject({ ...repositoryFields, prNumber });
export const getMergeRequestOutput = z.object({ mergeRequest: mergeRequestDetail });

export const getMergeRequest = defineTool({
  name: "get_merge_request",
  title: "Get a merge request",
  description:
    "Details of one pull/merge request: description, labels, branches, stats, its comments split into " +
    "service-generated (`greptile`) and human ones, its code reviews, and a review analysis (addressed and " +
    "unaddressed service comments, commits since the last review, whether a re-review is needed).",
  input: getMergeRequestInput,
  output: getMergeRequestOutput,
  readOnly: true,
  run: async (args, ctx) => ctx.services.pullRequests.get(ctx.principal.orgId, args),
});

export const listMergeRequestCommentsInput = z.strictObject({
  ...repositoryFields,
  prNumber,
  greptileGenerated: z.boolean().optional().describe("true: only service-generated comments; false: only human comments"),
  addressed: z.boolean().optional().describe("Filter on whether the comment was addressed"),
  createdAfter: isoDate.optional().describe("Only comments created after this ISO 8601 date or date-time"),
  createdBefore: isoDate.optional().describe("Only comments created before this ISO 8601 date or date-time"),
});

export const listMergeRequestCommentsOutput = z.object({
  comments: z.array(reviewComment),
  repository: z.string(),
  prNumber: z.number(),
  total: z.number().int().min(0),
});

export const listMergeRequestComments = defineTool({
  name: "list_merge_request_comments",
  title: "List merge request comments",
  description:
    "Review comments of one pull/merge request (service-generated and human), oldest first, with file, " +
    "lines, suggestion and addressed state. Filter with greptileGenerated, addressed, createdAfter, createdBefore.",
  input: listMergeRequestCommentsInput,
  output: listMergeRequestCommentsOutput,
  readOnly: true,
  run: async (args, ctx) => ctx.services.pullRequests.listComments(ctx.principal.orgId, args),
});
