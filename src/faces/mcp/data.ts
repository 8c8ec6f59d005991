/**
 * The tools' access to the organisation's data: one function per tool, scoped to the caller's
 * organisation, returning the tool's response object. Binds the tool interface to the services of
 * the pull-request, review and custom-context areas (`services.pullRequests`, `services.reviews`,
 * `services.customContext`); their DomainErrors become JSON-RPC errors in src/faces/mcp/server.ts.
 */
import type { z } from "zod";
import type { ToolContext } from "./tools/common.ts";

type Schemas = typeof import("./tools/schemas.ts");
type Tool<I extends keyof Schemas, O extends keyof Schemas> = (args: z.output<Schemas[I]>) => Promise<z.input<Schemas[O]>>;

export type ToolData = {
  listPullRequests: Tool<"listPullRequestsInput", "listPullRequestsOutput">;
  getMergeRequest: Tool<"getMergeRequestInput", "getMergeRequestOutput">;
  listMergeRequestComments: Tool<"listMergeRequestCommentsInput", "listMergeRequestCommentsOutput">;
  listCodeReviews: Tool<"listCodeReviewsInput", "listCodeReviewsOutput">;
  getCodeReview: Tool<"getCodeReviewInput", "getCodeReviewOutput">;
  triggerCodeReview: Tool<"triggerCodeReviewInput", "triggerCodeReviewOutput">;
  searchGreptileComments: Tool<"searchGreptileCommentsInput", "searchGreptileCommentsOutput">;
  listCustomContext: Tool<"listCustomContextInput", "listCustomContextOutput">;
  getCustomContext: Tool<"getCustomContextInput", "getCustomContextOutput">;
  searchCustomContext: Tool<"searchCustomContextInput", "searchCustomContextOutput">;
  createCustomContext: Tool<"createCustomContextInput", "createCustomContextOutput">;
};

/** Largest page the review queries give; used to filter code reviews by prNumber alone (see below). */
const PAGE = 100;

export function toolData(ctx: ToolContext): ToolData {
  const { pullRequests, reviews, customContext } = ctx.services;
  const orgId = ctx.principal.orgId;
  const context = { orgId, actor: ctx.principal.keyId, correlationId: ctx.requestId, causationId: null };

  return {
    listPullRequests: async (args) => pullRequests.list(orgId, args),
    getMergeRequest: async (args) => pullRequests.get(orgId, args),
    listMergeRequestComments: async (args) => pullRequests.listComments(orgId, args),
    async listCodeReviews(args) {
      if (args.prNumber === undefined || args.name !== undefined) return reviews.list(orgId, args);
      // interface.md makes every parameter optional: prNumber without a repository filters across
      // repositories. The review queries want the repository with prNumber, so page through them.
      const { prNumber, limit, offset, ...rest } = args;
      const all: ReturnType<typeof reviews.list>["codeReviews"] = [];
      for (let start = 0; ; start += PAGE) {
        const page = reviews.list(orgId, { ...rest, limit: PAGE, offset: start });
        all.push(...page.codeReviews.filter((r) => r.mergeRequest.prNumber === prNumber));
        if (page.codeReviews.length < PAGE || start + PAGE >= page.total) break;
      }
      return { codeReviews: all.slice(offset, offset + limit), total: all.length };
    },
    getCodeReview: async (args) => reviews.get(orgId, args.codeReviewId),
    triggerCodeReview: (args) => reviews.trigger(orgId, args, context),
    searchGreptileComments: async (args) => pullRequests.searchComments(orgId, args),
    listCustomContext: async (args) => customContext.list(orgId, args),
    getCustomContext: async (args) => customContext.get(orgId, args.customContextId),
    searchCustomContext: async (args) => customContext.search(orgId, args),
    createCustomContext: (args) => customContext.create(orgId, args, context),
  };
}
