import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ulid } from "../../ids.ts";
import type { AppEnv } from "./env.ts";
import type { Services } from "../../services.ts";
import { HttpError, errorBody, hostErrorAsHttp } from "./errors.ts";
import { HostError } from "../../hosts/errors.ts";
import { authenticate } from "./auth.ts";
import { ExpectedVersionConflictError } from "../../eventstore/port.ts";
import { DomainError } from "../../eventstore/decider.ts";
import { healthRoutes } from "./routes/health.ts";
import { keyRoutes } from "./routes/keys.ts";
import { opsRoutes } from "./routes/ops.ts";
import { withLogContext } from "../../logging.ts";
import { routePath } from "hono/route";
import { TrieRouter } from "hono/router/trie-router";
import { StorageFullError, StorageWriteError } from "../../storage-errors.ts";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/**
 * The methods the app serves a path with, among its routes under `prefix` (middleware, registered for
 * every method, left out); HEAD with GET, as Hono answers HEAD with the GET route. Routes are read when
 * first asked (after every route module registered) and again whenever more were added.
 */
function servedMethods(app: Hono<AppEnv>, prefix: string): (path: string) => string[] {
  let router = new TrieRouter<string>();
  let seen = -1;
  return (path) => {
    if (!path.startsWith(prefix)) return [];
    if (seen !== app.routes.length) {
      router = new TrieRouter<string>();
      for (const route of app.routes) if (route.method !== "ALL" && route.path.startsWith(prefix)) router.add(route.method, route.path, route.method);
      seen = app.routes.length;
    }
    const methods: string[] = METHODS.filter((method) => router.match(method, path)[0].length > 0);
    if (methods.includes("GET")) methods.splice(1, 0, "HEAD");
    return methods;
  };
}

/** A face's routes: registered on the shared app, given the services. */
export type RouteModule = (app: Hono<AppEnv>, services: Services) => void;

const domainStatus = { not_found: 404, conflict: 409, invalid: 400, forbidden: 403 } as const;

/**
 * The whole HTTP face as one Web-standard fetch handler (`app.fetch`), served by Node and Deno alike.
 * `extraRoutes` are mounted after the built-in ones; routes outside /v2 manage their own auth.
 */
export function createHttpApp(services: Services, extraRoutes: RouteModule[] = []) {
  const app = new Hono<AppEnv>();
  const { logger, config } = services;

  app.use("*", (c, next) => {
    const requestId = c.req.header("x-request-id")?.slice(0, 100) || ulid();
    // Every line logged while this request is handled (by any logger, services included) carries
    // requestId through the log context; the request id is also the correlation id of its events.
    return withLogContext({ requestId }, async () => {
      c.set("requestId", requestId);
      c.set("logger", logger);
      const started = performance.now();
      await next();
      // In place: c.header() on a finished response rebuilds it (on Node, a full Response per request).
      try {
        c.res.headers.set("x-request-id", requestId);
      } catch {
        c.header("x-request-id", requestId); // immutable headers (Response.error/redirect)
      }
      const seconds = (performance.now() - started) / 1000;
      // The route pattern (e.g. /v2/keys/:keyId), never the raw path: bounded label values.
      const route = routePath(c) || "unmatched";
      services.metrics?.observeRequest(c.req.method, route, c.res.status, seconds);
      const log = c.get("logger");
      if (log.isLevelEnabled("info")) {
        log.info({ method: c.req.method, path: new URL(c.req.url).pathname, route, status: c.res.status, ms: Math.round(seconds * 1000) }, "request");
      }
    });
  });

  const limitBody = bodyLimit({
    maxSize: config.maxBodyBytes,
    // The unread rest of the body makes the connection unusable: tell the client to drop it.
    onError: (c) =>
      c.json(errorBody("payload_too_large", `The request body exceeds ${config.maxBodyBytes} bytes`), 413, {
        connection: "close",
      }),
  });
  app.use("*", (c, next) => {
    // Fast path: a body framed by a Content-Length within the limit cannot grow past it (the HTTP parser
    // stops there), and a GET or HEAD without one has no body. Everything else (chunked bodies, larger
    // declared lengths) goes through bodyLimit, which on Node also costs building a full Request.
    if (c.req.header("transfer-encoding") === undefined) {
      const declared = c.req.header("content-length");
      if (declared === undefined ? c.req.method === "GET" || c.req.method === "HEAD" : /^\d+$/.test(declared) && Number(declared) <= config.maxBodyBytes) return next();
    }
    return limitBody(c, next);
  });

  app.onError((error, c) => {
    if (error instanceof HttpError) return c.json(errorBody(error.code, error.message, error.details), error.status);
    if (error instanceof DomainError) {
      const details = error.field === null ? null : [{ field: error.field, message: error.message }];
      return c.json(errorBody(error.code, error.message, details), domainStatus[error.code]);
    }
    if (error instanceof HostError) {
      const answer = hostErrorAsHttp(error);
      c.get("logger")?.warn({ remote: error.remote, operation: error.operation, status: error.status, err: { message: error.message } }, "git host call failed");
      return c.json(errorBody(answer.code, answer.message), answer.status);
    }
    if (error instanceof ExpectedVersionConflictError) {
      return c.json(errorBody("conflict", "The resource changed concurrently; retry the request"), 409);
    }
    // The file system refused a write (nothing of it was stored): 507 for a full disk, 503 otherwise.
    if (error instanceof StorageFullError || error instanceof StorageWriteError) {
      const full = error instanceof StorageFullError;
      c.get("logger")?.error({ path: error.path, detail: error.detail }, full ? "write refused: no space left on device" : "write refused by the file system");
      const details = { dataDir: config.dataDir, path: error.path, reason: full ? "no space left on device" : error.detail };
      return c.json(errorBody(full ? "insufficient_storage" : "storage_unavailable", error.message, details), full ? 507 : 503);
    }
    c.get("logger")?.error({ err: { message: error.message, stack: error.stack } }, "unhandled error");
    return c.json(errorBody("internal", "Internal server error"), 500);
  });
  // A /v2 path served with other methods answers 405 with `Allow` (e.g. GET /v2/search); any other miss is 404.
  const allowedMethods = servedMethods(app, "/v2/");
  app.notFound((c) => {
    const path = new URL(c.req.url).pathname;
    const allowed = allowedMethods(path);
    if (allowed.length > 0) {
      const allow = allowed.join(", ");
      return c.json(errorBody("method_not_allowed", `${c.req.method} is not allowed on ${path}; allowed: ${allow}`, { allow: allowed }), 405, { allow });
    }
    return c.json(errorBody("not_found", `No route for ${c.req.method} ${path}`), 404);
  });

  healthRoutes(app, services);
  opsRoutes(app, services); // /metrics, /v2/openapi.json, /v2/docs: before the /v2 auth (no API key needed)
  app.use("/v2/*", authenticate(services.keys));
  keyRoutes(app, services);
  for (const routes of extraRoutes) routes(app, services);
  return app;
}
