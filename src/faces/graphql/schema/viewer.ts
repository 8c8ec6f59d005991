import type { Principal } from "../../../features/access/service.ts";
import { builder } from "../builder.ts";
import { ApiKeyRole } from "./api-key.ts";
import { Organisation, ownOrganisation } from "./organisation.ts";

const Viewer = builder.objectRef<Principal>("Viewer").implement({
  description: "The caller: the admin key of the request.",
  fields: (t) => ({
    keyId: t.exposeID("keyId"),
    orgId: t.exposeID("orgId"),
    role: t.field({ type: ApiKeyRole, resolve: (p) => p.role }),
    organisation: t.field({ type: Organisation, nullable: true, resolve: (_p, _args, ctx) => ownOrganisation(ctx) ?? null }),
  }),
});

builder.queryFields((t) => ({
  viewer: t.field({ type: Viewer, resolve: (_root, _args, ctx) => ctx.principal }),
}));
