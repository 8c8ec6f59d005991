/**
 * The tools' access to the organisation's data: one function per tool, scoped to the caller's
 * organisation, returning the tool's response object. Binds the tool interface to the services of
 * the pull-request, review and custom-context areas (see `Services`).
 */
import type { z } from "zod";
import type { ToolContext } from "./tools/common.ts";
import { RpcCode, RpcError } from "./errors.ts";

type Args<T extends z.ZodType> = z.output<T>;
type Schemas = typeof import("./tools/schemas.ts");

export type ToolData = {
  listPullRequests(args: Args<Schemas["listPullRequestsInput"]>): Promise<z.input<Schemas["listPullRequestsOutput"]>>;
  getMergeRequest(args: Args<Schemas["getMergeRequestInput"]>): Promise<z.input<Schemas["getMergeRequestOutput"]>>;
  listMergeRequestComments(args: Args<Schemas["listMergeRequestCommentsInput"]>): Promise<z.input<Schemas["listMergeRequestCommentsOutput"]>>;
  listCodeReviews(args: Args<Schemas["listCodeReviewsInput"]>): Promise<z.input<Schemas["listCodeReviewsOutput"]>>;
  getCodeReview(args: Args<Schemas["getCodeReviewInput"]>): Promise<z.input<Schemas["getCodeReviewOutput"]>>;
  triggerCodeReview(args: Args<Schemas["triggerCodeReviewInput"]>): Promise<z.input<Schemas["triggerCodeReviewOutput"]>>;
  searchGreptileComments(args: Args<Schemas["searchGreptileCommentsInput"]>): Promise<z.input<Schemas["searchGreptileCommentsOutput"]>>;
  listCustomContext(args: Args<Schemas["listCustomContextInput"]>): Promise<z.input<Schemas["listCustomContextOutput"]>>;
  getCustomContext(args: Args<Schemas["getCustomContextInput"]>): Promise<z.input<Schemas["getCustomContextOutput"]>>;
  searchCustomContext(args: Args<Schemas["searchCustomContextInput"]>): Promise<z.input<Schemas["searchCustomContextOutput"]>>;
  createCustomContext(args: Args<Schemas["createCustomContextInput"]>): Promise<z.input<Schemas["createCustomContextOutput"]>>;
};

/** A domain-level failure of a tool call (not found, unavailable): JSON-RPC -32000 with this message. */
export const toolFailure = (message: string) => new RpcError(RpcCode.ServerError, message);

const unavailable = (what: string) => () => Promise.reject(toolFailure(`The ${what} service is not available on this server`));

export function toolData(_ctx: ToolContext): ToolData {
  return {
    listPullRequests: unavailable("pull request"),
    getMergeRequest: unavailable("pull request"),
    listMergeRequestComments: unavailable("pull request"),
    listCodeReviews: unavailable("code review"),
    getCodeReview: unavailable("code review"),
    triggerCodeReview: unavailable("code review"),
    searchGreptileComments: unavailable("review comment"),
    listCustomContext: unavailable("custom context"),
    getCustomContext: unavailable("custom context"),
    searchCustomContext: unavailable("custom context"),
    createCustomContext: unavailable("custom context"),
  };
}
