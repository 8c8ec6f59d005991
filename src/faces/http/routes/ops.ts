import { createHash, timingSafeEqual } from "node:crypto";
import type { Hono } from "hono";
import type { AppEnv } from "../env.ts";
import type { Services } from "../../../services.ts";
import { HttpError } from "../errors.ts";
import { buildOpenApiDocument, renderDocsHtml } from "../openapi.ts";
import { describeRoute } from "../route-docs.ts";

const digest = (s: string) => createHash("sha256").update(s, "utf8").digest();

/**
 * Operator routes, mounted before the /v2 API-key middleware:
 * - GET /metrics: Prometheus text format. Open by default (scrapers rarely carry credentials; keep the
 *   port on a private network), or guarded by `Authorization: Bearer $LOUPE_METRICS_TOKEN` when set.
 * - GET /v2/openapi.json: the OpenAPI 3.1 document of the HTTP API (no key needed).
 * - GET /v2/docs: a self-contained HTML reference rendered from that document (no key needed).
 */
export function opsRoutes(app: Hono<AppEnv>, services: Services) {
  const { config } = services;

  app.get("/metrics", async (c) => {
    if (config.metricsToken) {
      const header = c.req.header("authorization") ?? "";
      const given = header.startsWith("Bearer ") ? header.slice(7) : "";
      if (!timingSafeEqual(digest(given), digest(config.metricsToken))) {
        throw new HttpError(401, "unauthorized", "GET /metrics needs Authorization: Bearer <LOUPE_METRICS_TOKEN>");
      }
    }
    const body = await services.metrics.render();
    return c.body(body, 200, { "content-type": services.metrics.contentType });
  });

  // Built on first use: every route module has declared its routes by then.
  let document: ReturnType<typeof buildOpenApiDocument> | null = null;
  const getDocument = () => (document ??= buildOpenApiDocument(app));

  app.get("/v2/openapi.json", (c) => c.json(getDocument()));
  app.get("/v2/docs", (c) => c.html(renderDocsHtml(getDocument())));

  describeRoute(app, {
    method: "get",
    path: "/metrics",
    summary: "Prometheus metrics",
    description:
      "Request counts and latencies per route pattern, indexing throughput, queue depth, worker pool utilisation, projection lag and event store append latency. Needs `Authorization: Bearer <LOUPE_METRICS_TOKEN>` only when that variable is set.",
    tags: ["operations"],
    auth: "metricsToken",
    responses: { 200: { description: "Prometheus text exposition format", contentType: "text/plain", rawSchema: { type: "string" } } },
  });
  describeRoute(app, {
    method: "get",
    path: "/v2/openapi.json",
    summary: "This OpenAPI 3.1 document",
    tags: ["operations"],
    auth: "none",
    responses: { 200: { description: "OpenAPI 3.1 document", rawSchema: { type: "object" } } },
  });
  describeRoute(app, {
    method: "get",
    path: "/v2/docs",
    summary: "Browsable HTML reference of this API",
    tags: ["operations"],
    auth: "none",
    responses: { 200: { description: "HTML page", contentType: "text/html", rawSchema: { type: "string" } } },
  });
}
