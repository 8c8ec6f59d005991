import SchemaBuilder from "@pothos/core";
import RelayPlugin from "@pothos/plugin-relay";
import ValidationPlugin from "@pothos/plugin-validation";
import type { Principal } from "../../features/access/service.ts";
import type { CommandContext } from "../../eventstore/new-event.ts";
import type { Logger } from "../../logging.ts";
import type { Services } from "../../services.ts";
import type { Remote } from "../../hosts/types.ts";
import { adminError } from "./errors.ts";

/** What every admin resolver gets: the services and the (admin) caller. */
export type AdminContext = {
  services: Services;
  principal: Principal;
  requestId: string;
  logger: Logger;
  /** The request's host token for a remote (X-Host-Token or the provider-named header), if any. */
  hostToken(remote: Remote): string | undefined;
};

/** The command context of an admin request: the caller's org, its key id as actor, the request id as correlation. */
export const commandContextOf = (ctx: AdminContext): CommandContext => ({
  orgId: ctx.principal.orgId,
  actor: ctx.principal.keyId,
  correlationId: ctx.requestId,
  causationId: null,
});

/**
 * The admin schema builder. Each type lives in its own file under `schema/` and adds its own query and
 * mutation fields (`builder.queryField(s)`, `builder.mutationField(s)`); `schema.ts` imports them all.
 */
export const builder = new SchemaBuilder<{
  Context: AdminContext;
  Scalars: {
    JSON: { Input: unknown; Output: unknown };
    DateTime: { Input: string; Output: string };
    Position: { Input: number; Output: number };
  };
  DefaultFieldNullability: false;
  DefaultEdgesNullability: false;
  DefaultNodeNullability: false;
}>({
  plugins: [RelayPlugin, ValidationPlugin],
  defaultFieldNullability: false,
  relay: {
    edgesFieldOptions: { nullable: false },
    nodeFieldOptions: { nullable: false },
    clientMutationId: "omit",
    cursorType: "String",
    nodeQueryOptions: false,
    nodesQueryOptions: false,
  },
  validation: {
    validationError: (failure) =>
      adminError("BAD_USER_INPUT", failure.issues.map((i) => formatIssue(i)).join("; "), {
        issues: failure.issues.map((i) => ({ path: pathOf(i.path), message: i.message })),
      }),
  },
});

type Issue = { message: string; path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> | undefined };
const pathOf = (path: Issue["path"]) =>
  (path ?? []).map((p) => String(typeof p === "object" && p !== null && "key" in p ? p.key : p)).join(".");
const formatIssue = (issue: Issue) => (issue.path?.length ? `${pathOf(issue.path)}: ${issue.message}` : issue.message);

builder.queryType({ description: "Loupe administration: organisations, keys, projections, the event log and audit." });
builder.mutationType({ description: "Administrative commands. Every one is recorded as events with the caller's key as actor." });
