import { z } from "zod";
import type { ApiKeyInfo } from "../../../features/access/service.ts";
import { builder, commandContextOf } from "../builder.ts";
import { adminError } from "../errors.ts";
import { apiKeyQueries } from "../../../features/access/queries.ts";
import { ReadModelSnapshot, snapshotView } from "./audit.ts";

export const ApiKeyRole = builder.enumType("ApiKeyRole", {
  description: "admin keys may use the admin API and manage keys; member keys use the /v2 API only.",
  values: ["admin", "member"] as const,
});

/** An API key's public record: never its secret or hash. */
export const ApiKey = builder.objectRef<ApiKeyInfo>("ApiKey").implement({
  description: "An API key of the caller's organisation. The secret is shown only once, when issued; the hash never.",
  fields: (t) => ({
    keyId: t.exposeID("keyId"),
    orgId: t.exposeID("orgId"),
    name: t.exposeString("name"),
    role: t.field({ type: ApiKeyRole, resolve: (k) => k.role }),
    bootstrap: t.exposeBoolean("bootstrap", { description: "Created at first start (LOUPE_API_KEY or a generated key)." }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    createdBy: t.exposeString("createdBy", { description: "Actor that issued it: a key id, 'system', or 'operator' (the first admin key of an organisation another one created)." }),
    revokedAt: t.expose("revokedAt", { type: "DateTime", nullable: true }),
    active: t.boolean({ resolve: (k) => k.revokedAt === null }),
  }),
});

/** The issued key and its secret. `keyId`/`orgId` resolve the record from the read model. */
export const IssueApiKeyPayload = builder.objectRef<{ secret: string; keyId: string; orgId: string }>("IssueApiKeyPayload").implement({
  description: "The secret is returned once, here; Loupe keeps only its hash.",
  fields: (t) => ({
    secret: t.exposeString("secret", { description: "Send as `Authorization: Bearer <secret>`. Not retrievable later." }),
    apiKey: t.field({
      type: ApiKey,
      resolve: (p, _args, ctx) => {
        const info = ctx.services.keys.get(p.orgId, p.keyId);
        if (!info) throw adminError("INTERNAL", "The key was recorded but is not readable yet");
        return info;
      },
    }),
  }),
});

const keyId = z.string().trim().min(1).max(100);

builder.queryFields((t) => ({
  apiKeys: t.field({
    type: [ApiKey],
    description: "The caller's organisation's API keys.",
    args: { includeRevoked: t.arg.boolean({ defaultValue: true }) },
    resolve: (_root, { includeRevoked }, ctx) =>
      ctx.services.keys.list(ctx.principal.orgId).filter((k) => includeRevoked !== false || k.revokedAt === null),
  }),
  apiKey: t.field({
    type: ApiKey,
    nullable: true,
    args: { keyId: t.arg.id({ required: true, validate: keyId }) },
    resolve: (_root, args, ctx) => ctx.services.keys.get(ctx.principal.orgId, String(args.keyId)) ?? null,
  }),
}));

builder.mutationFields((t) => ({
  issueApiKey: t.field({
    type: IssueApiKeyPayload,
    description: "Issues a key in the caller's organisation. The payload carries the secret, once.",
    args: {
      name: t.arg.string({ required: true, validate: z.string().trim().min(1).max(200) }),
      role: t.arg({ type: ApiKeyRole, defaultValue: "member" }),
    },
    resolve: async (_root, args, ctx) => {
      const { key, info } = await ctx.services.keys.issue(
        { orgId: ctx.principal.orgId, name: args.name.trim(), role: args.role ?? "member" },
        commandContextOf(ctx),
      );
      return { secret: key, keyId: info.keyId, orgId: info.orgId };
    },
  }),
  revokeApiKey: t.field({
    type: ApiKey,
    description: "Revokes a key of the caller's organisation; it stops authenticating at once. Revoking twice is a no-op: every call, concurrent ones included, answers the key revoked.",
    args: {
      keyId: t.arg.id({ required: true, validate: keyId }),
      reason: t.arg.string({ validate: z.string().max(500).nullish() }),
    },
    resolve: async (_root, args, ctx) => {
      const orgId = ctx.principal.orgId;
      const id = String(args.keyId);
      if (!ctx.services.keys.get(orgId, id)) throw adminError("NOT_FOUND", `API key ${id} not found`);
      return ctx.services.keys.revoke(orgId, id, args.reason ?? null, commandContextOf(ctx));
    },
  }),
}));

builder.objectField(ReadModelSnapshot, "apiKeys", (t) =>
  t.field({
    type: [ApiKey],
    nullable: true,
    description: "The api-keys projection's keys of the caller's organisation (null for other projections).",
    resolve: (s) => {
      const view = snapshotView(s, "api-keys");
      return view && apiKeyQueries(() => view).list(s.orgId).map(({ keyHash: _hash, ...info }) => info);
    },
  }),
);
