import { z } from "zod";
import type { Hono } from "hono";
import { routeCatalogue } from "./api-docs.ts";
import { describedRoutes, routeKey, type RouteDoc } from "./route-docs.ts";


/**
 * The OpenAPI 3.1 document of the HTTP API, built from the routes' declarations (./route-docs.ts):
 * each route declares itself next to its handler with `describeRoute(app, {...})`. The document (`GET /v2/openapi.json`) is generated from those declarations with
 * `z.toJSONSchema` (JSON Schema 2020-12, which is OpenAPI 3.1's dialect). test/ops/openapi.spec.ts
 * fails when a route served by the app is not declared, or a declared route is not served.
 */

/** `/v2/keys/:keyId` -> `/v2/keys/{keyId}` (also drops Hono's inline regexes `:id{[0-9]+}`). */
export const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)(\{[^}]*\})?\??/g, "{$1}");

/** The web console's HTML pages (and `/`, which redirects to it): not API operations (docs/console.md lists them). */
const isConsolePage = (path: string) => path === "/" || path === "/console" || path.startsWith("/console/");

/**
 * The routes Hono actually serves (middleware left out: `app.use` entries are method ALL with a
 * wildcard path; the web console's pages left out), as `METHOD /openapi/{path}` strings; ALL
 * handlers appear as `ALL /path`.
 */
export function servedRoutes(app: Hono<any>): string[] {
  const out = new Set<string>();
  for (const route of app.routes) {
    if (route.method === "ALL" && route.path.includes("*")) continue;
    if (isConsolePage(route.path)) continue;
    out.add(`${route.method.toUpperCase()} ${toOpenApiPath(route.path)}`);
  }
  return [...out].sort();
}

export const errorSchema = z
  .object({
    error: z.object({
      code: z.string().describe("Stable machine-readable code, e.g. unauthorized, not_found, invalid_request"),
      message: z.string().describe("Human-readable explanation"),
      details: z.unknown().describe("Field-level problems for validation errors ([{ field, message }]), else null"),
    }),
  })
  .meta({ id: "Error" });

type JsonSchema = Record<string, unknown>;

/** zod -> JSON Schema 2020-12 with named ($defs / .meta({ id })) schemas hoisted into components. */
function toSchema(schema: z.ZodType, io: "input" | "output", components: Record<string, JsonSchema>): JsonSchema {
  const json = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any", reused: "inline" }) as JsonSchema;
  const defs = (json.$defs ?? {}) as Record<string, JsonSchema>;
  delete json.$defs;
  delete json.$schema;
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (node && typeof node === "object") {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(node)) {
        if (k === "$ref" && typeof v === "string" && v.startsWith("#/$defs/")) out[k] = `#/components/schemas/${v.slice(8)}`;
        else if (k === "$ref" && v === "#") out[k] = "#/components/schemas/_self";
        else out[k] = rewrite(v);
      }
      return out;
    }
    return node;
  };
  for (const [name, def] of Object.entries(defs)) {
    const { id: _id, ...rest } = rewrite(def) as JsonSchema;
    components[name] = rest;
  }
  const { id, ...top } = rewrite(json) as JsonSchema;
  if (typeof id === "string") {
    // A schema with .meta({ id }) becomes a named component referenced from here.
    components[id] = top;
    return { $ref: `#/components/schemas/${id}` };
  }
  return top;
}

/**
 * What the document lists: the routes declared with describeRoute, plus catalogue entries
 * (src/faces/http/api-docs.ts) for served routes whose modules do not declare themselves.
 */
export function documentedRoutes(app: Hono<any>, catalogue: readonly RouteDoc[] = routeCatalogue): RouteDoc[] {
  const declared = describedRoutes(app);
  const keys = new Set(declared.map((d) => routeKey(d.method, toOpenApiPath(d.path))));
  const served = new Set(servedRoutes(app));
  const extra = catalogue.filter((d) => {
    const key = routeKey(d.method, toOpenApiPath(d.path));
    return !keys.has(key) && (served.has(key) || served.has(`ALL ${toOpenApiPath(d.path)}`));
  });
  return [...declared, ...extra];
}

export function buildOpenApiDocument(app: Hono<any>, options: { version?: string; serverUrl?: string } = {}) {
  const components: Record<string, JsonSchema> = {};
  const errorRef = toSchema(errorSchema, "output", components);
  const paths: Record<string, Record<string, unknown>> = {};
  const docs = documentedRoutes(app).sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
  for (const doc of docs) {
    const path = toOpenApiPath(doc.path);
    const auth = doc.auth ?? (doc.path.startsWith("/v2/") ? "apiKey" : "none");
    const parameters: unknown[] = [];
    for (const name of [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!)) {
      parameters.push({ name, in: "path", required: true, description: doc.params?.[name] ?? name, schema: { type: "string" } });
    }
    if (doc.query) {
      const shape = doc.query.shape as Record<string, z.ZodType>;
      for (const [name, field] of Object.entries(shape)) {
        const schema = toSchema(field, "input", components);
        parameters.push({
          name,
          in: "query",
          required: !field.safeParse(undefined).success,
          ...(field.description ? { description: field.description } : {}),
          schema,
        });
      }
    }
    if (doc.hostToken) {
      parameters.push({
        name: "X-Host-Token",
        in: "header",
        required: false,
        description:
          "Access token of the source host (aliases: X-GitHub-Token, X-GitLab-Token, X-Bitbucket-Token, X-Azure-Token). Never stored or logged.",
        schema: { type: "string" },
      });
    }
    const responses: Record<string, unknown> = {};
    for (const [status, response] of Object.entries(doc.responses)) {
      const contentType = response.contentType ?? "application/json";
      const schema = response.schema
        ? toSchema(response.schema, "output", components)
        : (response.rawSchema ?? (Number(status) >= 400 ? errorRef : undefined));
      responses[status] = { description: response.description, ...(schema ? { content: { [contentType]: { schema } } } : {}) };
    }
    const errorResponse = (description: string) => ({ description, content: { "application/json": { schema: errorRef } } });
    if ((doc.body || doc.query || doc.rawBody) && !responses["400"]) responses["400"] = errorResponse("Invalid request (malformed JSON or invalid fields; details name them)");
    if ((auth === "apiKey" || auth === "admin" || auth === "metricsToken") && !responses["401"]) {
      responses["401"] = errorResponse(auth === "metricsToken" ? "Missing or wrong metrics token (only when LOUPE_METRICS_TOKEN is set)" : "Missing, unknown or revoked API key");
    }
    if (auth === "admin" && !responses["403"]) responses["403"] = errorResponse("The API key is not an admin key");
    if (doc.body && !responses["413"]) responses["413"] = errorResponse("The request body exceeds LOUPE_MAX_BODY_BYTES");
    if (!responses["500"] && auth !== "none") responses["500"] = errorResponse("Internal server error");

    const operation: Record<string, unknown> = {
      operationId: `${doc.method}${path.replace(/[{}]/g, "").replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ""))}`,
      summary: doc.summary,
      ...(doc.description ? { description: doc.description } : {}),
      tags: doc.tags ?? [path.split("/").filter(Boolean)[path.startsWith("/v2/") ? 1 : 0] ?? "service"],
      security:
        auth === "none" ? [] : auth === "metricsToken" ? [{}, { metricsToken: [] }] : [{ apiKey: [] }],
      ...(parameters.length ? { parameters } : {}),
      responses,
    };
    if (doc.body) {
      operation.requestBody = {
        required: !doc.body.safeParse(undefined).success,
        content: { "application/json": { schema: toSchema(doc.body, "input", components) } },
      };
    } else if (doc.rawBody) {
      operation.requestBody = {
        required: true,
        ...(doc.rawBody.description ? { description: doc.rawBody.description } : {}),
        content: { [doc.rawBody.contentType]: { schema: doc.rawBody.schema } },
      };
    }
    (paths[path] ??= {})[doc.method] = operation;
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Loupe HTTP API",
      version: options.version ?? "2",
      description:
        "Self-hosted code indexing, search and review. Authenticate with `Authorization: Bearer <API key>`. " +
        "Errors are `{ error: { code, message, details } }`. Every response carries `X-Request-Id` (also the correlation id of the events a request records).",
    },
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    ...(options.serverUrl ? { servers: [{ url: options.serverUrl }] } : {}),
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        apiKey: { type: "http", scheme: "bearer", description: "Loupe API key (lp_...)" },
        metricsToken: { type: "http", scheme: "bearer", description: "LOUPE_METRICS_TOKEN, when set" },
      },
    },
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** A self-contained reference page (no scripts or assets from elsewhere): paths, parameters, schemas. */
export function renderDocsHtml(doc: OpenApiDocument): string {
  const json = (v: unknown) => `<pre>${escapeHtml(JSON.stringify(v, null, 2))}</pre>`;
  const sections: string[] = [];
  const toc: string[] = [];
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(operations) as [string, Record<string, any>][]) {
      const anchor = `${method}-${path}`.replace(/[^A-Za-z0-9]+/g, "-");
      toc.push(`<li><a href="#${anchor}"><span class="m ${method}">${method.toUpperCase()}</span> ${escapeHtml(path)}</a> ${escapeHtml(op.summary ?? "")}</li>`);
      const params = (op.parameters ?? []) as Record<string, any>[];
      const paramRows = params
        .map((p) => `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${escapeHtml(p.in)}</td><td>${p.required ? "yes" : "no"}</td><td>${escapeHtml(p.description ?? "")}</td><td><code>${escapeHtml(JSON.stringify(p.schema))}</code></td></tr>`)
        .join("");
      const body = op.requestBody
        ? Object.entries(op.requestBody.content as Record<string, { schema: unknown }>)
            .map(([type, c]) => `<h4>Request body <code>${escapeHtml(type)}</code>${op.requestBody.required ? "" : " (optional)"}</h4>${json(c.schema)}`)
            .join("")
        : "";
      const responses = Object.entries(op.responses as Record<string, Record<string, any>>)
        .map(([status, r]) => {
          const content = r.content ? Object.entries(r.content as Record<string, { schema: unknown }>).map(([type, c]) => `<div><code>${escapeHtml(type)}</code>${json(c.schema)}</div>`).join("") : "";
          return `<details><summary><b>${escapeHtml(status)}</b> ${escapeHtml(r.description)}</summary>${content}</details>`;
        })
        .join("");
      const auth = op.security?.length ? (op.security.some((s: object) => "metricsToken" in s) ? "optional metrics token" : "API key (Bearer)") : "none";
      sections.push(`<section id="${anchor}"><h3><span class="m ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h3>
<p>${escapeHtml(op.summary ?? "")}</p>${op.description ? `<p>${escapeHtml(op.description)}</p>` : ""}<p class="auth">Auth: ${auth}</p>
${params.length ? `<h4>Parameters</h4><table><tr><th>name</th><th>in</th><th>required</th><th>description</th><th>schema</th></tr>${paramRows}</table>` : ""}
${body}<h4>Responses</h4>${responses}</section>`);
    }
  }
  const schemas = Object.entries(doc.components.schemas)
    .map(([name, schema]) => `<section id="schema-${escapeHtml(name)}"><h3>${escapeHtml(name)}</h3>${json(schema)}</section>`)
    .join("");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(doc.info.title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:14px/1.5 system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:1rem 2rem;color:#222}
code,pre{font-family:ui-monospace,monospace;font-size:13px}pre{background:#f6f8fa;padding:.6rem;overflow:auto;border-radius:4px}
section{border-top:1px solid #ddd;padding:.5rem 0}table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:2px 6px;text-align:left;vertical-align:top}
.m{display:inline-block;min-width:4em;font-weight:bold;color:#fff;border-radius:3px;padding:0 4px;text-align:center}
.get{background:#2b7bb9}.post{background:#3c9d44}.delete{background:#c0392b}.put,.patch{background:#d68910}
ul.toc{list-style:none;padding:0}ul.toc a{text-decoration:none;color:inherit}.auth{color:#555}
</style></head><body>
<h1>${escapeHtml(doc.info.title)} <small>(OpenAPI ${escapeHtml(doc.openapi)})</small></h1>
<p>${escapeHtml(doc.info.description)}</p>
<p>Machine-readable document: <a href="openapi.json">openapi.json</a></p>
<h2>Endpoints</h2><ul class="toc">${toc.join("")}</ul>
${sections.join("\n")}
<h2>Schemas</h2>${schemas}
</body></html>`;
}
