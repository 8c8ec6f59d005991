import { z } from "zod";
import type { ProjectionStatus } from "../../../../projections/runner.ts";
import { builder, commandContextOf } from "../builder.ts";
import { adminError } from "../errors.ts";
import { DomainError } from "../../../eventstore/decider.ts";

const ProjectionState = builder.enumType("ProjectionState", {
  values: {
    starting: { value: "starting" },
    catching_up: { value: "catching-up" },
    live: { value: "live" },
    rebuilding: { value: "rebuilding" },
    failed: { value: "failed" },
    stopped: { value: "stopped" },
  } as const,
});

export const Projection = builder.objectRef<ProjectionStatus>("Projection").implement({
  description: "A read-model projection as the runner sees it. Projections are global (they hold every organisation's records).",
  fields: (t) => ({
    name: t.exposeString("name"),
    version: t.exposeInt("version"),
    generation: t.exposeInt("generation", { description: "The generation readers use; a rebuild fills the next one and switches." }),
    checkpoint: t.expose("checkpoint", { type: "Position", description: "Last log position applied." }),
    head: t.expose("head", { type: "Position", description: "Newest log position when this status was taken." }),
    lag: t.expose("lag", { type: "Position", description: "head - checkpoint (positions, not an event count, with EventStoreDB)." }),
    state: t.field({ type: ProjectionState, resolve: (p) => p.state }),
    error: t.exposeString("error", { nullable: true }),
  }),
});

const projectionName = z.string().trim().min(1).max(200);

const statusOf = async (ctx: { services: { runner: { status(): Promise<ProjectionStatus[]> } } }, name: string) =>
  (await ctx.services.runner.status()).find((p) => p.name === name);

builder.queryFields((t) => ({
  projections: t.field({
    type: [Projection],
    resolve: (_root, _args, ctx) => ctx.services.runner.status(),
  }),
  projection: t.field({
    type: Projection,
    nullable: true,
    args: { name: t.arg.string({ required: true, validate: projectionName }) },
    resolve: async (_root, { name }, ctx) => (await statusOf(ctx, name)) ?? null,
  }),
}));

builder.mutationFields((t) => ({
  rebuildProjection: t.field({
    type: Projection,
    description:
      "Replays the whole log from zero into a fresh generation of the projection, then switches readers to it. Readers keep the current generation until the switch: they never see an error or an empty model. Resolves when the rebuild is done. Projections hold every organisation's records: only an admin key of the bootstrap organisation may rebuild one (FORBIDDEN otherwise). Recorded as ProjectionRebuildStarted / Completed / Failed with the caller's key as actor. One rebuild of a projection at a time: while one runs, another request gets CONFLICT and starts nothing; a request may name this mutation once.",
    args: { name: t.arg.string({ required: true, validate: projectionName }) },
    resolve: async (_root, { name }, ctx) => {
      try {
        const status = await ctx.services.operations.rebuildProjection(name, commandContextOf(ctx));
        ctx.logger.info({ projection: name }, "projection rebuilt");
        return status;
      } catch (error) {
        if (error instanceof DomainError) throw error;
        ctx.logger.error({ err: { message: (error as Error).message }, projection: name }, "projection rebuild failed");
        throw adminError("INTERNAL", `Rebuilding ${name} failed; see the projection's error and the logs`);
      }
    },
  }),
}));
