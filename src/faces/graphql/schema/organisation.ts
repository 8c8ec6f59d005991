import { z } from "zod";
import type { OrganisationRecord } from "../../../features/access/queries.ts";
import { builder, commandContextOf } from "../builder.ts";
import { adminError } from "../errors.ts";
import { IssueApiKeyPayload } from "./api-key.ts";
import { ReadModelSnapshot, snapshotView } from "./audit.ts";

export const Organisation = builder.objectRef<OrganisationRecord>("Organisation").implement({
  description: "An organisation: the boundary of all data. An admin key sees only its own organisation's records.",
  fields: (t) => ({
    orgId: t.exposeID("orgId"),
    name: t.exposeString("name"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
  }),
});

export const ownOrganisation = (ctx: { services: { keys: { organisations(): OrganisationRecord[] } }; principal: { orgId: string } }) =>
  ctx.services.keys.organisations().find((o) => o.orgId === ctx.principal.orgId);

builder.queryFields((t) => ({
  organisations: t.field({
    type: [Organisation],
    description: "The organisations the caller may see: its own (one organisation never reads another's data).",
    resolve: (_root, _args, ctx) => {
      const own = ownOrganisation(ctx);
      return own ? [own] : [];
    },
  }),
  provisionedOrganisations: t.field({
    type: [Organisation],
    description:
      "The organisations the caller's organisation created (createOrganisation), oldest first: their id, name and creation time, never their keys or data. Each creation is the event OrganisationProvisioned in the caller's log.",
    resolve: (_root, _args, ctx) => ctx.services.keys.provisionedBy(ctx.principal.orgId),
  }),
}));

const CreateOrganisationPayload = builder
  .objectRef<{ organisation: OrganisationRecord; admin: { secret: string; keyId: string; orgId: string } }>("CreateOrganisationPayload")
  .implement({
    description: "The new organisation and its first admin key (the secret is shown once, here).",
    fields: (t) => ({
      organisation: t.field({ type: Organisation, resolve: (p) => p.organisation }),
      admin: t.field({ type: IssueApiKeyPayload, resolve: (p) => p.admin }),
    }),
  });

builder.mutationFields((t) => ({
  createOrganisation: t.field({
    type: CreateOrganisationPayload,
    description:
      "Creates an organisation and an admin key for it (bootstrap organisation only). Recorded in the caller's organisation as OrganisationProvisioned (the caller's key as actor, the new organisation's id and name); the new organisation's own events name the actor `operator`, never the caller's key.",
    args: {
      name: t.arg.string({ required: true, validate: z.string().trim().min(1).max(200) }),
    },
    resolve: async (_root, { name }, ctx) => {
      const { organisation, key, info } = await ctx.services.keys.createOrganisationWithAdmin(name.trim(), commandContextOf(ctx));
      if (!organisation) throw adminError("INTERNAL", "The organisation was recorded but is not readable yet");
      return { organisation, admin: { secret: key, keyId: info.keyId, orgId: info.orgId } };
    },
  }),
}));

builder.objectField(ReadModelSnapshot, "organisations", (t) =>
  t.field({
    type: [Organisation],
    nullable: true,
    description: "The organisations projection's record of the caller's organisation (null for other projections).",
    resolve: (s) => {
      const view = snapshotView(s, "organisations");
      const own = view?.get<OrganisationRecord>(["org", s.orgId]);
      return view ? (own ? [own] : []) : null;
    },
  }),
);
