import { z } from "zod";
import type { RepositoryRecord } from "../../../features/repositories/projection.ts";
import { builder, commandContextOf } from "../builder.ts";
import { adminError } from "../errors.ts";
import { Remote } from "./remote.ts";
import { displayRepositoryId, shownRef, shownRepositoryId, storedRepositoryId } from "../../../indexing/repo-id.ts";

export const Repository = builder.objectRef<RepositoryRecord>("Repository").implement({
  description: "A repository submitted for indexing, with the status of its index (the repositories read model).",
  fields: (t) => ({
    repoId: t.id({
      description: "remote:branch:owner/repo; a local repository (indexed by path) as local:branch:<name>, as the REST API shows it.",
      resolve: (r) => displayRepositoryId(r.remote, r.branch, r.repository),
    }),
    remote: t.string({ description: "github, gitlab, bitbucket or azure; local for a repository indexed by path.", resolve: (r) => shownRef(r).remote }),
    repository: t.string({ resolve: (r) => shownRef(r).repository }),
    branch: t.exposeString("branch"),
    requestedBranch: t.exposeString("requestedBranch", { nullable: true }),
    private: t.exposeBoolean("private"),
    status: t.exposeString("status", { description: "submitted, cloning, processing, completed or failed." }),
    filesProcessed: t.exposeInt("filesProcessed"),
    numFiles: t.exposeInt("numFiles"),
    sha: t.exposeString("sha", { nullable: true, description: "Commit of the last completed index." }),
    headSha: t.exposeString("headSha", { nullable: true, description: "Commit the current job indexes." }),
    languages: t.field({ type: "JSON", resolve: (r) => r.languages }),
    skippedCount: t.exposeInt("skippedCount"),
    sampleQuestions: t.exposeStringList("sampleQuestions"),
    failureReason: t.exposeString("failureReason", { nullable: true }),
    submittedAt: t.expose("submittedAt", { type: "DateTime" }),
    startedAt: t.expose("startedAt", { type: "DateTime", nullable: true }),
  }),
});

const SubmitRepositoryPayload = builder
  .objectRef<{ repoId: string; message: string; started: boolean; orgId: string }>("SubmitRepositoryPayload")
  .implement({
    fields: (t) => ({
      repoId: t.id({ resolve: (p) => shownRepositoryId(p.repoId) }),
      message: t.exposeString("message"),
      started: t.exposeBoolean("started", { description: "false when the index was up to date and nothing was started." }),
      repository: t.field({
        type: Repository,
        nullable: true,
        resolve: (p, _args, ctx) => ctx.services.indexer.get(p.orgId, p.repoId) ?? null,
      }),
    }),
  });

builder.queryFields((t) => ({
  repositories: t.field({
    type: [Repository],
    description: "The caller's organisation's repositories.",
    resolve: (_root, _args, ctx) => ctx.services.indexer.list(ctx.principal.orgId),
  }),
  repository: t.field({
    type: Repository,
    nullable: true,
    description: "One repository by id: remote:branch:owner/repo, or local:branch:<name> for a repository indexed by path.",
    args: { repoId: t.arg.id({ required: true, validate: z.string().min(1).max(600) }) },
    resolve: (_root, args, ctx) => {
      const repoId = storedRepositoryId(String(args.repoId).trim());
      return repoId !== null ? (ctx.services.indexer.get(ctx.principal.orgId, repoId) ?? null) : null;
    },
  }),
}));

builder.mutationFields((t) => ({
  submitRepository: t.field({
    type: SubmitRepositoryPayload,
    description:
      "Submits a repository for indexing, or re-indexes it (`reload: true` re-indexes even when up to date). Host tokens for private repositories go through the REST API's headers, not here.",
    args: {
      remote: t.arg({ type: Remote, required: true }),
      repository: t.arg.string({ required: true, validate: z.string().trim().min(1).max(300) }),
      branch: t.arg.string({ validate: z.string().trim().max(255).nullish() }),
      reload: t.arg.boolean({ defaultValue: false }),
    },
    resolve: async (_root, args, ctx) => {
      const orgId = ctx.principal.orgId;
      const result = await ctx.services.indexer.submit(
        { orgId, remote: args.remote, repository: args.repository.trim(), branch: args.branch?.trim() || undefined, reload: args.reload ?? false },
        commandContextOf(ctx),
      );
      if (!result) throw adminError("INTERNAL", "Submitting the repository gave no result");
      return { ...result, orgId };
    },
  }),
}));
