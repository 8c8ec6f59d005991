import type { Hono } from "hono";
import type { AppEnv } from "../env.ts";
import type { Services } from "../../../services.ts";
import { z } from "zod";
import { describeRoute } from "../route-docs.ts";

const readiness = z.object({
  status: z.enum(["ready", "not_ready"]),
  projections: z.array(z.object({ name: z.string(), lag: z.number().int(), state: z.string() })),
});

export function healthRoutes(app: Hono<AppEnv>, services: Services) {
  app.get("/healthz", (c) => c.json({ status: "ok" }));
  app.get("/readyz", async (c) => {
    const projections = await services.runner.status();
    const ready = projections.every((p) => p.lag === 0 && p.state !== "failed");
    return c.json(
      { status: ready ? "ready" : "not_ready", projections: projections.map(({ name, lag, state }) => ({ name, lag, state })) },
      ready ? 200 : 503,
    );
  });
  describeRoute(app, {
    method: "get",
    path: "/healthz",
    summary: "Liveness: the process answers",
    tags: ["operations"],
    auth: "none",
    responses: { 200: { description: "Alive", schema: z.object({ status: z.literal("ok") }) } },
  });
  describeRoute(app, {
    method: "get",
    path: "/readyz",
    summary: "Readiness: every projection has caught up with the event log",
    tags: ["operations"],
    auth: "none",
    responses: { 200: { description: "Ready", schema: readiness }, 503: { description: "Not ready (a projection lags or failed)", schema: readiness } },
  });
}
