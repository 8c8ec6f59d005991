import type { Hono } from "hono";
import type { AppEnv } from "../env.ts";
import type { Services } from "../../services.ts";

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
}
