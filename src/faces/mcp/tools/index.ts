import type { ToolDefinition } from "./common.ts";
import { getMergeRequest, listMergeRequestComments, listMergeRequests, listPullRequests } from "./pull-requests.ts";
import { getCodeReview, listCodeReviews, triggerCodeReview } from "./code-reviews.ts";
import { searchGreptileComments } from "./comments.ts";
import { createCustomContext, getCustomContext, listCustomContext, searchCustomContext } from "./custom-context.ts";
import { getQuerySession, getRepositoryStatus, indexRepository, queryRepositories, searchCode } from "./code.ts";

/** Every tool of the tool interface, in the order tools/list shows them. */
export const allTools: ToolDefinition[] = [
  listPullRequests,
  listMergeRequests,
  getMergeRequest,
  listMergeRequestComments,
  listCodeReviews,
  getCodeReview,
  triggerCodeReview,
  searchGreptileComments,
  listCustomContext,
  getCustomContext,
  searchCustomContext,
  createCustomContext,
  indexRepository,
  getRepositoryStatus,
  searchCode,
  queryRepositories,
  getQuerySession,
];

export const toolsByName = new Map(allTools.map((tool) => [tool.name, tool]));
