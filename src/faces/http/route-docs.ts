import type { z } from "zod";
import type { Hono } from "hono";

/**
 * The route registry of the HTTP API: each route declares itself next to its handler with
 * `describeRoute(app, {...})`: method, path (Hono syntax, `/v2/keys/:keyId`), summary, auth, request body
 * or query schema and response schemas (zod). ./openapi.ts builds the OpenAPI document from them.
 */

type Method = "get" | "post" | "put" | "patch" | "delete";

export type ResponseDoc = {
  description: string;
  /** JSON body schema (omit for no body / non-JSON). */
  schema?: z.ZodType;
  /** Default application/json. Streaming responses: application/x-ndjson. */
  contentType?: string;
  /** For non-JSON content: a plain JSON Schema, e.g. `{ type: "string" }`. */
  rawSchema?: Record<string, unknown>;
};

export type RouteDoc = {
  method: Method;
  /** Hono path syntax: `/v2/repositories/:repositoryId`. */
  path: string;
  summary: string;
  description?: string;
  tags?: string[];
  /** "apiKey" (default for /v2), "admin" (admin API key), "none", or "metricsToken" (optional bearer). */
  auth?: "apiKey" | "admin" | "none" | "metricsToken";
  /** The route reads the source-host token header (X-Host-Token / X-GitHub-Token / ...). */
  hostToken?: boolean;
  /** Descriptions of path parameters, by name. */
  params?: Record<string, string>;
  /** Query parameters (a zod object; each property becomes one parameter). */
  query?: z.ZodObject;
  /** JSON request body schema (validated by the route with readJson). */
  body?: z.ZodType;
  /** Request body that is not described by a zod schema (e.g. JSON-RPC, GraphQL). */
  rawBody?: { contentType: string; schema: Record<string, unknown>; description?: string };
  responses: Record<number, ResponseDoc>;
};

const registries = new WeakMap<object, Map<string, RouteDoc>>();
export const routeKey = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

/** Declares a route of `app` for the OpenAPI document (re-declaring the same method+path replaces it). */
export function describeRoute(app: Hono<any>, doc: RouteDoc): void {
  let registry = registries.get(app);
  if (!registry) registries.set(app, (registry = new Map()));
  registry.set(routeKey(doc.method, doc.path), doc);
}

export function describedRoutes(app: Hono<any>): RouteDoc[] {
  return [...(registries.get(app)?.values() ?? [])];
}

