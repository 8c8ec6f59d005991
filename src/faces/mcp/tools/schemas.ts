/** The input and output schemas of every tool, in one namespace (used for types by src/faces/mcp/data.ts). */
export {
  listPullRequestsInput,
  listPullRequestsOutput,
  getMergeRequestInput,
  getMergeRequestOutput,
  listMergeRequestCommentsInput,
  listMergeRequestCommentsOutput,
} from "./pull-requests.ts";
export {
  listCodeReviewsInput,
  listCodeReviewsOutput,
  getCodeReviewInput,
  getCodeReviewOutput,
  triggerCodeReviewInput,
  triggerCodeReviewOutput,
} from "./code-reviews.ts";
export { searchGreptileCommentsInput, searchGreptileCommentsOutput } from "./comments.ts";
export {
  listCustomContextInput,
  listCustomContextOutput,
  getCustomContextInput,
  getCustomContextOutput,
  searchCustomContextInput,
  searchCustomContextOutput,
  createCustomContextInput,
  createCustomContextOutput,
} from "./custom-context.ts";
