import { z } from "zod";
import { customContextListItem, patternWarning, type CustomContextListItem } from "../../../features/custom-context/service.ts";
import type { CustomContextRecord } from "../../../features/custom-context/projection.ts";
import { DomainError } from "../../../eventstore/decider.ts";
import { customContextBody, customContextMetadata } from "../../../features/custom-context/events.ts";
import { builder, commandContextOf } from "../builder.ts";
import { ReadModelSnapshot, snapshotView } from "./audit.ts";

const CustomContextType = builder.enumType("CustomContextType", { values: ["CUSTOM_INSTRUCTION", "PATTERN"] as const });
const CustomContextStatus = builder.enumType("CustomContextStatus", { values: ["ACTIVE", "INACTIVE", "SUGGESTED"] as const });

export const CustomContext = builder.objectRef<CustomContextListItem>("CustomContext").implement({
  description: "An instruction or pattern the reviewer applies (the custom-context read model).",
  fields: (t) => ({
    id: t.exposeID("id"),
    type: t.field({ type: CustomContextType, resolve: (c) => c.type }),
    body: t.exposeString("body"),
    status: t.field({ type: CustomContextStatus, resolve: (c) => c.status }),
    scopes: t.field({ type: "JSON", resolve: (c) => c.scopes }),
    metadata: t.field({ type: "JSON", resolve: (c) => c.metadata }),
    evidenceCount: t.exposeInt("evidenceCount"),
    commentsCount: t.exposeInt("commentsCount"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    learned: t.boolean({ description: "Suggested by the service from review comments.", resolve: (c) => c.greptileGenerated }),
    warning: t.string({
      nullable: true,
      description: "Why this pattern can never match a change without a chat model (no code in backticks, no /regex/, a refused regex); null when it can.",
      resolve: (c) => patternWarning(c.type, c.body),
    }),
  }),
});

const CustomContextList = builder.objectRef<{ customContexts: CustomContextListItem[]; total: number }>("CustomContextList").implement({
  fields: (t) => ({
    total: t.exposeInt("total"),
    items: t.field({ type: [CustomContext], resolve: (l) => l.customContexts }),
  }),
});

const id = z.string().trim().min(1).max(200);

builder.queryFields((t) => ({
  customContexts: t.field({
    type: CustomContextList,
    description: "The caller's organisation's custom context, newest first.",
    args: {
      type: t.arg({ type: CustomContextType }),
      status: t.arg({ type: CustomContextStatus }),
      limit: t.arg.int({ validate: z.number().int().min(1).max(100).nullish() }),
      offset: t.arg.int({ validate: z.number().int().min(0).nullish() }),
    },
    resolve: (_root, args, ctx) =>
      ctx.services.customContext.list(ctx.principal.orgId, {
        type: args.type ?? undefined,
        status: args.status ?? undefined,
        limit: args.limit ?? undefined,
        offset: args.offset ?? undefined,
      }),
  }),
  customContext: t.field({
    type: CustomContext,
    nullable: true,
    args: { id: t.arg.id({ required: true, validate: id }) },
    resolve: (_root, args, ctx) => {
      try {
        return ctx.services.customContext.get(ctx.principal.orgId, String(args.id)).customContext;
      } catch (error) {
        if (error instanceof DomainError && error.code === "not_found") return null;
        throw error;
      }
    },
  }),
}));

builder.mutationFields((t) => ({
  createCustomContext: t.field({
    type: CustomContext,
    args: {
      body: t.arg.string({ required: true, validate: customContextBody.trim().min(1) }),
      type: t.arg({ type: CustomContextType, defaultValue: "CUSTOM_INSTRUCTION" }),
      status: t.arg({ type: CustomContextStatus, defaultValue: "ACTIVE" }),
      scopes: t.arg({ type: "JSON", description: "A scope expression (see the REST API's scopes)." }),
      metadata: t.arg({
        type: "JSON",
        description: "An object nesting at most 32 levels of objects and arrays, at most 50,000 characters as JSON.",
        validate: customContextMetadata.nullish(),
      }),
    },
    resolve: async (_root, args, ctx) => {
      const orgId = ctx.principal.orgId;
      const { customContext } = await ctx.services.customContext.create(
        orgId,
        {
          body: args.body,
          type: args.type ?? undefined,
          status: args.status ?? undefined,
          scopes: args.scopes ?? undefined,
          metadata: (args.metadata as Record<string, unknown> | null) ?? undefined,
        },
        commandContextOf(ctx),
      );
      return ctx.services.customContext.get(orgId, customContext.id).customContext;
    },
  }),
  setCustomContextStatus: t.field({
    type: CustomContext,
    description: "ACTIVE, INACTIVE (how a pattern is disabled; there is no delete) or SUGGESTED.",
    args: { id: t.arg.id({ required: true, validate: id }), status: t.arg({ type: CustomContextStatus, required: true }) },
    resolve: async (_root, args, ctx) =>
      (await ctx.services.customContext.setStatus(ctx.principal.orgId, String(args.id), args.status, commandContextOf(ctx))).customContext,
  }),
}));

builder.objectField(ReadModelSnapshot, "customContexts", (t) =>
  t.field({
    type: [CustomContext],
    nullable: true,
    description: "The custom-context projection's records of the caller's organisation (null for other projections).",
    resolve: (s) => {
      const view = snapshotView(s, "custom-context");
      return (
        view &&
        view.range<CustomContextRecord>(["ctx", s.orgId]).map(({ value }) => customContextListItem(value))
      );
    },
  }),
);
