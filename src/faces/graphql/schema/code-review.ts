import { z } from "zod";
import type { CodeReviewDetail, CodeReviewListItem } from "../../../features/code-reviews/queries.ts";
import { DomainError } from "../../../eventstore/decider.ts";
import type { Remote } from "../../../hosts/types.ts";
import { builder, commandContextOf } from "../builder.ts";
import { Remote as RemoteEnum } from "./remote.ts";
import { ReviewComment, sortComments } from "./review-comment.ts";

export const CodeReviewStatus = builder.enumType("CodeReviewStatus", {
  values: ["PENDING", "REVIEWING_FILES", "GENERATING_SUMMARY", "COMPLETED", "FAILED", "SKIPPED"] as const,
});

/** A review as the list gives it, or as the single read gives it (with `body` and the detailed merge request). */
export type CodeReviewItem = CodeReviewListItem | CodeReviewDetail;

const CodeReviewMetadata = builder.objectRef<CodeReviewListItem["metadata"]>("CodeReviewMetadata").implement({
  description: "Progress and settings of a code review.",
  fields: (t) => ({
    strictness: t.exposeInt("strictness", { description: "Review strictness, 1 (lenient) to 5 (strict)." }),
    totalFiles: t.exposeInt("totalFiles", { description: "Files the review covers (0 until it starts)." }),
    completedFiles: t.exposeInt("completedFiles", { description: "Files reviewed so far." }),
    correlationId: t.exposeString("correlationId", { description: "UUID shared by every event of the review." }),
  }),
});

type MergeRequestDetail = CodeReviewDetail["mergeRequest"];

const CodeReviewRepository = builder.objectRef<MergeRequestDetail["repository"]>("CodeReviewRepository").implement({
  description: "The repository of a reviewed pull request.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "remote:name, e.g. github:acme/widgets." }),
    name: t.exposeString("name"),
    remote: t.field({ type: RemoteEnum, resolve: (r) => r.remote as Remote }),
  }),
});

const CodeReviewMergeRequest = builder.objectRef<MergeRequestDetail>("CodeReviewMergeRequest").implement({
  description: "The pull (merge) request a code review is of.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "The pull request id (remote:name#number)." }),
    prNumber: t.exposeInt("prNumber"),
    title: t.exposeString("title"),
    sourceRepoUrl: t.exposeString("sourceRepoUrl"),
    description: t.exposeString("description"),
    authorLogin: t.exposeString("authorLogin"),
    repository: t.field({ type: CodeReviewRepository, resolve: (m) => m.repository }),
  }),
});

const isDetail = (r: CodeReviewItem): r is CodeReviewDetail => "body" in r;

export const CodeReview = builder.objectRef<CodeReviewItem>("CodeReview").implement({
  description: "A code review of a pull request (the code-reviews read model).",
  fields: (t) => ({
    id: t.exposeID("id"),
    status: t.field({ type: CodeReviewStatus, resolve: (r) => r.status }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    completedAt: t.expose("completedAt", { type: "DateTime", nullable: true }),
    metadata: t.field({ type: CodeReviewMetadata, resolve: (r) => r.metadata }),
    mergeRequest: t.field({
      type: CodeReviewMergeRequest,
      resolve: (r, _args, ctx) =>
        isDetail(r) ? r.mergeRequest : ctx.services.reviews.get(ctx.principal.orgId, r.id).codeReview.mergeRequest,
    }),
    body: t.string({
      nullable: true,
      description: "The summary (empty until the review completes).",
      resolve: (r, _args, ctx) => (isDetail(r) ? r.body : (ctx.services.reviews.record(ctx.principal.orgId, r.id)?.body ?? null)),
    }),
    reason: t.string({
      nullable: true,
      description: "Why the review ended FAILED or SKIPPED; null otherwise.",
      resolve: (r, _args, ctx) => (isDetail(r) ? r.reason : ctx.services.reviews.get(ctx.principal.orgId, r.id).codeReview.reason),
    }),
    comments: t.field({
      type: [ReviewComment],
      description: "The comments this review produced (inline ones and its summary), oldest first; empty until it reviews a file.",
      resolve: (r, _args, ctx) =>
        sortComments(ctx.services.pullRequests.queries.commentsOf(ctx.principal.orgId, r.mergeRequest.id).filter((c) => c.codeReviewId === r.id)),
    }),
  }),
});

const CodeReviewList = builder.objectRef<{ codeReviews: CodeReviewListItem[]; total: number }>("CodeReviewList").implement({
  fields: (t) => ({
    total: t.exposeInt("total"),
    items: t.field({ type: [CodeReview], resolve: (l) => l.codeReviews }),
  }),
});

const TriggerCodeReviewPayload = builder
  .objectRef<{ codeReviewId: string; status: "PENDING"; message: string }>("TriggerCodeReviewPayload")
  .implement({
    fields: (t) => ({
      codeReviewId: t.exposeID("codeReviewId"),
      status: t.field({ type: CodeReviewStatus, resolve: (p) => p.status }),
      message: t.exposeString("message"),
    }),
  });

builder.queryFields((t) => ({
  codeReviews: t.field({
    type: CodeReviewList,
    description:
      "The caller's organisation's code reviews, newest first (list_code_reviews). Every filter is optional; name, remote and defaultBranch go together.",
    args: {
      name: t.arg.string({ validate: z.string().trim().min(1).max(300).nullish() }),
      remote: t.arg({ type: RemoteEnum }),
      defaultBranch: t.arg.string({ validate: z.string().trim().min(1).max(255).nullish() }),
      prNumber: t.arg.int({
        description: "Pull request number: of the repository given, or, without one, in every repository.",
        validate: z.number().int().min(1).nullish(),
      }),
      status: t.arg({ type: CodeReviewStatus }),
      limit: t.arg.int({ validate: z.number().int().min(1).max(100).nullish() }),
      offset: t.arg.int({ validate: z.number().int().min(0).nullish() }),
    },
    resolve: (_root, args, ctx) =>
      ctx.services.reviews.list(ctx.principal.orgId, {
        name: args.name ?? undefined,
        remote: args.remote ?? undefined,
        defaultBranch: args.defaultBranch ?? undefined,
        prNumber: args.prNumber ?? undefined,
        status: args.status ?? undefined,
        limit: args.limit ?? undefined,
        offset: args.offset ?? undefined,
      }),
  }),
  codeReview: t.field({
    type: CodeReview,
    nullable: true,
    args: { id: t.arg.id({ required: true, validate: z.string().trim().min(1).max(200) }) },
    resolve: (_root, args, ctx) => {
      try {
        return ctx.services.reviews.get(ctx.principal.orgId, String(args.id)).codeReview;
      } catch (error) {
        if (error instanceof DomainError && error.code === "not_found") return null;
        throw error;
      }
    },
  }),
}));

builder.mutationFields((t) => ({
  triggerCodeReview: t.field({
    type: TriggerCodeReviewPayload,
    description:
      "Records a PENDING review of a recorded pull request and queues it. The review fetches with the request's X-Host-Token (never recorded); organisations other than the operator's must send one.",
    args: {
      name: t.arg.string({ required: true, validate: z.string().trim().min(1).max(300) }),
      remote: t.arg({ type: RemoteEnum, required: true }),
      defaultBranch: t.arg.string({ required: true, validate: z.string().trim().min(1).max(255) }),
      prNumber: t.arg.int({ required: true, validate: z.number().int().min(1) }),
      branch: t.arg.string({ validate: z.string().trim().min(1).max(255).nullish() }),
      strictness: t.arg.int({ validate: z.number().int().min(1).max(5).nullish() }),
      includeDrafts: t.arg.boolean(),
    },
    resolve: (_root, args, ctx) =>
      ctx.services.reviews.trigger(
        ctx.principal.orgId,
        {
          name: args.name,
          remote: args.remote,
          defaultBranch: args.defaultBranch,
          prNumber: args.prNumber,
          branch: args.branch ?? undefined,
          strictness: args.strictness ?? undefined,
          includeDrafts: args.includeDrafts ?? undefined,
        },
        commandContextOf(ctx),
        { hostToken: ctx.hostToken(args.remote) },
      ),
  }),
}));
