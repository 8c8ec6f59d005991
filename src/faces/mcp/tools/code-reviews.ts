/** list_code_reviews, get_code_review, trigger_code_review (interface.md 4.2). */
import { z } from "zod";
import {
  checkRepositoryGroup,
  codeReviewDetail,
  codeReviewListItem,
  defineTool,
  limit,
  offset,
  prNumber,
  repositoryFields,
  repositoryGroupFields,
  reviewStatus,
  commandContextOf,
} from "./common.ts";
import { RpcCode, RpcError } from "../errors.ts";

/** interface.md section 8 leaves the maximum open: Loupe uses 100, like the other list tools. */
export const LIST_CODE_REVIEWS_LIMIT = { default: 20, max: 100 } as const;

export const listCodeReviewsInput = z
  .strictObject({
    ...repositoryGroupFields,
    prNumber: prNumber.optional(),
    status: reviewStatus.optional().describe("PENDING, REVIEWING_FILES, GENERATING_SUMMARY, COMPLETED, FAILED or SKIPPED"),
    limit: limit(LIST_CODE_REVIEWS_LIMIT.default, LIST_CODE_REVIEWS_LIMIT.max),
    offset,
  })
  .superRefine(checkRepositoryGroup);

export const listCodeReviewsOutput = z.object({ codeReviews: z.array(codeReviewListItem), total: z.number().int().min(0) });

export const listCodeReviews = defineTool({
  name: "list_code_reviews",
  title: "List code reviews",
  description:
    "Code reviews run by the service for your organisation, newest first. Filter by repository (name, " +
    "remote and defaultBranch together), prNumber and status. Paginate with limit (default 20, max 100) and offset.",
  input: listCodeReviewsInput,
  output: listCodeReviewsOutput,
  readOnly: true,
  run: async (args, ctx) => ctx.services.reviews.list(ctx.principal.orgId, args),
});

export const getCodeReviewInput = z.strictObject({
  codeReviewId: z.string().min(1).max(100).describe("Code review id (from list_code_reviews or trigger_code_review)"),
});
export const getCodeReviewOutput = z.object({ codeReview: codeReviewDetail });

export const getCodeReview = defineTool({
  name: "get_code_review",
  title: "Get a code review",
  description: "One code review with its status, progress metadata, summary body, the reason when it FAILED or was SKIPPED, and the pull request it reviewed.",
  input: getCodeReviewInput,
  output: getCodeReviewOutput,
  readOnly: true,
  run: async (args, ctx) => ctx.services.reviews.get(ctx.principal.orgId, args.codeReviewId),
});

export const triggerCodeReviewInput = z.strictObject({
  ...repositoryFields,
  prNumber,
  branch: z.string().min(1).max(500).optional().describe("Working branch to review (defaults to the pull request's source branch)"),
  /** Additive to interface.md 4.2 (POST /v2/code-reviews takes it too). */
  strictness: z.number().int().min(1).max(5).optional().describe("1 (critical findings only) to 5 (everything, info included); default 3"),
});

export const triggerCodeReviewOutput = z.object({ codeReviewId: z.string(), status: reviewStatus, message: z.string() });

/** The wire message interface.md 4.2 and 7 fix for a trigger_code_review without defaultBranch. */
export const MISSING_DEFAULT_BRANCH_MESSAGE = "MCP error -32000: invalid_type - defaultBranch Required";

export const triggerCodeReview = defineTool({
  name: "trigger_code_review",
  title: "Trigger a code review",
  description:
    "Start a code review of a pull/merge request. Returns at once with the review id and status PENDING; " +
    "follow its progress with get_code_review. Drafts are reviewed too when triggered this way.",
  input: triggerCodeReviewInput,
  output: triggerCodeReviewOutput,
  readOnly: false,
  precheck(args) {
    if (args.defaultBranch === undefined) {
      throw new RpcError(RpcCode.ServerError, MISSING_DEFAULT_BRANCH_MESSAGE, {
        field: "defaultBranch",
        issues: [{ field: "defaultBranch", code: "invalid_type", message: "Required" }],
      });
    }
  },
  // The review fetches with the caller's host token (X-Host-Token or the provider-named header of the
  // MCP request); the service token serves only the operator's organisations.
  run: (args, ctx) => ctx.services.reviews.trigger(ctx.principal.orgId, args, commandContextOf(ctx), { hostToken: ctx.hostToken(args.remote) }),
});
