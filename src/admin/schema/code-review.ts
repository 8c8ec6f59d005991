import { z } from "zod";
import type { CodeReviewListItem } from "../../pullrequests/queries.ts";
import { DomainError } from "../../domain/decider.ts";
import { builder, commandContextOf } from "../builder.ts";
import { Remote } from "./remote.ts";

const CodeReviewStatus = builder.enumType("CodeReviewStatus", {
  values: ["PENDING", "REVIEWING_FILES", "GENERATING_SUMMARY", "COMPLETED", "FAILED", "SKIPPED"] as const,
});

export const CodeReview = builder.objectRef<CodeReviewListItem & { body?: string }>("CodeReview").implement({
  description: "A code review of a pull request (the code-reviews read model).",
  fields: (t) => ({
    id: t.exposeID("id"),
    status: t.field({ type: CodeReviewStatus, resolve: (r) => r.status }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    completedAt: t.expose("completedAt", { type: "DateTime", nullable: true }),
    metadata: t.field({ type: "JSON", description: "strictness, totalFiles, completedFiles, correlationId.", resolve: (r) => r.metadata }),
    mergeRequest: t.field({ type: "JSON", resolve: (r) => r.mergeRequest }),
    body: t.string({ nullable: true, description: "The summary (single-review reads only).", resolve: (r) => r.body ?? null }),
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
    description: "The caller's organisation's code reviews, newest first.",
    args: {
      name: t.arg.string({ validate: z.string().trim().min(1).max(300).nullish() }),
      remote: t.arg({ type: Remote }),
      defaultBranch: t.arg.string({ validate: z.string().trim().min(1).max(255).nullish() }),
      prNumber: t.arg.int({ validate: z.number().int().min(1).nullish() }),
      status: t.arg({ type: CodeReviewStatus }),
      limit: t.arg.int({ validate: z.number().int().min(1).max(100).nullish() }),
      offset: t.arg.int({ validate: z.number().int().min(0).nullish() }),
    },
    resolve: (_root, args, ctx) =>
      ctx.services.pullRequests.queries.listCodeReviews(ctx.principal.orgId, {
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
        const { codeReview } = ctx.services.pullRequests.queries.getCodeReview(ctx.principal.orgId, String(args.id));
        return codeReview as unknown as CodeReviewListItem & { body: string };
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
    description: "Records a PENDING review of a recorded pull request and queues it.",
    args: {
      name: t.arg.string({ required: true, validate: z.string().trim().min(1).max(300) }),
      remote: t.arg({ type: Remote, required: true }),
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
      ),
  }),
}));
