import { z } from "zod";
import type { MergeRequestListItem } from "../../../features/pull-requests/queries.ts";
import { builder } from "../builder.ts";
import { Remote } from "./remote.ts";
import { CodeReview } from "./code-review.ts";
import { ReviewComment, sortComments } from "./review-comment.ts";

export const PullRequest = builder.objectRef<MergeRequestListItem>("PullRequest").implement({
  description: "A pull (merge) request recorded from webhooks or a backfill (the pull-requests read model).",
  fields: (t) => ({
    id: t.exposeID("id"),
    number: t.exposeInt("number"),
    title: t.exposeString("title"),
    state: t.exposeString("state", { description: "open or closed." }),
    isDraft: t.exposeBoolean("isDraft"),
    authorLogin: t.exposeString("authorLogin"),
    sourceBranch: t.string({ resolve: (p) => p.branches.source }),
    targetBranch: t.string({ resolve: (p) => p.branches.target }),
    repositoryName: t.string({ resolve: (p) => p.repository.name }),
    remote: t.string({ resolve: (p) => p.repository.remote }),
    stats: t.field({ type: "JSON", resolve: (p) => p.stats }),
    commentsCount: t.exposeInt("commentsCount"),
    reviewsCount: t.exposeInt("reviewsCount"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    comments: t.field({
      type: [ReviewComment],
      description: "Its review comments, human and service-generated, oldest first.",
      args: {
        greptileGenerated: t.arg.boolean({ description: "true: only the service's comments; false: only human ones." }),
        addressed: t.arg.boolean(),
      },
      resolve: (p, args, ctx) =>
        sortComments(
          ctx.services.pullRequests.queries
            .commentsOf(ctx.principal.orgId, p.id)
            .filter((c) => args.greptileGenerated == null || c.isGreptileComment === args.greptileGenerated)
            .filter((c) => args.addressed == null || c.addressed === args.addressed),
        ),
    }),
    codeReviews: t.field({
      type: [CodeReview],
      description: "Its code reviews, oldest first.",
      resolve: (p, _args, ctx) => {
        return ctx.services.reviews.ofPullRequest(ctx.principal.orgId, p.id);
      },
    }),
  }),
});

const PullRequestList = builder.objectRef<{ mergeRequests: MergeRequestListItem[]; total: number }>("PullRequestList").implement({
  fields: (t) => ({
    total: t.exposeInt("total"),
    items: t.field({ type: [PullRequest], resolve: (l) => l.mergeRequests }),
  }),
});

builder.queryFields((t) => ({
  pullRequests: t.field({
    type: PullRequestList,
    description: "The caller's organisation's pull requests, newest first; optionally of one repository (name, remote and defaultBranch together).",
    args: {
      name: t.arg.string({ validate: z.string().trim().min(1).max(300).nullish() }),
      remote: t.arg({ type: Remote }),
      defaultBranch: t.arg.string({ validate: z.string().trim().min(1).max(255).nullish() }),
      state: t.arg.string({ validate: z.enum(["open", "closed"]).nullish() }),
      limit: t.arg.int({ validate: z.number().int().min(1).max(100).nullish() }),
      offset: t.arg.int({ validate: z.number().int().min(0).nullish() }),
    },
    resolve: (_root, args, ctx) =>
      ctx.services.pullRequests.list(ctx.principal.orgId, {
        name: args.name ?? undefined,
        remote: args.remote ?? undefined,
        defaultBranch: args.defaultBranch ?? undefined,
        state: args.state ?? undefined,
        limit: args.limit ?? undefined,
        offset: args.offset ?? undefined,
      }),
  }),
}));
